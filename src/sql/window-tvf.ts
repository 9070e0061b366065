import { type ExprNode, nodeToString } from "../expressions/node.js";
import type { FunctionResolver } from "../expressions/compile.js";
import { evaluateConstant } from "../ptf/constant.js";
import { ValidationError } from "../types/errors.js";
import type { CallArg } from "./ast.js";

/** The windowing table functions of Flink SQL, by name. */
export const WINDOW_TVFS = ["TUMBLE", "HOP", "CUMULATE", "SESSION"] as const;
export type WindowTvfName = (typeof WINDOW_TVFS)[number];

/** A windowing table function call as written: `TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '10' MINUTES)`. */
export interface WindowTvfCall {
  readonly type: WindowTvfName;
  /** The table argument: its name, position and PARTITION BY columns (SESSION only). */
  readonly table: { readonly name: string; readonly pos: number; readonly partitionBy: readonly string[] };
  readonly timeColumn: string;
  /** Size (TUMBLE, HOP), maximum size (CUMULATE) or gap (SESSION), in milliseconds, and the interval as written. */
  readonly size: number;
  readonly sizeNode: ExprNode;
  /** Slide (HOP) or step (CUMULATE). */
  readonly step?: number;
  readonly stepNode?: ExprNode;
  /** `OFFSET` (TUMBLE, HOP, CUMULATE): the shift of the window starts from the epoch, in milliseconds; any sign. */
  readonly offset?: number;
  readonly offsetNode?: ExprNode;
}

/** Parameter names in Flink's order: HOP's slide and CUMULATE's step come before the size. */
const PARAMETERS: Readonly<Record<WindowTvfName, readonly string[]>> = {
  TUMBLE: ["DATA", "TIMECOL", "SIZE", "OFFSET"],
  HOP: ["DATA", "TIMECOL", "SLIDE", "SIZE", "OFFSET"],
  CUMULATE: ["DATA", "TIMECOL", "STEP", "SIZE", "OFFSET"],
  SESSION: ["DATA", "TIMECOL", "GAP"],
};

export function isWindowTvf(name: string): name is WindowTvfName {
  return (WINDOW_TVFS as readonly string[]).includes(name.toUpperCase());
}

/**
 * Reads the arguments of a windowing table function, positional or named (`DATA => TABLE t, TIMECOL =>
 * DESCRIPTOR(ts), SIZE => INTERVAL '5' MINUTES`), as Flink's SqlWindowTableFunction declares them. Errors say
 * which argument is wrong; `at(pos, f)` re-raises them with the argument's line and column.
 */
