import { nodeToString } from "../expressions/node.js";
import type { AggCall, GroupWindowSpec, OverAggregateNode, WindowAggregateNode } from "./nodes.js";

/** explain() attributes of window and over aggregates, in the style of Flink's plans. */

function duration(ms: number): string {
  return `${ms}ms`;
}

export function windowToString(w: GroupWindowSpec): string {
  const s = epochWindowToString(w);
  return w.offset === undefined ? s : `${s.slice(0, -1)}, offset=${duration(w.offset)})`;
}

function epochWindowToString(w: GroupWindowSpec): string {
  switch (w.type) {
    case "TUMBLE": return `TumblingGroupWindow('${w.alias}, ${w.timeColumn}, ${duration(w.size)})`;
    case "SLIDE": return `SlidingGroupWindow('${w.alias}, ${w.timeColumn}, ${duration(w.size)}, ${duration(w.step!)})`;
    case "SESSION": return `SessionGroupWindow('${w.alias}, ${w.timeColumn}, ${duration(w.size)})`;
    case "CUMULATE": return `CumulativeGroupWindow('${w.alias}, ${w.timeColumn}, ${duration(w.size)}, ${duration(w.step!)})`;
  }
}

const aggToString = (a: AggCall): string => `${a.fn}(${a.distinct ? "DISTINCT " : ""}${a.args.map(nodeToString).join(", ")}) AS ${a.name}`;

export function explainWindowAggregate(n: WindowAggregateNode): string {
  const keys = n.groupKeys.map(nodeToString);
  const props = n.properties.map((p) => `${p}('${n.window.alias}) AS ${n.schema.names[keys.length + n.aggCalls.length + n.properties.indexOf(p)]}`);
  return `groupBy=[${keys.join(", ")}], window=[${windowToString(n.window)}], select=[${[...keys, ...n.aggCalls.map(aggToString), ...props].join(", ")}]`;
}

export function explainOverAggregate(n: OverAggregateNode): string {
  const w = n.window;
  const bound = w.preceding === undefined ? "UNBOUNDED PRECEDING" : w.frame === "RANGE" ? `${duration(w.preceding)} PRECEDING` : `${w.preceding} PRECEDING`;
  return `partitionBy=[${w.partitionBy.map(nodeToString).join(", ")}], orderBy=[${w.orderBy} ${w.ascending ? "ASC" : "DESC"}], `
    + `window=[${w.frame} BETWEEN ${bound} AND CURRENT ROW], select=[${n.aggCalls.map(aggToString).join(", ")}]`;
}
