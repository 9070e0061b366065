import { helpers } from "../../expressions/helpers.js";
import { col } from "../../expressions/node.js";
import type { ChangelogNormalizeNode } from "../../plan/nodes.js";
import { Kind } from "../../types/row.js";
import { type GroupKeys, createGroupKeys } from "../aggregates/group-keys.js";
import { BaseOperator } from "../operator.js";

/**
 * Flink's ChangelogNormalize (the last-row deduplication over a keyed changelog): keeps the last row per
 * primary key and turns an upsert changelog into a full retract changelog.
 * - `+I` / `+U` of a new key: `+I`; of a known key: `-U` (the stored row) and `+U` — nothing when the row
 *   equals the stored one (a duplicated event);
 * - `-D` (also a key-only delete): `-D` with the stored row's full content; nothing for an unknown key;
 * - `-U` is dropped: the `+U` that follows carries the change (Flink drops UPDATE_BEFORE before the
 *   normalizer), and a `-U` without `+U` is no delete.
 * State: the last row per key (snapshotState / restoreState).
 */
export class ChangelogNormalizeOperator extends BaseOperator {
  private readonly keys: GroupKeys;
  private rows: (unknown[] | undefined)[] = [];
  private readonly freeIds: number[] = [];
  private nextId = 0;

  constructor(node: ChangelogNormalizeNode) {
    super(1);
    this.keys = createGroupKeys(node.uniqueKeys.map(col), node.input.schema);
  }

  processElement(_input: number, kind: number, row: unknown[]): void {
    if (kind === Kind.UPDATE_BEFORE) return;
    const keys = this.keys;
    let gid = keys.find(row);
    if (kind === Kind.DELETE) {
      if (gid < 0) return;
      const previous = this.rows[gid]!;
      keys.remove(gid);
      this.rows[gid] = undefined;
      this.freeIds.push(gid);
      this.out.record(Kind.DELETE, previous);
      return;
    }
    if (gid < 0) {
      gid = this.freeIds.pop() ?? this.nextId++;
      keys.add(gid);
      this.rows[gid] = row;
      this.out.record(Kind.INSERT, row);
      return;
    }
    const previous = this.rows[gid]!;
    if (sameRow(previous, row)) return;
    this.rows[gid] = row;
    this.out.record(Kind.UPDATE_BEFORE, previous);
    this.out.record(Kind.UPDATE_AFTER, row);
  }

  override snapshotState(): unknown {
    const out: unknown[][] = [];
    this.keys.forEach((_key, gid) => out.push(this.rows[gid]!.slice()));
    return out;
  }

  override restoreState(s: unknown): void {
    for (const row of s as unknown[][]) {
      this.keys.find(row);
      const gid = this.nextId++;
      this.keys.add(gid);
      this.rows[gid] = row.slice();
    }
  }
}

function sameRow(a: readonly unknown[], b: readonly unknown[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i] && !helpers.eq(a[i], b[i])) return false;
  return true;
}
