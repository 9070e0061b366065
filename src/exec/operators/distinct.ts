import { col } from "../../expressions/node.js";
import { Kind } from "../../types/row.js";
import type { ResolvedSchema } from "../../types/resolved-schema.js";
import { growFloat64 } from "../aggregates/accumulator.js";
import { type GroupKeys, createGroupKeys } from "../aggregates/group-keys.js";
import type { GroupTtl } from "../aggregates/group-aggregate-code.js";
import { BaseOperator } from "../operator.js";
import { KeyedStateTtl } from "../state-ttl.js";

/**
 * DISTINCT (and the set UNION built on it): a GROUP BY over every column without aggregates, as Flink
 * plans it. A row is emitted (`+I`) on its first occurrence; later copies change nothing; when the last
 * copy is retracted the row is deleted (`-D`). In batch mode over an updating input the rows are emitted
 * at end of input instead, so that the result is insert-only.
 *
 * With `table.exec.state.ttl` a row not seen for the TTL is forgotten (state-ttl.ts): its next copy is
 * emitted again as `+I`, and a retraction of it is ignored. Unlike the group aggregate, a repeated row
 * emits no refresh: DISTINCT stays insert-only over an insert-only input.
 */
export class DistinctOperator extends BaseOperator {
  private readonly keys: GroupKeys;
  private counts = new Float64Array(16);
  private readonly freeIds: number[] = [];
  private nextId = 0;
  private readonly ttl: KeyedStateTtl | undefined;

  constructor(schema: ResolvedSchema, private readonly deferToEnd = false, ttl?: GroupTtl) {
    super(1);
    this.keys = createGroupKeys(schema.names.map(col), schema);
    if (ttl !== undefined && ttl.ttl > 0 && !deferToEnd) {
      this.ttl = new KeyedStateTtl(ttl.ttl, ttl.clock, (gid, probe) => {
        this.keys.removeProbe(probe, gid);
        this.freeIds.push(gid);
      });
    }
  }

  processElement(_input: number, kind: number, row: unknown[]): void {
    if (this.ttl !== undefined) {
      this.processWithTtl(this.ttl, kind, row);
      return;
    }
    const keys = this.keys;
    let gid = keys.find(row);
    if (kind === Kind.INSERT || kind === Kind.UPDATE_AFTER) {
      if (gid < 0) {
        gid = this.freeIds.pop() ?? this.nextId++;
        if (gid >= this.counts.length) this.counts = growFloat64(this.counts, gid + 1);
        this.counts[gid] = 1;
        keys.add(gid);
        if (!this.deferToEnd) this.out.record(Kind.INSERT, row);
      } else this.counts[gid]!++;
    } else if (gid >= 0 && --this.counts[gid]! === 0) {
      keys.remove(gid);
      // rows deferred to the end go out in gid order: not reusing ids keeps that the order of first appearance
      if (!this.deferToEnd) this.freeIds.push(gid);
      if (!this.deferToEnd) this.out.record(Kind.DELETE, row);
    }
  }

  /** processElement with state retention: expired rows are forgotten on access and by incremental cleanup. */
  private processWithTtl(ttl: KeyedStateTtl, kind: number, row: unknown[]): void {
    const now = ttl.now();
    ttl.step(now);
    const keys = this.keys;
    let gid = keys.find(row);
    if (gid >= 0 && ttl.expireIfIdle(gid, now)) gid = -1;
    if (kind === Kind.INSERT || kind === Kind.UPDATE_AFTER) {
      if (gid < 0) {
        gid = this.freeIds.pop() ?? this.nextId++;
        if (gid >= this.counts.length) this.counts = growFloat64(this.counts, gid + 1);
        this.counts[gid] = 1;
        keys.add(gid);
        ttl.created(gid, keys.currentProbe(), now);
        this.out.record(Kind.INSERT, row);
      } else {
        this.counts[gid]!++;
        ttl.touched(gid, now);
      }
    } else if (gid >= 0) {
      if (--this.counts[gid]! === 0) {
        keys.remove(gid);
        ttl.removed(gid);
        this.freeIds.push(gid);
        this.out.record(Kind.DELETE, row);
      } else ttl.touched(gid, now);
    }
  }

  protected override onEndOfInput(): void {
    if (this.deferToEnd) this.keys.forEachGroup(() => this.out.record(Kind.INSERT, this.keys.currentValues()));
    this.out.endInput();
  }

  /** Number of distinct rows held. */
  groupCount(): number {
    return this.keys.size;
  }

  override snapshotState(): unknown {
    const rows: [unknown[], number, number?][] = [];
    const ttl = this.ttl;
    this.keys.forEachGroup((gid) => rows.push(ttl ? [this.keys.currentValues(), this.counts[gid]!, ttl.timeOf(gid)] : [this.keys.currentValues(), this.counts[gid]!]));
    return rows;
  }

  override restoreState(s: unknown): void {
    const now = this.ttl?.now() ?? 0;
    for (const [values, n, written] of s as [unknown[], number, number?][]) {
      const gid = this.nextId++;
      if (gid >= this.counts.length) this.counts = growFloat64(this.counts, gid + 1);
      this.counts[gid] = n;
      this.keys.restore(values, gid);
      this.ttl?.created(gid, this.keys.currentProbe(), written ?? now);
    }
  }
}
