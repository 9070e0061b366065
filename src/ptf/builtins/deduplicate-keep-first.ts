import type { ExprNode } from "../../expressions/node.js";
import { DataTypes } from "../../types/data-types.js";
import { ValidationError } from "../../types/errors.js";
import { Row } from "../../types/row.js";
import { ScalarArgDecl, TableArgDecl } from "../arguments.js";
import { ProcessTableFunction } from "../function.js";
import { valueState } from "../state.js";
import { ArgumentTrait } from "../traits.js";

const EMPTY_ROW = Row.of();

/**
 * Flink's built-in `DEDUPLICATE_KEEP_FIRST(input => TABLE t [PARTITION BY k], [on_time => DESCRIPTOR(ts)],
 * [state_ttl => INTERVAL], [reset_ttl_on_duplicate => BOOLEAN])`: the first row of each PARTITION BY key
 * (of the whole table without PARTITION BY), with all its columns, insert-only.
 *
 * - Without `on_time` "first" is the first to arrive; an updating input may be passed: a change of a key
 *   not seen yet other than +I/+U is ignored, the first +I/+U is emitted as +I, every later change is
 *   swallowed.
 * - With `on_time` "first" is the earliest event time (equal times: the first to arrive): rows wait in the
 *   ORDER BY sort buffer of the call until the watermark passes them, so the earliest comes out first
 *   (rows behind the watermark are late and dropped, as with ORDER BY).
 * - `state_ttl` (a constant INTERVAL literal, not negative; default `table.exec.state.ttl`) bounds how
 *   long a key is remembered; `reset_ttl_on_duplicate` (a constant BOOLEAN literal, default TRUE) refreshes
 *   it on every duplicate.
 *
 * The table argument both passes its columns through and accepts updates — a combination user-defined
 * PTFs may not declare; it is sound here because the output is insert-only and each output row is an
 * input row as it was.
 */
export const DeduplicateKeepFirst = ProcessTableFunction.define({
  name: "DEDUPLICATE_KEEP_FIRST",
  args: {
    input: new TableArgDecl([
      ArgumentTrait.SET_SEMANTIC_TABLE, ArgumentTrait.OPTIONAL_PARTITION_BY, ArgumentTrait.PASS_COLUMNS_THROUGH, ArgumentTrait.SUPPORT_UPDATES,
    ]),
    state_ttl: new ScalarArgDecl(DataTypes.INTERVAL(), true),
    reset_ttl_on_duplicate: new ScalarArgDecl(DataTypes.BOOLEAN(), true),
  },
  // `seen` marks a key as done; `duplicates` changes on each duplicate, which refreshes a TTL (written state)
  state: { memo: valueState<{ seen: boolean | null; duplicates: number | null }>({ seen: null, duplicates: null }) },
  output: DataTypes.ROW(),
  eval(ctx, { memo }, { input, reset_ttl_on_duplicate: reset }) {
    if (memo.seen === true) {
      if (reset !== false) memo.duplicates = (memo.duplicates ?? 0) + 1;
      return;
    }
    const kind = Row.kindOf(input);
    if (kind !== "+I" && kind !== "+U") return;
    memo.seen = true;
    ctx.collect(EMPTY_ROW);
  },
  internal: {
    sortByOnTime: true,
    checkArguments(nodes: ReadonlyMap<string, ExprNode>): void {
      const ttl = nodes.get("state_ttl");
      if (ttl !== undefined && !isIntervalLiteral(ttl)) throw new ValidationError("The 'state_ttl' argument must be a constant INTERVAL literal.");
      const reset = nodes.get("reset_ttl_on_duplicate");
      if (reset !== undefined && !(reset.kind === "Literal" && (reset.value === null || typeof reset.value === "boolean"))) {
        throw new ValidationError("The 'reset_ttl_on_duplicate' argument must be a constant BOOLEAN literal.");
      }
    },
    stateTtl(scalars: Readonly<Record<string, unknown>>): number | undefined {
      const ttl = scalars.state_ttl as number | null | undefined;
      if (ttl === null || ttl === undefined) return undefined;
      if (ttl < 0) throw new ValidationError("The 'state_ttl' argument must not be negative.");
      return ttl;
    },
  },
});

/** `INTERVAL '5' SECOND` (a typed literal) or the Table API's `lit(5).seconds()` (an interval of a literal). */
function isIntervalLiteral(n: ExprNode): boolean {
  if (n.kind === "Literal") return n.value === null || typeof n.value === "number";
  return n.kind === "Call" && n.fn.startsWith("interval") && n.args.length === 1 && n.args[0]!.kind === "Literal";
}