export function readWindowTvf(name: string, args: readonly CallArg[], resolveFunction: FunctionResolver | undefined,
  at: <T>(pos: number, f: () => T) => T, callPos: number): WindowTvfCall {
  const type = name.toUpperCase() as WindowTvfName;
  const params = PARAMETERS[type];
  const signature = `${type}(${params.filter((p) => p !== "OFFSET").join(", ")}${params.includes("OFFSET") ? " [, OFFSET]" : ""})`;
  const given = new Map<string, CallArg>();
  args.forEach((a, i) => {
    const key = a.name === undefined ? params[i] : a.name.toUpperCase();
    at(a.pos, () => {
      if (key === undefined) throw new ValidationError(`${type} takes at most ${params.length} arguments: ${signature}`);
      if (!params.includes(key)) throw new ValidationError(`${type} has no parameter '${a.name}'; its parameters are ${signature}`);
      if (given.has(key)) throw new ValidationError(`${type}: the argument ${key} is given twice`);
    });
    given.set(key!, a);
  });
  const missing = params.filter((p) => p !== "OFFSET" && !given.has(p));
  if (missing.length > 0) at(callPos, () => { throw new ValidationError(`${type} is missing the argument ${missing.join(", ")}: ${signature}`); });
  const data = given.get("DATA")!;
  const dv = data.value;
  if (dv.kind !== "table") at(data.pos, () => { throw new ValidationError(`${type}: the DATA argument must be TABLE name, e.g. TABLE Bids`); });
  const table = dv as Extract<CallArg["value"], { kind: "table" }>;
  at(data.pos, () => {
    if (table.orderBy.length > 0) throw new ValidationError(`${type}: ORDER BY is not allowed in the DATA argument`);
    if (table.partitionBy.length > 0 && type !== "SESSION") throw new ValidationError(`${type}: PARTITION BY is allowed for SESSION windows only`);
  });
  const timecol = given.get("TIMECOL")!;
  const tv = timecol.value;
  if (tv.kind !== "descriptor" || tv.names.length !== 1) {
    at(timecol.pos, () => { throw new ValidationError(`${type}: the TIMECOL argument must be DESCRIPTOR(column) naming one time attribute`); });
  }
  const interval = (p: string, signed = false): { ms: number; node: ExprNode } => {
    const a = given.get(p)!;
    const v = a.value;
    return at(a.pos, () => {
      if (v.kind !== "expr") throw new ValidationError(`${type}: the ${p} argument must be an interval such as INTERVAL '10' MINUTES`);
      const { type: t, value } = evaluateConstant(v.node, `${type}: the ${p} argument`, resolveFunction);
      if (t.root !== "INTERVAL_DAY_TIME") throw new ValidationError(`${type}: the ${p} argument must be a day-time interval such as INTERVAL '10' MINUTES, got ${t} in ${nodeToString(v.node)}`);
      if (signed && typeof value === "number" && Number.isFinite(value)) return { ms: value, node: v.node };
      if (typeof value !== "number" || !(value > 0)) throw new ValidationError(`${type}: the ${p} argument must be positive, got ${value === null ? "NULL" : `${String(value)} ms`}`);
      return { ms: value, node: v.node };
    });
  };
  const size = interval(type === "SESSION" ? "GAP" : "SIZE");
  const step = type === "HOP" ? interval("SLIDE") : type === "CUMULATE" ? interval("STEP") : undefined;
  // Flink's offset shifts the window starts: any day-time interval, negative too (OFFSET => INTERVAL '-6' SECOND)
  const offset = given.has("OFFSET") ? interval("OFFSET", true) : undefined;
  return {
    type, table: { name: table.name, pos: table.pos, partitionBy: table.partitionBy }, timeColumn: (tv as { names: readonly string[] }).names[0]!,
    size: size.ms, sizeNode: size.node, ...(step === undefined ? {} : { step: step.ms, stepNode: step.node }),
    ...(offset === undefined || offset.ms === 0 ? {} : { offset: offset.ms, offsetNode: offset.node }),
  };
}

/** The window properties a window aggregate computes for the TVF's columns (the rest are grouped as usual). */
export const WINDOW_PROPERTY_FNS: Readonly<Record<string, string>> = { window_start: "windowStart", window_end: "windowEnd", window_time: "windowRowtime" };

/**
 * A select item over a window aggregate: `window_start` / `window_end` / `window_time` become the window's
 * properties `$w.start()`, `.end()`, `.rowtime()`, keeping their names. Inside an aggregate they are an error.
 */
export function windowPropertiesOf(e: ExprNode, alias: string, top = true): ExprNode {
  switch (e.kind) {
    case "Column": {
      const fn = WINDOW_PROPERTY_FNS[e.name];
      if (fn === undefined) return e;
      const call: ExprNode = { kind: "Call", fn, args: [{ kind: "Column", name: alias }] };
      return top ? { kind: "Alias", name: e.name, extraNames: [], expr: call } : call;
    }
    case "Alias": return { ...e, expr: windowPropertiesOf(e.expr, alias, false) };
    case "Call": return { ...e, args: e.args.map((a) => windowPropertiesOf(a, alias, false)) };
    case "Agg": {
      const inner = e.args.find((a) => mentionsWindowColumn(a));
      if (inner !== undefined) throw new ValidationError(`${nodeToString(e)}: window_start, window_end and window_time cannot be aggregated in a window aggregate`);
      return e;
    }
    default: return e;
  }
}

export function mentionsWindowColumn(e: ExprNode): boolean {
  switch (e.kind) {
    case "Column": return e.name in WINDOW_PROPERTY_FNS;
    case "Alias": case "Sort": case "Argument": return mentionsWindowColumn(e.expr);
    case "Call": case "Agg": return e.args.some(mentionsWindowColumn);
    default: return false;
  }
}
