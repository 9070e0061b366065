import { col } from "../../expressions/node.js";
import { Kind } from "../../types/row.js";
import type { ResolvedSchema } from "../../types/resolved-schema.js";
import { growFloat64 } from "../aggregates/accumulator.js";
import { type GroupKeys, createGroupKeys } from "../aggregates/group-keys.js";
import { BaseOperator } from "../operator.js";

/**
 * DISTINCT (and the set UNION built on it): a GROUP BY over every column without aggregates, as Flink
 * plans it. A row is emitted (`+I`) on its first occurrence; later copies change nothing; when the last
 * copy is retracted the row is deleted (`-D`). In batch mode over an updating input the rows are emitted
 * at end of input instead, so that the result is insert-only.
 */
export class DistinctOperator extends BaseOperator {
  private readonly keys: GroupKeys;
  private counts = new Float64Array(16);
  private readonly freeIds: number[] = [];
  private nextId = 0;

  constructor(schema: ResolvedSchema, private readonly deferToEnd = false) {
    super(1);
    this.keys = createGroupKeys(schema.names.map(col), schema);
  }

  processElement(_input: number, kind: number, row: unknown[]): void {
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

  protected override onEndOfInput(): void {
    if (this.deferToEnd) this.keys.forEachGroup(() => this.out.record(Kind.INSERT, this.keys.currentValues()));
    this.out.endInput();
  }

  /** Number of distinct rows held. */
  groupCount(): number {
    return this.keys.size;
  }

  override snapshotState(): unknown {
    const rows: [unknown[], number][] = [];
    this.keys.forEachGroup((gid) => rows.push([this.keys.currentValues(), this.counts[gid]!]));
    return rows;
  }

  override restoreState(s: unknown): void {
    for (const [values, n] of s as [unknown[], number][]) {
      const gid = this.nextId++;
      if (gid >= this.counts.length) this.counts = growFloat64(this.counts, gid + 1);
      this.counts[gid] = n;
      this.keys.restore(values, gid);
    }
  }
}
