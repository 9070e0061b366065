import { partitionsToString, pushedFilterToString } from "./pushed-filter.js";
import { nodeToString } from "../expressions/node.js";
import { type ChangelogMode, deriveChangelogMode, modeToShortString } from "./changelog-mode.js";
import { type PlanNode, inputsOf } from "./nodes.js";
import { explainJoin } from "./join-explain.js";
import { explainRelational } from "./relational-explain.js";
import { sortKeysToString } from "./nodes/sort.js";
import { explainMatch } from "./match-explain.js";
import { explainOverAggregate, explainWindowAggregate } from "./window-explain.js";
import { type ConfigReader, aggregatePhases } from "./agg-phase.js";

/**
 * Renders the logical plan as a tree, each node with its attributes, changelog mode and schema:
 * ```
 * == Logical Plan ==
 * Project(select=[name, age], changelogMode=[I]) -> [name: STRING, age: INT]
 * +- Filter(condition=[greaterThanOrEqual(age, 18)], changelogMode=[I]) -> [name: STRING, age: INT]
 *    +- Values(rows=3, changelogMode=[I]) -> [name: STRING, age: INT]
 * ```
 * With the job's `config`, a GROUP BY that runs in two phases (agg-phase.ts) shows as Flink shows it: a
 * `GlobalGroupAggregate` over a `LocalGroupAggregate` (same keys and calls; the local one has its input's mode).
 */
export function explainPlan(root: PlanNode, batch: boolean, config?: ConfigReader): string {
  const cache = new Map();
  const lines: string[] = ["== Logical Plan =="];
  const visit = (n: PlanNode, prefix: string, childPrefix: string) => {
    if (n.kind === "Aggregate" && config !== undefined && aggregatePhases(n, config, batch) === 2) {
      lines.push(`${prefix}Global${nodeLine(n, batch, cache).replace(/^Aggregate/, "GroupAggregate")}`);
      const inputMode = modeToShortString(deriveChangelogMode(n.input, batch, cache));
      lines.push(`${childPrefix}+- LocalGroupAggregate(${attributes(n)}, changelogMode=${inputMode}) -> ${n.schema.toShortString()}`);
      visit(n.input, `${childPrefix}   +- `, `${childPrefix}      `);
      return;
    }
    lines.push(`${prefix}${nodeLine(n, batch, cache)}`);
    const inputs = inputsOf(n);
    inputs.forEach((c, i) => {
      const last = i === inputs.length - 1;
      visit(c, `${childPrefix}${last ? "+- " : ":- "}`, `${childPrefix}${last ? "   " : ":  "}`);
    });
  };
  visit(root, "", "");
  return lines.join("\n");
}

/** One line of explain(): `Kind(attributes, changelogMode=[...]) -> [schema]`; `extra` goes after the attributes. */
export function nodeLine(n: PlanNode, batch: boolean, cache: Map<PlanNode, ChangelogMode>, extra = ""): string {
  const mode = modeToShortString(deriveChangelogMode(n, batch, cache));
  const attrs = attributes(n);
  return `${n.kind}(${attrs}${attrs ? ", " : ""}${extra}changelogMode=${mode}) -> ${n.schema.toShortString()}`;
}

/** One node as explain() renders it, without inputs: `Aggregate(groupBy=[name], select=[...])`. */
export function describeNode(n: PlanNode): string {
  return `${n.kind}(${attributes(n)})`;
}

function attributes(n: PlanNode): string {
  switch (n.kind) {
    case "Values": return `rows=${n.rows.length}${n.primaryKey ? `, primaryKey=[${n.primaryKey.join(", ")}]` : ""}${n.watermark ? `, watermark=[${n.watermark.rowtimeColumn} - ${n.watermark.delayMillis}ms]` : ""}`;
    case "SourceScan": return `table=[${n.tableName}], connector=[${n.connector}]${n.pushdown?.partitions ? `, partitions=[${partitionsToString(n.pushdown.partitions)}]` : ""}${n.pushdown?.projection ? `, project=[${n.physical.names.join(", ")}]` : ""}${n.pushdown?.filters.length ? `, filter=[${n.pushdown.filters.map(pushedFilterToString).join(" AND ")}]` : ""}`;
    case "Project": return `select=[${n.exprs.map((e, i) => {
      const s = nodeToString(e);
      const name = n.schema.names[i];
      return s === name ? s : `${s} AS ${name}`;
    }).join(", ")}]`;
    case "Filter": return `condition=[${nodeToString(n.predicate)}]`;
    case "Aggregate": return `groupBy=[${n.groupKeys.map(nodeToString).join(", ")}], select=[${[
      ...n.groupKeys.map(nodeToString),
      ...n.aggCalls.map((a) => `${a.fn}(${a.distinct ? "DISTINCT " : ""}${a.args.map(nodeToString).join(", ")}) AS ${a.name}`),
    ].join(", ")}]`;
    case "Distinct": return "";
    case "Union": return "all=[true]";
    case "WindowAggregate": return explainWindowAggregate(n);
    case "WindowTableFunction": return `window=[${n.window.type}(time_col=[${n.window.timeColumn}], ${n.window.step === undefined ? "" : `${n.window.type === "HOP" ? "slide" : "step"}=[${n.window.step}ms], `}size=[${n.window.size}ms]${n.window.offset === undefined ? "" : `, offset=[${n.window.offset}ms]`})]`;
    case "OverAggregate": return explainOverAggregate(n);
    case "Sink": return `table=[${n.tableName}], connector=[${n.connector}], fields=[${n.schema.names.join(", ")}]`;
    case "Correlate": return `invocation=[${n.functionName}(${n.args.map(nodeToString).join(", ")})], joinType=[${n.joinType}]${n.condition ? `, condition=[${nodeToString(n.condition)}]` : ""}`;
    case "WindowRank": return `window=[${n.input.schema.names[n.windowStart]}, ${n.input.schema.names[n.windowEnd]}], partitionBy=[${n.partitionKeys.map((k) => n.input.schema.names[k]).join(", ")}], orderBy=[${sortKeysToString(n.orderKeys, n.input.schema)}], rankRange=[${n.offset + 1}..${n.offset + n.fetch}]${n.rowNumber === undefined ? "" : `, rowNumber=[${n.rowNumber}]`}`;
    case "WindowJoin": return `joinType=[${n.joinType}], where=[${nodeToString(n.condition!)}]`;
    case "SemiJoin": return `joinType=[${n.anti ? "anti" : "semi"}]${n.condition === undefined ? "" : `, where=[${nodeToString(n.condition)}]`}`;
    case "Join": case "IntervalJoin": case "TemporalJoin": case "LookupJoin": return explainJoin(n);
    case "Sort":
    case "Rank":
    case "Deduplicate":
    case "SetOp": return explainRelational(n);
    case "TableAggregate": return `groupBy=[${n.groupKeys.map(nodeToString).join(", ")}], invocation=[${n.functionName}(${n.args.map(nodeToString).join(", ")})], select=[${n.schema.names.join(", ")}]`;
    case "ChangelogNormalize": return `key=[${n.uniqueKeys.join(", ")}]`;
    case "StatementSet": return `sinks=[${n.sinks.map((s) => s.tableName).join(", ")}]`;
    case "Process": return n.call.describe();
    case "MatchRecognize": return explainMatch(n);
    case "AsyncCalc": return `calls=[${n.calls.map((c) => `${c.name}(${c.args.map(nodeToString).join(", ")}) AS ${c.column}`).join(", ")}]`;
  }
}
