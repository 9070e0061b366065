import { describeNode } from "./explain.js";
import { type PlanNode, inputsOf } from "./nodes.js";

/**
 * Stable identities of plan nodes, derived from the plan alone (never from a process-wide counter), so
 * that the same program built twice — in one process or in two — gets the same identities: the base for
 * matching checkpointed state to operators.
 *
 * As Flink's `StreamGraphHasherV2` does for operators without a user uid, a node's hash covers its own
 * shape (kind and attributes as explain() prints them, and its output schema), the hashes of its inputs
 * in order, and an occurrence number among nodes with otherwise equal hashes (two identical branches stay
 * apart). A node with an explicit uid (a PTF call's `uid` argument) is identified by that uid alone, so
 * changing the plan around it — an upstream filter — keeps its identity, as `uid(...)` does in Flink.
 */
export interface NodeIdentity {
  /** Hash of the node's shape and position (16 hex digits). */
  readonly id: string;
  /** The identity its state is matched by: the explicit uid when there is one, else `id`. */
  readonly uid: string;
  readonly explicitUid: boolean;
}

export function nodeIdentities(root: PlanNode): Map<PlanNode, NodeIdentity> {
  const out = new Map<PlanNode, NodeIdentity>();
  const seen = new Map<string, number>();
  const visit = (n: PlanNode): NodeIdentity => {
    const hit = out.get(n);
    if (hit) return hit;
    const inputs = inputsOf(n).map((i) => visit(i).id);
    const shape = `${describeNode(n)}|${n.schema.toString()}|${inputs.join(",")}`;
    const occurrence = seen.get(shape) ?? 0;
    seen.set(shape, occurrence + 1);
    const id = hash64(`${shape}#${occurrence}`);
    const explicit = n.kind === "Process" && n.call.explicitUid && n.call.uid !== undefined;
    const identity: NodeIdentity = Object.freeze({ id, uid: explicit ? n.call.uid! : id, explicitUid: explicit });
    out.set(n, identity);
    return identity;
  };
  visit(root);
  return out;
}

/** Two 32-bit FNV-1a hashes with different seeds: 16 hex digits, stable across processes. */
function hash64(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995) ^ (b >>> 15);
  }
  return (a >>> 0).toString(16).padStart(8, "0") + (b >>> 0).toString(16).padStart(8, "0");
}
