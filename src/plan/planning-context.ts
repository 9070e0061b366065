import type { PlanContext } from "./builders.js";
import type { PlanNode } from "./nodes.js";

/**
 * What the floors that resolve calls (ptf/, functions/, sql/) need from the environment they plan in.
 * The facade's `TableEnvironment` implements it; nothing below the facade sees the facade itself.
 */
export interface PlanningContext {
  isBatch(): boolean;
  /** Function resolution and expression preparation for the plan builders. */
  planContext(): PlanContext;
  getConfig(): { get(key: string): string | undefined };
  /** User-defined functions by name (registered with `createFunction` ...). */
  readonly functions: { lookup(name: string): { readonly name: string; readonly fn: unknown } | undefined };
  listUserDefinedFunctions(): string[];
}

/** Marks an object as a table of the facade (`Table`), so that lower floors recognize one without importing it. */
export const PLANNED_TABLE: unique symbol = Symbol.for("tablestream.PlannedTable");

/** A table as the planning floors see it: the environment it belongs to and its plan. */
export interface PlannedTable {
  readonly [PLANNED_TABLE]: true;
  readonly env: PlanningContext;
  readonly node: PlanNode;
}

export function isPlannedTable(x: unknown): x is PlannedTable {
  return typeof x === "object" && x !== null && (x as Partial<PlannedTable>)[PLANNED_TABLE] === true;
}

/**
 * Which changelog a table carries, at the type level: `append` (inserts only), `retract` (updates as
 * -U/+U, deletes) or `upsert` (updates by key, no -U). The facade's `Table<S, M>` carries it as `M`.
 */
export type ChangelogKind = "append" | "retract" | "upsert";
