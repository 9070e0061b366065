// Flink's multi-input and ORDER BY programs, Flink's test catalogue §3.12–3.13 (P-027, P-079 … P-087) and the matching
// validation cases (V-21, V-23, V-25, V-43, V-45, V-69), with Flink's exact rows and messages.
// Flink's assertions are multisets; where the order of rows of different keys is Flink's listing order
// here too, the tests compare sequences.
import { describe, expect, it } from "vitest";
import { RestoreRun } from "./restore-run.js";
import { backendSuite } from "../support/state-backends.js";
import type { TableEnvironment } from "../../src/index.js";
import { $, Row, Session, descriptor, lit } from "../../src/index.js";
import {
  MultiInputFunction, MultiInputOrderByFunction, MultiInputWithScalarArgsFunction, OrderByFunction, T_LARGE_ROWS, T_LARGE_SCHEMA, TimedJoinFunction,
  cityValues, timedCitySource, timedSourceLateEventsLarge,
} from "./flink-multi-functions.js";
import { TIMED_SOURCE_SCHEMA, timedSource } from "./flink-time-functions.js";
import { basicValues, multiValues, sorted, streamingEnv } from "./support.js";
import { RowSemanticTableFunction, SetSemanticTableFunction } from "./flink-functions.js";
import { TableArgument } from "../../src/ptf/table-arguments.js";
import { orderItems } from "../../src/ptf/order-by.js";
import { ArgumentTrait, DataTypes, ProcessTableFunction, Schema, tableArg } from "../../src/index.js";

backendSuite("§3.12 multiple table inputs", () => {
  it("P-079 process-multi-input-scalar-args", async () => {
    const env = streamingEnv();
    multiValues(env);
    cityValues(env);
    env.createTemporaryFunction("f", MultiInputWithScalarArgsFunction);
    const result = env.fromCall("f",
      lit(new Map([["A", "1"], ["B", "2"]])).asArgument("m"), env.from("t").partitionBy($("name")).asArgument("in1"), lit(12).asArgument("i"),
      env.from("city").partitionBy($("name")).asArgument("in2"), lit({ b: true, s: "Hello" }).asArgument("r"));
    expect(result.getResolvedSchema().names).toEqual(["name", "name0", "out"]);
    // Flink lists the same rows (a multiset); the two sources are interleaved row by row here
    expect(await result.execute().toChangelog()).toEqual([
      "+I[Bob, Bob, {+I[Bob, 12], null, {A=1, B=2}, 12, +I[true, Hello]}]",
      "+I[Bob, Bob, {null, +I[Bob, London], {A=1, B=2}, 12, +I[true, Hello]}]",
      "+I[Alice, Alice, {+I[Alice, 42], null, {A=1, B=2}, 12, +I[true, Hello]}]",
      "+I[Alice, Alice, {null, +I[Alice, Berlin], {A=1, B=2}, 12, +I[true, Hello]}]",
      "+I[Bob, Bob, {+I[Bob, 99], null, {A=1, B=2}, 12, +I[true, Hello]}]",
      "+I[Charly, Charly, {null, +I[Charly, Paris], {A=1, B=2}, 12, +I[true, Hello]}]",
      "+I[Bob, Bob, {+I[Bob, 100], null, {A=1, B=2}, 12, +I[true, Hello]}]",
      "+I[Alice, Alice, {+I[Alice, 400], null, {A=1, B=2}, 12, +I[true, Hello]}]",
    ]);
  });

  it("P-081 process-stateful-multi-input-with-timeout: the combined watermark is the minimum over the inputs", async () => {
    const env = streamingEnv();
    timedSource(env);
    timedCitySource(env);
    env.createTemporaryFunction("f", TimedJoinFunction);
    const result = env.fromCall("f", env.from("t").partitionBy($("name")).asArgument("scoreTable"),
      env.from("city").partitionBy($("name")).asArgument("cityTable"), descriptor("ts").asArgument("on_time"));
    expect(result.getResolvedSchema().names).toEqual(["name", "name0", "out", "rowtime"]);
    // the city source holds the combined watermark at -1 until it ends: Alice's timeout fires at the end
    expect(await result.execute().toChangelog()).toEqual([
      "+I[Bob, Bob, 1 score in city London, 1970-01-01T00:00:00Z]",
      "+I[Bob, Bob, 2 score in city London, 1970-01-01T00:00:00.002Z]",
      "+I[Bob, Bob, 3 score in city London, 1970-01-01T00:00:00.003Z]",
      "+I[Bob, Bob, 4 score in city London, 1970-01-01T00:00:00.004Z]",
      "+I[Bob, Bob, 5 score in city London, 1970-01-01T00:00:00.005Z]",
      "+I[Bob, Bob, 6 score in city London, 1970-01-01T00:00:00.006Z]",
      "+I[Alice, Alice, no city found for score 1, 1970-01-01T00:00:01.001Z]",
    ]);
  });
});

