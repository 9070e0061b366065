import type { FunctionResolver } from "../../../expressions/compile.js";
import { col } from "../../../expressions/node.js";
import type { TemporalJoinNode } from "../../../plan/nodes/temporal-join.js";
import { Kind } from "../../../types/row.js";
import { BaseOperator } from "../../operator.js";
import { HASHMAP_BACKEND, type KeyedStore, type StateBackend, type StoreFiles, isStoreFiles } from "../../state/keyed-store.js";
import { restoreStore, storeSnapshot } from "../../state/snapshot-store.js";
import { TimeQueue } from "../../windows/time-queue.js";
import { compileCombine, compileJoinKey, compilePad, compileResidual } from "./join-code.js";
import { millis } from "./interval-join.js";

/**
 * One key's state: the versions of the versioned table, ascending by time (`deleted` marks a version that
 * removes the key), the probe rows waiting for the watermark (arrival order), and the earliest cleanup timer
 * registered for the key (null: none).
 */
interface KeyState {
  times: number[];
  rows: unknown[][];
  deleted: boolean[];
  waitTimes: number[];
  waiting: unknown[][];
  timer: number | null;
}

/** The state in a snapshot: the keys' entries (or their store's files), and the timers `[time, key]`. */
interface TemporalSnapshot {
  keys: readonly (readonly [unknown, KeyState])[] | StoreFiles;
  timers: readonly (readonly [number, unknown])[];
}

/**
 * An event-time temporal join (Flink's TemporalRowTimeJoinOperator). Right rows are versions of their primary
 * key, valid from their rowtime on (an insert or update-after is a new version, a delete or update-before ends
 * the key; a later version at the same time replaces an earlier one). Left rows wait until the watermark
 * passes their time, then are joined in time order with the version valid at their time — the latest version
 * at or before it — and emitted once (+I); LEFT: padded when there is none, it is deleted, or the residual
 * rejects it. Versions older than the one valid at the watermark are dropped then: no later left row can see
 * them. Temporal table function joins (`LATERAL TABLE (Rates(o.rowtime))`) run on this operator too.
 *
 * As in Flink, the work is driven by one event-time timer per key, at the earliest time the key waits for
 * (its earliest waiting probe row, else its earliest later version, which is cleaned up then): a watermark
 * visits only the keys whose timer is due, in timer order; a timer releases its key's rows of its time and
 * registers the key's next one, so the rows of all keys go out in time order (one time's rows of a key in
 * arrival order). The keys' states are in a store of the job's state backend
 * (state/keyed-store.ts); the timers stay in memory (as Flink's heap timers), one per key.
 */
export class TemporalJoinOperator extends BaseOperator {
  private readonly leftKey: (r: unknown[]) => unknown;
  private readonly rightKey: (r: unknown[]) => unknown;
  private readonly combine: (l: unknown[], r: unknown[]) => unknown[];
  private readonly padLeftRow: (l: unknown[]) => unknown[];
  private readonly residual: ((row: unknown[]) => boolean) | undefined;
  private readonly outer: boolean;
  private readonly leftTime: number;
  private readonly rightTime: number;
  /** Each key's versions and waiting probe rows. */
  private readonly state: KeyedStore<KeyState>;
  /** The keys' timers (a replaced, later timer stays and is skipped when it comes out). */
  private timers = new TimeQueue<unknown>();

  constructor(node: TemporalJoinNode, resolve?: FunctionResolver, backend: StateBackend = HASHMAP_BACKEND) {
    super(2);
    const ls = node.left.schema.size;
    const rs = node.right.schema.size;
    this.leftKey = compileJoinKey(node.leftKeys, node.left.schema, resolve);
    this.rightKey = compileJoinKey(node.rightKeys.map((i) => col(node.right.schema.names[i]!)), node.right.schema, resolve);
    this.combine = compileCombine(ls, rs);
    this.padLeftRow = compilePad(ls, rs, true);
    this.residual = compileResidual(node.residual, node.schema, resolve);
    this.outer = node.joinType === "LEFT";
    this.leftTime = node.leftTime;
    this.rightTime = node.rightTime;
    this.state = backend.createStore<KeyState>({ name: "TemporalJoin.keys" });
  }

  processElement(input: number, kind: number, row: unknown[]): void {
    if (input === 0) {
      const time = millis(row[this.leftTime]);
      if (time === null) {
        // a NULL time matches no version
        if (this.outer) this.out.record(Kind.INSERT, this.padLeftRow(row));
        return;
      }
      // a NULL key matches no version either: it waits under the key null (which has none) to be padded
      const key = this.leftKey(row);
      const e = this.entry(key);
      e.waitTimes.push(time);
      e.waiting.push(row);
      this.register(key, e, time);
      return;
    }
    const time = millis(row[this.rightTime]);
    const key = this.rightKey(row);
    if (time === null || key === null) return;
    const v = this.entry(key);
    const deleted = kind === Kind.DELETE || kind === Kind.UPDATE_BEFORE;
    // insert in time order; the same time: the later record wins
    let i = v.times.length;
    while (i > 0 && v.times[i - 1]! > time) i--;
    if (i > 0 && v.times[i - 1] === time) {
      v.rows[i - 1] = row;
      v.deleted[i - 1] = deleted;
    } else {
      v.times.splice(i, 0, time);
      v.rows.splice(i, 0, row);
      v.deleted.splice(i, 0, deleted);
    }
    this.register(key, v, time);
  }

