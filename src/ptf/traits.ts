/**
 * Argument traits of a Process Table Function, with Flink's names (`ArgumentTrait` in
 * `org.apache.flink.table.annotation`). A table argument has exactly one of ROW_SEMANTIC_TABLE, SET_SEMANTIC_TABLE and
 * BROADCAST_SEMANTIC_TABLE; the other traits refine it.
 */
export const ArgumentTrait = {
  /** A scalar value (the default for `scalarArg`). */
  SCALAR: "SCALAR",
  /** The table is processed row by row; rows are independent, there is no key and no state. */
  ROW_SEMANTIC_TABLE: "ROW_SEMANTIC_TABLE",
  /** Rows are processed per PARTITION BY key (a virtual processor) and may keep state. */
  SET_SEMANTIC_TABLE: "SET_SEMANTIC_TABLE",
  /**
   * A side input without key context (no PARTITION BY / ORDER BY): every row reaches every virtual
   * processor. Its rows may only write broadcast state (`{ kind: StateKind.BROADCAST }`); they cannot
   * collect output or register timers. Needs a row- or set-semantics table beside it.
   */
  BROADCAST_SEMANTIC_TABLE: "BROADCAST_SEMANTIC_TABLE",
  /**
   * Refines BROADCAST_SEMANTIC_TABLE: after a broadcast row has been processed without key context, it
   * is delivered once more to every virtual processor that holds state, with that key's state
   * (broadcast state read-only, collect allowed).
   */
  NOTIFY_STATEFUL_SETS: "NOTIFY_STATEFUL_SETS",
  /** A set-semantics table may be called without PARTITION BY; then one processor sees the whole table. */
  OPTIONAL_PARTITION_BY: "OPTIONAL_PARTITION_BY",
  /** All columns of the table are forwarded in front of the function's output. */
  PASS_COLUMNS_THROUGH: "PASS_COLUMNS_THROUGH",
  /** The call must give the `on_time` argument (the event-time column; see docs/ptf.md "Time and timers"). */
  REQUIRE_ON_TIME: "REQUIRE_ON_TIME",
  /** The table may be updating (+I/-U/+U/-D); updating table arguments are a later issue. */
  SUPPORT_UPDATES: "SUPPORT_UPDATES",
  /** Updates arrive as retractions (with -U). Requires SUPPORT_UPDATES. */
  REQUIRE_UPDATE_BEFORE: "REQUIRE_UPDATE_BEFORE",
  /** Deletes carry all columns. Requires SUPPORT_UPDATES. */
  REQUIRE_FULL_DELETE: "REQUIRE_FULL_DELETE",
} as const;
export type ArgumentTrait = (typeof ArgumentTrait)[keyof typeof ArgumentTrait];

/** Traits that may be given to `tableArg(...)`. */
export type TableTrait = Exclude<ArgumentTrait, "SCALAR">;

const ALL = new Set<string>(Object.values(ArgumentTrait));

export function isArgumentTrait(x: unknown): x is ArgumentTrait {
  return typeof x === "string" && ALL.has(x);
}
