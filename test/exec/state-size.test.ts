import { describe, expect, it } from "vitest";
import { measureAggregateState } from "../../src/exec/aggregates/state-size.js";
import { $, DataTypes, EnvironmentSettings, Row, TableEnvironment, lit } from "../../src/index.js";

/** The aim: keyed state ≤ 64 bytes per entry for one numeric key with one numeric aggregate. */
describe("group aggregate state size", () => {
  const GROUPS = 80_000;
  const bids = (env: TableEnvironment) => env.fromValues(
    DataTypes.ROW(DataTypes.FIELD("auction", DataTypes.INT().notNull()), DataTypes.FIELD("price", DataTypes.DOUBLE().notNull())),
    ...Array.from({ length: GROUPS }, (_, i) => Row.of(1000 + i * 3, i * 1.5)));

  it("COUNT(*) per numeric key (W2) stays within 64 bytes a group", () => {
    const q = bids(TableEnvironment.create(EnvironmentSettings.inStreamingMode()))
      .groupBy($("auction")).select($("auction"), lit(1).count().as("cnt"));
    const size = measureAggregateState(q.node);
    expect(size.groups).toBe(GROUPS);
    expect(size.bytesPerGroup).toBeGreaterThan(0);
    expect(size.bytesPerGroup).toBeLessThanOrEqual(64);
  });

  it("SUM(price) per numeric key in batch mode (W4) stays within 64 bytes a group", () => {
    const q = bids(TableEnvironment.create(EnvironmentSettings.inBatchMode()))
      .groupBy($("auction")).select($("auction"), $("price").sum().as("total"));
    const size = measureAggregateState(q.node, { batch: true });
    expect(size.groups).toBe(GROUPS);
    expect(size.bytesPerGroup).toBeLessThanOrEqual(64);
  });
});
