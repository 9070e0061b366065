import type { FunctionResolver } from "../../../expressions/compile.js";
import { stateLayout, typesOf } from "../../checkpoint/state-layout.js";
import type { JoinNode } from "../../../plan/nodes/join.js";
import { parseDuration } from "../../../ptf/ttl.js";
import type { JobSettings } from "../../job-contract.js";
import { Kind } from "../../../types/row.js";
import { BaseOperator } from "../../operator.js";
import { compileCombine, compileJoinKey, compilePad, compileResidual } from "./join-code.js";
import { JoinSideState, type SideSnapshot, indexOfRow } from "./join-state.js";
import { generateInnerJoinProcess } from "./inner-join-code.js";
import { RowsOnlySideState } from "./rows-only-state.js";

/**
 * A regular join with Flink's changelog (StreamingJoinOperator). Both inputs are kept in state by join key;
 * each record is matched against the other side's rows of its key (and the residual condition), and:
 *
 * accumulate (+I/+U):
 * - the record's side is outer and nothing matches: `+I[record, null...]`;
 * - it matches and the other side is outer: each partner that had no partner yet first retracts its padded
 *   row, `-D[null..., partner]`;
 * - then the joined rows: `+I` when either side is outer, else with the record's own kind (+I or +U).
 * retract (-U/-D):
 * - nothing matches: `-D[record, null...]` when the record's side is outer;
 * - else the joined rows with `-D` (outer side) or the record's own kind, then each partner on an outer side
 *   that loses its last partner gets its padded row back, `+I[null..., partner]`.
 *
 * An inner join of two insert-only inputs without residual condition or TTL keeps per key only the list of
 * its rows (rows-only-state.ts): nothing is ever retracted, so no bookkeeping per row is needed.
 *
 * A NULL key never matches (and is not stored). In batch mode nothing is emitted before the end of input,
 * then each result row once as +I (a hash join over the final contents of both inputs).
 */
export class RegularJoinOperator extends BaseOperator {
  private readonly leftKey: (r: unknown[]) => unknown;
  private readonly rightKey: (r: unknown[]) => unknown;
  private readonly combine: (l: unknown[], r: unknown[]) => unknown[];
  private readonly padLeftRow: (l: unknown[]) => unknown[];
  private readonly padRightRow: (r: unknown[]) => unknown[];
  private readonly residual: ((row: unknown[]) => boolean) | undefined;
  /** Rows-only sides exactly when `rowsOnly`; the general path below only ever sees JoinSideStates. */
  readonly left: JoinSideState | RowsOnlySideState;
  readonly right: JoinSideState | RowsOnlySideState;
  /** Both inputs insert-only, inner, no residual, no TTL, streaming: the rows-only sides and generated path. */
  readonly rowsOnly: boolean;
  private readonly leftOuter: boolean;
  private readonly rightOuter: boolean;
  private readonly ttl: number;
  private readonly clock: () => number;
  private readonly batch: boolean;
  /** Batch: rows with a NULL key, kept only to be padded at the end (outer sides). */
  private nullKeyed: [unknown[][], unknown[][]] = [[], []];
  /** Scratch lists reused by every record: positions of the matched partners and the joined rows. */
  private readonly matched: number[] = [];
  private readonly joined: unknown[][] = [];

  /** Whether the operator can emit a projection of its output itself (the generated inner-join path). */
  static canProject(node: JoinNode, settings: JobSettings): boolean {
    return !settings.batch && settings.config.get("table.exec.state.ttl") === undefined && node.joinType === "INNER" && node.residual === undefined;
  }

  /** `projection`: positions of the joined row to emit (only where canProject). */
  /** The state's layout (checked on restore): the join kind and both sides' rows. */
  private readonly layoutText: Readonly<Record<string, string>>;

