import type { ChangelogMode } from "../plan/changelog-mode.js";
import type { PlannedProcessCall } from "../plan/nodes.js";
import type { Column, ResolvedSchema } from "../types/resolved-schema.js";
import type { TableArgDecl } from "./arguments.js";
import type { ProcessTableFunction } from "./function.js";
import type { OrderColumn } from "./order-by.js";
import type { TableTrait } from "./traits.js";
import type { InputDelivery } from "./updating-input.js";

/** A table argument of a resolved call. `inputIndex` is its position in `ProcessNode.inputs`. */
export interface ResolvedTableArg {
  readonly name: string;
  /** Position among the declared arguments (for messages: "the 0-th operand"). */
  readonly position: number;
  readonly decl: TableArgDecl<unknown, TableTrait>;
  readonly inputIndex: number;
  /** Schema of the table that was passed. */
  readonly schema: ResolvedSchema;
  /** Positions of the PARTITION BY columns in `schema`. */
  readonly partitionKeys: readonly number[];
  readonly setSemantics: boolean;
  /** BROADCAST_SEMANTIC_TABLE: a side input without key, delivered to every virtual processor. */
  readonly broadcast: boolean;
  readonly passThrough: boolean;
  /** The changelog mode in which rows reach eval (after the delivery rules of updating tables). */
  readonly changelog: ChangelogMode;
  /** How the input's changes are adapted to `changelog` (PTF rule 11). */
  readonly delivery: InputDelivery;
  /** Position of the `on_time` column in `schema`, or -1 when the call has no `on_time`. */
  readonly timeColumn: number;
  /** ORDER BY columns (the first is the time attribute), empty without ORDER BY. */
  readonly orderBy: readonly OrderColumn[];
}

/**
 * A PTF call after validation: what the planner and the operator need. Carried by `ProcessNode.call`.
 */
export interface ResolvedPtfCall extends PlannedProcessCall {
  readonly kind: "ResolvedPtfCall";
  readonly fn: ProcessTableFunction<unknown, unknown, unknown>;
  /** The name used in messages: the registered name, else the declared name, else `<anonymous>`. */
  readonly functionName: string;
  /** Unique identifier of the call's state (set semantics only). */
  readonly uid: string | undefined;
  readonly explicitUid: boolean;
  readonly tables: readonly ResolvedTableArg[];
  /** Values of the scalar arguments, by name (DEFAULT of an optional argument = null). */
  readonly scalars: Readonly<Record<string, unknown>>;
  /** What comes before the function's columns: nothing, the PARTITION BY keys, or all input columns. */
  readonly prefix: "none" | "keys" | "all";
  /** The function's own output columns (after making names unique). */
  readonly functionColumns: readonly Column[];
  /** The changelog mode of the output (the function's `changelogMode`, with the upsert key). */
  readonly outputMode: ChangelogMode;
  /** The final `rowtime` output column when `on_time` is given (PTF rule 3). */
  readonly rowtime: Column | undefined;
  /** The TTL (ms) a built-in PTF's arguments give its state, overriding `table.exec.state.ttl`. */
  readonly stateTtl?: number;
  /** `table.exec.state.ttl` as configured when the job is planned. */
  readonly defaultStateTtl: () => string | undefined;
  /** For explain(): `invocation=[...], uid=[...], select=[...]`. */
  describe(): string;
  /**
   * The call with its output mode resolved for what its consumer needs (`getRequiredChangelogMode()`); the
   * call itself when the mode does not change. Used by the planner's changelog negotiation.
   */
  withRequiredMode(consumer: { readonly updateBefore: boolean; readonly keyOnlyDeletes: boolean }): ResolvedPtfCall;
}

/** Narrows a Process node's call to the PTF call this package resolves (every call made by ptf/call.ts is one). */
export function isResolvedPtfCall(x: unknown): x is ResolvedPtfCall {
  return typeof x === "object" && x !== null && (x as { kind?: unknown }).kind === "ResolvedPtfCall";
}