backendSuite("§3.13 ORDER BY", () => {
  it("P-083 process-order-by", async () => {
    const env = streamingEnv();
    timedSourceLateEventsLarge(env);
    env.createTemporaryFunction("f", OrderByFunction);
    const result = env.fromCall("f", env.from("t_large").partitionBy($("name")).orderBy($("ts").asc(), $("score").desc()).asArgument("r"),
      descriptor("ts").asArgument("on_time"));
    expect(result.getResolvedSchema().names).toEqual(["name", "out", "rowtime"]);
    // (Alice, 3, ts 1) arrives behind watermark 9 and is dropped; Bob 3 comes before Bob 2 (same ts, score DESC)
    expect(await result.execute().toChangelog()).toEqual([
      "+I[Bob, {1969-12-31T23:59:59.995Z, 1969-12-31T23:59:59.995Z, 1970-01-01T00:00:00Z, [+I[Bob, 1, 1970-01-01T00:00:00Z]]}, 1970-01-01T00:00:00Z]",
      "+I[Alice, {1969-12-31T23:59:59.995Z, 1969-12-31T23:59:59.995Z, 1970-01-01T00:00:00.001Z, [+I[Alice, 1, 1970-01-01T00:00:00.001Z]]}, 1970-01-01T00:00:00.001Z]",
      "+I[Bob, {1969-12-31T23:59:59.995Z, 1969-12-31T23:59:59.995Z, 1970-01-01T00:00:00.003Z, [+I[Bob, 1, 1970-01-01T00:00:00Z], +I[Bob, 3, 1970-01-01T00:00:00.003Z]]}, 1970-01-01T00:00:00.003Z]",
      "+I[Bob, {1969-12-31T23:59:59.995Z, 1969-12-31T23:59:59.995Z, 1970-01-01T00:00:00.003Z, [+I[Bob, 1, 1970-01-01T00:00:00Z], +I[Bob, 3, 1970-01-01T00:00:00.003Z], +I[Bob, 2, 1970-01-01T00:00:00.003Z]]}, 1970-01-01T00:00:00.003Z]",
      "+I[Bob, {1969-12-31T23:59:59.995Z, 1969-12-31T23:59:59.995Z, 1970-01-01T00:00:00.005Z, [+I[Bob, 1, 1970-01-01T00:00:00Z], +I[Bob, 3, 1970-01-01T00:00:00.003Z], +I[Bob, 2, 1970-01-01T00:00:00.003Z], +I[Bob, 4, 1970-01-01T00:00:00.005Z]]}, 1970-01-01T00:00:00.005Z]",
      "+I[Bob, {1970-01-01T00:00:00.009Z, 1970-01-01T00:00:00.009Z, 1970-01-01T00:00:00.010Z, [+I[Bob, 1, 1970-01-01T00:00:00Z], +I[Bob, 3, 1970-01-01T00:00:00.003Z], +I[Bob, 2, 1970-01-01T00:00:00.003Z], +I[Bob, 4, 1970-01-01T00:00:00.005Z], +I[Bob, 5, 1970-01-01T00:00:00.010Z]]}, 1970-01-01T00:00:00.010Z]",
      "+I[Bob, {1970-01-01T00:00:00.009Z, 1970-01-01T00:00:00.009Z, 1970-01-01T00:00:00.012Z, [+I[Bob, 1, 1970-01-01T00:00:00Z], +I[Bob, 3, 1970-01-01T00:00:00.003Z], +I[Bob, 2, 1970-01-01T00:00:00.003Z], +I[Bob, 4, 1970-01-01T00:00:00.005Z], +I[Bob, 5, 1970-01-01T00:00:00.010Z], +I[Bob, 6, 1970-01-01T00:00:00.012Z]]}, 1970-01-01T00:00:00.012Z]",
      "+I[Alice, {1970-01-01T00:00:00.012Z, 1970-01-01T00:00:00.012Z, 1970-01-01T00:00:00.019Z, [+I[Alice, 1, 1970-01-01T00:00:00.001Z], +I[Alice, 2, 1970-01-01T00:00:00.019Z]]}, 1970-01-01T00:00:00.019Z]",
      "+I[Bob, {1970-01-01T00:00:00.012Z, 1970-01-01T00:00:00.012Z, 1970-01-01T00:00:00.022Z, [+I[Bob, 1, 1970-01-01T00:00:00Z], +I[Bob, 3, 1970-01-01T00:00:00.003Z], +I[Bob, 2, 1970-01-01T00:00:00.003Z], +I[Bob, 4, 1970-01-01T00:00:00.005Z], +I[Bob, 5, 1970-01-01T00:00:00.010Z], +I[Bob, 6, 1970-01-01T00:00:00.012Z], +I[Bob, 7, 1970-01-01T00:00:00.022Z]]}, 1970-01-01T00:00:00.022Z]",
    ]);
  });
});