  /** `insertOnlyInputs`: both inputs' changelog modes are insert-only (then an inner join keeps rows only). */
  constructor(node: JoinNode, settings: JobSettings, resolve?: FunctionResolver, projection?: readonly number[], insertOnlyInputs = false) {
    super(2);
    this.layoutText = stateLayout({ join: node.joinType, left: typesOf(node.left.schema), right: typesOf(node.right.schema) });
    const ls = node.left.schema.size;
    const rs = node.right.schema.size;
    this.leftKey = compileJoinKey(node.leftKeys, node.left.schema, resolve);
    this.rightKey = compileJoinKey(node.rightKeys, node.right.schema, resolve);
    this.combine = compileCombine(ls, rs);
    this.padLeftRow = compilePad(ls, rs, true);
    this.padRightRow = compilePad(ls, rs, false);
    this.residual = compileResidual(node.residual, node.schema, resolve);
    this.leftOuter = node.joinType === "LEFT" || node.joinType === "FULL";
    this.rightOuter = node.joinType === "RIGHT" || node.joinType === "FULL";
    const ttlText = settings.config.get("table.exec.state.ttl");
    this.ttl = settings.batch || ttlText === undefined ? 0 : parseDuration(ttlText, "table.exec.state.ttl");
    this.clock = settings.clock;
    this.batch = settings.batch;
    // streaming: both sides in the job's state backend; batch keeps them in memory (no checkpoints, and
    // the end-of-input pass walks both sides together)
    const backend = this.batch ? undefined : settings.stateBackend;
    const generated = !this.batch && this.ttl === 0 && node.joinType === "INNER" && this.residual === undefined;
    this.rowsOnly = generated && insertOnlyInputs;
    // same store names either way: a checkpoint of one kind of side restores into the other (rows-only-state.ts)
    this.left = this.rowsOnly ? new RowsOnlySideState(backend, "RegularJoin.left") : new JoinSideState(this.leftOuter, this.ttl, backend, "RegularJoin.left");
    this.right = this.rowsOnly ? new RowsOnlySideState(backend, "RegularJoin.right") : new JoinSideState(this.rightOuter, this.ttl, backend, "RegularJoin.right");
    // the common case gets a processElement of its own (inner-join-code.ts)
    if (generated) {
      this.processElement = generateInnerJoinProcess(node, this, resolve, projection);
    } else if (projection !== undefined) {
      throw new Error("RegularJoinOperator: a projection needs the generated inner-join path (canProject)");
    }
  }

  processElement(input: number, kind: number, row: unknown[]): void {
    const isLeft = input === 0;
    const key = isLeft ? this.leftKey(row) : this.rightKey(row);
    const accumulate = kind === Kind.INSERT || kind === Kind.UPDATE_AFTER;
    const now = this.ttl > 0 ? this.clock() : 0;
    const self = (isLeft ? this.left : this.right) as JoinSideState;
    if (this.batch) {
      if (key === null) {
        if (accumulate) this.nullKeyed[input]!.push(row);
        else removeRow(this.nullKeyed[input]!, row);
      } else if (accumulate) self.add(key, row, 0, 0);
      else self.retract(key, row, 0);
      return;
    }
    const inputOuter = isLeft ? this.leftOuter : this.rightOuter;
    const otherOuter = isLeft ? this.rightOuter : this.leftOuter;
    const out = this.out;
    if (key === null) {
      if (inputOuter) out.record(accumulate ? Kind.INSERT : Kind.DELETE, isLeft ? this.padLeftRow(row) : this.padRightRow(row));
      return;
    }
    const bucket = ((isLeft ? this.right : this.left) as JoinSideState).get(key, now);
    const matched = this.matched;
    const joined = this.joined;
    matched.length = 0;
    joined.length = 0;
    if (bucket !== undefined) {
      const rows = bucket.rows;
      const residual = this.residual;
      for (let i = 0; i < rows.length; i++) {
        const j = isLeft ? this.combine(row, rows[i]!) : this.combine(rows[i]!, row);
        if (residual !== undefined && !residual(j)) continue;
        matched.push(i);
        joined.push(j);
      }
    }
    const n = matched.length;
    if (accumulate) {
      if (n === 0) {
        if (inputOuter) out.record(Kind.INSERT, isLeft ? this.padLeftRow(row) : this.padRightRow(row));
        self.add(key, row, 0, now);
        return;
      }
      if (otherOuter) {
        const assoc = bucket!.assoc!;
        for (let i = 0; i < n; i++) {
          const at = matched[i]!;
          if (assoc[at] === 0) out.record(Kind.DELETE, isLeft ? this.padRightRow(bucket!.rows[at]!) : this.padLeftRow(bucket!.rows[at]!));
          assoc[at]!++;
          if (bucket!.times !== undefined) bucket!.times[at] = now;
        }
      }
      const outKind = inputOuter || otherOuter ? Kind.INSERT : kind;
      for (let i = 0; i < n; i++) out.record(outKind, joined[i]!);
      self.add(key, row, n, now);
      return;
    }
    self.retract(key, row, now);
    if (n === 0) {
      if (inputOuter) out.record(Kind.DELETE, isLeft ? this.padLeftRow(row) : this.padRightRow(row));
      return;
    }
    const outKind = inputOuter ? Kind.DELETE : kind;
    for (let i = 0; i < n; i++) out.record(outKind, joined[i]!);
    if (otherOuter) {
      const assoc = bucket!.assoc!;
      for (let i = 0; i < n; i++) {
        const at = matched[i]!;
        if (assoc[at] === 1) out.record(Kind.INSERT, isLeft ? this.padRightRow(bucket!.rows[at]!) : this.padLeftRow(bucket!.rows[at]!));
        assoc[at]!--;
        if (bucket!.times !== undefined) bucket!.times[at] = now;
      }
    }
  }

