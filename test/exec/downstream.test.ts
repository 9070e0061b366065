import { describe, expect, it } from "vitest";
import { DirectOutput } from "../../src/exec/aggregates/downstream.js";
import { BaseOperator, BroadcastOutput, OperatorOutput, type Output } from "../../src/exec/operator.js";

/** An operator that logs what reaches it, by input. */
class Recorder extends BaseOperator {
  readonly log: string[] = [];
  constructor() { super(2); }
  processElement(input: number, kind: number, row: unknown[]): void { this.log.push(`${input}:${kind}${JSON.stringify(row)}`); }
  override processWatermark(input: number, wm: number): void { this.log.push(`${input}:wm ${wm}`); }
}

describe("DirectOutput", () => {
  it("calls the operator behind an OperatorOutput directly, with the edge's input", () => {
    const op = new Recorder();
    const owner = { out: new OperatorOutput(op, 1) as Output };
    const d = new DirectOutput(owner);
    d.target.processElement(d.input, 0, ["a", 1]);
    expect(d.target).toBe(op);
    expect(d.input).toBe(1);
    d.target.processWatermark(d.input, 5);
    d.target.processElement(d.input, 3, ["a", 1]);
    expect(op.log).toEqual(["1:0[\"a\",1]", "1:wm 5", "1:3[\"a\",1]"]);
  });

  it("resolves on a watermark that comes before any record", () => {
    const op = new Recorder();
    const d = new DirectOutput({ out: new OperatorOutput(op, 0) });
    d.target.processWatermark(d.input, 7);
    expect(d.target).toBe(op);
    expect(op.log).toEqual(["0:wm 7"]);
  });

  it("goes through the Output when it is not a single downstream operator (a fan-out, a collector)", () => {
    const a = new Recorder();
    const b = new Recorder();
    const d = new DirectOutput({ out: new BroadcastOutput([new OperatorOutput(a, 0), new OperatorOutput(b, 1)]) });
    d.target.processElement(d.input, 2, [1]);
    d.target.processWatermark(d.input, 9);
    expect(a.log).toEqual(["0:2[1]", "0:wm 9"]);
    expect(b.log).toEqual(["1:2[1]", "1:wm 9"]);

    const seen: string[] = [];
    const c = new DirectOutput({ out: { record: (k, r) => seen.push(`${k}${JSON.stringify(r)}`), watermark: (w) => seen.push(`wm ${w}`), endInput: () => {} } });
    c.target.processElement(c.input, 1, ["x"]);
    c.target.processWatermark(c.input, 3);
    expect(seen).toEqual(["1[\"x\"]", "wm 3"]);
  });
});
