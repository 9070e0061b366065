import { describe, expect, it } from "vitest";
import { $, DataTypes, EnvironmentSettings, Row, RowKind, Schema, TableEnvironment, Tumble, lit } from "../../src/index.js";
import { batchLines, runWithRowObjectSink } from "./row-object-support.js";

// The regular inner join (its generated path), top-N and the window aggregate build their output rows as the
// consumer's row objects when the downstream is the result sink of batches() / toArray() (OperatorOutput.rows):
// one object per output row, no positional record copied into one. The rows must be exactly those of the
// record path (toChangelog() reads records), kinds and order included.

const streaming = () => TableEnvironment.create(EnvironmentSettings.inStreamingMode());

const bids = (env: TableEnvironment) => env.fromValues(
  DataTypes.ROW(DataTypes.FIELD("auction", DataTypes.INT().notNull()), DataTypes.FIELD("price", DataTypes.INT().notNull())),
  Row.of(1, 10), Row.of(2, 5), Row.of(1, 7), Row.of(1, 20), Row.of(3, 1), Row.of(2, 5),
);
const names = (env: TableEnvironment) => env.fromValues(
  DataTypes.ROW(DataTypes.FIELD("id", DataTypes.INT().notNull()), DataTypes.FIELD("name", DataTypes.STRING().notNull())),
  Row.of(1, "one"), Row.of(2, "two"),
);

describe("regular inner join: joined rows built as the consumer's row objects", () => {
  it("append-only inputs, a fused projection: the rows of the record path, every one as a row object", async () => {
    const plan = () => {
      const env = streaming();
      return bids(env).join(names(env), $("auction").isEqual($("id"))).select($("name"), $("price"), $("auction"));
    };
    // the inputs are read side by side, one record of each per round: (1,10) then (1,one) matches it, ...
    const want = ["+I[one, 10, 1]", "+I[two, 5, 2]", "+I[one, 7, 1]", "+I[one, 20, 1]", "+I[two, 5, 2]"];
    expect(await plan().execute().toChangelog()).toEqual(want);
    expect(await batchLines(plan())).toEqual(want);
    const r = runWithRowObjectSink(plan());
    expect(r.all).toEqual(want);
    expect(r.viaRecord).toEqual([]);
  });

  it("an updating input: -U/+U pairs and -D keep their kinds and order", async () => {
    const plan = () => {
      const env = streaming();
      const counts = bids(env).groupBy($("auction")).select($("auction"), $("price").count().as("cnt"));
      return counts.join(names(env), $("auction").isEqual($("id"))).select($("auction"), $("cnt"), $("name"));
    };
    const record = await plan().execute().toChangelog();
    expect(record).toEqual([
      "+I[1, 1, one]", "+I[2, 1, two]", "-U[1, 1, one]", "+U[1, 2, one]", "-U[1, 2, one]", "+U[1, 3, one]",
      "-U[2, 1, two]", "+U[2, 2, two]",
    ]);
    expect(await batchLines(plan())).toEqual(record);
    expect(runWithRowObjectSink(plan()).viaRowObject).toEqual(record);

    const deleting = () => {
      const env = streaming();
      const changes = env.fromValues(
        DataTypes.ROW(DataTypes.FIELD("k", DataTypes.INT().notNull()), DataTypes.FIELD("v", DataTypes.STRING().notNull())),
        Row.of(1, "a"), Row.of(2, "b"), Row.ofKind(RowKind.DELETE, 1, "a"),
      );
      return changes.join(names(env), $("k").isEqual($("id"))).select($("v"), $("name"));
    };
    const want = ["+I[a, one]", "+I[b, two]", "-D[a, one]"];
    expect(await deleting().execute().toChangelog()).toEqual(want);
    expect(await batchLines(deleting())).toEqual(want);
    expect(runWithRowObjectSink(deleting()).viaRowObject).toEqual(want);
  });
});

describe("top-N: ranked rows built as the consumer's row objects", () => {
  it("insert-only input with a row number: +I per new rank, -U/+U per rank that changes row", async () => {
    const plan = () => bids(streaming()).topN(2, { partitionBy: [$("auction")], orderBy: [$("price").desc()], rowNumber: "rn" });
    const want = [
      "+I[1, 10, 1]", "+I[2, 5, 1]", "+I[1, 7, 2]",
      // (1, 20) goes first: both ranks of auction 1 change row
      "-U[1, 10, 1]", "+U[1, 20, 1]", "-U[1, 7, 2]", "+U[1, 10, 2]",
      "+I[3, 1, 1]", "+I[2, 5, 2]",
    ];
    expect(await plan().execute().toChangelog()).toEqual(want);
    expect(await batchLines(plan())).toEqual(want);
    const r = runWithRowObjectSink(plan());
    expect(r.all).toEqual(want);
    expect(r.viaRecord).toEqual([]);
  });

  it("an updating input without a row number: -D of the row leaving the range, +I of the one entering it", async () => {
    const plan = () => streaming().fromValues(
      DataTypes.ROW(DataTypes.FIELD("k", DataTypes.STRING().notNull()), DataTypes.FIELD("v", DataTypes.INT().notNull())),
      Row.of("a", 1), Row.of("a", 5), Row.of("a", 3), Row.ofKind(RowKind.DELETE, "a", 5),
    ).topN(2, { partitionBy: [$("k")], orderBy: [$("v").desc()] });
    const want = ["+I[a, 1]", "+I[a, 5]", "-D[a, 1]", "+I[a, 3]", "-D[a, 5]", "+I[a, 1]"];
    expect(await plan().execute().toChangelog()).toEqual(want);
    expect(await batchLines(plan())).toEqual(want);
    expect(runWithRowObjectSink(plan()).viaRowObject).toEqual(want);
  });

  it("an updating input with a row number: -D/+I per rank that changes row", async () => {
    const plan = () => streaming().fromValues(
      DataTypes.ROW(DataTypes.FIELD("k", DataTypes.STRING().notNull()), DataTypes.FIELD("v", DataTypes.INT().notNull())),
      Row.of("a", 1), Row.of("a", 5), Row.ofKind(RowKind.UPDATE_BEFORE, "a", 5), Row.ofKind(RowKind.UPDATE_AFTER, "a", 0),
    ).topN(2, { partitionBy: [$("k")], orderBy: [$("v").desc()], rowNumber: "rn" });
    const record = await plan().execute().toChangelog();
    expect(record).toEqual([
      "+I[a, 1, 1]", "-D[a, 1, 1]", "+I[a, 5, 1]", "+I[a, 1, 2]",
      "-D[a, 5, 1]", "+I[a, 1, 1]", "-D[a, 1, 2]", "+I[a, 0, 2]",
    ]);
    expect(await batchLines(plan())).toEqual(record);
    expect(runWithRowObjectSink(plan()).viaRowObject).toEqual(record);
  });
});

