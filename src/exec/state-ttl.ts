import { parseDuration } from "../ptf/ttl.js";
import type { JobSettings } from "./job-contract.js";
import { growFloat64 } from "./aggregates/accumulator.js";

/**
 * Idle-state retention for keyed operators (`table.exec.state.ttl`), as Flink configures it for the state
 * of its SQL operators (`StateTtlConfig` with `OnCreateAndWrite` and `NeverReturnExpired`, in processing
 * time): a key's state expires when it was not written for the TTL; a record for an expired key sees no
 * state and starts the key afresh. Every record that reaches a key writes its state (the aggregate
 * operators update their accumulators on each record), so "written" is "last record for the key".
 *
 * This is the one mechanism the keyed operators share (group aggregation, DISTINCT, non-time OVER; PTF
 * state entries have their own per-entry TTL in operators/ptf, on the same clock). The operator holds its
 * groups by dense id (gid); this object keeps per gid the time of the last write and the probe the
 * operator's key index needs to remove the group. Besides the check on access, every access also looks at
 * a couple of other gids and evicts those that expired (Flink's incremental cleanup), so keys never seen
 * again leave memory while the job runs: under a steady stream of new keys the state plateaus.
 *
 * An operator creates one only when the TTL is set (streaming, `table.exec.state.ttl` > 0), so a job
 * without TTL pays nothing: no clock reads, no checks, no extra arrays.
 */
export class KeyedStateTtl {
  /** Last write per gid (processing time, ms). Public for generated code; replaced when it grows. */
  times = new Float64Array(16);
  private readonly probes: unknown[] = [];
  private live = new Uint8Array(16);
  /** One past the highest gid ever tracked: the range the cleanup cursor walks. */
  private high = 0;
  private cursor = 0;

  /**
   * @param ttl retention in ms (> 0)
   * @param clock the job's processing-time clock (`env.setClock` replaces it in tests)
   * @param evict removes an expired group from the operator's state: its key from the index (by `probe`)
   *   and its slots; the operator emits nothing (downstream keeps the last result, as in Flink)
   */
  constructor(readonly ttl: number, private readonly clock: () => number, private readonly evict: (gid: number, probe: unknown) => void) {}

  now(): number {
    return this.clock();
  }

  /** Whether the group `gid` (tracked) has not been written for the TTL at `now`. */
  expired(gid: number, now: number): boolean {
    return this.times[gid]! + this.ttl <= now;
  }

  /** A new group: tracked from `now`, removable through `probe`. */
  created(gid: number, probe: unknown, now: number): void {
    if (gid >= this.times.length) {
      let c = this.times.length;
      while (c <= gid) c *= 2;
      this.times = growFloat64(this.times, c);
      const live = new Uint8Array(c);
      live.set(this.live);
      this.live = live;
    }
    this.times[gid] = now;
    this.probes[gid] = probe;
    this.live[gid] = 1;
    if (gid >= this.high) this.high = gid + 1;
  }

  /** The group was written at `now`. */
  touched(gid: number, now: number): void {
    this.times[gid] = now;
  }

  /** The operator removed the group itself (its last row was retracted, or it expired on access). */
  removed(gid: number): void {
    this.live[gid] = 0;
    this.probes[gid] = undefined;
  }

  /** Expires the group `gid` if it is idle at `now`; true when it did (the caller treats the key as new). */
  expireIfIdle(gid: number, now: number): boolean {
    if (this.times[gid]! + this.ttl > now) return false;
    const probe = this.probes[gid];
    this.removed(gid);
    this.evict(gid, probe);
    return true;
  }

  /** Incremental cleanup: looks at the next couple of gids and evicts the expired ones. */
  step(now: number): void {
    const high = this.high;
    if (high === 0) return;
    for (let i = 0; i < STEPS; i++) {
      const gid = this.cursor;
      this.cursor = gid + 1 >= high ? 0 : gid + 1;
      if (this.live[gid] === 1) this.expireIfIdle(gid, now);
    }
  }

  /** Last write of a tracked group (snapshots). */
  timeOf(gid: number): number {
    return this.times[gid]!;
  }
}

/** Gids looked at per access: more than one, so cleanup outpaces the creation of new keys. */
const STEPS = 2;

/** `table.exec.state.ttl` in ms for a job's keyed operators: 0 (no expiry) when unset or in batch mode. */
export function keyedStateTtl(settings: Pick<JobSettings, "batch" | "config">): number {
  if (settings.batch) return 0;
  const v = settings.config.get("table.exec.state.ttl");
  return v === undefined ? 0 : parseDuration(v, "table.exec.state.ttl");
}
