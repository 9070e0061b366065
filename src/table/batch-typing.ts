/**
 * Batch vs streaming at the type level. A batch job's results are final: aggregates, DISTINCT, joins,
 * top-N, deduplication and set operations emit each result row once, as inserts (src/plan/changelog-mode.ts
 * with `batch`). So a table of a batch environment is insert-only through all of them, and its changelog
 * kind says so: `Batch`, which is `"append"` with a brand. Being an `"append"`, it goes wherever an
 * insert-only table is expected (an append-only sink, a PTF table argument without SUPPORT_UPDATES); the
 * brand is what the operations look at to keep it insert-only where a streaming table would start to
 * update.
 *
 * The environment knows its mode from its settings (`TableEnvironment<true>` for
 * `EnvironmentSettings.inBatchMode()`), and its sources (`fromValues`, `from(descriptor)`, ...) start
 * with `Batch`. Operations that keep their input's kind (filter, select without aggregates, joinLateral, ...)
 * keep the brand without any extra type; the others pass their streaming result kind through
 * `FinalInBatch` or `InsertOnlyInBatch`, one small conditional per call (docs/typing.md has the cost).
 */
import type { ChangelogKind } from "../plan/planning-context.js";

declare const batch: unique symbol;
/** The brand of a batch table's changelog kind. */
export interface BatchBrand { readonly [batch]: true }

/** The changelog kind of a table of a batch environment: insert-only, and final. */
export type Batch = "append" & BatchBrand;

/**
 * The kind of an operation whose streaming result updates (`R`, e.g. `"retract"` for a group aggregate)
 * but whose batch result is final: `Batch` over a batch table, else `R`.
 */
export type FinalInBatch<M, R extends ChangelogKind> = [M] extends [Batch] ? Batch : R;

/**
 * The kind of an operation that is insert-only when it emits inserts in streaming too (a window
 * aggregate, an event-time OVER, a PTF without updating output): `Batch` over a batch table when `R` is
 * `"append"`, else `R` (a batch OVER ordered by another column still updates).
 */
export type InsertOnlyInBatch<M, R extends ChangelogKind> = [M] extends [Batch] ? ([R] extends ["append"] ? Batch : R) : R;

/** The kind a source of an environment gives: `Batch` in a batch environment (`B` = true) for an insert-only source. */
export type SourceKind<B extends boolean, R extends ChangelogKind = "append"> = [B] extends [true] ? ([R] extends ["append"] ? Batch : R) : R;
