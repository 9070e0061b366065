import type { FunctionResolver } from "../expressions/compile.js";
import { ValidationError } from "../types/errors.js";
import type { ChangelogMode } from "../plan/changelog-mode.js";
import type { PlanNode } from "../plan/nodes.js";
import type { JobSettings } from "./job-contract.js";
import { type BaseOperator, type Output, OperatorOutput, type Operator } from "./operator.js";
import type { AsyncWork, SourceReader } from "./source.js";

/**
 * The operator factories a job graph is built from: one per plan node kind, typed by that kind. The
 * table is explicit data — exec/core-operators.ts holds the kinds exec implements, connectors add the
 * scan and the sink, and table/wiring.ts assembles the full table the facade runs jobs with. A node
 * kind added to `PlanNode` without a factory is a compile error where the table is assembled.
 */
export type NodeOfKind<K extends PlanNode["kind"]> = Extract<PlanNode, { readonly kind: K }>;

export type OperatorFactory<N extends PlanNode = PlanNode> = (node: N, ctx: GraphContext, build: (n: PlanNode) => Emitter) => Emitter;

export type OperatorTable = { readonly [K in PlanNode["kind"]]: OperatorFactory<NodeOfKind<K>> };

/** What a factory may ask of the graph being built. */
export interface GraphContext {
  readonly settings: JobSettings;
  readonly resolveFunction?: FunctionResolver;
  modeOf(node: PlanNode): ChangelogMode;
  /** How many nodes consume `node` in this plan (a Calc chain stops at a shared node). */
  consumers(node: PlanNode): number;
  /** Registers a source reader feeding `emitter`. */
  addSource(reader: SourceReader, emitter: Emitter): void;
  /** Registers an operator before its inputs are built (operators open and close in registration order). */
  register<O extends BaseOperator>(op: O): O & Emitter;
  /**
   * Adds an emitter built outside `register` (a fused operator) to the graph, once; `node` is the plan node
   * it runs when that is not the node being built (the join or window under a fused projection): the
   * operator's state uid and metric scope are then that node's, as when it runs unfused.
   */
  adopt(em: Emitter, node?: PlanNode): void;
  /** Registers asynchronous work the job waits for (async sinks, async calls in flight; exec/source.ts). */
  addAsyncWork(work: AsyncWork): void;
}

/** Something records come out of: an operator or a source. `outputs` are wired to `out` at the end. */
export interface Emitter {
  outputs: Output[];
  out: Output;
}

/** An emitter for a source: the job graph wires its `out` once every consumer is known. */
export function sourceEmitter(): Emitter {
  return { outputs: [], out: undefined as never };
}

export function connect(from: Emitter, op: Operator, input: number): void {
  from.outputs.push(new OperatorOutput(op, input));
}

/**
 * Completes exec's own table for jobs that read no connector table (exec's tools, such as the state-size
 * probe): a scan or sink there is a clear error instead of a missing entry.
 */
export function withoutConnectors(ops: Omit<OperatorTable, "SourceScan" | "Sink">): OperatorTable {
  const missing = (node: PlanNode): never => {
    throw new ValidationError(`plan node ${node.kind}: connector tables need the connectors' operators (the facade's wiring)`);
  };
  return { ...ops, SourceScan: missing, Sink: missing };
}

/**
 * An operator that can emit a projection of its output itself (a join emitting only the selected columns
 * instead of the joined row and a copy): given the node under a projection of plain columns and the column
 * positions it keeps, returns the emitter, or undefined to leave the projection to a Calc.
 */
export type ProjectionFuser<N extends PlanNode = PlanNode> = (
  node: N, columns: readonly number[], ctx: GraphContext, build: (n: PlanNode) => Emitter,
) => Emitter | undefined;

/** The node kinds whose operators can fuse a projection above them (exec/core-operators.ts). */
export type ProjectionFusers = { readonly [K in PlanNode["kind"]]?: ProjectionFuser<NodeOfKind<K>> };
