import { describe, expect, it } from "vitest";
import { $, DataTypes, EnvironmentSettings, Row, Schema, TableEnvironment, Tumble, lit } from "../../src/index.js";

/**
 * The group and window aggregates hand their rows to the downstream operator from their generated code
 * (aggregates/downstream.ts): directly when one operator consumes them, through the Output otherwise (a
 * node read by several consumers fans out). Either way the rows and their order are the same.
 */
const streaming = () => TableEnvironment.create(EnvironmentSettings.inStreamingMode());
const K = DataTypes.ROW(DataTypes.FIELD("k", DataTypes.STRING()));

describe("aggregate outputs", () => {
  it("an aggregate over an aggregate (the downstream is generated code too)", async () => {
    const counts = streaming().fromValues(K, Row.of("a"), Row.of("b"), Row.of("a"))
      .groupBy($("k")).select($("k"), lit(1).count().as("n"));
    expect(await counts.groupBy($("n")).select($("n"), lit(1).count().as("keys")).execute().toChangelog()).toEqual([
      "+I[1, 1]", "-U[1, 1]", "+U[1, 2]", "-U[1, 2]", "+U[1, 1]", "+I[2, 1]",
    ]);
  });

  it("an aggregate read twice fans out the same rows to both consumers", async () => {
    const counts = streaming().fromValues(K, Row.of("a"), Row.of("a"))
      .groupBy($("k")).select($("k"), lit(1).count().as("n"));
    expect(await counts.unionAll(counts).execute().toChangelog()).toEqual([
      "+I[a, 1]", "+I[a, 1]", "-U[a, 1]", "-U[a, 1]", "+U[a, 2]", "+U[a, 2]",
    ]);
  });

  it("a window aggregate read twice: rows and watermarks reach both consumers", async () => {
    const schema = Schema.newBuilder().column("k", DataTypes.STRING()).column("ts", "TIMESTAMP(3)")
      .watermark("ts", "ts - INTERVAL '1' SECOND").build();
    const w = streaming().fromValues(schema, Row.of("a", "2020-10-10 00:00:01"), Row.of("a", "2020-10-10 00:00:04"),
      Row.of("b", "2020-10-10 00:00:09"))
      .window(Tumble.over(lit(5).seconds()).on($("ts")).as("w")).groupBy($("k"), $("w"))
      .select($("k"), $("w").end().as("e"), $("w").rowtime().as("rt"), lit(1).count().as("n"));
    // a second window level over both copies: rowtime and watermarks pass through the fan-out and the union
    const again = w.unionAll(w).window(Tumble.over(lit(10).seconds()).on($("rt")).as("w2")).groupBy($("w2"))
      .select($("w2").end().as("e2"), $("n").sum().as("total"));
    expect(await w.unionAll(w).execute().toChangelog()).toEqual([
      "+I[a, 2020-10-10T00:00:05, 2020-10-10T00:00:04.999, 2]", "+I[a, 2020-10-10T00:00:05, 2020-10-10T00:00:04.999, 2]",
      "+I[b, 2020-10-10T00:00:10, 2020-10-10T00:00:09.999, 1]", "+I[b, 2020-10-10T00:00:10, 2020-10-10T00:00:09.999, 1]",
    ]);
    expect(await again.execute().toChangelog()).toEqual(["+I[2020-10-10T00:00:10, 6]"]);
  });
});
