import type { FunctionResolver } from "../../../expressions/compile.js";
import type { MatchNavigation } from "../../../plan/nodes/match-recognize.js";
import type { ResolvedSchema } from "../../../types/resolved-schema.js";
import { AggregateSet, type ArgumentReader, argumentReader } from "../../windows/aggregate-set.js";

/**
 * One row of a (partial) match: the row, the pattern variable it is mapped to, its number in the partition's
 * order and its time. Steps form a tree shared by the partial matches that have the same beginning (the shared
 * buffer of Flink's NFA): a partial match is its newest step, `prev` leads back to its first row.
 */
export interface Step {
  readonly row: unknown[];
  readonly variable: number;
  readonly seq: number;
  readonly time: number;
  readonly prev: Step | null;
}

/**
 * Computes the navigations (LAST, FIRST, PREV, aggregates over a variable, MATCH_ROWTIME) a DEFINE condition or the
 * MEASURES read, into the `$nav<i>` slots of a scratch row. In DEFINE the row under test counts as mapped to the
 * variable tested (`current`, `currentVariable`); in MEASURES there is no current row. Walks the match's steps; no
 * allocation per call (the path buffer and the aggregate arguments are reused; a user aggregate of several
 * arguments reads them as one array per row, the aggregates' argument convention, aggregates/argument-code.ts).
 */
export class Navigator {
  private readonly path: Step[] = [];
  private readonly aggs: (AggregateSet | undefined)[];
  /** Per aggregate: reads its arguments of one row (generated, `o[0]=r[2]*r[3]`), and the array they are read into. */
  private readonly aggArgs: (ArgumentReader | undefined)[];
  private readonly argBuffers: (unknown[] | undefined)[];

  constructor(
    private readonly navs: readonly MatchNavigation[], private readonly width: number, private readonly timeColumn: number,
    input: ResolvedSchema, resolveFunction?: FunctionResolver,
  ) {
    this.aggs = navs.map((n) => {
      if (n.kind !== "agg") return undefined;
      const set = new AggregateSet([n.call], false);
      set.grow(1);
      return set;
    });
    this.aggArgs = navs.map((n) => (n.kind === "agg" ? argumentReader([n.call], input, resolveFunction) : undefined));
    this.argBuffers = navs.map((n) => (n.kind === "agg" ? [null] : undefined));
  }

  /** Fills `x[width + i]` for each navigation i in `which`; `last` is the match's newest step (null: none yet). */
  fill(x: unknown[], which: readonly number[], last: Step | null, current: unknown[] | null, currentVariable: number): void {
    let pathReady = false;
    for (let k = 0; k < which.length; k++) {
      const i = which[k]!;
      const nav = this.navs[i]!;
      let v: unknown = null;
      switch (nav.kind) {
        case "last": {
          let n = nav.offset;
          if (current !== null && (nav.variable < 0 || nav.variable === currentVariable)) {
            if (n === 0) { v = current[nav.column]; break; }
            n--;
          }
          for (let s = last; s !== null; s = s.prev) {
            if (nav.variable >= 0 && s.variable !== nav.variable) continue;
            if (n === 0) { v = s.row[nav.column]; break; }
            n--;
          }
          break;
        }
        case "first": {
          if (!pathReady) { this.buildPath(last); pathReady = true; }
          let n = nav.offset;
          const path = this.path;
          let found = false;
          for (let j = 0; j < path.length; j++) {
            const s = path[j]!;
            if (nav.variable >= 0 && s.variable !== nav.variable) continue;
            if (n === 0) { v = s.row[nav.column]; found = true; break; }
            n--;
          }
          if (!found && n === 0 && current !== null && (nav.variable < 0 || nav.variable === currentVariable)) v = current[nav.column];
          break;
        }
        case "prev": {
          // the row `offset` rows before the current one (DEFINE) or before the last row (MEASURES), inside the match
          let n = current !== null ? nav.offset - 1 : nav.offset;
          if (n < 0) { v = current![nav.column]; break; }
          let s = last;
          while (s !== null && n > 0) { s = s.prev; n--; }
          v = s === null ? null : s.row[nav.column];
          break;
        }
        case "agg": {
          if (!pathReady) { this.buildPath(last); pathReady = true; }
          const set = this.aggs[i]!;
          set.reset(0);
          const args = this.aggArgs[i]!;
          const arg = this.argBuffers[i]!;
          const path = this.path;
          for (let j = 0; j < path.length; j++) {
            const s = path[j]!;
            if (nav.variable >= 0 && s.variable !== nav.variable) continue;
            args(s.row, arg);
            set.accumulate(0, arg);
          }
          if (current !== null && (nav.variable < 0 || nav.variable === currentVariable)) {
            args(current, arg);
            set.accumulate(0, arg);
          }
          set.write(0, x, this.width + i);
          continue;
        }
        case "matchRowtime":
          v = last === null ? null : last.row[this.timeColumn];
          break;
      }
      x[this.width + i] = v;
    }
    if (pathReady) this.path.length = 0;
  }

  /** The match's steps oldest first. */
  private buildPath(last: Step | null): void {
    const path = this.path;
    path.length = 0;
    for (let s = last; s !== null; s = s.prev) path.push(s);
    path.reverse();
  }
}
