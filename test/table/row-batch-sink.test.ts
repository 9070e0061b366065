// RowBatchSink: the batches of batches()/collect() hold exactly the rows of their slice, in order, with no
// empty slots, whatever the size of the batch before (its array is allocated at that size) and also past the
// preallocation bound.
import { describe, expect, it } from "vitest";
import { DataTypes, EnvironmentSettings, Row, TableEnvironment } from "../../src/index.js";
import { RowBatchSink } from "../../src/table/row-batch-sink.js";

const schema = TableEnvironment.create(EnvironmentSettings.inStreamingMode())
  .fromValues(DataTypes.ROW(DataTypes.FIELD("n", DataTypes.INT())), Row.of(1)).getResolvedSchema();

describe("RowBatchSink", () => {
  it("hands out each batch's rows exactly, through record, add and batch, for shrinking and growing batches", () => {
    const sink = new RowBatchSink<{ n: number }>(schema);
    expect(sink.take()).toBeUndefined();
    let next = 0;
    for (const size of [5, 2, 40_000, 3, 0, 7]) {
      const want: number[] = [];
      for (let i = 0; i < size; i++) {
        const n = next++;
        want.push(n);
        if (i % 3 === 0) sink.record(i % 2 === 0 ? 0 : 2, [n]);
        else if (i % 3 === 1) sink.add(new sink.constructors[0](n));
        else sink.batch([new sink.constructors[0](n)]);
      }
      const got = sink.take();
      if (size === 0) { expect(got).toBeUndefined(); continue; }
      expect(got!.length).toBe(size);
      expect(Object.keys(got!).length).toBe(size); // no holes
      expect(got!.map((r) => r.n)).toEqual(want);
    }
  });

  it("a whole batch handed over first becomes the batch itself; rows after it are appended", () => {
    const sink = new RowBatchSink<{ n: number }>(schema);
    const C = sink.constructors[0];
    const whole = [new C(1), new C(2)];
    sink.batch(whole);
    sink.add(new C(3));
    const got = sink.take()!;
    expect(got.map((r) => r.n)).toEqual([1, 2, 3]);
    expect(Row.kindOf(got[0]!)).toBe("+I");
    sink.record(1, [4]);
    expect(sink.take()!.map((r) => `${Row.kindOf(r)} ${r.n}`)).toEqual(["-U 4"]);
  });
});
