import { type ChangelogMode, deriveChangelogMode, isInsertOnly, isKeyedUpsert } from "./changelog-mode.js";
import { type PlanNode, inputsOf, newNodeId } from "./nodes.js";
import { changelogNormalizeNode } from "./nodes/changelog-normalize.js";

/**
 * Changelog-mode negotiation for keyed sources, as Flink's planner does it (FlinkChangelogModeInferenceProgram):
 * whether a node must receive full retractions (UPDATE_BEFORE and complete deletes) is decided by its
 * consumers, top-down from the job's roots. A source with a primary key emits an upsert changelog; where
 * some consumer on the way needs retractions, a ChangelogNormalize is inserted after the source, and
 * only there — an upsert sink keyed like the source reads the upsert changelog as it is.
 *
 * Who needs retractions:
 * - the collect sink of `execute()` (it shows a retract changelog, as Flink's collect does);
 * - a sink without a primary key, or whose key is not the changelog's upsert key;
 * - a filter (a row that stops matching must be retracted with its full content), a projection that drops
 *   an upsert key column, and every stateful relational operator (aggregates, DISTINCT, unions, lateral
 *   joins, OVER, table aggregates);
 * - not a PTF: its table arguments declare how they take updates (SUPPORTS_UPDATES / REQUIRE_UPDATE_BEFORE).
 * With `table.exec.source.cdc-events-duplicate = true` every updating keyed source is normalized (the
 * normalizer drops duplicated events), as in Flink.
 */
export function normalizeUpserts(root: PlanNode, options: { readonly batch: boolean; readonly cdcDuplicates: boolean; readonly rootNeedsRetractions: boolean }): PlanNode {
  const modes = new Map<PlanNode, ChangelogMode>();
  const modeOf = (n: PlanNode) => deriveChangelogMode(n, options.batch, modes);
  const memo = new Map<PlanNode, [PlanNode | undefined, PlanNode | undefined]>();

  const rewrite = (node: PlanNode, needs: boolean): PlanNode => {
    const slot = memo.get(node) ?? [undefined, undefined];
    memo.set(node, slot);
    const hit = slot[needs ? 1 : 0];
    if (hit) return hit;
    let out: PlanNode;
    if (node.kind === "Values" || node.kind === "SourceScan") {
      const mode = modeOf(node);
      const key = node.primaryKey;
      const normalize = key !== undefined && mode.normalizable === true
        && ((needs && (isKeyedUpsert(mode) || mode.keyOnlyDeletes === true)) || (options.cdcDuplicates && !isInsertOnly(mode)));
      out = normalize ? changelogNormalizeNode({ input: node, uniqueKeys: key }) : node;
    } else {
      const inputs = inputsOf(node);
      const rewritten = inputs.map((input, i) => rewrite(input, inputNeeds(node, i, needs, modeOf)));
      out = rewritten.every((r, i) => r === inputs[i]) ? node : withInputs(node, rewritten);
    }
    slot[needs ? 1 : 0] = out;
    return out;
  };
  return rewrite(root, options.rootNeedsRetractions);
}

/** Whether input `i` of `node` must be a full retract changelog, given whether `node`'s consumers need one. */
function inputNeeds(node: PlanNode, i: number, needs: boolean, modeOf: (n: PlanNode) => ChangelogMode): boolean {
  switch (node.kind) {
    case "Project": {
      if (needs) return true;
      const input = modeOf(node.input);
      if (!isKeyedUpsert(input)) return false;
      return !input.upsertKeys!.every((k) => node.exprs.some((e) => e.kind === "Column" && e.name === k));
    }
    case "Sink": {
      if (node.changelog !== "upsert") return node.changelog === "all";
      const input = modeOf(node.input);
      const key = node.primaryKey ?? [];
      // the sink's key must be the changelog's upsert key (positionally mapped column names)
      const inputKey = (input.upsertKeys ?? []).map((k) => node.schema.names[node.input.schema.indexOf(k)]);
      return !(isKeyedUpsert(input) && inputKey.length === key.length && key.every((k) => inputKey.includes(k)));
    }
    case "StatementSet":
    case "Process":
      return false;
    case "Values":
    case "SourceScan":
      return false;
    default:
      void i;
      return true;
  }
}

/** A copy of `node` reading `inputs` instead of its own (a new node identity). */
function withInputs(node: PlanNode, inputs: readonly PlanNode[]): PlanNode {
  const id = newNodeId();
  switch (node.kind) {
    case "Union":
    case "Process":
      return { ...node, id, inputs };
    case "StatementSet":
      return Object.freeze({ ...node, id, sinks: inputs as typeof node.sinks });
    case "Values":
    case "SourceScan":
      return node;
    default:
      return { ...node, id, input: inputs[0]! } as PlanNode;
  }
}
