import { describe, expect, it } from "vitest";
import { BaseOperator, BroadcastOutput, OperatorOutput } from "../../src/exec/operator.js";

/** An operator that logs what reaches it, by input. */
class Recorder extends BaseOperator {
  readonly log: string[] = [];
  constructor() { super(3); }
  processElement(input: number, kind: number, row: unknown[]): void { this.log.push(`${input}:${kind}${JSON.stringify(row)}`); }
  override processWatermark(input: number, wm: number): void { this.log.push(`${input}:wm ${wm}`); }
  override endInput(input: number): void { this.log.push(`${input}:end`); }
}

describe("OperatorOutput (one edge of the job graph)", () => {
  it("delivers records, watermarks and end of input to its operator's input", () => {
    const op = new Recorder();
    const edge = new OperatorOutput(op, 2);
    edge.record(0, ["a", 1]);
    edge.watermark(5);
    edge.record(3, ["a", 1]);
    edge.endInput();
    expect(op.log).toEqual(["2:0[\"a\",1]", "2:wm 5", "2:3[\"a\",1]", "2:end"]);
    expect(edge.target).toBe(op);
    expect(edge.input).toBe(2);
  });

  it("gives every edge its own functions, bound to its own operator and input", () => {
    const a = new Recorder();
    const b = new Recorder();
    const e1 = new OperatorOutput(a, 0);
    const e2 = new OperatorOutput(a, 1);
    const e3 = new OperatorOutput(b, 0);
    expect(new Set([e1.record, e2.record, e3.record]).size).toBe(3);
    expect(new Set([e1.watermark, e2.watermark, e3.watermark]).size).toBe(3);
    // called detached, as a record function passed around: still its own edge
    const { record } = e2;
    record(1, [7]);
    e3.record(2, [8]);
    e1.watermark(9);
    expect(a.log).toEqual(["1:1[7]", "0:wm 9"]);
    expect(b.log).toEqual(["0:2[8]"]);
  });

  it("fans out through a BroadcastOutput in order", () => {
    const a = new Recorder();
    const b = new Recorder();
    const out = new BroadcastOutput([new OperatorOutput(a, 0), new OperatorOutput(b, 1)]);
    out.record(0, [1]);
    out.watermark(4);
    out.endInput();
    expect(a.log).toEqual(["0:0[1]", "0:wm 4", "0:end"]);
    expect(b.log).toEqual(["1:0[1]", "1:wm 4", "1:end"]);
  });

  it("rejects an input that is not a non-negative integer", () => {
    const op = new Recorder();
    expect(() => new OperatorOutput(op, -1)).toThrow("edge input must be a non-negative integer, got -1");
    expect(() => new OperatorOutput(op, 1.5)).toThrow("edge input must be a non-negative integer, got 1.5");
  });
});
