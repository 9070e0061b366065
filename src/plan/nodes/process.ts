import type { ChangelogMode } from "../changelog-mode.js";
import type { ExprNode } from "../../expressions/node.js";
import type { PlanNode } from "../nodes.js";
import { makeNode, type NodeBase, type NodeFields, invalid, requireInput } from "./node-base.js";

/**
 * What the plan needs of a resolved Process Table Function call; src/ptf's `ResolvedPtfCall` extends it
 * with what the operator needs. Declared here so that plan/ never imports ptf/.
 */
export interface PlannedProcessCall {
  readonly kind: "ResolvedPtfCall";
  /** The name used in messages. */
  readonly functionName: string;
  /** Identifier of the call's state (set semantics only): explicit (`uid` argument) or derived. */
  readonly uid: string | undefined;
  readonly explicitUid: boolean;
  /** The changelog mode of the output, resolved when the call was planned. */
  readonly outputMode: ChangelogMode;
  /**
   * Per input: whether that table argument is delivered as retractions (REQUIRE_UPDATE_BEFORE, or PARTITION BY
   * other columns than the upsert key), so its input must be a full retract changelog (normalize-upserts.ts).
   */
  readonly inputsNeedRetractions: readonly boolean[];
  /** For explain(): `invocation=[...], uid=[...], select=[...]`. */
  describe(): string;
  /**
   * The call with its output mode renegotiated for what its consumer needs (Flink's
   * getRequiredChangelogMode, see plan/normalize-upserts.ts); the same call when nothing changes.
   */
  withRequiredMode(consumer: { readonly updateBefore: boolean; readonly keyOnlyDeletes: boolean }): PlannedProcessCall;
  /** The call as written, for `Table.toSql()` (plan/to-sql.ts). */
  readonly sqlForm?: ProcessCallSqlForm;
}

/**
 * A PTF call's arguments as SQL writes them: `f(input => TABLE t PARTITION BY k ORDER BY ts, n => 3,
 * on_time => DESCRIPTOR(ts), uid => 'x')`. Only the arguments that were given (the others are DEFAULT).
 */
export interface ProcessCallSqlForm {
  /** The function object called (looked up among the registered functions), or undefined when called by name. */
  readonly fn: unknown;
  /** The name it was called by (a registered or built-in name), else undefined. */
  readonly name: string | undefined;
  readonly args: readonly ProcessCallSqlArg[];
}

export type ProcessCallSqlArg =
  | {
    readonly kind: "table"; readonly name: string; readonly inputIndex: number; readonly partitionBy: readonly string[];
    readonly orderBy: readonly { readonly name: string; readonly ascending: boolean; readonly nullsFirst: boolean | undefined }[];
  }
  /** A scalar argument's expression as given (a constant), or a DESCRIPTOR. */
  | { readonly kind: "scalar"; readonly name: string; readonly node: ExprNode };

/** A Process Table Function call; details live in ptf/ (the node only carries the resolved call). */
export interface ProcessNode<C extends PlannedProcessCall = PlannedProcessCall> extends NodeBase {
  readonly kind: "Process";
  readonly inputs: readonly PlanNode[];
  readonly call: C;
}

export function processNode<C extends PlannedProcessCall>(f: NodeFields<ProcessNode<C>>): ProcessNode<C> {
  f.inputs.forEach((n, i) => requireInput("Process", n, `inputs[${i}]`));
  if (f.call?.kind !== "ResolvedPtfCall") throw invalid("Process", "call", "must be a resolved PTF call");
  return makeNode<ProcessNode>("Process", f, ["inputs"]) as ProcessNode<C>;
}
