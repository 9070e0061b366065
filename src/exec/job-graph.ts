import type { FunctionResolver } from "../expressions/compile.js";
import { ValidationError } from "../types/errors.js";
import type { JobSettings, JobSink } from "../table/executor.js";
import { type ChangelogMode, deriveChangelogMode, hasRetractions, isInsertOnly } from "../plan/changelog-mode.js";
import { type FilterNode, type PlanNode, type ProcessNode, type ProjectNode, inputsOf } from "../plan/nodes.js";
import { type BaseOperator, BroadcastOutput, type Operator, type Output, OperatorOutput } from "./operator.js";
import { CalcOperator } from "./operators/calc.js";
import { AsyncCalcOperator, asyncCalcOptions } from "./operators/async-calc.js";
import { ChangelogNormalizeOperator } from "./operators/changelog-normalize.js";
import { CollectSinkOperator } from "./operators/collect-sink.js";
import { DistinctOperator } from "./operators/distinct.js";
import { GroupAggregateOperator } from "./operators/group-aggregate.js";
import { keyedStateTtl } from "./state-ttl.js";
import { UnionOperator } from "./operators/union.js";
import { MaterializeOperator } from "./operators/materialize.js";
import { relationalOperator } from "./operators/relational-operators.js";
import { LimitOperator } from "./operators/sort/limit-operator.js";
import { windowOperator } from "./operators/window-operators.js";
import { COLLECT_SCOPE, attachMetrics } from "./metric-scope.js";
import { JobMetrics } from "./metrics.js";
import type { AsyncWork, SourceReader } from "./source.js";
import { ValuesReader } from "./sources/values-reader.js";

/**
 * Turns a logical plan into a graph of operators: one operator per node, except that chains of
 * Filter/Project become one generated Calc function, and a node consumed twice (a shared subplan,
 * e.g. two uses of one PTF call with the same uid, or a table written into several sinks of a statement
 * set) is run once and fanned out.
 */
export interface GraphContext {
  readonly settings: JobSettings;
  readonly resolveFunction?: FunctionResolver;
  modeOf(node: PlanNode): ChangelogMode;
  /** Registers a source reader feeding `out`. */
  addSource(reader: SourceReader, emitter: Emitter): void;
  /** Registers asynchronous work the job waits for (async sinks, async calls in flight; exec/source.ts). */
  addAsyncWork(work: AsyncWork): void;
}

/** Something records come out of: an operator or a source. `outputs` are wired to `out` at the end. */
export interface Emitter {
  outputs: Output[];
  out: Output;
}

export type OperatorFactory = (node: PlanNode, ctx: GraphContext, build: (n: PlanNode) => Emitter) => Emitter;
const factories = new Map<string, OperatorFactory>();

/** Plug-in point for node kinds implemented outside exec/ core (PTFs, connectors). */
export function registerOperatorFactory(kind: string, f: OperatorFactory): void {
  factories.set(kind, f);
}

/**
 * Plug-in point for operators that can emit a projection of their output themselves (a join emitting only the
 * selected columns instead of the joined row and a copy): given the node under a projection of plain columns
 * and the column positions it keeps, returns the emitter, or undefined to leave the projection to a Calc.
 */
export type ProjectionFuser = (node: PlanNode, columns: readonly number[], ctx: GraphContext, build: (n: PlanNode) => Emitter) => Emitter | undefined;
const fusers = new Map<string, ProjectionFuser>();
export function registerProjectionFuser(kind: string, f: ProjectionFuser): void {
  fusers.set(kind, f);
}

export interface SourceEntry {
  readonly reader: SourceReader;
  readonly emitter: Emitter;
  done: boolean;
}

