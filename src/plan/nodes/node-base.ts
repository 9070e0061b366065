import { ValidationError } from "../../types/errors.js";
import { ResolvedSchema } from "../../types/resolved-schema.js";
import type { PlanNode } from "../nodes.js";

/** What every plan node has: its kind (the interface name without `Node`), an id, and its output schema. */
export interface NodeBase {
  /**
   * The node's number, unique among the nodes of one process; messages name nodes by it. It is not an
   * identity across programs: stable identities (`nodeIdentities`, `plan/identity.ts`) are derived from
   * the plan's shape when a job is built.
   */
  readonly id: number;
  readonly schema: ResolvedSchema;
}

/** The fields a factory takes: everything but `kind` and `id`, which the factory fills in. */
export type NodeFields<N extends NodeBase & { readonly kind: string }> = Omit<N, "kind" | "id">;

let nextId = 1;

/** The next node number; only node factories call it (through `makeNode`, or directly when they freeze by hand). */
export const newNodeId = (): number => nextId++;

/**
 * Fills in kind and id, checks the fields every node has, and freezes the node and its small arrays.
 * Large payloads (a Values node's rows) are not frozen element by element: freezing a million-row array
 * would cost planning time and the builders never hand them out.
 */
export function makeNode<N extends PlanNode>(kind: N["kind"], fields: NodeFields<N>, shallowArrays: readonly string[] = []): N {
  if (!(fields.schema instanceof ResolvedSchema)) throw invalid(kind, "schema", "must be a ResolvedSchema");
  const node = { kind, id: newNodeId(), ...fields } as Record<string, unknown>;
  for (const k of shallowArrays) {
    const v = node[k];
    if (Array.isArray(v)) node[k] = Object.freeze(v.slice());
  }
  // drop optional fields given as undefined, so that nodes compare and print the same however they were built
  for (const k of Object.keys(node)) if (node[k] === undefined) delete node[k];
  return Object.freeze(node) as unknown as N;
}

/**
 * A copy of `node` with some fields replaced (new inputs, a renegotiated call) and a new number: a
 * different node, frozen like the original. Only plan rewrites (`withInputs`, normalize-upserts) use it.
 */
export function copyNode<N extends PlanNode>(node: N, patch: Partial<NodeFields<N>>): N {
  return Object.freeze({ ...node, ...patch, id: newNodeId() }) as N;
}

/** An invariant of a plan node broken by whoever built it (a planner bug or a plug-in's mistake). */
export function invalid(kind: string, field: string, what: string): ValidationError {
  return new ValidationError(`plan node ${kind}: field '${field}' ${what}`);
}

export function requireInput(kind: string, input: unknown, field = "input"): void {
  if (typeof input !== "object" || input === null || typeof (input as { kind?: unknown }).kind !== "string") {
    throw invalid(kind, field, "must be a plan node");
  }
}
