import type { FunctionResolver } from "../../../expressions/compile.js";
import { col } from "../../../expressions/node.js";
import type { TemporalJoinNode } from "../../../plan/nodes/temporal-join.js";
import { Kind } from "../../../types/row.js";
import { BaseOperator } from "../../operator.js";
import { compileCombine, compileJoinKey, compilePad, compileResidual } from "./join-code.js";
import { millis } from "./interval-join.js";

/** The versions of one key of the versioned table, ascending by time; `deleted` marks a version that removes the key. */
interface Versions {
  times: number[];
  rows: unknown[][];
  deleted: boolean[];
}

/**
 * An event-time temporal join (Flink's TemporalRowTimeJoinOperator). Right rows are versions of their primary
 * key, valid from their rowtime on (an insert or update-after is a new version, a delete or update-before ends
 * the key; a later version at the same time replaces an earlier one). Left rows wait until the watermark
 * passes their time, then are joined in time order with the version valid at their time — the latest version
 * at or before it — and emitted once (+I); LEFT: padded when there is none, it is deleted, or the residual
 * rejects it. Versions older than the one valid at the watermark are dropped then: no later left row can see
 * them.
 */
export class TemporalJoinOperator extends BaseOperator {
  private readonly leftKey: (r: unknown[]) => unknown;
  private readonly rightKey: (r: unknown[]) => unknown;
  private readonly combine: (l: unknown[], r: unknown[]) => unknown[];
  private readonly padLeftRow: (l: unknown[]) => unknown[];
  private readonly residual: ((row: unknown[]) => boolean) | undefined;
  private readonly outer: boolean;
  private readonly leftTime: number;
  private readonly rightTime: number;
  /** Left rows waiting for the watermark, in arrival order. */
  private pending: { time: number; key: unknown; row: unknown[] }[] = [];
  private versions = new Map<unknown, Versions>();

  constructor(node: TemporalJoinNode, resolve?: FunctionResolver) {
    super(2);
    const ls = node.left.schema.size;
    const rs = node.right.schema.size;
    this.leftKey = compileJoinKey(node.leftKeys, node.left.schema, resolve);
    this.rightKey = compileJoinKey(node.rightKeys.map((i) => col(node.right.schema.names[i]!)), node.right.schema, resolve);
    this.combine = compileCombine(ls, rs);
    this.padLeftRow = compilePad(ls, rs, true);
    this.residual = compileResidual(node.residual, node.schema, resolve);
    this.outer = node.joinType === "LEFT";
    this.leftTime = node.leftTime;
    this.rightTime = node.rightTime;
  }

  processElement(input: number, kind: number, row: unknown[]): void {
    if (input === 0) {
      const time = millis(row[this.leftTime]);
      if (time === null) {
        // a NULL time matches no version
        if (this.outer) this.out.record(Kind.INSERT, this.padLeftRow(row));
        return;
      }
      this.pending.push({ time, key: this.leftKey(row), row });
      return;
    }
    const time = millis(row[this.rightTime]);
    const key = this.rightKey(row);
    if (time === null || key === null) return;
    let v = this.versions.get(key);
    if (v === undefined) this.versions.set(key, v = { times: [], rows: [], deleted: [] });
    const deleted = kind === Kind.DELETE || kind === Kind.UPDATE_BEFORE;
    // insert in time order; the same time: the later record wins
    let i = v.times.length;
    while (i > 0 && v.times[i - 1]! > time) i--;
    if (i > 0 && v.times[i - 1] === time) {
      v.rows[i - 1] = row;
      v.deleted[i - 1] = deleted;
    } else {
      v.times.splice(i, 0, time);
      v.rows.splice(i, 0, row);
      v.deleted.splice(i, 0, deleted);
    }
  }

  protected override onWatermark(wm: number): void {
    const ready = this.pending.filter((p) => p.time <= wm);
    if (ready.length > 0) {
      this.pending = this.pending.filter((p) => p.time > wm);
      ready.sort((a, b) => a.time - b.time); // stable: arrival order within one time
      for (const p of ready) this.emit(p.time, p.key, p.row);
    }
    this.cleanUp(wm);
    this.out.watermark(wm);
  }

  private emit(time: number, key: unknown, row: unknown[]): void {
    const v = key === null ? undefined : this.versions.get(key);
    if (v !== undefined) {
      let i = v.times.length - 1;
      while (i >= 0 && v.times[i]! > time) i--;
      if (i >= 0 && !v.deleted[i]) {
        const j = this.combine(row, v.rows[i]!);
        if (this.residual === undefined || this.residual(j)) {
          this.out.record(Kind.INSERT, j);
          return;
        }
      }
    }
    if (this.outer) this.out.record(Kind.INSERT, this.padLeftRow(row));
  }

  /** Keeps per key the version valid at the watermark and the later ones (none if the valid one is a delete). */
  private cleanUp(wm: number): void {
    if (wm === Infinity) { this.versions.clear(); return; }
    for (const [key, v] of this.versions) {
      let i = v.times.length - 1;
      while (i >= 0 && v.times[i]! > wm) i--;
      if (i <= 0) continue;
      v.times.splice(0, i);
      v.rows.splice(0, i);
      v.deleted.splice(0, i);
      if (v.times.length === 1 && v.deleted[0]) this.versions.delete(key);
    }
  }

  override snapshotState(): unknown {
    return {
      pending: this.pending.map((p) => ({ ...p })),
      versions: Array.from(this.versions, ([k, v]) => [k, v.times.slice(), v.rows.slice(), v.deleted.slice()] as const),
    };
  }

  override restoreState(state: unknown): void {
    if (state === null || state === undefined) return;
    const s = state as { pending: { time: number; key: unknown; row: unknown[] }[]; versions: [unknown, number[], unknown[][], boolean[]][] };
    this.pending = s.pending.map((p) => ({ ...p }));
    this.versions = new Map(s.versions.map(([k, times, rows, deleted]) => [k, { times: times.slice(), rows: rows.slice(), deleted: deleted.slice() }]));
  }
}
