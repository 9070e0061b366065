import { col } from "../../expressions/node.js";
import type { SetOpNode } from "../../plan/nodes.js";
import { Kind } from "../../types/row.js";
import { growFloat64 } from "../aggregates/accumulator.js";
import { type GroupKeys, createGroupKeys } from "../aggregates/group-keys.js";
import { BaseOperator } from "../operator.js";

/**
 * INTERSECT [ALL] and EXCEPT [ALL] over two changelogs, as the aggregate Flink rewrites them into: per
 * distinct row, how many copies each side holds (+I/+U add one, -U/-D remove one). After each change the
 * operator emits the difference between the number of output copies before and after (`+I` or `-D` per
 * copy), so the output is always the set operation of what both inputs hold now.
 */
export class SetOpOperator extends BaseOperator {
  private readonly keys: GroupKeys;
  private left = new Float64Array(16);
  private right = new Float64Array(16);
  private readonly freeIds: number[] = [];
  private nextId = 0;
  private readonly output: (l: number, r: number) => number;

  constructor(node: SetOpNode) {
    super(2);
    this.keys = createGroupKeys(node.schema.names.map(col), node.schema);
    this.output = node.op === "INTERSECT"
      ? (node.all ? (l, r) => Math.min(l, r) : (l, r) => (l > 0 && r > 0 ? 1 : 0))
      : (node.all ? (l, r) => Math.max(l - r, 0) : (l, r) => (l > 0 && r === 0 ? 1 : 0));
  }

  processElement(input: number, kind: number, row: unknown[]): void {
    const keys = this.keys;
    let gid = keys.find(row);
    const add = kind === Kind.INSERT || kind === Kind.UPDATE_AFTER;
    if (gid < 0) {
      if (!add) return; // retraction of a row not held
      gid = this.freeIds.pop() ?? this.nextId++;
      if (gid >= this.left.length) {
        this.left = growFloat64(this.left, gid + 1);
        this.right = growFloat64(this.right, gid + 1);
      }
      this.left[gid] = 0;
      this.right[gid] = 0;
      keys.add(gid);
    }
    const counts = input === 0 ? this.left : this.right;
    if (!add && counts[gid] === 0) return;
    const before = this.output(this.left[gid]!, this.right[gid]!);
    counts[gid] += add ? 1 : -1;
    const after = this.output(this.left[gid]!, this.right[gid]!);
    for (let n = after - before; n > 0; n--) this.out.record(Kind.INSERT, row);
    for (let n = before - after; n > 0; n--) this.out.record(Kind.DELETE, row);
    if (this.left[gid] === 0 && this.right[gid] === 0) {
      keys.remove(gid);
      this.freeIds.push(gid);
    }
  }

  /** Number of distinct rows held. */
  rowCount(): number {
    return this.keys.size;
  }

  override snapshotState(): unknown {
    const out: [unknown[], number, number][] = [];
    this.keys.forEach((key, gid) => out.push([key, this.left[gid]!, this.right[gid]!]));
    return out;
  }

  override restoreState(state: unknown): void {
    for (const [key, l, r] of state as [unknown[], number, number][]) {
      const gid = this.nextId++;
      if (gid >= this.left.length) {
        this.left = growFloat64(this.left, gid + 1);
        this.right = growFloat64(this.right, gid + 1);
      }
      this.left[gid] = l;
      this.right[gid] = r;
      this.keys.restore(key, gid);
    }
  }
}
