// An expression that fails on a record inside an aggregating operator (grouping key, aggregate argument,
// window or over partition key) fails the job naming the record, as a failing select/filter does
// (CalcOperator): the original message, then `(row <kind>[values])` in Flink's notation.
import { describe, expect, it } from "vitest";
import {
  $, DataTypes, EnvironmentSettings, ExecutionError, Over, Row, RowKind, ScalarFunction, Schema, Session, TableEnvironment,
  Tumble, UNBOUNDED_RANGE, call, lit,
} from "../../src/index.js";

const streaming = () => TableEnvironment.create(EnvironmentSettings.inStreamingMode());
const batch = () => TableEnvironment.create(EnvironmentSettings.inBatchMode());

const SCORES = DataTypes.ROW(
  DataTypes.FIELD("name", DataTypes.STRING()), DataTypes.FIELD("score", DataTypes.INT()), DataTypes.FIELD("zero", DataTypes.INT()),
);
const scores = (env: TableEnvironment) => env.fromValues(SCORES, Row.of("Bob", 12, 1), Row.of("Ann", 7, 0), Row.of("Bob", 3, 0));

/** The error a job fails with. */
async function failure(t: { execute(): { toArray(): Promise<unknown[]> } }): Promise<Error> {
  try {
    await t.execute().toArray();
  } catch (e) {
    return e as Error;
  }
  throw new Error("expected the job to fail");
}

describe("group aggregation", () => {
  it("names the record whose aggregate argument fails", async () => {
    const t = scores(streaming()).groupBy($("name")).select($("name"), $("score").dividedBy($("zero")).sum().as("s"));
    const e = await failure(t);
    expect(e).toBeInstanceOf(ExecutionError);
    expect(e.message).toBe("Division by zero in `dividedBy(score, zero)` (row +I[Ann, 7, 0])");
  });

  it("in a global aggregate, in batch mode, and for a literal divisor", async () => {
    const e = await failure(scores(batch()).select($("score").dividedBy(0).sum().as("s")));
    expect(e.message).toBe("Division by zero in `dividedBy(score, 0)` (row +I[Bob, 12, 1])");
  });

  it("names the record whose grouping key fails", async () => {
    const t = scores(streaming()).groupBy($("score").mod($("zero"))).select($("score").mod($("zero")).as("k"), $("name").count().as("n"));
    expect((await failure(t)).message).toBe("Division by zero in `mod(score, zero)` (row +I[Ann, 7, 0])");
  });

  it("shows the record's kind for a retraction", async () => {
    const t = streaming().fromValues(SCORES, Row.of("Bob", 12, 1), Row.ofKind(RowKind.DELETE, "Bob", 12, 0))
      .groupBy($("name")).select($("name"), $("score").dividedBy($("zero")).max().as("m"));
    expect((await failure(t)).message).toBe("Division by zero in `dividedBy(score, zero)` (row -D[Bob, 12, 0])");
  });

  it("names the record for an error of a user function in an argument", async () => {
    const Boom = ScalarFunction.define({
      name: "boom", args: [DataTypes.INT()], result: DataTypes.INT(),
      eval: (v) => { if (v === 7) throw new RangeError("seven"); return v; },
    });
    const e = await failure(scores(streaming()).groupBy($("name")).select($("name"), call(Boom, $("score")).sum().as("s")));
    expect(e).toBeInstanceOf(ExecutionError);
    expect(e.message).toBe("function 'boom' failed for arguments (7): seven (row +I[Ann, 7, 0])");
  });
});

/** Events (k, v, d, ts) with `WATERMARK FOR ts AS ts - INTERVAL '1' SECOND`. */
const EVENTS = Schema.newBuilder()
  .column("k", DataTypes.STRING())
  .column("v", DataTypes.INT())
  .column("d", DataTypes.INT())
  .column("ts", "TIMESTAMP_LTZ(3)")
  .watermark("ts", "ts - INTERVAL '1' SECOND")
  .build();
const events = (env: TableEnvironment) => env.fromValues(EVENTS,
  Row.of("a", 4, 2, new Date(1000)), Row.of("a", 5, 0, new Date(1500)), Row.of("b", 6, 3, new Date(2500)));

describe("window and over aggregation", () => {
  it("a tumbling window names the record whose argument fails", async () => {
    const t = events(streaming()).window(Tumble.over(lit(2).seconds()).on($("ts")).as("w"))
      .groupBy($("k"), $("w")).select($("k"), $("v").dividedBy($("d")).sum().as("s"));
    expect((await failure(t)).message).toBe("Division by zero in `dividedBy(v, d)` (row +I[a, 5, 0, 1970-01-01T00:00:01.500Z])");
  });

  it("a session window names the record whose argument fails", async () => {
    const t = events(streaming()).window(Session.withGap(lit(1).seconds()).on($("ts")).as("w"))
      .groupBy($("k"), $("w")).select($("k"), $("v").mod($("d")).max().as("m"));
    expect((await failure(t)).message).toBe("Division by zero in `mod(v, d)` (row +I[a, 5, 0, 1970-01-01T00:00:01.500Z])");
  });

  it("an event-time over window names the row whose argument fails when it is released", async () => {
    const t = events(streaming()).window(Over.partitionBy($("k")).orderBy($("ts")).preceding(UNBOUNDED_RANGE).as("o"))
      .select($("k"), $("v").dividedBy($("d")).sum().over($("o")).as("s"));
    expect((await failure(t)).message).toBe("Division by zero in `dividedBy(v, d)` (row +I[a, 5, 0, 1970-01-01T00:00:01.500Z])");
  });

  it("an over window ordered by a plain column names the row whose argument fails", async () => {
    const t = scores(streaming()).window(Over.partitionBy($("name")).orderBy($("score")).preceding(UNBOUNDED_RANGE).as("o"))
      .select($("name"), $("score").dividedBy($("zero")).sum().over($("o")).as("s"));
    expect((await failure(t)).message).toBe("Division by zero in `dividedBy(score, zero)` (row +I[Ann, 7, 0])");
  });
});
