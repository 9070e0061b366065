import { type Operator, OperatorOutput, type Output, type RowObjectReceiver } from "../operator.js";

/** What generated code hands its output to: a downstream operator, or an adapter to any Output. */
export type Downstream = Pick<Operator, "processElement" | "processWatermark">;

/**
 * The receiver of a generated operator's records, for the generated code to call as
 * `D.target.processElement(D.input, kind, row)` (and `processWatermark` for watermarks).
 *
 * Why not `out.record(kind, row)`: that is one call more per record (into the edge, which then calls the
 * operator), and before edges had their own generated functions (OperatorOutput) it was also a megamorphic
 * dispatch (W2 ran 0.54× its baseline that way in the full benchmark, 0.74× calling the downstream operator
 * from its own generated code). When the operator's output is a single downstream operator (an
 * OperatorOutput), the generated code calls that operator itself, from a call site of its own. Any other
 * Output (a fan-out, a test's collector) is called through an adapter. The target is resolved on the first
 * record, once the job graph has set `out`.
 *
 * An OperatorOutput only forwards (no counting, no tracing), so calling its `target` with its `input` is
 * the same as calling the edge.
 */
export class DirectOutput {
  target: Downstream;
  input = 0;
  /**
   * The downstream operator's row-object receiver (the result sink of `batches()`), null when it takes
   * records only or before the first record: the generated code then builds each output row as the row
   * object itself (`emitSource`), not as a record the sink copies into one.
   */
  rows: RowObjectReceiver | null = null;

  constructor(private readonly owner: { readonly out: Output }) {
    this.target = new Resolver(this);
  }

  /** Looks at the owner's output and points `target` / `input` at the receiver of its records. */
  resolve(): void {
    const out = this.owner.out;
    if (out instanceof OperatorOutput) {
      this.target = out.target;
      this.input = out.input;
      this.rows = out.rows;
    } else {
      this.target = new OutputAdapter(out);
      this.input = 0;
      this.rows = null;
    }
  }
}

/**
 * Source text that emits one output record of kind `kind` with the values `values` (JavaScript expressions,
 * evaluated once) through the DirectOutput `D`: a row object built by the receiver's constructor for that
 * kind when the downstream takes row objects, else the record as an array literal of the query's shape
 * for the downstream operator. The receiver is known from the first record on (before it, `D.rows` is
 * null and the Resolver delivers the record), and the two forms give the consumer the same row.
 */
export function emitSource(kind: 0 | 1 | 2 | 3, values: readonly string[]): string {
  const vs = values.join(",");
  return `{const R=D.rows;if(R===null)D.target.processElement(D.input,${kind},[${vs}]);else R.add(new R.C${kind}(${vs}));}`;
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
