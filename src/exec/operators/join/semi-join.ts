import type { FunctionResolver } from "../../../expressions/compile.js";
import { ResolvedSchema } from "../../../types/resolved-schema.js";
import type { SemiJoinNode } from "../../../plan/nodes/semi-join.js";
import { Kind } from "../../../types/row.js";
import { BaseOperator } from "../../operator.js";
import { compileCombine, compileJoinKey, compileResidual } from "./join-code.js";
import { JoinSideState, type SideSnapshot, indexOfRow } from "./join-state.js";
import type { StateBackend } from "../../state/keyed-store.js";

/**
 * Semi and anti joins with Flink's changelog (StreamingSemiAntiJoinOperator). The left rows are kept by key with
 * their number of partners (`assoc`), the right rows by key:
 * - a left record goes out with its own kind when it has a partner (semi) or none (anti);
 * - a right insert gives a left row its first partner: semi emits it `+I`, anti retracts it `-D`;
 * - a right retraction takes a left row's last partner: semi retracts it `-D`, anti emits it again `+I`.
 * A NULL key never matches: such a left row is never in a semi join's result and always in an anti join's.
 * Batch: nothing before the end of input, then each result row once as +I.
 */
export class SemiJoinOperator extends BaseOperator {
  private readonly leftKey: (r: unknown[]) => unknown;
  private readonly rightKey: (r: unknown[]) => unknown;
  private readonly combine: (l: unknown[], r: unknown[]) => unknown[];
  private readonly residual: ((row: unknown[]) => boolean) | undefined;
  private readonly left: JoinSideState;
  private readonly right: JoinSideState;
  /** Left rows with a NULL key (batch anti join: emitted at the end). */
  private nullKeyed: unknown[][] = [];

  constructor(private readonly node: SemiJoinNode, private readonly batch: boolean, resolve?: FunctionResolver, backend?: StateBackend) {
    super(2);
    // streaming: both sides in the job's state backend (batch: in memory, as the regular join)
    const store = batch ? undefined : backend;
    this.left = new JoinSideState(true, 0, store, "SemiJoin.left");
    this.right = new JoinSideState(false, 0, store, "SemiJoin.right");
    this.leftKey = compileJoinKey(node.leftKeys, node.left.schema, resolve);
    this.rightKey = compileJoinKey(node.rightKeys, node.right.schema, resolve);
    this.combine = compileCombine(node.left.schema.size, node.right.schema.size);
    const typing = new ResolvedSchema([...node.left.schema.columns, ...node.right.schema.columns]);
    this.residual = compileResidual(node.residual, typing, resolve);
  }

  private matches(l: unknown[], r: unknown[]): boolean {
    return this.residual === undefined || this.residual(this.combine(l, r));
  }

  processElement(input: number, kind: number, row: unknown[]): void {
    const accumulate = kind === Kind.INSERT || kind === Kind.UPDATE_AFTER;
    const anti = this.node.anti;
    const out = this.out;
    if (input === 0) {
      const key = this.leftKey(row);
      if (key === null) {
        if (this.batch) { if (accumulate) this.nullKeyed.push(row); else { const i = indexOfRow(this.nullKeyed, row); if (i >= 0) this.nullKeyed.splice(i, 1); } }
        else if (anti) out.record(kind, row);
        return;
      }
      if (this.batch) {
        if (accumulate) this.left.add(key, row, 0, 0); else this.left.retract(key, row, 0);
        return;
      }
      const rb = this.right.get(key, 0);
      let n = 0;
      if (rb !== undefined) for (const r of rb.rows) if (this.matches(row, r)) n++;
      if (accumulate) this.left.add(key, row, n, 0);
      else this.left.retract(key, row, 0);
      if ((n > 0) !== anti) out.record(kind, row);
      return;
    }
    const key = this.rightKey(row);
    if (key === null) return;
    if (accumulate) this.right.add(key, row, 0, 0);
    else if (!this.right.retract(key, row, 0)) return;
    if (this.batch) return;
    const lb = this.left.get(key, 0);
    if (lb === undefined) return;
    const assoc = lb.assoc!;
    for (let i = 0; i < lb.rows.length; i++) {
      const l = lb.rows[i]!;
      if (!this.matches(l, row)) continue;
      if (accumulate) {
        if (assoc[i]++ === 0) out.record(anti ? Kind.DELETE : Kind.INSERT, l);
      } else if (--assoc[i]! === 0) {
        out.record(anti ? Kind.INSERT : Kind.DELETE, l);
      }
    }
  }

  protected override onEndOfInput(): void {
    if (this.batch) {
      const anti = this.node.anti;
      for (const [key, lb] of this.left.map) {
        const rb = this.right.map.get(key);
        for (const l of lb.rows) {
          const matched = rb !== undefined && rb.rows.some((r) => this.matches(l, r));
          if (matched !== anti) this.out.record(Kind.INSERT, l);
        }
      }
      if (anti) for (const l of this.nullKeyed) this.out.record(Kind.INSERT, l);
    }
    this.out.endInput();
  }

  override snapshotState(): unknown {
    return { left: this.left.snapshot(), right: this.right.snapshot(), nullKeyed: this.nullKeyed.slice() };
  }

  override restoreState(state: unknown): void {
    if (state === null || state === undefined) return;
    const s = state as { left: SideSnapshot; right: SideSnapshot; nullKeyed: unknown[][] };
    this.left.restore(s.left);
    this.right.restore(s.right);
    this.nullKeyed = s.nullKeyed.slice();
  }
}
