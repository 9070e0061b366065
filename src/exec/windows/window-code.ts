import { CodegenContext, type FunctionResolver } from "../../expressions/compile.js";
import { ExecutionError } from "../../types/errors.js";
import type { WindowAggregateNode } from "../../plan/nodes.js";
import { AggregateLayout, type AggregateOptions } from "../aggregates/aggregate-layout.js";
import { argumentReads } from "../aggregates/argument-code.js";
import { type DirectOutput, emitSource } from "../aggregates/downstream.js";
import type { GroupColumns } from "../aggregates/group-columns.js";
import { type KeyCode, compileKeys } from "../aggregates/key-code.js";
import type { KeyIndex } from "../aggregates/key-index.js";
import { errorWithRow } from "../operators/row-error.js";

/** One window [start, end) and its groups: ids are dense per window, so a firing walks them in arrival order. */
export interface WindowState {
  readonly start: number;
  readonly end: number;
  readonly keys: KeyIndex;
  readonly cols: GroupColumns;
}

/** What the generated code reads and calls on its operator. */
export interface WindowHost {
  readonly currentWatermark: number;
  /** The window the last row went to: consecutive rows mostly share it. */
  readonly last: WindowState | undefined;
  /** The open window ending at `end`, opened if needed; it becomes `last`. */
  window(start: number, end: number): WindowState;
  /** The record's event time; throws Flink's error for a NULL rowtime. */
  rowtime(row: readonly unknown[]): number;
  numLateRecordsDropped: number;
}

/** The layout, key code and generated functions of one WindowAggregateOperator. */
export interface WindowAggregateCode {
  readonly layout: AggregateLayout;
  /** Creates the key index of a new window. */
  readonly key: KeyCode;
  readonly processElement: (input: number, kind: number, row: unknown[]) => void;
  /** Emits a window's groups as `+I` rows: [keys, aggregates, window properties]. */
  readonly emitWindow: (w: WindowState) => void;
}

/**
 * Generates the per-record function of a TUMBLE / SLIDE / CUMULATE window aggregate: the record's time,
 * the windows of that time for this window type (docs/time.md), the late check, the key and arguments
 * evaluated once — only for a row that is not late —, and per window the key probe and the accumulator
 * updates (AggregateLayout). A row that reaches no open window is counted in `numLateRecordsDropped`.
 * Nothing is emitted while a record is assigned, so every error raised by it is the record's
 * (row-error.ts). Window starts are `Math.floor(t / size) * size`, aligned to the epoch (`%` on doubles is a
 * slow fmod call).
 */
export function compileWindowAggregate(
  node: WindowAggregateNode, host: WindowHost, down: DirectOutput, resolveFunction?: FunctionResolver, options: AggregateOptions = {},
  projection?: readonly number[],
): WindowAggregateCode {
  const w = node.window;
  const schema = node.input.schema;
  const layout = new AggregateLayout(node.aggCalls, false, options);
  const ctx = new CodegenContext(schema, resolveFunction, "r");
  const key = compileKeys(node.groupKeys, ctx);
  const args = argumentReads(node.aggCalls, ctx, (i) => layout.needsArg(i));
  const size = w.size;
  const step = w.step ?? w.size;
  // Flink's window offset: the windows of ts are the epoch-aligned ones of ts - offset, shifted by offset
  const off = w.offset ?? 0;
  const shift = (v: string) => (off === 0 ? v : `${v}+(${off})`);
  const base = off === 0 ? "ts" : `(ts-(${off}))`;
  // the row's part in one window [start, end): find or open the window, then its group
  const inWindow = (start: string, end: string) => `{let W=O.last;if(W===undefined||W.end!==${end})W=O.window(${start},${end});`
    + `const I=W.keys,S=W.cols;let g=I.get(${key.probe});if(g<0){g=S.alloc();I.add(${key.probe},${key.key},g);${layout.created("S")}}`
    + `${layout.prelude("S")}${layout.accumulate(args.xs)}}`;
  const reads = `${key.read}${args.read}`;
  let assign: string;
  switch (w.type) {
    case "TUMBLE":
      assign = `const start=${shift(`Math.floor(${base}/${size})*${size}`)},end=start+${size};if(end-1<=wm)return false;${reads}${inWindow("start", "end")}`;
      break;
    case "SLIDE":
      // windows [s, s + size) with s a multiple of the slide and s <= ts < s + size, earliest end first;
      // the last of them ends latest, so the row is late when that one has fired
      assign = `const first=${shift(`Math.floor(${base}/${step})*${step}`)};if(first+${size}-1<=wm)return false;${reads}`
        + `let s=first;while(s-${step}>ts-${size})s-=${step};`
        + `for(;s<=first;s+=${step}){const end=s+${size};if(end-1<=wm)continue;${inWindow("s", "end")}}`;
      break;
    case "CUMULATE":
      // windows [cycle start, cycle start + k * step) that contain ts; the whole cycle ends latest
      assign = `const start=${shift(`Math.floor(${base}/${size})*${size}`)},stop=start+${size};if(stop-1<=wm)return false;${reads}`
        + `for(let end=start+(Math.floor((ts-start)/${step})+1)*${step};end<=stop;end+=${step}){if(end-1<=wm)continue;${inWindow("start", "end")}}`;
      break;
    default: throw new ExecutionError(`the window aggregate does not run ${w.type} windows`);
  }
  const vars = [...key.vars, ...args.vars];
  const props = node.properties.map((p) => (p === "start" ? "new Date(W.start)" : p === "end" ? "new Date(W.end)" : "new Date(W.end-1)"));
  const vals = layout.values(ctx);
  // the node's row, or the columns of it a fused projection keeps, in its order
  const row = [...key.columnsOf("kv"), ...vals, ...props.map((_p, i) => `P${i}`)];
  const emitted = projection === undefined ? row : projection.map((i) => row[i]!);
  // one Date per property per firing, shared by the window's rows (records are immutable once emitted)
  const emit = `function emitWindow(W){const S=W.cols;${layout.prelude("S")}`
    + `${props.map((p, i) => `const P${i}=${p};`).join("")}`
    // each result row as the consumer's row object when the downstream is the result sink of batches()
    + `W.keys.forEachGroup(function(g,kv){${emitSource(0, emitted)}});}`;
  const consts = `const O=${ctx.constant(host)},D=${ctx.constant(down)},E=${ctx.constant(
    (e: unknown, kind: number, r: unknown[]) => errorWithRow(e, kind, r, schema))};`;
  const [processElement, emitWindow] = ctx.build<[WindowAggregateCode["processElement"], WindowAggregateCode["emitWindow"]]>(
    `(function(){${consts}function assign(ts,r){${ctx.tempDeclarations()}`
    + `${vars.length > 0 ? `let ${vars.join(",")};` : ""}const wm=O.currentWatermark;${assign}return true;}`
    + "return [function windowAggregate(input,kind,r){const ts=O.rowtime(r);let ok;"
    + "try{ok=assign(ts,r);}catch(e){throw E(e,kind,r);}if(!ok)O.numLateRecordsDropped++;},"
    + `${emit}];})()`);
  return { layout, key, processElement, emitWindow };
}
