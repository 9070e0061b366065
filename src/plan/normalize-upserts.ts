import { type ChangelogMode, deriveChangelogMode, isInsertOnly, isKeyedUpsert } from "./changelog-mode.js";
import { type PlanNode, copyNode, inputsOf, withInputs } from "./nodes.js";
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
 * A PTF's own output mode is re-resolved with what its consumer needs as `getRequiredChangelogMode()`
 * (all kinds, or an upsert mode — with key-only deletes before a sink that deletes by key).
 * With `table.exec.source.cdc-events-duplicate = true` every updating keyed source is normalized (the
 * normalizer drops duplicated events), as in Flink.
 */
export function normalizeUpserts(root: PlanNode, options: { readonly batch: boolean; readonly cdcDuplicates: boolean; readonly rootNeedsRetractions: boolean }): PlanNode {
  const modes = new Map<PlanNode, ChangelogMode>();
  const modeOf = (n: PlanNode) => deriveChangelogMode(n, options.batch, modes);
  const memo = new Map<PlanNode, (PlanNode | undefined)[]>();

  const rewrite = (node: PlanNode, needs: boolean, keyOnly: boolean): PlanNode => {
    const slot = memo.get(node) ?? [];
    memo.set(node, slot);
    const at = (needs ? 2 : 0) + (keyOnly ? 1 : 0);
    const hit = slot[at];
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
      const rewritten = inputs.map((input, i) => rewrite(input, inputNeeds(node, i, needs, modeOf), inputKeyOnly(node, keyOnly)));
      // a PTF before an upsert sink was offered upserts: if it then emits upserts by another key, it must retract
      if (node.kind === "Sink" && node.input.kind === "Process" && !upsertKeyMatches(node, modeOf(rewritten[0]!))) {
        rewritten[0] = rewrite(node.input, true, false);
      }
      out = rewritten.every((r, i) => r === inputs[i]) ? node : withInputs(node, rewritten);
      // a PTF's output mode may depend on what its consumer needs (getRequiredChangelogMode)
      if (out.kind === "Process") {
        const call = out.call.withRequiredMode({ updateBefore: needs, keyOnlyDeletes: keyOnly && !needs });
        if (call !== out.call) out = copyNode(out, { call });
      }
    }
    slot[at] = out;
    return out;
  };
  return rewrite(root, options.rootNeedsRetractions, false);
}

/** Whether input `i` of `node` may delete by key only (`~D`): an upsert sink declaring `sink.supports-delete-by-key`. */
function inputKeyOnly(node: PlanNode, keyOnly: boolean): boolean {
  if (node.kind === "Sink") return node.changelog === "upsert" && node.options["sink.supports-delete-by-key"] === "true";
  if (node.kind === "Project") return keyOnly;
  return false;
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
      // a PTF is offered upserts (its mode may follow the offer); checked once it is planned
      if (node.input.kind === "Process") return false;
      const input = modeOf(node.input);
      return !(isKeyedUpsert(input) && upsertKeyMatches(node, input));
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

/** Whether an upsert changelog's key is the sink's primary key (columns mapped by position); true for other changelogs. */
function upsertKeyMatches(sink: PlanNode & { kind: "Sink" }, input: ChangelogMode): boolean {
  if (!isKeyedUpsert(input)) return true;
  const key = sink.primaryKey ?? [];
  const inputKey = input.upsertKeys!.map((k) => sink.schema.names[sink.input.schema.indexOf(k)]);
  return inputKey.length === key.length && key.every((k) => inputKey.includes(k));
}