backendSuite("§3.13 ORDER BY over a window aggregate", () => {
  it("P-027 process-order-by-multi-partition-key-and-order-by: the c=2 session comes before the c=1 session of equal window_time", async () => {
    const env = streamingEnv();
    const schema = Schema.newBuilder().column("suite_name", DataTypes.STRING()).column("test_name", DataTypes.STRING()).column("group", DataTypes.STRING())
      .column("ts", DataTypes.TIMESTAMP_LTZ(3)).watermark("ts", "ts - INTERVAL '0.001' SECOND").build();
    const t = env.fromValues(schema,
      Row.of("suiteA", "test1", "x", new Date(0)), Row.of("suiteB", "test2", "x", new Date(1)),
      Row.of("suiteA", "test1", "x", new Date(2)), Row.of("suiteA", "test1", "y", new Date(2)));
    // SESSION(TABLE t PARTITION BY (suite_name, test_name, `group`), DESCRIPTOR(ts), INTERVAL '0.002' SECOND) GROUP BY ...
    const v = t.window(Session.withGap(lit(2).millis()).on($("ts")).as("w"))
      .groupBy($("suite_name"), $("test_name"), $("group"), $("w"))
      .select($("suite_name"), $("test_name"), $("w").rowtime().as("window_time"), $("group").count().as("c"));
    env.createTemporaryFunction("f", SetSemanticTableFunction);
    const result = v.partitionBy($("suite_name"), $("test_name")).orderBy($("window_time").asc(), $("c").desc()).process("f", lit(1).asArgument("i"));
    expect(result.getResolvedSchema().names).toEqual(["suite_name", "test_name", "out"]);
    expect(await result.execute().toChangelog()).toEqual([
      "+I[suiteB, test2, {+I[suiteB, test2, 1970-01-01T00:00:00.002Z, 1], 1}]",
      "+I[suiteA, test1, {+I[suiteA, test1, 1970-01-01T00:00:00.003Z, 2], 1}]",
      "+I[suiteA, test1, {+I[suiteA, test1, 1970-01-01T00:00:00.003Z, 1], 1}]",
    ]);
  });
});

