import { exprToSql, quoteIdentifier as q } from "../expressions/to-sql.js";
import type { ExprNode } from "../expressions/node.js";
import type { MatchNavigation, MatchRecognizeNode } from "./nodes/match-recognize.js";
import { patternToString } from "./nodes/match-pattern.js";

/**
 * A MatchRecognize node as Flink SQL: `SELECT * FROM <input> MATCH_RECOGNIZE (...) AS <alias>`. Conditions and
 * measures keep their meaning when written back: an unqualified column is the tested row in DEFINE and the last
 * row in MEASURES, in Flink as here; each navigation is written as the call it came from.
 */
export function matchToSql(n: MatchRecognizeNode, from: string, alias: string, functionName: (f: unknown) => string | undefined): string {
  const names = n.input.schema.names;
  const nav = (x: MatchNavigation): string => {
    const ref = (v: number, c: number): string => (v < 0 ? q(names[c]!) : `${q(n.variables[v]!)}.${q(names[c]!)}`);
    switch (x.kind) {
      case "last": case "first": return `${x.kind.toUpperCase()}(${ref(x.variable, x.column)}, ${x.offset})`;
      case "prev": return `PREV(${q(names[x.column]!)}, ${x.offset})`;
      case "agg": {
        // the arguments are over the input's columns: written back qualified by the aggregated variable
        const v = x.variable < 0 ? undefined : q(n.variables[x.variable]!);
        const args = x.call.args.map((a) => exprToSql(a, { column: (c) => (v === undefined ? q(c) : `${v}.${q(c)}`), functionName }));
        const fn = x.call.udf === undefined ? x.call.fn : functionName(x.call.udf) ?? x.call.fn;
        // no arguments: COUNT(*) (every row of the match) or COUNT(v.*) (the rows mapped to v)
        return `${fn}(${args.length > 0 ? args.join(", ") : v === undefined ? "*" : `${v}.*`})`;
      }
      case "matchRowtime": return "MATCH_ROWTIME()";
    }
  };
  const sql = (e: ExprNode): string => exprToSql(e, {
    column: (c) => { const m = /^\$nav(\d+)$/.exec(c); return m === null ? q(c) : nav(n.navigations[Number(m[1])]!); },
    functionName,
  });
  const after = n.after.kind === "PAST_LAST_ROW" ? "SKIP PAST LAST ROW" : n.after.kind === "TO_NEXT_ROW" ? "SKIP TO NEXT ROW"
    : `SKIP TO ${n.after.kind === "TO_FIRST" ? "FIRST" : "LAST"} ${q(n.variables[n.after.variable]!)}`;
  const lines = [
    ...(n.partitionKeys.length > 0 ? [`PARTITION BY ${n.partitionKeys.map((k) => q(names[k]!)).join(", ")}`] : []),
    `ORDER BY ${n.orderKeys.map((k) => `${q(names[k.column]!)} ${k.ascending ? "ASC" : "DESC"} NULLS ${k.nullsFirst ? "FIRST" : "LAST"}`).join(", ")}`,
    ...(n.measures.length > 0 ? [`MEASURES ${n.measures.map((m) => `${sql(m.expr)} AS ${q(m.name)}`).join(", ")}`] : []),
    "ONE ROW PER MATCH",
    `AFTER MATCH ${after}`,
    `PATTERN (${patternToString(n.pattern, n.variables)})${n.within === undefined ? "" : ` WITHIN INTERVAL '${n.within / 1000}' SECOND`}`,
    `DEFINE ${n.variables.map((v, i) => `${q(v)} AS ${n.defines[i] === undefined ? "TRUE" : sql(n.defines[i]!)}`).join(", ")}`,
  ];
  return `SELECT *\nFROM ${from} MATCH_RECOGNIZE (\n${lines.map((l) => `  ${l}`).join("\n")}\n) AS ${alias}`;
}
