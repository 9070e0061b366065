import type { FunctionResolver } from "../../expressions/compile.js";
import { helpers } from "../../expressions/helpers.js";
import type { OverAggregateNode } from "../../plan/nodes.js";
import type { ResolvedSchema } from "../../types/resolved-schema.js";
import { Kind } from "../../types/row.js";
import { type GroupKeys, createGroupKeys } from "../aggregates/group-keys.js";
import type { GroupTtl } from "../aggregates/group-aggregate-code.js";
import { BaseOperator } from "../operator.js";
import { KeyedStateTtl } from "../state-ttl.js";
import { errorWithRow } from "./row-error.js";
import { AggregateSet, type ArgumentReader, argumentReader } from "../windows/aggregate-set.js";

/** A row of a partition with its ORDER BY value, aggregate arguments and the values last emitted for it. */
interface Entry {
  readonly key: unknown;
  readonly row: unknown[];
  readonly args: unknown[];
  values: unknown[];
}

/**
 * OVER aggregation with UNBOUNDED PRECEDING ordered by a column that is not a time attribute (Flink's
 * NonTimeRangeUnboundedPrecedingFunction, B-15 / B-17 of Flink's test catalogue): results update as rows arrive.
 * - a new row goes after the rows with the same ORDER BY value already there; it is emitted (`+I`, or `+U`
 *   for an UPDATE_AFTER input) with the aggregate over every row up to and including it;
 * - every row after it (a strictly greater ORDER BY value) whose value changes is re-emitted as `-U old`,
 *   `+U new`, in order; rows whose value does not change are not re-emitted;
 * - rows with the same ORDER BY value already emitted are NOT updated (Flink's behaviour, asserted by B-17:
 *   `[key1, 1, 100, 1]` keeps 1 after `[key2, 1, 100, 2]` arrives), so peers see a running aggregate in
 *   arrival order rather than the SQL RANGE value;
 * - a retraction (-U / -D) removes the equal row (first among its peers), emits it with its last value and
 *   the same kind, and updates the rows after it.
 * Each change costs O(partition size): the aggregates are recomputed along the partition in one pass.
 * With `table.exec.state.ttl` a partition that received no row for the TTL is forgotten (state-ttl.ts):
 * its next row starts it afresh (`+I` with the aggregate over that row alone); nothing is retracted.
 * A partition key or argument expression that fails on a row fails the job with the row named (row-error.ts).
 */
export class SortedOverAggregateOperator extends BaseOperator {
  private readonly keys: GroupKeys;
  private readonly partitions: Entry[][] = [];
  private readonly aggs: AggregateSet;
  private readonly readArgs: ArgumentReader;
  private readonly argCount: number;
  private readonly orderIndex: number;
  private readonly inputWidth: number;
  private readonly compare: (a: unknown, b: unknown) => number;
  private readonly scratch: unknown[];

  private readonly inputSchema: ResolvedSchema;
  private readonly ttl: KeyedStateTtl | undefined;
  /** Gids of expired partitions, for reuse. */
  private readonly freeGids: number[] = [];

  constructor(node: OverAggregateNode, resolveFunction?: FunctionResolver, ttl?: GroupTtl) {
    super(1);
    if (ttl !== undefined && ttl.ttl > 0) {
      this.ttl = new KeyedStateTtl(ttl.ttl, ttl.clock, (gid, probe) => {
        this.keys.removeProbe(probe, gid);
        this.partitions[gid] = [];
        this.freeGids.push(gid);
      });
    }
    const w = node.window;
    this.inputSchema = node.input.schema;
    this.keys = createGroupKeys(w.partitionBy, node.input.schema, resolveFunction);
    // one scratch group: each change recomputes a partition's running aggregate from its first row
    this.aggs = new AggregateSet(node.aggCalls, false);
    this.readArgs = argumentReader(node.aggCalls, node.input.schema, resolveFunction);
    this.argCount = node.aggCalls.length;
    this.orderIndex = node.input.schema.indexOf(w.orderBy);
    this.inputWidth = node.input.schema.size;
    this.scratch = new Array<unknown>(this.argCount).fill(null);
    const dir = w.ascending ? 1 : -1;
    const nulls = w.nullsFirst ? -1 : 1;
    this.compare = (a, b) => {
      if (a === null || b === null) return a === b ? 0 : a === null ? nulls : -nulls;
      // equal or a NaN (above every number, helpers.cmp); -0.0 and 0.0 are one peer
      const c = typeof a === "number" && typeof b === "number" ? (a < b ? -1 : a > b ? 1 : a === b ? 0 : helpers.cmp(a, b)) : helpers.cmp(a, b);
      return c * dir;
    };
  }