backendSuite("§3.13 ORDER BY restore programs (sort buffers are state)", () => {
  const BEFORE_LARGE = T_LARGE_ROWS.slice(0, 7);
  const AFTER_LARGE = T_LARGE_ROWS.slice(7);

  it("P-085 process-order-by-restore", () => {
    const env = streamingEnv();
    const t = env.fromValues(T_LARGE_SCHEMA);
    const call = env.fromCall(OrderByFunction, t.partitionBy($("name")).orderBy($("ts").asc(), $("score").desc()).asArgument("r"), descriptor("ts").asArgument("on_time"));
    const before = new RestoreRun(env, call, [10]).rows(0, BEFORE_LARGE);
    const state = before.op.snapshotState();
    // (Alice, 2, ts 19) waits in the sort buffer of the savepoint; watermarks are not part of it
    expect(state.sortBuffers).toEqual({ r: [["Alice", 0, ["Alice", 2, new Date(19)]]] });
    const after = new RestoreRun(env, call, [10], state).rows(0, AFTER_LARGE).end(0);
    expect([...before.out, ...after.out]).toEqual([
      "+I[Bob, {1969-12-31T23:59:59.995Z, 1969-12-31T23:59:59.995Z, 1970-01-01T00:00:00Z, [+I[Bob, 1, 1970-01-01T00:00:00Z]]}, 1970-01-01T00:00:00Z]",
      "+I[Alice, {1969-12-31T23:59:59.995Z, 1969-12-31T23:59:59.995Z, 1970-01-01T00:00:00.001Z, [+I[Alice, 1, 1970-01-01T00:00:00.001Z]]}, 1970-01-01T00:00:00.001Z]",
      "+I[Bob, {1969-12-31T23:59:59.995Z, 1969-12-31T23:59:59.995Z, 1970-01-01T00:00:00.003Z, [+I[Bob, 1, 1970-01-01T00:00:00Z], +I[Bob, 3, 1970-01-01T00:00:00.003Z]]}, 1970-01-01T00:00:00.003Z]",
      "+I[Bob, {1969-12-31T23:59:59.995Z, 1969-12-31T23:59:59.995Z, 1970-01-01T00:00:00.003Z, [+I[Bob, 1, 1970-01-01T00:00:00Z], +I[Bob, 3, 1970-01-01T00:00:00.003Z], +I[Bob, 2, 1970-01-01T00:00:00.003Z]]}, 1970-01-01T00:00:00.003Z]",
      "+I[Bob, {1969-12-31T23:59:59.995Z, 1969-12-31T23:59:59.995Z, 1970-01-01T00:00:00.005Z, [+I[Bob, 1, 1970-01-01T00:00:00Z], +I[Bob, 3, 1970-01-01T00:00:00.003Z], +I[Bob, 2, 1970-01-01T00:00:00.003Z], +I[Bob, 4, 1970-01-01T00:00:00.005Z]]}, 1970-01-01T00:00:00.005Z]",
      "+I[Bob, {1970-01-01T00:00:00.002Z, 1970-01-01T00:00:00.002Z, 1970-01-01T00:00:00.010Z, [+I[Bob, 1, 1970-01-01T00:00:00Z], +I[Bob, 3, 1970-01-01T00:00:00.003Z], +I[Bob, 2, 1970-01-01T00:00:00.003Z], +I[Bob, 4, 1970-01-01T00:00:00.005Z], +I[Bob, 5, 1970-01-01T00:00:00.010Z]]}, 1970-01-01T00:00:00.010Z]",
      "+I[Bob, {1970-01-01T00:00:00.002Z, 1970-01-01T00:00:00.002Z, 1970-01-01T00:00:00.012Z, [+I[Bob, 1, 1970-01-01T00:00:00Z], +I[Bob, 3, 1970-01-01T00:00:00.003Z], +I[Bob, 2, 1970-01-01T00:00:00.003Z], +I[Bob, 4, 1970-01-01T00:00:00.005Z], +I[Bob, 5, 1970-01-01T00:00:00.010Z], +I[Bob, 6, 1970-01-01T00:00:00.012Z]]}, 1970-01-01T00:00:00.012Z]",
      "+I[Alice, {1970-01-01T00:00:00.012Z, 1970-01-01T00:00:00.012Z, 1970-01-01T00:00:00.019Z, [+I[Alice, 1, 1970-01-01T00:00:00.001Z], +I[Alice, 2, 1970-01-01T00:00:00.019Z]]}, 1970-01-01T00:00:00.019Z]",
      "+I[Bob, {1970-01-01T00:00:00.012Z, 1970-01-01T00:00:00.012Z, 1970-01-01T00:00:00.022Z, [+I[Bob, 1, 1970-01-01T00:00:00Z], +I[Bob, 3, 1970-01-01T00:00:00.003Z], +I[Bob, 2, 1970-01-01T00:00:00.003Z], +I[Bob, 4, 1970-01-01T00:00:00.005Z], +I[Bob, 5, 1970-01-01T00:00:00.010Z], +I[Bob, 6, 1970-01-01T00:00:00.012Z], +I[Bob, 7, 1970-01-01T00:00:00.022Z]]}, 1970-01-01T00:00:00.022Z]",
    ]);
  });

  it("P-087 process-multi-input-order-by-restore: a sort buffer per input, flushed by that input's watermark", () => {
    const env = streamingEnv();
    const t = env.fromValues(TIMED_SOURCE_SCHEMA);
    const large = env.fromValues(T_LARGE_SCHEMA);
    const call = env.fromCall(MultiInputOrderByFunction,
      t.partitionBy($("name")).orderBy($("ts").asc()).asArgument("in1"),
      large.partitionBy($("name")).orderBy($("ts").asc(), $("score").desc()).asArgument("in2"), descriptor("ts").asArgument("on_time"));
    expect(call.getResolvedSchema().names).toEqual(["name", "name0", "out", "rowtime"]);
    const IN1: readonly (readonly [string, number, number])[] = [["Bob", 1, 0], ["Alice", 1, 1], ["Bob", 2, 99999], ["Bob", 3, 3], ["Bob", 4, 4]];
    const before = new RestoreRun(env, call, [1, 10]).rows(0, IN1).rows(1, BEFORE_LARGE);
    // input 1 ends first after the restore: its buffered (Bob, 2) is released with table watermark null
    const after = new RestoreRun(env, call, [1, 10], before.op.snapshotState()).end(0).rows(1, AFTER_LARGE).end(1);
    // Flink asserts a multiset and lists rows of one release across keys in different orders (P-083 by
    // time, here Alice last); rows are released in time order across keys, so the lists are compared sorted
    expect(sorted([...before.out, ...after.out])).toEqual(sorted([
      "+I[Bob, Bob, {in1, 1969-12-31T23:59:59.999Z, 1970-01-01T00:00:00Z, [+I[Bob, 1, 1970-01-01T00:00:00Z]]}, 1970-01-01T00:00:00Z]",
      "+I[Alice, Alice, {in1, 1970-01-01T00:00:00Z, 1970-01-01T00:00:00.001Z, [+I[Alice, 1, 1970-01-01T00:00:00.001Z]]}, 1970-01-01T00:00:00.001Z]",
      "+I[Bob, Bob, {in2, 1969-12-31T23:59:59.995Z, 1970-01-01T00:00:00Z, [+I[Bob, 1, 1970-01-01T00:00:00Z]]}, 1970-01-01T00:00:00Z]",
      "+I[Bob, Bob, {in2, 1969-12-31T23:59:59.995Z, 1970-01-01T00:00:00.003Z, [+I[Bob, 1, 1970-01-01T00:00:00Z], +I[Bob, 3, 1970-01-01T00:00:00.003Z]]}, 1970-01-01T00:00:00.003Z]",
      "+I[Bob, Bob, {in2, 1969-12-31T23:59:59.995Z, 1970-01-01T00:00:00.003Z, [+I[Bob, 1, 1970-01-01T00:00:00Z], +I[Bob, 3, 1970-01-01T00:00:00.003Z], +I[Bob, 2, 1970-01-01T00:00:00.003Z]]}, 1970-01-01T00:00:00.003Z]",
      "+I[Bob, Bob, {in2, 1969-12-31T23:59:59.995Z, 1970-01-01T00:00:00.005Z, [+I[Bob, 1, 1970-01-01T00:00:00Z], +I[Bob, 3, 1970-01-01T00:00:00.003Z], +I[Bob, 2, 1970-01-01T00:00:00.003Z], +I[Bob, 4, 1970-01-01T00:00:00.005Z]]}, 1970-01-01T00:00:00.005Z]",
      "+I[Alice, Alice, {in2, 1969-12-31T23:59:59.995Z, 1970-01-01T00:00:00.001Z, [+I[Alice, 1, 1970-01-01T00:00:00.001Z]]}, 1970-01-01T00:00:00.001Z]",
      "+I[Bob, Bob, {in1, null, 1970-01-01T00:01:39.999Z, [+I[Bob, 1, 1970-01-01T00:00:00Z], +I[Bob, 2, 1970-01-01T00:01:39.999Z]]}, 1970-01-01T00:01:39.999Z]",
      "+I[Bob, Bob, {in2, 1970-01-01T00:00:00.002Z, 1970-01-01T00:00:00.010Z, [+I[Bob, 1, 1970-01-01T00:00:00Z], +I[Bob, 3, 1970-01-01T00:00:00.003Z], +I[Bob, 2, 1970-01-01T00:00:00.003Z], +I[Bob, 4, 1970-01-01T00:00:00.005Z], +I[Bob, 5, 1970-01-01T00:00:00.010Z]]}, 1970-01-01T00:00:00.010Z]",
      "+I[Bob, Bob, {in2, 1970-01-01T00:00:00.002Z, 1970-01-01T00:00:00.012Z, [+I[Bob, 1, 1970-01-01T00:00:00Z], +I[Bob, 3, 1970-01-01T00:00:00.003Z], +I[Bob, 2, 1970-01-01T00:00:00.003Z], +I[Bob, 4, 1970-01-01T00:00:00.005Z], +I[Bob, 5, 1970-01-01T00:00:00.010Z], +I[Bob, 6, 1970-01-01T00:00:00.012Z]]}, 1970-01-01T00:00:00.012Z]",
      "+I[Bob, Bob, {in2, 1970-01-01T00:00:00.012Z, 1970-01-01T00:00:00.022Z, [+I[Bob, 1, 1970-01-01T00:00:00Z], +I[Bob, 3, 1970-01-01T00:00:00.003Z], +I[Bob, 2, 1970-01-01T00:00:00.003Z], +I[Bob, 4, 1970-01-01T00:00:00.005Z], +I[Bob, 5, 1970-01-01T00:00:00.010Z], +I[Bob, 6, 1970-01-01T00:00:00.012Z], +I[Bob, 7, 1970-01-01T00:00:00.022Z]]}, 1970-01-01T00:00:00.022Z]",
      "+I[Alice, Alice, {in2, 1970-01-01T00:00:00.012Z, 1970-01-01T00:00:00.019Z, [+I[Alice, 1, 1970-01-01T00:00:00.001Z], +I[Alice, 2, 1970-01-01T00:00:00.019Z]]}, 1970-01-01T00:00:00.019Z]",
    ]));
  });
});

