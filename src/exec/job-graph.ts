import type { AsyncWork } from "./source.js";
import type { FunctionResolver } from "../expressions/compile.js";
import { ValidationError } from "../types/errors.js";
import { withCodegenNames } from "../expressions/codegen.js";
import type { JobSettings, JobSink } from "./job-contract.js";
import { type ChangelogMode, deriveChangelogMode, isInsertOnly } from "../plan/changelog-mode.js";
import { type PlanNode, countConsumers } from "../plan/nodes.js";
import { type BaseOperator, BroadcastOutput, type Operator, type Output, type RecordLoop, recordEach } from "./operator.js";
import { CollectSinkOperator } from "./operators/collect-sink.js";
import { LimitOperator } from "./operators/sort/limit-operator.js";
import { COLLECT_SCOPE, attachMetrics } from "./metric-scope.js";
import { JobMetrics } from "./metrics.js";
import { type Emitter, type GraphContext, type OperatorFactory, type OperatorTable, connect } from "./operator-table.js";
import type { SourceReader } from "./source.js";
import { stateUids } from "./checkpoint/state-uid.js";

export { type Emitter, type GraphContext, type OperatorFactory, type OperatorTable, connect };

/**
 * Turns a logical plan into a graph of operators: one operator per node, made by the factory of the
 * node's kind in `operators` (an explicit table, see operator-table.ts), except that chains of
 * Filter/Project become one generated Calc function, and a node consumed twice (a shared subplan, e.g.
 * two uses of one PTF call with the same uid, or a table written into several sinks of a statement set)
 * is run once and fanned out.
 */

export interface SourceEntry {
  readonly reader: SourceReader;
  readonly emitter: Emitter;
  done: boolean;
  /** The stable identity its position is checkpointed under (checkpoint/state-uid.ts). */
  uid: string;
}

/** An operator with the stable identity its state is checkpointed under. */
export interface OwnedOperator {
  readonly uid: string;
  readonly op: Operator;
  /** The plan node it runs, for messages (its kind). */
  readonly node: PlanNode;
}

export interface JobGraph {
  readonly sources: SourceEntry[];
  readonly operators: Operator[];
  /** The job's metrics, handed to its sources and operators as they were built (metric-scope.ts). */
  readonly metrics: JobMetrics;
  /** Every operator built for a plan node, with its state uid (the collect sink has none: it keeps no state). */
  readonly owned: readonly OwnedOperator[];
  /**
   * The plan node each source emitter and operator was built for (the topmost of a fused Filter/Project
   * chain; the first of several identical nodes run by one operator). Test harnesses name operators and find
   * the sources of their inputs by it; the job itself does not read it.
   */
  readonly nodes: ReadonlyMap<Emitter, PlanNode>;
  /**
   * True once a LIMIT ended its output early (it is satisfied) and that has ended the sink: nothing more
   * can reach the sink, so the job stops and cancels the sources still running.
   */
  sinkEnded(): boolean;
  /** Asynchronous work the job checks before reading sources and before it ends. */
  readonly asyncWork: readonly AsyncWork[];
}

type EmittingOperator = BaseOperator & Emitter;

function asEmitter(op: BaseOperator): EmittingOperator {
  const e = op as EmittingOperator;
  e.outputs = [];
  return e;
}

export function buildJobGraph(
  root: PlanNode, settings: JobSettings, sink: JobSink, factories: OperatorTable, resolveFunction?: FunctionResolver,
): JobGraph {
  // generated functions are named per job, so that the same plan generates the same source texts
  return withCodegenNames(() => buildGraph(root, settings, sink, factories, resolveFunction));
}