  processElement(_input: number, kind: number, row: unknown[]): void {
    const ttl = this.ttl;
    const now = ttl === undefined ? 0 : ttl.now();
    if (ttl !== undefined) ttl.step(now);
    let gid: number;
    try {
      gid = this.keys.find(row);
    } catch (e) {
      throw errorWithRow(e, kind, row, this.inputSchema);
    }
    if (ttl !== undefined && gid >= 0 && ttl.expireIfIdle(gid, now)) gid = -1;
    if (gid < 0) {
      if (kind === Kind.UPDATE_BEFORE || kind === Kind.DELETE) return; // retraction of an unknown partition
      gid = this.freeGids.pop() ?? this.partitions.length;
      this.keys.add(gid);
      this.partitions[gid] = [];
      ttl?.created(gid, this.keys.currentProbe(), now);
    } else ttl?.touched(gid, now);
    const entries = this.partitions[gid]!;
    const key = row[this.orderIndex];
    if (kind === Kind.INSERT || kind === Kind.UPDATE_AFTER) this.insert(entries, key, row, kind);
    else this.remove(entries, key, row, kind);
  }

  /** Index of the first entry whose ORDER BY value sorts after `key`. */
  private upperBound(entries: Entry[], key: unknown): number {
    let lo = 0;
    let hi = entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.compare(entries[mid]!.key, key) <= 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private insert(entries: Entry[], key: unknown, row: unknown[], kind: number): void {
    const args = new Array<unknown>(this.argCount);
    try {
      this.readArgs(row, args);
    } catch (e) {
      throw errorWithRow(e, kind, row, this.inputSchema);
    }
    const at = this.upperBound(entries, key);
    const entry: Entry = { key, row, args, values: [] };
    entries.splice(at, 0, entry);
    this.replay(entries, at);
    this.emit(kind, row, entry.values);
    this.update(entries, at + 1);
  }

  private remove(entries: Entry[], key: unknown, row: unknown[], kind: number): void {
    const end = this.upperBound(entries, key);
    let at = end - 1;
    while (at >= 0 && this.compare(entries[at]!.key, key) === 0) at--;
    // first equal row among the peers
    let found = -1;
    for (let i = at + 1; i < end; i++) {
      if (sameRow(entries[i]!.row, row)) { found = i; break; }
    }
    if (found < 0) return; // a retraction of a row never seen: ignored, as Flink does
    const [gone] = entries.splice(found, 1);
    this.emit(kind, gone!.row, gone!.values);
    this.replay(entries, found - 1);
    this.update(entries, found);
  }

  /** Accumulates entries[0..upTo] into the scratch group; the entry at `upTo` gets its values. */
  private replay(entries: Entry[], upTo: number): void {
    const aggs = this.aggs;
    aggs.reset(0);
    for (let i = 0; i <= upTo; i++) aggs.accumulate(0, entries[i]!.args);
    if (upTo >= 0) {
      const e = entries[upTo]!;
      e.values = new Array<unknown>(this.argCount);
      aggs.write(0, e.values, 0);
    }
  }

  /** Continues the scratch group from `from` on, re-emitting each entry whose value changed. */
  private update(entries: Entry[], from: number): void {
    const aggs = this.aggs;
    const now = this.scratch;
    for (let i = from; i < entries.length; i++) {
      const e = entries[i]!;
      aggs.accumulate(0, e.args);
      aggs.write(0, now, 0);
      if (sameRow(now, e.values)) continue;
      this.emit(Kind.UPDATE_BEFORE, e.row, e.values);
      e.values = now.slice();
      this.emit(Kind.UPDATE_AFTER, e.row, e.values);
    }
  }

  private emit(kind: number, row: unknown[], values: readonly unknown[]): void {
    const w = this.inputWidth;
    const out = new Array<unknown>(w + values.length);
    for (let i = 0; i < w; i++) out[i] = row[i];
    for (let i = 0; i < values.length; i++) out[w + i] = values[i];
    this.out.record(kind, out);
  }

  /** Number of partitions holding rows (state size, as groupCount of the group aggregate). */
  groupCount(): number {
    let n = 0;
    for (const p of this.partitions) if (p.length > 0) n++;
    return n;
  }

  override snapshotState(): unknown {
    return this.partitions.map((entries) => entries.map((e) => ({ row: e.row, values: e.values })));
  }

  override restoreState(state: unknown): void {
    for (const entries of state as { row: unknown[]; values: unknown[] }[][]) {
      if (entries.length === 0) continue;
      this.keys.find(entries[0]!.row);
      const gid = this.partitions.length;
      this.keys.add(gid);
      // with TTL, restored partitions count as written at the restore
      this.ttl?.created(gid, this.keys.currentProbe(), this.ttl.now());
      this.partitions.push(entries.map((e) => {
        const args = new Array<unknown>(this.argCount);
        this.readArgs(e.row, args);
        return { key: e.row[this.orderIndex], row: e.row, args, values: e.values };
      }));
    }
  }
}

/** Equality of two records as Flink's record equaliser sees it (NaN equals NaN; decimals, dates by value). */
function sameRow(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    if (x === null || y === null) return false;
    if (typeof x === "number") { if (x !== x && y !== y) continue; return false; }
    if (typeof x !== "object" || !helpers.eq(x, y)) return false;
  }
  return true;
}