describe("validation of several tables and ORDER BY", () => {
  function watermarked(env: TableEnvironment) {
    const t = env.fromValues(TIMED_SOURCE_SCHEMA, Row.of("Bob", 1, new Date(0)));
    env.createTemporaryView("t_watermarked", t as never);
    return t;
  }

  it("V-21: ORDER BY on a row-semantics table", () => {
    const env = streamingEnv();
    const t = watermarked(env);
    env.createTemporaryFunction("f", RowSemanticTableFunction);
    // the Table API orders only partitioned tables; SQL's `TABLE t ORDER BY ts` is this argument
    const arg = new TableArgument("r", t, [], orderItems(t, [$("ts")]));
    expect(() => env.fromCall("f", arg, lit(1).asArgument("i"))).toThrow("Only tables with set semantics may be ordered.");
  });

  it("V-23: the first ORDER BY column must be ascending", () => {
    const env = streamingEnv();
    const t = watermarked(env);
    env.createTemporaryFunction("f", SetSemanticTableFunction);
    expect(() => t.partitionBy($("name")).orderBy($("ts").desc()).process("f", lit(1).asArgument("i"))).toThrow(
      "Invalid ORDER BY clause for table argument 'r'. The first ORDER BY column on a timestamp column must be in ascending order.",
    );
  });

  it("V-25: an ORDER BY column given twice", () => {
    const env = streamingEnv();
    const t = watermarked(env);
    env.createTemporaryFunction("f", SetSemanticTableFunction);
    expect(() => t.partitionBy($("name")).orderBy($("ts"), $("score"), $("ts")).asArgument("r")).not.toThrow();
    expect(() => env.fromCall("f", t.partitionBy($("name")).orderBy($("ts"), $("score"), $("ts")).asArgument("r"), lit(1).asArgument("i"))).toThrow(
      "Invalid ORDER BY clause for table argument 'r'. Column 'ts' appears more than once in ORDER BY.",
    );
  });

  it("ORDER BY: the first column is the time attribute, the on_time column when both are given; columns exist", () => {
    const env = streamingEnv();
    const t = watermarked(env);
    const plain = env.fromValues(Schema.newBuilder().column("name", DataTypes.STRING()).column("ts", DataTypes.TIMESTAMP_LTZ(3)).build(), Row.of("Bob", new Date(0)));
    env.createTemporaryFunction("f", OrderByFunction);
    const typeMsg = "Invalid ORDER BY clause for table argument 'r'. The first ORDER BY column must be a TIMESTAMP or TIMESTAMP_LTZ column (up to precision 3). However, column 'score' has data type 'INT'.";
    expect(() => env.fromCall("f", t.partitionBy($("name")).orderBy($("score")).asArgument("r"))).toThrow(typeMsg);
    // Flink's order: the type is checked before the direction; SQL gives the same message
    expect(() => env.fromCall("f", t.partitionBy($("name")).orderBy($("score").desc()).asArgument("r"))).toThrow(typeMsg);
    expect(() => env.executeSql("SELECT * FROM f(r => TABLE t_watermarked PARTITION BY name ORDER BY score DESC)")).toThrow(typeMsg);
    const notTime = "Invalid ORDER BY clause for table argument 'r'. The first ORDER BY column 'ts' is not a valid time attribute. "
      + "Only columns with a watermark declaration qualify for ORDER BY. Also, make sure that the watermarked column is forwarded without any modification.";
    expect(() => env.fromCall("f", plain.partitionBy($("name")).orderBy($("ts")).asArgument("r"))).toThrow(notTime);
    env.createTemporaryView("t_plain", plain as never);
    expect(() => env.executeSql("SELECT * FROM f(r => TABLE t_plain PARTITION BY name ORDER BY ts)")).toThrow(notTime);
    const twoTimes = env.fromValues(Schema.newBuilder().column("name", DataTypes.STRING()).column("ts", DataTypes.TIMESTAMP_LTZ(3)).column("ts2", DataTypes.TIMESTAMP_LTZ(3))
      .watermark("ts", "ts").build(), Row.of("Bob", new Date(0), new Date(0)));
    expect(() => env.fromCall("f", twoTimes.partitionBy($("name")).orderBy($("ts")).asArgument("r"), descriptor("ts2").asArgument("on_time"))).toThrow(
      "Invalid time attribute declaration. Column 'ts2' in table argument 'r' of function 'f' is not a time attribute",
    );
    // Flink's "order by mismatch with on_time": ORDER BY a plain timestamp, on_time the watermarked one — the
    // on_time check comes before the time-attribute check (SQL and Table API)
    env.createTemporaryView("dual_ts", twoTimes as never);
    const mismatch = "Invalid ORDER BY clause for table argument 'r'. When both ORDER BY and the 'on_time' argument are defined, the referenced timestamp columns must match.";
    expect(() => env.fromCall("f", twoTimes.partitionBy($("name")).orderBy($("ts2")).asArgument("r"), descriptor("ts").asArgument("on_time"))).toThrow(mismatch);
    expect(() => env.sqlQuery("SELECT * FROM f(r => TABLE dual_ts PARTITION BY name ORDER BY ts2, on_time => DESCRIPTOR(ts))")).toThrow(mismatch);
    // @ts-expect-error the compiler knows the columns as well
    expect(() => t.partitionBy($("name")).orderBy($("nope").asc())).toThrow("Invalid column 'nope' for ORDER BY clause. Available columns are: [name, score, ts]");
  });

  it("V-43: with several tables, on_time names a column of every table or none", () => {
    const env = streamingEnv();
    const t = basicValues(env);
    const tw = watermarked(env);
    env.createTemporaryFunction("f", MultiInputFunction);
    expect(() => env.fromCall("f", t.partitionBy($("name")).asArgument("in1"), tw.partitionBy($("name")).asArgument("in2"), descriptor("ts").asArgument("on_time"))).toThrow(
      "Invalid time attribute declaration. If multiple tables are declared, the `on_time` argument must reference a time column for each table argument or none. Missing time attributes for: [in1]",
    );
  });

  it("co-partitioning: character strings of any length match, INT and BIGINT do not", () => {
    const env = streamingEnv();
    const t = basicValues(env);
    const long = env.fromValues(DataTypes.ROW(DataTypes.FIELD("n", DataTypes.BIGINT())), Row.of(12));
    env.createTemporaryFunction("f", MultiInputFunction);
    expect(() => env.fromCall("f", t.partitionBy($("score")).asArgument("in1"), long.partitionBy($("n")).asArgument("in2"))).toThrow(
      "Given partition key sets: [INT NOT NULL], [BIGINT]",
    );
  });

  it("V-69 testFunctionWithMultipleTableArgs: the same table may feed two table arguments", async () => {
    const env = streamingEnv();
    const t = basicValues(env);
    env.createTemporaryFunction("f", MultiInputFunction);
    const result = env.fromCall("f", t.partitionBy($("name")).asArgument("in1"), t.partitionBy($("name")).asArgument("in2"));
    expect(result.getResolvedSchema().toString()).toBe("(\n  `name` VARCHAR(5) NOT NULL,\n  `name0` VARCHAR(5) NOT NULL,\n  `out` STRING\n)");
    expect(await result.execute().toChangelog()).toEqual([
      "+I[Bob, Bob, {+I[Bob, 12], null}]", "+I[Bob, Bob, {null, +I[Bob, 12]}]",
      "+I[Alice, Alice, {+I[Alice, 42], null}]", "+I[Alice, Alice, {null, +I[Alice, 42]}]",
    ]);
  });
});

