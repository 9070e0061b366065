import { type Operator, OperatorOutput, type Output } from "../operator.js";

/** What generated code hands its output to: a downstream operator, or an adapter to any Output. */
export type Downstream = Pick<Operator, "processElement" | "processWatermark">;

/**
 * The receiver of a generated operator's records, for the generated code to call as
 * `D.target.processElement(D.input, kind, row)` (and `processWatermark` for watermarks).
 *
 * Why not `out.record(kind, row)`: OperatorOutput.record is one function for every edge of every job in
 * the process, so its call `op.processElement(...)` goes megamorphic as soon as a few queries have run, and
 * every record pays a megamorphic dispatch on top of the call into the output (W2 ran 0.54× its baseline
 * that way in the full benchmark, 0.74× calling the downstream operator from its own generated code). When
 * the operator's output is a single downstream operator (an OperatorOutput), the generated code calls that
 * operator itself, from a call site of its own. Any other Output (a fan-out, a test's collector) is called
 * through an adapter. The target is resolved on the first record, once the job graph has set `out`.
 *
 * This relies on OperatorOutput being a plain forward to `op.processElement(input, ...)` /
 * `op.processWatermark(input, ...)`: should it ever do more per record (count, trace), resolve() must take
 * the adapter path for it. (Better: OperatorOutput exposing its target, or generated per edge.)
 */
export class DirectOutput {
  target: Downstream;
  input = 0;

  constructor(private readonly owner: { readonly out: Output }) {
    this.target = new Resolver(this);
  }

  /** Looks at the owner's output and points `target` / `input` at the receiver of its records. */
  resolve(): void {
    const out = this.owner.out;
    // OperatorOutput keeps its operator and input private to its class; they are read here, checked,
    // and the adapter is used when they are not what they should be
    const edge = out instanceof OperatorOutput ? out as unknown as { op?: Operator; input?: number } : undefined;
    if (edge !== undefined && typeof edge.op?.processElement === "function" && typeof edge.op.processWatermark === "function"
      && typeof edge.input === "number") {
      this.target = edge.op;
      this.input = edge.input;
    } else {
      this.target = new OutputAdapter(out);
      this.input = 0;
    }
  }
}

/** The target before the first record or watermark: resolves, then delivers. */
class Resolver implements Downstream {
  constructor(private readonly ref: DirectOutput) {}
  processElement(_input: number, kind: number, row: unknown[]): void {
    const ref = this.ref;
    ref.resolve();
    ref.target.processElement(ref.input, kind, row);
  }
  processWatermark(_input: number, wm: number): void {
    const ref = this.ref;
    ref.resolve();
    ref.target.processWatermark(ref.input, wm);
  }
}

class OutputAdapter implements Downstream {
  constructor(private readonly out: Output) {}
  processElement(_input: number, kind: number, row: unknown[]): void {
    this.out.record(kind, row);
  }
  processWatermark(_input: number, wm: number): void {
    this.out.watermark(wm);
  }
}
