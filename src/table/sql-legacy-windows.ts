import { type ExprNode, nodeToString } from "../expressions/node.js";
import { ValidationError } from "../types/errors.js";
import type { GroupWindowDefinition } from "./windows/group-windows.js";

/**
 * Flink SQL's legacy group windows: `GROUP BY k, TUMBLE(rowtime, size)` / `HOP(rowtime, slide, size)` /
 * `SESSION(rowtime, gap)`, with `TUMBLE_START(...)` / `_END` / `_ROWTIME` (and the HOP_ / SESSION_ forms) in
 * SELECT and HAVING. They bind to the Table API's group window (`window(Tumble...).groupBy(w, k)`), so they
 * run on the same plan: one final row per window and key once the watermark passes the window's end.
 */

type Call = Extract<ExprNode, { kind: "Call" }>;

const WINDOWS: Readonly<Record<string, { type: GroupWindowDefinition["type"]; arity: number; signature: string }>> = {
  TUMBLE: { type: "TUMBLE", arity: 2, signature: "TUMBLE(time_attr, size)" },
  HOP: { type: "SLIDE", arity: 3, signature: "HOP(time_attr, slide, size)" },
  SESSION: { type: "SESSION", arity: 2, signature: "SESSION(time_attr, gap)" },
};

const PROPERTIES: Readonly<Record<string, string>> = { START: "windowStart", END: "windowEnd", ROWTIME: "windowRowtime" };

const isCall = (e: ExprNode): e is Call => e.kind === "Call" && e.udf === undefined;

/** The group-window call among GROUP BY keys (as written: `SESSION(rowtime, INTERVAL '3' SECOND)`). */
export interface LegacyGroupWindow {
  readonly call: Call;
  readonly name: string;
  readonly window: GroupWindowDefinition;
  /** The other grouping keys. */
  readonly keys: readonly ExprNode[];
}

/** The legacy group window among resolved grouping keys, or undefined when there is none. */
export function legacyGroupWindowOf(keys: readonly ExprNode[], alias: string): LegacyGroupWindow | undefined {
  const calls = keys.filter((k): k is Call => isCall(k) && k.fn.toUpperCase() in WINDOWS);
  if (calls.length === 0) return undefined;
  if (calls.length > 1) throw new ValidationError(`a query can group by one group window only, got ${calls.map(nodeToString).join(" and ")}`);
  const call = calls[0]!;
  const name = call.fn.toUpperCase();
  const spec = WINDOWS[name]!;
  if (call.args.length !== spec.arity) throw new ValidationError(`${name} takes ${spec.arity} arguments: ${spec.signature}, got ${call.args.length} in ${nodeToString(call)}`);
  const [timeField, a, b] = call.args;
  const window: GroupWindowDefinition = name === "HOP"
    ? { type: spec.type, timeField: timeField!, step: a!, size: b!, alias }
    : { type: spec.type, timeField: timeField!, size: a!, alias };
  return { call, name, window, keys: keys.filter((k) => k !== call) };
}

/**
 * A SELECT item or HAVING over a legacy group window: `TUMBLE_START(t, size)` becomes `$w.start()` (END: end(),
 * ROWTIME: rowtime()). The auxiliary call must name the GROUP BY window with the same arguments, as in Flink.
 */
export function legacyWindowPropertiesOf(e: ExprNode, w: LegacyGroupWindow, alias: string): ExprNode {
  switch (e.kind) {
    case "Alias": return { ...e, expr: legacyWindowPropertiesOf(e.expr, w, alias) };
    case "Call": {
      const m = isCall(e) ? /^(TUMBLE|HOP|SESSION)_(START|END|ROWTIME|PROCTIME)$/i.exec(e.fn) : null;
      if (m === null) return { ...e, args: e.args.map((a) => legacyWindowPropertiesOf(a, w, alias)) };
      const fn = PROPERTIES[m[2]!.toUpperCase()];
      if (fn === undefined) throw new ValidationError(`${nodeToString(e)}: ${e.fn.toUpperCase()} is not supported; group windows are on event time (use ${m[1]!.toUpperCase()}_ROWTIME)`);
      if (m[1]!.toUpperCase() !== w.name || JSON.stringify(e.args) !== JSON.stringify(w.call.args)) {
        throw new ValidationError(`${nodeToString(e)} does not match the group window ${nodeToString(w.call)} of the GROUP BY; its arguments must be the same`);
      }
      return { kind: "Call", fn, args: [{ kind: "Column", name: alias }] };
    }
    case "Agg": return { ...e, args: e.args.map((a) => legacyWindowPropertiesOf(a, w, alias)) };
    default: return e;
  }
}