describe("ORDER BY at runtime", () => {
  it("tableSemanticsFor(arg).orderByColumns() / orderByDirections(), explain, and late rows dropped without on_time", async () => {
    const env = streamingEnv();
    const t = env.fromValues(TIMED_SOURCE_SCHEMA, ...[["Bob", 1, 5], ["Bob", 2, 1], ["Bob", 3, 7], ["Bob", 4, 2], ["Bob", 5, 7]].map(([n, s, ts]) => Row.of(n, s, new Date(ts as number))));
    const Ordered = ProcessTableFunction.define({
      name: "Ordered",
      args: { input: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE) },
      output: DataTypes.STRING(),
      eval(ctx, _s, { input }) {
        const sem = ctx.tableSemanticsFor("input");
        ctx.collect(`${String(input)} ${sem.orderByColumns().join(",")} ${sem.orderByDirections().join(",")}`);
      },
    });
    const result = t.partitionBy($("name")).orderBy($("ts"), $("score").desc().nullsFirst()).process(Ordered);
    expect(result.getResolvedSchema().names).toEqual(["name", "EXPR$0"]);
    expect(result.explain()).toContain("invocation=[Ordered(TABLE(#0) PARTITION BY(name) ORDER BY(ts ASC, score DESC), DEFAULT(), DEFAULT())]");
    // watermark = max ts − 1 ms: (Bob, 2, ts 1) and (Bob, 4, ts 2) arrive behind watermark 4 and are dropped
    expect(await result.execute().toChangelog()).toEqual([
      "+I[Bob, +I[Bob, 1, 1970-01-01T00:00:00.005Z] 2,1 ASC_NULLS_FIRST,DESC_NULLS_FIRST]",
      "+I[Bob, +I[Bob, 5, 1970-01-01T00:00:00.007Z] 2,1 ASC_NULLS_FIRST,DESC_NULLS_FIRST]",
      "+I[Bob, +I[Bob, 3, 1970-01-01T00:00:00.007Z] 2,1 ASC_NULLS_FIRST,DESC_NULLS_FIRST]",
    ]);
  });

  it("without ORDER BY the semantics report no order", async () => {
    const env = streamingEnv();
    const t = basicValues(env);
    const F = ProcessTableFunction.define({
      name: "F", args: { r: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE) }, output: DataTypes.STRING(),
      eval(ctx) { ctx.collect(`${ctx.tableSemanticsFor("r").orderByColumns().length} ${ctx.tableSemanticsFor("r").orderByDirections().length}`); },
    });
    expect(await t.partitionBy($("name")).process(F).execute().toChangelog()).toEqual(["+I[Bob, 0 0]", "+I[Alice, 0 0]"]);
  });
});

