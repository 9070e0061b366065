// ColumnGatherer (columnBatches() over a row job): each batch holds exactly its slice's records, as columns,
// with their kinds — whatever the size of the batch before (its arrays are allocated at that size, the
// kinds buffer is reused and grows) and also past the preallocation bound.
import { describe, expect, it } from "vitest";
import { DataTypes, EnvironmentSettings, Row, TableEnvironment } from "../../src/index.js";
import { ColumnGatherer } from "../../src/exec/columnar/column-batch.js";

const schema = TableEnvironment.create(EnvironmentSettings.inStreamingMode())
  .fromValues(DataTypes.ROW(DataTypes.FIELD("n", DataTypes.INT().notNull()), DataTypes.FIELD("s", DataTypes.STRING())), Row.of(1, "a"))
  .getResolvedSchema();

describe("ColumnGatherer", () => {
  it("gathers exact batches for shrinking, growing and oversized slices", () => {
    const g = new ColumnGatherer(schema);
    expect(g.take()).toBeUndefined();
    let next = 0;
    for (const size of [3, 2000, 1, 40_000, 0, 5]) {
      const want: number[] = [];
      for (let i = 0; i < size; i++) {
        const n = next++;
        want.push(n);
        g.record(n % 4, [n, n % 2 === 0 ? null : `s${n}`]);
      }
      const b = g.take();
      if (size === 0) { expect(b).toBeUndefined(); continue; }
      expect(b!.length).toBe(size);
      expect(Array.from(b!.kinds)).toEqual(want.map((n) => n % 4));
      expect(b!.columns[0]).toBeInstanceOf(Int32Array);
      expect(Array.from(b!.columns[0] as Int32Array)).toEqual(want);
      expect(b!.columns[1]).toEqual(want.map((n) => (n % 2 === 0 ? null : `s${n}`)));
    }
  });
});
