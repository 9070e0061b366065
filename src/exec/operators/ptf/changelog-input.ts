import type { InputDelivery } from "../../../ptf/updating-input.js";
import { Kind } from "../../../types/row.js";
import type { DataType } from "../../../types/data-type.js";
import { keyExtractor } from "./keys.js";

/** Where adapted records go: the operator's eval path. */
export interface ChangeSink {
  deliver(kind: number, row: unknown[]): void;
}

/**
 * The input adapter of an upsert table argument with REQUIRE_FULL_DELETE whose input deletes by key only
 * (`~D`): it keeps the last row per upsert key so that `-D` carries the last full row. (Retract delivery of
 * an upsert changelog is the planner's job: a ChangelogNormalize below the call, see ptf/updating-input.ts.)
 *
 * Incoming `-U` are not delivered (upsert delivery). A delete for a key that holds no row is dropped
 * (nothing to delete). The state is part of the operator's snapshot.
 */
export class ChangelogInput {
  private readonly keyOf: (r: readonly unknown[]) => unknown;
  /** Last row per upsert key. */
  readonly rows = new Map<unknown, unknown[]>();

  constructor(delivery: InputDelivery, types: readonly DataType[]) {
    this.keyOf = keyExtractor(delivery.materializeKey, types);
  }

  process(kind: number, row: unknown[], sink: ChangeSink): void {
    if (kind === Kind.UPDATE_BEFORE) return;
    const key = this.keyOf(row);
    const previous = this.rows.get(key);
    if (kind === Kind.DELETE) {
      if (previous === undefined) return;
      this.rows.delete(key);
      sink.deliver(Kind.DELETE, previous);
      return;
    }
    this.rows.set(key, row);
    sink.deliver(kind, row);
  }

  snapshot(): (readonly [unknown, unknown[]])[] {
    return [...this.rows].map(([k, r]): readonly [unknown, unknown[]] => [k, [...r]]);
  }

  restore(entries: readonly (readonly [unknown, readonly unknown[]])[]): void {
    this.rows.clear();
    for (const [k, r] of entries) this.rows.set(k, [...r]);
  }
}
