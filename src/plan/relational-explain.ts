import type { DeduplicateNode, RankNode, SetOpNode, SortNode } from "./nodes.js";
import { sortKeysToString } from "./nodes/sort.js";

/** explain() attributes of Sort, Rank, Deduplicate and SetOp, named as in Flink's plans. */
export function explainRelational(n: SortNode | RankNode | DeduplicateNode | SetOpNode): string {
  switch (n.kind) {
    case "Sort": {
      const parts = n.keys.length > 0 ? [`orderBy=[${sortKeysToString(n.keys, n.input.schema)}]`] : [];
      if (n.offset > 0) parts.push(`offset=[${n.offset}]`);
      if (n.fetch !== undefined) parts.push(`fetch=[${n.fetch}]`);
      return parts.join(", ");
    }
    case "Rank": {
      const names = n.input.schema.names;
      return `rankType=[ROW_NUMBER], rankRange=[rankStart=${n.rankStart}, rankEnd=${n.rankEnd}], `
        + `partitionBy=[${n.partitionKeys.map((k) => names[k]).join(", ")}], orderBy=[${sortKeysToString(n.orderKeys, n.input.schema)}], `
        + `outputRankNumber=[${n.rankNumber !== undefined}]${n.rankNumber !== undefined ? `, rankNumber=[${n.rankNumber}]` : ""}`;
    }
    case "Deduplicate": {
      const names = n.schema.names;
      return `keep=[${n.keepLast ? "LastRow" : "FirstRow"}], key=[${n.keys.map((k) => names[k]).join(", ")}], `
        + `order=[${n.rowtime === undefined ? "PROCTIME" : `ROWTIME(${names[n.rowtime]})`}]`;
    }
    case "SetOp": return `${n.op === "INTERSECT" ? "intersect" : "minus"}=[${n.all ? "all" : "distinct"}]`;
  }
}