describe("window aggregate: fired rows built as the consumer's row objects", () => {
  const plan = () => {
    const env = streaming();
    const schema = Schema.newBuilder().column("k", DataTypes.INT().notNull()).column("ts", DataTypes.TIMESTAMP_LTZ(3).notNull())
      .watermark("ts", "ts").build();
    env.createTemporaryView("T", env.fromValues(schema, Row.of(1, new Date(0)), Row.of(2, new Date(5)), Row.of(1, new Date(7)),
      Row.of(1, new Date(12)), Row.of(2, new Date(25))));
    return env.from("T").window(Tumble.over(lit(10).millis()).on($("ts")).as("w")).groupBy($("k"), $("w"))
      .select($("k"), $("w").end().as("we"), $("k").count().as("n"));
  };

  it("behind the select's column projection (the usual plan): the window emits the selected columns as row objects", async () => {
    const want = [
      "+I[1, 1970-01-01T00:00:00.010, 2]", "+I[2, 1970-01-01T00:00:00.010, 1]", "+I[1, 1970-01-01T00:00:00.020, 1]",
      "+I[2, 1970-01-01T00:00:00.030, 1]",
    ];
    expect(await plan().execute().toChangelog()).toEqual(want);
    const rows = await plan().execute().toArray();
    expect(rows.map((r) => [Row.kindOf(r), r.k, r.we.getTime(), r.n])).toEqual([["+I", 1, 10, 2], ["+I", 2, 10, 1], ["+I", 1, 20, 1], ["+I", 2, 30, 1]]);
    // the select renames and reorders the window's columns: the window operator emits them in the select's
    // order itself (a fused projection), so the rows reach the sink as row objects, no Calc between
    const r = runWithRowObjectSink(plan());
    expect(r.all).toEqual(rows.map(String));
    expect(r.viaRowObject).toEqual(rows.map(String));
  });

  it("behind a select that computes (a Calc): the rows of the record path", async () => {
    const computed = () => {
      const env = streaming();
      const schema = Schema.newBuilder().column("k", DataTypes.INT().notNull()).column("ts", DataTypes.TIMESTAMP_LTZ(3).notNull())
        .watermark("ts", "ts").build();
      env.createTemporaryView("T", env.fromValues(schema, Row.of(1, new Date(0)), Row.of(2, new Date(5)), Row.of(1, new Date(7)), Row.of(2, new Date(25))));
      return env.from("T").window(Tumble.over(lit(10).millis()).on($("ts")).as("w")).groupBy($("k"), $("w"))
        .select($("k"), $("k").count().plus(10).as("n10"));
    };
    const rows = await computed().execute().toArray();
    expect(rows.map((r) => [Row.kindOf(r), r.k, r.n10])).toEqual([["+I", 1, 12], ["+I", 2, 11], ["+I", 2, 11]]);
    const r = runWithRowObjectSink(computed());
    expect(r.all).toEqual(rows.map(String));
    expect(r.viaRowObject).toEqual([]);
  });

  it("right in front of the sink: every fired row as a row object, with its window end, as the record path", () => {
    const t = plan();
    const window = t.node.kind === "Project" ? t.node.input : t.node;
    expect(window.kind).toBe("WindowAggregate");
    // (a row object's String() writes an instant with its Z; both sides here are row objects' strings)
    const want = [
      "+I[1, 2, 1970-01-01T00:00:00.010Z]", "+I[2, 1, 1970-01-01T00:00:00.010Z]", "+I[1, 1, 1970-01-01T00:00:00.020Z]",
      "+I[2, 1, 1970-01-01T00:00:00.030Z]",
    ];
    const records = runWithRowObjectSink(t, window, true);
    expect(records.viaRecord).toEqual(want);
    const r = runWithRowObjectSink(t, window);
    expect(r.all).toEqual(want);
    // the downstream is resolved by the first watermark, before the first window fires
    expect(r.viaRowObject).toEqual(want);
  });
});