export interface JobGraph {
  readonly sources: SourceEntry[];
  readonly operators: Operator[];
  /** The job's metrics, handed to its sources and operators as they were built (metric-scope.ts). */
  readonly metrics: JobMetrics;
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

export function connect(from: Emitter, op: Operator, input: number): void {
  from.outputs.push(new OperatorOutput(op, input));
}

export function buildJobGraph(root: PlanNode, settings: JobSettings, sink: JobSink, resolveFunction?: FunctionResolver): JobGraph {
  const consumers = new Map<PlanNode, number>();
  const count = (n: PlanNode) => {
    const c = consumers.get(n) ?? 0;
    consumers.set(n, c + 1);
    if (c === 0) for (const i of inputsOf(n)) count(i);
  };
  count(root);

  const modes = new Map<PlanNode, ChangelogMode>();
  const sources: SourceEntry[] = [];
  const operators: Operator[] = [];
  const emitters: Emitter[] = [];
  const memo = new Map<PlanNode, Emitter>();
  const metrics = new JobMetrics();
  const asyncWork: AsyncWork[] = [];

  const ctx: GraphContext = {
    settings,
    resolveFunction,
    modeOf: (n) => deriveChangelogMode(n, settings.batch, modes),
    addSource: (reader, emitter) => { sources.push({ reader, emitter, done: false }); },
    addAsyncWork: (work) => { asyncWork.push(work); },
  };

  const register = (op: BaseOperator): EmittingOperator => {
    const e = asEmitter(op);
    operators.push(op);
    emitters.push(e);
    return e;
  };

  const build = (node: PlanNode): Emitter => {
    const hit = memo.get(node);
    if (hit) return hit;
    let em: Emitter;
    switch (node.kind) {
      case "Values": {
        em = { outputs: [], out: undefined as never };
        emitters.push(em);
        ctx.addSource(new ValuesReader(node), em);
        break;
      }
      case "Filter":
      case "Project": {
        const stages: (FilterNode | ProjectNode)[] = [node];
        let bottom: PlanNode = node.input;
        while ((bottom.kind === "Filter" || bottom.kind === "Project") && consumers.get(bottom) === 1) {
          stages.unshift(bottom);
          bottom = bottom.input;
        }
        const first = stages[0]!;
        const fuser = fusers.get(bottom.kind);
        const fused = fuser !== undefined && first.kind === "Project" && consumers.get(bottom) === 1 && first.exprs.every((e) => e.kind === "Column")
          ? fuser(bottom, first.exprs.map((e) => bottom.schema.indexOf((e as { name: string }).name)), ctx, build)
          : undefined;
        if (fused !== undefined) {
          if (!emitters.includes(fused)) emitters.push(fused);
          if (isOperator(fused) && !operators.includes(fused)) operators.push(fused);
          if (stages.length === 1) { em = fused; break; }
          const rest = register(new CalcOperator(stages.slice(1), first.schema, resolveFunction));
          connect(fused, rest, 0);
          em = rest;
          break;
        }
        const op = register(new CalcOperator(stages, bottom.schema, resolveFunction));
        connect(build(bottom), op, 0);
        em = op;
        break;
      }
      case "Aggregate": {
        const inputMode = ctx.modeOf(node.input);
        const op = register(new GroupAggregateOperator(node, settings.batch, hasRetractions(inputMode), resolveFunction, {},
          { ttl: keyedStateTtl(settings), clock: settings.clock }));
        connect(build(node.input), op, 0);
        em = op;
        break;
      }
      case "Distinct": {
        // batch over an updating input: emit at end of input so the result stays insert-only
        const op = register(new DistinctOperator(node.schema, settings.batch && hasRetractions(ctx.modeOf(node.input)),
          { ttl: keyedStateTtl(settings), clock: settings.clock }));
        connect(build(node.input), op, 0);
        em = op;
        break;
      }
      case "WindowAggregate":
      case "OverAggregate": {
        const op = register(windowOperator(node, resolveFunction, { ttl: keyedStateTtl(settings), clock: settings.clock }));
        connect(build(node.input), op, 0);
        em = op;
        break;
      }
      case "AsyncCalc": {
        const calc = new AsyncCalcOperator(node, asyncCalcOptions(settings.config, isInsertOnly(ctx.modeOf(node.input))), resolveFunction);
        ctx.addAsyncWork(calc.asyncWork());
        const op = register(calc);
        connect(build(node.input), op, 0);
        em = op;
        break;
      }
      case "ChangelogNormalize": {
        const op = register(new ChangelogNormalizeOperator(node));
        connect(build(node.input), op, 0);
        em = op;
        break;
      }
      case "StatementSet": {
        // every sink ends here: nothing flows through, end of input arrives once all sinks have ended
        const op = register(new UnionOperator(node.sinks.length));
        node.sinks.forEach((s, idx) => connect(build(s), op, idx));
        em = op;
        break;
      }
      case "Union": {
        const op = register(new UnionOperator(node.inputs.length));
        node.inputs.forEach((i, idx) => connect(build(i), op, idx));
        em = op;
        break;
      }
      case "Sort":
      case "Rank":
      case "Deduplicate":
      case "SetOp": {
        const { op, materialize } = relationalOperator(node, settings, ctx.modeOf, resolveFunction);
        const e = register(op);
        if (node.kind === "SetOp") {
          connect(build(node.left), e, 0);
          connect(build(node.right), e, 1);
        } else connect(build(node.input), e, 0);
        em = e;
        if (materialize) {
          const m = register(new MaterializeOperator(node.schema, materialize));
          connect(e, m, 0);
          em = m;
        }
        break;
      }
      default: {
        const f = factories.get(node.kind);
        if (!f) throw new ValidationError(`no operator for plan node ${node.kind}`);
        em = f(node, ctx, build);
        if (!emitters.includes(em)) emitters.push(em);
        if (isOperator(em) && !operators.includes(em)) operators.push(em);
      }
    }
    attachMetrics(metrics, node, em, sources);
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
  const sinkEnded = limits.length === 0 ? () => false : () => sinkOp.ended && limits.some((l) => l.endedEarly);
  return { sources, operators, metrics, sinkEnded, asyncWork };
}

function isOperator(e: Emitter): e is EmittingOperator {
  return typeof (e as Partial<Operator>).processElement === "function";
}

export type { ProcessNode };

/** Forwards records and end of input, and of the watermarks only the final +Infinity (batch mode). */
class EndOfInputWatermarkOnly implements Output {
  constructor(private readonly out: Output) {}
  record(kind: number, row: unknown[]): void { this.out.record(kind, row); }
  watermark(wm: number): void { if (wm === Infinity) this.out.watermark(wm); }
  endInput(): void { this.out.endInput(); }
}
