import type { ChangelogKind } from "../plan/planning-context.js";

/**
 * A registered view or connector table with its type: what `createTemporaryView`, `createTable` and
 * `createTemporaryTable` return. `env.from(handle)` is the table typed by the schema `S` and changelog
 * kind `M` it was registered with, where `env.from("name")` can only be untyped (a name is a string to
 * the compiler). `handle.name` (also its `toString()`) is the name, for SQL:
 *
 * ```ts
 * const orders = env.createTemporaryView("Orders", env.fromValues(ORDER, ...rows));
 * env.from(orders).select($("amount"));          // checked against Orders' columns
 * env.sqlQuery(`SELECT * FROM ${orders}`);
 * ```
 *
 * A handle refers to what was registered when it was made: once the name is dropped, replaced or
 * shadowed, `from(handle)` is a ValidationError rather than a table whose type would be wrong.
 */
export class TableHandle<N extends string = string, S extends object = Record<string, unknown>, M extends ChangelogKind = ChangelogKind> {
  /** Phantom: the row type of the registered table. */
  declare readonly __schema: S;
  /** Phantom: the changelog kind of the registered table. */
  declare readonly __mode: M;

  /** @internal made by the TableEnvironment; `target` is the registered view or descriptor. */
  constructor(readonly name: N, readonly owner: object, readonly target: object) {
    Object.freeze(this);
  }

  toString(): string {
    return this.name;
  }
}
