import type { InputDelivery } from "../../../ptf/updating-input.js";
import { Kind } from "../../../types/row.js";
import type { DataType } from "../../../types/data-type.js";
import { keyExtractor } from "./keys.js";

/** Where adapted records go: the operator's eval path. */
export interface ChangeSink {
  deliver(kind: number, row: unknown[]): void;
}

/**
 * The input adapter of an updating table argument that needs the previous row of a key (Flink adds a
 * ChangelogNormalize before the PTF for this): it keeps the last row per upsert key and
 *
 * - retract delivery of an upsert input: `+I`/`+U` of a known key become `-U[previous]`, `+U[row]`;
 *   of a new key `+I[row]`; `-D` becomes `-D[previous]` (full row); incoming `-U` are replaced by
 *   the ones made from state;
 * - REQUIRE_FULL_DELETE on an upsert input with key-only deletes: `-D` carries the last full row.
 *
 * A delete for a key that holds no row is dropped (nothing to retract). The state is part of the
 * operator's snapshot.
 */
export class ChangelogInput {
  private readonly keyOf: (r: readonly unknown[]) => unknown;
  private readonly retract: boolean;
  /** Last row per upsert key. */
  readonly rows = new Map<unknown, unknown[]>();

  constructor(delivery: InputDelivery, types: readonly DataType[]) {
    this.keyOf = keyExtractor(delivery.materializeKey, types);
    this.retract = delivery.retract;
  }

  process(kind: number, row: unknown[], sink: ChangeSink): void {
    if (kind === Kind.UPDATE_BEFORE) {
      // retract: made from state below; upsert: not delivered
      return;
    }
    const key = this.keyOf(row);
    const previous = this.rows.get(key);
    if (kind === Kind.DELETE) {
      if (previous === undefined) return;
      this.rows.delete(key);
      sink.deliver(Kind.DELETE, previous);
      return;
    }
    this.rows.set(key, row);
    if (!this.retract) sink.deliver(kind, row);
    else if (previous === undefined) sink.deliver(Kind.INSERT, row);
    else {
      sink.deliver(Kind.UPDATE_BEFORE, previous);
      sink.deliver(Kind.UPDATE_AFTER, row);
    }
  }

  snapshot(): (readonly [unknown, unknown[]])[] {
    return [...this.rows].map(([k, r]): readonly [unknown, unknown[]] => [k, [...r]]);
  }

  restore(entries: readonly (readonly [unknown, readonly unknown[]])[]): void {
    this.rows.clear();
    for (const [k, r] of entries) this.rows.set(k, [...r]);
  }
}