function buildGraph(
  root: PlanNode, settings: JobSettings, sink: JobSink, factories: OperatorTable, resolveFunction?: FunctionResolver,
): JobGraph {
  const consumers = countConsumers(root);

  const modes = new Map<PlanNode, ChangelogMode>();
  const sources: SourceEntry[] = [];
  const operators: Operator[] = [];
  const emitters: Emitter[] = [];
  const registered = new Set<Emitter>();
  const memo = new Map<PlanNode, Emitter>();
  const metrics = new JobMetrics();
  const nodes = new Map<Emitter, PlanNode>();
  // which plan node each operator and source was built for: the node whose build() is running
  const building: PlanNode[] = [];
  const ownerOf = new Map<Operator, PlanNode>();
  const sourceOwners: PlanNode[] = [];
  const own = (op: Operator) => {
    const node = building[building.length - 1];
    if (node !== undefined && !ownerOf.has(op)) ownerOf.set(op, node);
  };
  const asyncWork: AsyncWork[] = [];

  const ctx: GraphContext = {
    settings,
    ...(resolveFunction !== undefined ? { resolveFunction } : {}),
    modeOf: (n) => deriveChangelogMode(n, settings.batch, modes),
    consumers: (n) => consumers.get(n) ?? 0,
    addSource: (reader, emitter) => {
      sources.push({ reader, emitter, done: false, uid: "" });
      sourceOwners.push(building[building.length - 1]!);
    },
    addAsyncWork: (work) => { asyncWork.push(work); },
    register: (op) => {
      const e = asEmitter(op);
      operators.push(op);
      emitters.push(e);
      registered.add(e);
      own(op);
      return e as typeof op & Emitter;
    },
    adopt: (em, node) => {
      if (node !== undefined && !nodes.has(em)) nodes.set(em, node);
      if (registered.has(em)) return;
      registered.add(em);
      emitters.push(em);
      if (!isOperator(em)) return;
      operators.push(em);
      // a fused operator runs `node` (the window under a projection): its state uid and metrics are that node's
      if (node === undefined) own(em);
      else {
        if (!ownerOf.has(em)) ownerOf.set(em, node);
        attachMetrics(metrics, node, em, sources);
      }
    },
  };

  const build = (node: PlanNode): Emitter => {
    const hit = memo.get(node);
    if (hit) return hit;
    const factory = factories[node.kind] as OperatorFactory | undefined;
    if (factory === undefined) throw new ValidationError(`no operator for plan node ${node.kind}`);
    building.push(node);
    const em = factory(node, ctx, build);
    // what a factory returns without registering it: a source's emitter, or an operator built after its inputs
    ctx.adopt(em);
    building.pop();
    attachMetrics(metrics, node, em, sources);
    if (!nodes.has(em)) nodes.set(em, node);
    memo.set(node, em);
    return em;
  };

  const last = build(root);
  // batch results are insert-only: an updating plan is materialized at the sink
  const rootMode = ctx.modeOf(root);
  const sinkOp = new CollectSinkOperator(sink, settings.batch && !isInsertOnly(rootMode) ? { schema: root.schema, mode: rootMode } : undefined);
  operators.push(sinkOp);
  // an insert job's rows end in its Sink node; the collect sink after it receives nothing
  if (root.kind !== "Sink" && root.kind !== "StatementSet") sinkOp.setMetrics(metrics.group(COLLECT_SCOPE));
  connect(last, sinkOp, 0);
  for (const e of emitters) e.out = e.outputs.length === 1 ? e.outputs[0]! : new BroadcastOutput(e.outputs);
  // batch has no event-time progress inside a bounded input (and so no late rows): sources only send the
  // final +Infinity watermark, which closes every window at end of input, as Flink's batch window operators do
  if (settings.batch) for (const s of sources) s.emitter.out = new EndOfInputWatermarkOnly(s.emitter.out);
  const limits = operators.filter((o): o is LimitOperator => o instanceof LimitOperator);
  // a streaming INSERT job keeps running past a satisfied LIMIT (Flink); a collected query or a batch job ends
  if (!settings.batch && (root.kind === "Sink" || root.kind === "StatementSet")) for (const l of limits) l.endsOutput = false;
  const sinkEnded = limits.length === 0 ? () => false : () => sinkOp.ended && limits.some((l) => l.endedEarly);
  const { owned, sourceUids } = stateUids(root, operators, ownerOf, sourceOwners);
  sources.forEach((s, i) => { s.uid = sourceUids[i]!; });
  return { sources, operators, metrics, nodes, owned, sinkEnded, asyncWork };
}

function isOperator(e: Emitter): e is EmittingOperator {
  return typeof (e as Partial<Operator>).processElement === "function";
}

/** Forwards records and end of input, and of the watermarks only the final +Infinity (batch mode). */
class EndOfInputWatermarkOnly implements Output {
  /** The downstream edge's loop for a source's slice, given no watermark generator (none is forwarded). */
  readonly recordLoop: RecordLoop | undefined;

  constructor(private readonly out: Output) {
    const inner = out.recordLoop;
    this.recordLoop = inner === undefined ? undefined : (rows, kinds, start, end, wm, rowtime, at) => {
      if (wm === undefined) {
        inner(rows, kinds, start, end, undefined, rowtime, at);
        return;
      }
      // the generator still advances (the source's position and progress read it); this output's
      // watermark() lets none of its watermarks out (a generator never returns +Infinity)
      recordEach(this, rows, kinds, start, end, wm, rowtime, at);
    };
  }

  record(kind: number, row: unknown[]): void { this.out.record(kind, row); }
  watermark(wm: number): void { if (wm === Infinity) this.out.watermark(wm); }
  endInput(): void { this.out.endInput(); }
}