  /** The key's state, created empty when it has none (the store holds it: callers change it in place). */
  private entry(key: unknown): KeyState {
    let e = this.state.get(key);
    if (e === undefined) this.state.set(key, e = { times: [], rows: [], deleted: [], waitTimes: [], waiting: [], timer: null });
    return e;
  }

  /** Registers a timer for `key` at `time` unless one at or before it is registered (Flink's registerSmallestTimer). */
  private register(key: unknown, e: KeyState, time: number): void {
    if (e.timer !== null && e.timer <= time) return;
    e.timer = time;
    this.timers.push(time, key);
  }

  protected override onWatermark(wm: number): void {
    const q = this.timers;
    while (q.size > 0 && q.peekTime() <= wm) {
      const t = q.peekTime();
      const key = q.pop();
      const e = this.state.get(key);
      if (e === undefined || e.timer !== t) continue; // replaced by an earlier timer, which has fired
      e.timer = null;
      this.release(key, e, t, wm);
    }
    this.out.watermark(wm);
  }

  /**
   * A key's timer at `t` fired (at watermark `wm` ≥ t): its probe rows at `t` go out (in arrival order), its
   * versions are cleaned up to `t`, and the next timer is registered — at or before `wm` it fires within the
   * same watermark, so the rows of all keys go out in time order.
   */
  private release(key: unknown, e: KeyState, t: number, wm: number): void {
    const times = e.waitTimes;
    let keep = 0;
    for (let i = 0; i < times.length; i++) {
      if (times[i]! <= t) {
        this.emit(times[i]!, e, e.waiting[i]!);
        continue;
      }
      times[keep] = times[i]!;
      e.waiting[keep] = e.waiting[i]!;
      keep++;
    }
    times.length = keep;
    e.waiting.length = keep;
    this.cleanUp(e, t);
    // the next timer: the earliest waiting row, else the earliest later version (cleaned up when it is due)
    let next = Infinity;
    for (let i = 0; i < keep; i++) if (times[i]! < next) next = times[i]!;
    if (next === Infinity) for (let i = 0; i < e.times.length; i++) if (e.times[i]! > t) { next = e.times[i]!; break; }
    if (next !== Infinity) this.register(key, e, next);
    else if (e.times.length === 0 || wm === Infinity) this.state.delete(key);
  }

  private emit(time: number, v: KeyState, row: unknown[]): void {
    let i = v.times.length - 1;
    while (i >= 0 && v.times[i]! > time) i--;
    if (i >= 0 && !v.deleted[i]) {
      const j = this.combine(row, v.rows[i]!);
      if (this.residual === undefined || this.residual(j)) {
        this.out.record(Kind.INSERT, j);
        return;
      }
    }
    if (this.outer) this.out.record(Kind.INSERT, this.padLeftRow(row));
  }

  /** Keeps the version valid at the watermark and the later ones (none if the valid one is a delete). */
  private cleanUp(v: KeyState, wm: number): void {
    let i = v.times.length - 1;
    while (i >= 0 && v.times[i]! > wm) i--;
    if (i <= 0) return;
    v.times.splice(0, i);
    v.rows.splice(0, i);
    v.deleted.splice(0, i);
    if (v.times.length === 1 && v.deleted[0]) {
      v.times.length = 0;
      v.rows.length = 0;
      v.deleted.length = 0;
    }
  }

  override snapshotState(): unknown {
    const files = storeSnapshot(this.state);
    const keys = files ?? Array.from(this.state, ([k, e]) => [k, {
      times: e.times.slice(), rows: e.rows.slice(), deleted: e.deleted.slice(), waitTimes: e.waitTimes.slice(), waiting: e.waiting.slice(), timer: e.timer,
    }] as const);
    const snapshot: TemporalSnapshot = { keys, timers: this.timers.entries() };
    return snapshot;
  }

  override restoreState(state: unknown): void {
    if (state === null || state === undefined) return;
    const s = state as TemporalSnapshot;
    if (isStoreFiles(s.keys)) restoreStore(s.keys, this.state, undefined, (e) => e, 0);
    else for (const [k, e] of s.keys) this.state.set(k, { ...e, times: e.times.slice(), rows: e.rows.slice(), deleted: e.deleted.slice(), waitTimes: e.waitTimes.slice(), waiting: e.waiting.slice() });
    this.timers = new TimeQueue<unknown>();
    for (const [t, k] of s.timers) this.timers.push(t, k);
  }
}
