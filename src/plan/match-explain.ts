import { type ExprNode, col, nodeToString } from "../expressions/node.js";
import type { MatchNavigation, MatchRecognizeNode } from "./nodes/match-recognize.js";
import { patternToString } from "./nodes/match-pattern.js";
import { sortKeysToString } from "./nodes/sort.js";

/**
 * A MatchRecognize node's attributes in the order Flink's StreamExecMatch prints them: `partitionBy=[...],
 * orderBy=[...], measures=[...], rowsPerMatch=[ONE ROW PER MATCH], after=[SKIP PAST LAST ROW], pattern=[...],
 * [within=[...], ]define=[{A=..., B=...}]`. Navigations print as their SQL (`LAST(DOWN.price, 1)`).
 */
export function explainMatch(n: MatchRecognizeNode): string {
  const names = n.input.schema.names;
  const show = (e: Parameters<typeof nodeToString>[0]): string => nodeToString(e).replace(/\$nav(\d+)/g, (_, i: string) => navigationToString(n, n.navigations[Number(i)]!));
  const after = n.after.kind === "PAST_LAST_ROW" ? "SKIP PAST LAST ROW" : n.after.kind === "TO_NEXT_ROW" ? "SKIP TO NEXT ROW"
    : `SKIP TO ${n.after.kind === "TO_FIRST" ? "FIRST" : "LAST"} ${n.variables[n.after.variable]}`;
  const defines = n.variables.flatMap((v, i) => (n.defines[i] === undefined ? [] : [`${v}=${show(n.defines[i]!)}`]));
  return `partitionBy=[${n.partitionKeys.map((k) => names[k]).join(", ")}], orderBy=[${sortKeysToString(n.orderKeys, n.input.schema)}], `
    + `measures=[${n.measures.map((m) => `${show(m.expr)} AS ${m.name}`).join(", ")}], rowsPerMatch=[ONE ROW PER MATCH], after=[${after}], `
    + `pattern=[${patternToString(n.pattern, n.variables)}], ${n.within === undefined ? "" : `within=[${n.within}ms], `}define=[{${defines.join(", ")}}]`;
}

/** One navigation in SQL: `LAST(A.price, 1)`, `FIRST(price)`, `PREV(price, 2)`, `AVG(A.price)`, `MATCH_ROWTIME()`. */
export function navigationToString(n: MatchRecognizeNode, nav: MatchNavigation): string {
  const names = n.input.schema.names;
  const ref = (variable: number, column: number): string => (variable < 0 ? names[column]! : `${n.variables[variable]}.${names[column]}`);
  switch (nav.kind) {
    case "last": case "first": return `${nav.kind.toUpperCase()}(${ref(nav.variable, nav.column)}${nav.offset === 0 ? "" : `, ${nav.offset}`})`;
    case "prev": return `PREV(${names[nav.column]}${nav.offset === 1 ? "" : `, ${nav.offset}`})`;
    case "agg": return `${nav.call.fn}(${nav.call.args.length === 0 ? (nav.variable < 0 ? "*" : `${n.variables[nav.variable]!}.*`) : nav.call.args.map((a) => qualifiedText(a, nav.variable < 0 ? undefined : n.variables[nav.variable]!)).join(", ")})`;
    case "matchRowtime": return "MATCH_ROWTIME()";
  }
}

/** An aggregate argument over the input's columns, printed with the aggregated variable: `A.price * A.qty`. */
function qualifiedText(e: ExprNode, variable: string | undefined): string {
  if (variable === undefined) return nodeToString(e);
  const qualify = (x: ExprNode): ExprNode => (x.kind === "Column" ? col(`${variable}.${x.name}`) : x.kind === "Call" ? { ...x, args: x.args.map(qualify) } : x);
  return nodeToString(qualify(e));
}