  protected override onEndOfInput(): void {
    if (this.batch) this.emitBatch();
    this.out.endInput();
  }

  /** Batch: every result row once, as +I, from the final contents of both inputs. */
  private emitBatch(): void {
    const out = this.out;
    const residual = this.residual;
    const rightMatched = new Map<unknown, boolean[]>();
    const left = this.left as JoinSideState;
    const right = this.right as JoinSideState;
    for (const [key, lb] of left.map) {
      const rb = right.map.get(key);
      const flags = rb !== undefined && this.rightOuter ? new Array<boolean>(rb.rows.length).fill(false) : undefined;
      if (flags !== undefined) rightMatched.set(key, flags);
      for (const l of lb.rows) {
        let n = 0;
        if (rb !== undefined) {
          for (let i = 0; i < rb.rows.length; i++) {
            const j = this.combine(l, rb.rows[i]!);
            if (residual !== undefined && !residual(j)) continue;
            n++;
            if (flags !== undefined) flags[i] = true;
            out.record(Kind.INSERT, j);
          }
        }
        if (n === 0 && this.leftOuter) out.record(Kind.INSERT, this.padLeftRow(l));
      }
    }
    if (this.leftOuter) for (const l of this.nullKeyed[0]) out.record(Kind.INSERT, this.padLeftRow(l));
    if (this.rightOuter) {
      for (const [key, rb] of right.map) {
        const flags = rightMatched.get(key);
        rb.rows.forEach((r, i) => { if (flags === undefined || !flags[i]) out.record(Kind.INSERT, this.padRightRow(r)); });
      }
      for (const r of this.nullKeyed[1]) out.record(Kind.INSERT, this.padRightRow(r));
    }
  }

  stateSchema(): Readonly<Record<string, string>> {
    return this.layoutText;
  }

  override snapshotState(): unknown {
    return { left: this.left.snapshot(), right: this.right.snapshot(), nullKeyed: [this.nullKeyed[0].slice(), this.nullKeyed[1].slice()] };
  }

  override restoreState(state: unknown): void {
    if (state === null || state === undefined) return;
    const s = state as { left: SideSnapshot; right: SideSnapshot; nullKeyed?: [unknown[][], unknown[][]] };
    this.left.restore(s.left);
    this.right.restore(s.right);
    this.nullKeyed = s.nullKeyed ? [s.nullKeyed[0].slice(), s.nullKeyed[1].slice()] : [[], []];
  }

  /** Rows held in state (both sides). */
  stateRowCount(): number {
    return this.left.rowCount() + this.right.rowCount();
  }
}

function removeRow(rows: unknown[][], row: unknown[]): void {
  const i = indexOfRow(rows, row);
  if (i >= 0) rows.splice(i, 1);
}
