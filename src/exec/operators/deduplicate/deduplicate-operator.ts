import { col } from "../../../expressions/node.js";
import type { FunctionResolver } from "../../../expressions/compile.js";
import { helpers } from "../../../expressions/helpers.js";
import type { DeduplicateNode } from "../../../plan/nodes.js";
import { Kind } from "../../../types/row.js";
import { type GroupKeys, createGroupKeys } from "../../aggregates/group-keys.js";
import { BaseOperator } from "../../operator.js";
import { errorWithRow } from "../row-error.js";

/**
 * One row per key, as Flink's deduplicate functions (insert-only input):
 * - keep first by processing time (ProcTimeDeduplicateKeepFirstRowFunction): the first row per key is
 *   emitted, later ones dropped; the state is only the set of keys seen;
 * - keep last by processing time (ProcTimeDeduplicateKeepLastRowFunction): every row replaces the
 *   previous one of its key (`-U` old, `+U` new; the first is `+I`);
 * - by event time (RowTimeDeduplicateFunction): a row replaces the kept one when its rowtime is smaller
 *   (keep first) or not smaller (keep last), with the same `-U` / `+U`.
 */
export class DeduplicateOperator extends BaseOperator {
  private readonly keys: GroupKeys;
  /** The kept row per key (unused, and left empty, for keep-first by processing time). */
  private rows: (unknown[] | undefined)[] = [];
  private nextId = 0;
  private readonly keepRows: boolean;

  constructor(private readonly node: DeduplicateNode, resolveFunction?: FunctionResolver) {
    super(1);
    const schema = node.input.schema;
    this.keys = createGroupKeys(node.keys.map((k) => col(schema.names[k]!)), schema, resolveFunction);
    this.keepRows = node.keepLast || node.rowtime !== undefined;
  }

  processElement(_input: number, kind: number, row: unknown[]): void {
    let gid: number;
    try {
      gid = this.keys.find(row);
    } catch (e) {
      throw errorWithRow(e, kind, row, this.node.input.schema);
    }
    if (gid < 0) {
      gid = this.nextId++;
      this.keys.add(gid);
      if (this.keepRows) this.rows[gid] = row;
      this.out.record(Kind.INSERT, row);
      return;
    }
    if (!this.keepRows) return;
    const prev = this.rows[gid]!;
    const t = this.node.rowtime;
    if (t !== undefined) {
      const c = compareTime(row[t], prev[t]);
      if (this.node.keepLast ? c < 0 : c >= 0) return;
    }
    this.rows[gid] = row;
    this.out.record(Kind.UPDATE_BEFORE, prev);
    this.out.record(Kind.UPDATE_AFTER, row);
  }

  /** Number of keys held. */
  keyCount(): number {
    return this.keys.size;
  }

  override snapshotState(): unknown {
    const out: [unknown[], unknown[] | null][] = [];
    this.keys.forEach((key, gid) => out.push([key, this.keepRows ? this.rows[gid]!.slice() : null]));
    return out;
  }

  override restoreState(state: unknown): void {
    for (const [key, row] of state as [unknown[], unknown[] | null][]) {
      const gid = this.nextId++;
      this.keys.restore(key, gid);
      if (row) this.rows[gid] = row.slice();
    }
  }
}

/** Rowtimes are never NULL in practice; a NULL sorts first, as in an ascending ORDER BY. */
function compareTime(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  return helpers.cmp(a, b);
}