describe("ORDER BY without PARTITION BY", () => {
  it("the Table API's asArgument(...).orderBy(...) is SQL's TABLE t ORDER BY ts (OPTIONAL_PARTITION_BY)", async () => {
    const env = streamingEnv();
    const t = env.fromValues(TIMED_SOURCE_SCHEMA, Row.of("Bob", 1, new Date(2)), Row.of("Alice", 2, new Date(1)), Row.of("Bob", 3, new Date(5)));
    env.createTemporaryView("t", t as never);
    env.createTemporaryFunction("f", OrderByFunction);
    const api = await env.fromCall("f", env.from("t").asArgument("r").orderBy($("ts")), descriptor("ts").asArgument("on_time")).execute().toChangelog();
    const sql = await env.executeSql("SELECT * FROM f(r => TABLE t ORDER BY ts, on_time => DESCRIPTOR(ts))").toChangelog();
    expect(api).toEqual(sql);
    // one processor without key: one list over both names; Alice (ts 1) is behind watermark 1 when it comes: late
    expect(api.map((r) => r.slice(r.indexOf(", [") + 2, r.indexOf("]]") + 2))).toEqual([
      "[+I[Bob, 1, 1970-01-01T00:00:00.002Z]]",
      "[+I[Bob, 1, 1970-01-01T00:00:00.002Z], +I[Bob, 3, 1970-01-01T00:00:00.005Z]]",
    ]);
  });
});
