import { nodeIdentities } from "../../plan/identity.js";
import type { PlanNode } from "../../plan/nodes.js";
import type { Operator } from "../operator.js";
import type { OwnedOperator } from "../job-graph.js";

/**
 * The identities state is checkpointed under. An operator's state belongs to the plan node it runs: the
 * node's stable identity (plan/identity.ts: a hash of its shape and inputs), or for a PTF call with set
 * semantics its uid — the `uid` argument, else the function's name (PTF rule 14), as Flink names the PTF
 * operator by it. So a PTF call keeps its state however the query around it changes, while an operator
 * without a uid keeps it as long as it and everything upstream of it is unchanged (Flink's rule for
 * operators without `uid(...)`). Sinks and connector sources are identified by their table
 * (`sink:<table>`, `source:<table>`), so a sink's transactions and a source's position survive any change of
 * the query between them. A node that runs as several operators numbers the further ones `<uid>#1`, ...;
 * a source is identified by its node the same way.
 */
export function stateUids(
  root: PlanNode, operators: readonly Operator[], ownerOf: ReadonlyMap<Operator, PlanNode>, sourceOwners: readonly PlanNode[],
): { owned: OwnedOperator[]; sourceUids: string[] } {
  const ids = nodeIdentities(root);
  const used = new Map<string, number>();
  const uidOf = (node: PlanNode): string => {
    const base = ptfUid(node) ?? tableUid(node) ?? ids.get(node)?.uid ?? node.kind;
    const n = used.get(base) ?? 0;
    used.set(base, n + 1);
    return n === 0 ? base : `${base}#${n}`;
  };
  const owned: OwnedOperator[] = [];
  for (const op of operators) {
    const node = ownerOf.get(op);
    if (node !== undefined) owned.push({ uid: uidOf(node), op, node });
  }
  return { owned, sourceUids: sourceOwners.map(uidOf) };
}

function ptfUid(node: PlanNode): string | undefined {
  return node.kind === "Process" ? node.call.uid : undefined;
}

function tableUid(node: PlanNode): string | undefined {
  if (node.kind === "Sink") return `sink:${node.tableName}`;
  if (node.kind === "SourceScan") return `source:${node.tableName}`;
  return undefined;
}
