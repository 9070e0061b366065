// Type-level accessors for the type tests. expectTypeOf compares whole Table types member by member,
// which is slow and, on long chains, too deep; comparing the schema and the mode is exact and cheap.
import type { ChangelogKind, Table } from "../../src/index.js";

/** The schema S of a Table<S, M>. */
export type SchemaOf<T> = T extends Table<infer S, ChangelogKind> ? S : never;
/** The changelog kind M of a Table<S, M>. */
export type ModeOf<T> = T extends Table<object, infer M> ? M : never;
/** The row type that `execute().toArray()` yields. */
export type RowOf<T> = T extends { execute(): { toArray(): Promise<(infer R)[]> } } ? R : never;
