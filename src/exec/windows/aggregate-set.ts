import { CodegenContext } from "../../expressions/compile.js";
import type { AggCall } from "../../plan/nodes.js";
import { ResolvedSchema } from "../../types/resolved-schema.js";
import { AggregateLayout, type AggregateOptions } from "../aggregates/aggregate-layout.js";
import type { GroupColumns } from "../aggregates/group-columns.js";

export { type ArgumentReader, argumentReader } from "../aggregates/argument-code.js";

type Update = (s: GroupColumns, g: number, args: readonly unknown[]) => void;

/**
 * The aggregate calls of an operator that accumulates arguments it kept (session windows aggregate a
 * session's rows when it fires, over windows when rows are released): the AggregateLayout's columns plus
 * three functions generated from its code — accumulate, retract and write the values — that take the
 * arguments as an array. Groups are dense ids handed out by the owner; `grow` must cover an id before it
 * is used.
 */
export class AggregateSet {
  private readonly layout: AggregateLayout;
  private readonly cols: GroupColumns;
  private readonly add: Update;
  private readonly remove: Update;
  private readonly writeValues: (s: GroupColumns, g: number, out: unknown[], at: number) => void;

  constructor(calls: readonly AggCall[], retractable: boolean, options?: AggregateOptions) {
    // groups here are reset and re-accumulated (sessions, over frames): N counts rows
    const layout = new AggregateLayout(calls, retractable, options, false);
    this.layout = layout;
    this.cols = layout.newColumns();
    const ctx = new CodegenContext(new ResolvedSchema([]));
    const xs = calls.map((_a, i) => `a[${i}]`);
    const p = layout.prelude("S");
    const vals = layout.values(ctx);
    [this.add, this.remove, this.writeValues] = ctx.build<[Update, Update, AggregateSet["writeValues"]]>(`[
      function accumulate(S,g,a){${p}${layout.accumulate(xs)}},
      function retract(S,g,a){${p}${layout.retract(xs)}},
      function write(S,g,o,at){${p}${vals.map((v, i) => `o[at+${i}]=${v};`).join("")}}]`);
  }

  get size(): number {
    return this.layout.size;
  }

  /** Makes room for group ids below `n`. */
  grow(n: number): void {
    this.cols.grow(n);
  }

  reset(gid: number): void {
    this.cols.reset(gid);
  }

  /** Adds one record whose arguments were read into `args`. */
  accumulate(gid: number, args: readonly unknown[]): void {
    this.add(this.cols, gid, args);
  }

  retract(gid: number, args: readonly unknown[]): void {
    this.remove(this.cols, gid, args);
  }

  /** Writes the aggregate values of `gid` into `out[at..]`. */
  write(gid: number, out: unknown[], at: number): void {
    this.writeValues(this.cols, gid, out, at);
  }

  snapshot(gid: number): unknown {
    return this.layout.snapshot(this.cols, gid);
  }

  restore(gid: number, data: unknown): void {
    this.layout.restore(this.cols, gid, data as { rows: number; accs: unknown[] });
  }
}
