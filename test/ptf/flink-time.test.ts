// Flink's PTF time programs, Flink's test catalogue §3.9–3.11 (P-061 … P-077), with Flink's exact rows. Flink's
// assertions are multisets; the rows come out here in the order Flink's authors listed them
// (PTF rules 5–9), so the tests compare sequences.
import { describe, expect, it } from "vitest";
import { $, DataTypes, ProcessTableFunction, Row, Schema, descriptor, lit, tableArg, ArgumentTrait } from "../../src/index.js";
import { PtfOperator } from "../../src/exec/operators/ptf/ptf-operator.js";
import {
  ChainedReceivingFunction, ChainedSendingFunction, ClearAllTimersKeepsStateFunction, EagerAndValueViewStateTimeFunction, InvalidPassThroughTimersFunction,
  InvalidRowSemanticTableTimersFunction, LateTimersFunction, NamedTimersFunction, OptionalOnTimeFunction, RequiredTimeFunction,
  TIMED_SOURCE_SCHEMA, TimeConversionsFunction, UnnamedTimersFunction, timedSource, timedSourceLateEvents,
} from "./flink-time-functions.js";
import { basicValues, streamingEnv } from "./support.js";
import { backendSuite } from "../support/state-backends.js";

backendSuite("§3.9 time context and watermarks", () => {
  it("P-061 process-time-conversions-table-api: time and watermark as Long / Instant / LocalDateTime", async () => {
    const env = streamingEnv();
    timedSource(env);
    const result = env.fromCall(TimeConversionsFunction, env.from("t").asArgument("r"), descriptor("ts").asArgument("on_time"));
    expect(result.getResolvedSchema().toString()).toBe("(\n  `out` STRING,\n  `rowtime` TIMESTAMP_LTZ(3) NOT NULL *ROWTIME*\n)");
    expect(await result.execute().toChangelog()).toEqual([
      "+I[{Time (Long: 0, Instant: 1970-01-01T00:00:00Z, LocalDateTime: 1970-01-01T00:00), Watermark (Long: null, Instant: null, LocalDateTime: null)}, 1970-01-01T00:00:00Z]",
      "+I[{Time (Long: 1, Instant: 1970-01-01T00:00:00.001Z, LocalDateTime: 1970-01-01T00:00:00.001), Watermark (Long: -1, Instant: 1969-12-31T23:59:59.999Z, LocalDateTime: 1969-12-31T23:59:59.999)}, 1970-01-01T00:00:00.001Z]",
      "+I[{Time (Long: 2, Instant: 1970-01-01T00:00:00.002Z, LocalDateTime: 1970-01-01T00:00:00.002), Watermark (Long: 0, Instant: 1970-01-01T00:00:00Z, LocalDateTime: 1970-01-01T00:00)}, 1970-01-01T00:00:00.002Z]",
      "+I[{Time (Long: 3, Instant: 1970-01-01T00:00:00.003Z, LocalDateTime: 1970-01-01T00:00:00.003), Watermark (Long: 1, Instant: 1970-01-01T00:00:00.001Z, LocalDateTime: 1970-01-01T00:00:00.001)}, 1970-01-01T00:00:00.003Z]",
      "+I[{Time (Long: 4, Instant: 1970-01-01T00:00:00.004Z, LocalDateTime: 1970-01-01T00:00:00.004), Watermark (Long: 2, Instant: 1970-01-01T00:00:00.002Z, LocalDateTime: 1970-01-01T00:00:00.002)}, 1970-01-01T00:00:00.004Z]",
      "+I[{Time (Long: 5, Instant: 1970-01-01T00:00:00.005Z, LocalDateTime: 1970-01-01T00:00:00.005), Watermark (Long: 3, Instant: 1970-01-01T00:00:00.003Z, LocalDateTime: 1970-01-01T00:00:00.003)}, 1970-01-01T00:00:00.005Z]",
      "+I[{Time (Long: 6, Instant: 1970-01-01T00:00:00.006Z, LocalDateTime: 1970-01-01T00:00:00.006), Watermark (Long: 4, Instant: 1970-01-01T00:00:00.004Z, LocalDateTime: 1970-01-01T00:00:00.004)}, 1970-01-01T00:00:00.006Z]",
    ]);
  });

  it("on_time positionally; a TIMESTAMP(3) column gives a TIMESTAMP(3) rowtime (process-regular-timestamp)", async () => {
    const env = streamingEnv();
    const schema = Schema.newBuilder().column("name", DataTypes.STRING()).column("score", DataTypes.INT()).column("ts", DataTypes.TIMESTAMP(3))
      .watermark("ts", "ts - INTERVAL '1' HOUR").build();
    const t = env.fromValues(schema, Row.of("Bob", 1, new Date(Date.UTC(2025, 0, 1, 1))), Row.of("Alice", 1, new Date(Date.UTC(2025, 0, 1, 2))));
    const result = t.process(TimeConversionsFunction, descriptor("ts"));
    const rowtime: Date = (await result.execute().toArray())[0]!.rowtime;
    expect(rowtime.getTime()).toBe(Date.UTC(2025, 0, 1, 1));
    expect(result.getResolvedSchema().columns.map((c) => String(c.type))).toEqual(["STRING", "TIMESTAMP(3) NOT NULL *ROWTIME*"]);
    expect(await result.execute().toChangelog()).toEqual([
      "+I[{Time (Long: 1735693200000, Instant: 2025-01-01T01:00:00Z, LocalDateTime: 2025-01-01T01:00), Watermark (Long: null, Instant: null, LocalDateTime: null)}, 2025-01-01T01:00]",
      "+I[{Time (Long: 1735696800000, Instant: 2025-01-01T02:00:00Z, LocalDateTime: 2025-01-01T02:00), Watermark (Long: 1735689600000, Instant: 2025-01-01T00:00:00Z, LocalDateTime: 2025-01-01T00:00)}, 2025-01-01T02:00]",
    ]);
  });

  it("V-65 testOnTime: the output rowtime is again a time attribute", () => {
    const env = streamingEnv();
    timedSource(env);
    env.createTemporaryFunction("f", RequiredTimeFunction);
    const out = env.fromCall("f", env.from("t").asArgument("r"), descriptor("ts").asArgument("on_time")).select($("out"), $("rowtime"));
    expect(out.getResolvedSchema().toString()).toBe("(\n  `out` STRING,\n  `rowtime` TIMESTAMP_LTZ(3) NOT NULL *ROWTIME*\n)");
  });

  it("P-019 process-empty-output-rowtime-only and P-031 process-empty-output: rowtime is the only (or last) column", async () => {
    const env = streamingEnv();
    timedSource(env);
    const EmptyRow = ProcessTableFunction.define({ args: { r: tableArg(ArgumentTrait.ROW_SEMANTIC_TABLE) }, output: DataTypes.ROW(), eval(ctx) { ctx.collect({}); } });
    const EmptySet = ProcessTableFunction.define({ name: "f", args: { r: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE) }, output: DataTypes.ROW(), eval(ctx) { ctx.collect({}); } });
    const times = ["1970-01-01T00:00:00Z", "1970-01-01T00:00:00.001Z", "1970-01-01T00:00:00.002Z", "1970-01-01T00:00:00.003Z", "1970-01-01T00:00:00.004Z", "1970-01-01T00:00:00.005Z", "1970-01-01T00:00:00.006Z"];
    expect(await env.fromCall(EmptyRow, env.from("t").asArgument("r"), descriptor("ts").asArgument("on_time")).execute().toChangelog())
      .toEqual(times.map((t) => `+I[${t}]`));
    expect(await env.fromCall(EmptySet, env.from("t").partitionBy($("name")).asArgument("r"), descriptor("ts").asArgument("on_time")).execute().toChangelog())
      .toEqual(times.map((t, i) => `+I[${i === 1 ? "Alice" : "Bob"}, ${t}]`));
  });
});

backendSuite("§3.10 timers", () => {
  it("P-063 process-partitioned-named-timers", async () => {
    const env = streamingEnv();
    timedSource(env);
    env.createTemporaryFunction("f", NamedTimersFunction);
    const result = env.fromCall("f", env.from("t").partitionBy($("name")).asArgument("r"), descriptor("ts").asArgument("on_time"));
    expect(result.getResolvedSchema().names).toEqual(["name", "out", "rowtime"]);
    expect(await result.execute().toChangelog()).toEqual([
      "+I[Bob, {Processing input row +I[Bob, 1, 1970-01-01T00:00:00Z] at time 0 watermark null}, 1970-01-01T00:00:00Z]",
      "+I[Bob, {Registering timer timeout1 for 1 at time 0 watermark null}, 1970-01-01T00:00:00Z]",
      "+I[Bob, {Registering timer timeout2 for 2 at time 0 watermark null}, 1970-01-01T00:00:00Z]",
      "+I[Bob, {Registering timer timeout3 for 3 at time 0 watermark null}, 1970-01-01T00:00:00Z]",
      "+I[Bob, {Registering timer timeout4 for 9223372036854775807 at time 0 watermark null}, 1970-01-01T00:00:00Z]",
      "+I[Bob, {Registering timer timeout5 for 9223372036854775807 at time 0 watermark null}, 1970-01-01T00:00:00Z]",
      "+I[Alice, {Processing input row +I[Alice, 1, 1970-01-01T00:00:00.001Z] at time 1 watermark -1}, 1970-01-01T00:00:00.001Z]",
      "+I[Bob, {Processing input row +I[Bob, 2, 1970-01-01T00:00:00.002Z] at time 2 watermark 0}, 1970-01-01T00:00:00.002Z]",
      "+I[Bob, {Timer timeout1 fired at time 1 watermark 1}, 1970-01-01T00:00:00.001Z]",
      "+I[Bob, {Registering timer timeout2 for 5 at time 1 watermark 1}, 1970-01-01T00:00:00.001Z]",
      "+I[Bob, {Clearing timer timeout3 at time 1 watermark 1}, 1970-01-01T00:00:00.001Z]",
      "+I[Bob, {Processing input row +I[Bob, 3, 1970-01-01T00:00:00.003Z] at time 3 watermark 1}, 1970-01-01T00:00:00.003Z]",
      "+I[Bob, {Processing input row +I[Bob, 4, 1970-01-01T00:00:00.004Z] at time 4 watermark 2}, 1970-01-01T00:00:00.004Z]",
      "+I[Bob, {Processing input row +I[Bob, 5, 1970-01-01T00:00:00.005Z] at time 5 watermark 3}, 1970-01-01T00:00:00.005Z]",
      "+I[Bob, {Processing input row +I[Bob, 6, 1970-01-01T00:00:00.006Z] at time 6 watermark 4}, 1970-01-01T00:00:00.006Z]",
      "+I[Bob, {Timer timeout2 fired at time 5 watermark 5}, 1970-01-01T00:00:00.005Z]",
      "+I[Bob, {Clearing all timers at time 5 watermark 5}, 1970-01-01T00:00:00.005Z]",
    ]);
  });

  it("P-065 process-partitioned-unnamed-timers", async () => {
    const env = streamingEnv();
    timedSource(env);
    env.createTemporaryFunction("f", UnnamedTimersFunction);
    expect(await env.fromCall("f", env.from("t").partitionBy($("name")).asArgument("r"), descriptor("ts").asArgument("on_time")).execute().toChangelog()).toEqual([
      "+I[Bob, {Processing input row +I[Bob, 1, 1970-01-01T00:00:00Z] at time 0 watermark null}, 1970-01-01T00:00:00Z]",
      "+I[Bob, {Registering timer for 1 at time 0 watermark null}, 1970-01-01T00:00:00Z]",
      "+I[Bob, {Registering timer for 2 at time 0 watermark null}, 1970-01-01T00:00:00Z]",
      "+I[Bob, {Registering timer for 9223372036854775807 at time 0 watermark null}, 1970-01-01T00:00:00Z]",
      "+I[Alice, {Processing input row +I[Alice, 1, 1970-01-01T00:00:00.001Z] at time 1 watermark -1}, 1970-01-01T00:00:00.001Z]",
      "+I[Bob, {Processing input row +I[Bob, 2, 1970-01-01T00:00:00.002Z] at time 2 watermark 0}, 1970-01-01T00:00:00.002Z]",
      "+I[Bob, {Timer null fired at time 1 watermark 1}, 1970-01-01T00:00:00.001Z]",
      "+I[Bob, {Registering timer for 5 at time 1 watermark 1}, 1970-01-01T00:00:00.001Z]",
      "+I[Bob, {Clearing timer 2 at time 1 watermark 1}, 1970-01-01T00:00:00.001Z]",
      "+I[Bob, {Processing input row +I[Bob, 3, 1970-01-01T00:00:00.003Z] at time 3 watermark 1}, 1970-01-01T00:00:00.003Z]",
      "+I[Bob, {Processing input row +I[Bob, 4, 1970-01-01T00:00:00.004Z] at time 4 watermark 2}, 1970-01-01T00:00:00.004Z]",
      "+I[Bob, {Processing input row +I[Bob, 5, 1970-01-01T00:00:00.005Z] at time 5 watermark 3}, 1970-01-01T00:00:00.005Z]",
      "+I[Bob, {Processing input row +I[Bob, 6, 1970-01-01T00:00:00.006Z] at time 6 watermark 4}, 1970-01-01T00:00:00.006Z]",
      "+I[Bob, {Timer null fired at time 5 watermark 5}, 1970-01-01T00:00:00.005Z]",
      "+I[Bob, {Clearing all timers at time 5 watermark 5}, 1970-01-01T00:00:00.005Z]",
    ]);
  });

  it("P-067 process-optional-on-time: timers without on_time, no rowtime column, time() null in eval", async () => {
    const env = streamingEnv();
    timedSource(env);
    env.createTemporaryFunction("f", OptionalOnTimeFunction);
    const result = env.fromCall("f", env.from("t").partitionBy($("name")).asArgument("r"));
    expect(result.getResolvedSchema().names).toEqual(["name", "out"]);
    expect(await result.execute().toChangelog()).toEqual([
      "+I[Bob, {Processing input row +I[Bob, 1, 1970-01-01T00:00:00Z] at time null watermark null}]",
      "+I[Bob, {Registering timer t for 1 at time null watermark null}]",
      "+I[Alice, {Processing input row +I[Alice, 1, 1970-01-01T00:00:00.001Z] at time null watermark -1}]",
      "+I[Alice, {Registering timer t for 1 at time null watermark -1}]",
      "+I[Bob, {Processing input row +I[Bob, 2, 1970-01-01T00:00:00.002Z] at time null watermark 0}]",
      "+I[Bob, {Registering timer t for 1 at time null watermark 0}]",
      "+I[Alice, {Timer t fired at time 1 watermark 1}]",
      "+I[Bob, {Timer t fired at time 1 watermark 1}]",
      "+I[Bob, {Processing input row +I[Bob, 3, 1970-01-01T00:00:00.003Z] at time null watermark 1}]",
      "+I[Bob, {Registering timer t for 2 at time null watermark 1}]",
      "+I[Bob, {Timer t fired at time 2 watermark 2}]",
      "+I[Bob, {Processing input row +I[Bob, 4, 1970-01-01T00:00:00.004Z] at time null watermark 2}]",
      "+I[Bob, {Registering timer t for 3 at time null watermark 2}]",
      "+I[Bob, {Timer t fired at time 3 watermark 3}]",
      "+I[Bob, {Processing input row +I[Bob, 5, 1970-01-01T00:00:00.005Z] at time null watermark 3}]",
      "+I[Bob, {Registering timer t for 4 at time null watermark 3}]",
      "+I[Bob, {Timer t fired at time 4 watermark 4}]",
      "+I[Bob, {Processing input row +I[Bob, 6, 1970-01-01T00:00:00.006Z] at time null watermark 4}]",
      "+I[Bob, {Registering timer t for 5 at time null watermark 4}]",
      "+I[Bob, {Timer t fired at time 5 watermark 5}]",
    ]);
  });

  it("P-069 process-eager-and-value-view-state-time: onTimer changes to both kinds of state are seen by the next eval", async () => {
    const env = streamingEnv();
    timedSource(env);
    env.createTemporaryFunction("f", EagerAndValueViewStateTimeFunction);
    expect(await env.fromCall("f", env.from("t").partitionBy($("name")).asArgument("r"), descriptor("ts").asArgument("on_time")).execute().toChangelog()).toEqual([
      "+I[Bob, {Score(s='null', i=null), null, +I[Bob, 1, 1970-01-01T00:00:00Z]}, 1970-01-01T00:00:00Z]",
      "+I[Bob, {Registering timer t for 2 at time 0 watermark null}, 1970-01-01T00:00:00Z]",
      "+I[Alice, {Score(s='null', i=null), null, +I[Alice, 1, 1970-01-01T00:00:00.001Z]}, 1970-01-01T00:00:00.001Z]",
      "+I[Alice, {Registering timer t for 3 at time 1 watermark -1}, 1970-01-01T00:00:00.001Z]",
      "+I[Bob, {Score(s='null', i=1), 1, +I[Bob, 2, 1970-01-01T00:00:00.002Z]}, 1970-01-01T00:00:00.002Z]",
      "+I[Bob, {Score(s='null', i=2), 2, +I[Bob, 3, 1970-01-01T00:00:00.003Z]}, 1970-01-01T00:00:00.003Z]",
      "+I[Bob, {Timer t fired at time 2 watermark 2}, 1970-01-01T00:00:00.002Z]",
      "+I[Bob, {Score(s='null', i=30), 103, +I[Bob, 4, 1970-01-01T00:00:00.004Z]}, 1970-01-01T00:00:00.004Z]",
      "+I[Alice, {Timer t fired at time 3 watermark 3}, 1970-01-01T00:00:00.003Z]",
      "+I[Bob, {Score(s='null', i=31), 104, +I[Bob, 5, 1970-01-01T00:00:00.005Z]}, 1970-01-01T00:00:00.005Z]",
      "+I[Bob, {Score(s='null', i=32), 105, +I[Bob, 6, 1970-01-01T00:00:00.006Z]}, 1970-01-01T00:00:00.006Z]",
    ]);
  });

  it("P-071 process-chained-time: timer output reaches the next PTF before the watermark that fired it", async () => {
    const env = streamingEnv();
    timedSource(env);
    env.createTemporaryFunction("f1", ChainedSendingFunction);
    env.createTemporaryFunction("f2", ChainedReceivingFunction);
    const ptf1 = env.fromCall("f1", env.from("t").partitionBy($("name")).asArgument("r"), descriptor("ts").asArgument("on_time"));
    const ptf2 = env.fromCall("f2", ptf1.partitionBy($("name")).asArgument("r"), descriptor("rowtime").asArgument("on_time"));
    expect(await ptf2.execute().toChangelog()).toEqual([
      "+I[Bob, {Processing input row +I[Bob, {Processing input row +I[Bob, 1, 1970-01-01T00:00:00Z] at time 0 watermark null}, 1970-01-01T00:00:00Z] at time 0 watermark null}, 1970-01-01T00:00:00Z]",
      "+I[Bob, {Processing input row +I[Bob, {Registering timer t for 1 at time 0 watermark null}, 1970-01-01T00:00:00Z] at time 0 watermark null}, 1970-01-01T00:00:00Z]",
      "+I[Alice, {Processing input row +I[Alice, {Processing input row +I[Alice, 1, 1970-01-01T00:00:00.001Z] at time 1 watermark -1}, 1970-01-01T00:00:00.001Z] at time 1 watermark -1}, 1970-01-01T00:00:00.001Z]",
      "+I[Alice, {Processing input row +I[Alice, {Registering timer t for 2 at time 1 watermark -1}, 1970-01-01T00:00:00.001Z] at time 1 watermark -1}, 1970-01-01T00:00:00.001Z]",
      "+I[Bob, {Processing input row +I[Bob, {Processing input row +I[Bob, 2, 1970-01-01T00:00:00.002Z] at time 2 watermark 0}, 1970-01-01T00:00:00.002Z] at time 2 watermark 0}, 1970-01-01T00:00:00.002Z]",
      "+I[Bob, {Processing input row +I[Bob, {Registering timer t for 3 at time 2 watermark 0}, 1970-01-01T00:00:00.002Z] at time 2 watermark 0}, 1970-01-01T00:00:00.002Z]",
      "+I[Bob, {Processing input row +I[Bob, {Processing input row +I[Bob, 3, 1970-01-01T00:00:00.003Z] at time 3 watermark 1}, 1970-01-01T00:00:00.003Z] at time 3 watermark 1}, 1970-01-01T00:00:00.003Z]",
      "+I[Bob, {Processing input row +I[Bob, {Registering timer t for 4 at time 3 watermark 1}, 1970-01-01T00:00:00.003Z] at time 3 watermark 1}, 1970-01-01T00:00:00.003Z]",
      "+I[Alice, {Processing input row +I[Alice, {Timer t fired at time 2 watermark 2}, 1970-01-01T00:00:00.002Z] at time 2 watermark 1}, 1970-01-01T00:00:00.002Z]",
      "+I[Alice, {Processing input row +I[Alice, {2}, 1970-01-01T00:00:00.002Z] at time 2 watermark 1}, 1970-01-01T00:00:00.002Z]",
      "+I[Bob, {Processing input row +I[Bob, {Processing input row +I[Bob, 4, 1970-01-01T00:00:00.004Z] at time 4 watermark 2}, 1970-01-01T00:00:00.004Z] at time 4 watermark 2}, 1970-01-01T00:00:00.004Z]",
      "+I[Bob, {Processing input row +I[Bob, {Registering timer t for 5 at time 4 watermark 2}, 1970-01-01T00:00:00.004Z] at time 4 watermark 2}, 1970-01-01T00:00:00.004Z]",
      "+I[Bob, {Processing input row +I[Bob, {Processing input row +I[Bob, 5, 1970-01-01T00:00:00.005Z] at time 5 watermark 3}, 1970-01-01T00:00:00.005Z] at time 5 watermark 3}, 1970-01-01T00:00:00.005Z]",
      "+I[Bob, {Processing input row +I[Bob, {Registering timer t for 6 at time 5 watermark 3}, 1970-01-01T00:00:00.005Z] at time 5 watermark 3}, 1970-01-01T00:00:00.005Z]",
      "+I[Bob, {Processing input row +I[Bob, {Processing input row +I[Bob, 6, 1970-01-01T00:00:00.006Z] at time 6 watermark 4}, 1970-01-01T00:00:00.006Z] at time 6 watermark 4}, 1970-01-01T00:00:00.006Z]",
      "+I[Bob, {Processing input row +I[Bob, {Registering timer t for 7 at time 6 watermark 4}, 1970-01-01T00:00:00.006Z] at time 6 watermark 4}, 1970-01-01T00:00:00.006Z]",
      "+I[Bob, {Processing input row +I[Bob, {Timer t fired at time 7 watermark 9223372036854775807}, 1970-01-01T00:00:00.007Z] at time 7 watermark 5}, 1970-01-01T00:00:00.007Z]",
      "+I[Bob, {Processing input row +I[Bob, {7}, 1970-01-01T00:00:00.007Z] at time 7 watermark 5}, 1970-01-01T00:00:00.007Z]",
    ]);
  });

  it("P-073 process-invalid-row-semantic-table-timers: Flink's runtime error", async () => {
    const env = streamingEnv();
    basicValues(env);
    env.createTemporaryFunction("f", InvalidRowSemanticTableTimersFunction);
    await expect(env.fromCall("f", env.from("t").asArgument("r")).execute().toChangelog())
      .rejects.toThrow("Timers are not supported in the current PTF declaration.");
  });

  it("pass-through tables support on_time but not timers (InvalidPassThroughTimersFunction)", async () => {
    const env = streamingEnv();
    timedSource(env);
    const result = env.fromCall(InvalidPassThroughTimersFunction, env.from("t").partitionBy($("name")).asArgument("r"), descriptor("ts").asArgument("on_time"));
    expect(result.getResolvedSchema().names).toEqual(["name", "score", "ts", "out", "rowtime"]);
    await expect(result.execute().toChangelog()).rejects.toThrow("Timers are not supported in the current PTF declaration.");
  });

  it("clearAllTimers keeps state (ClearAllTimersKeepsStateFunction)", async () => {
    const env = streamingEnv();
    const t = env.fromValues(TIMED_SOURCE_SCHEMA, Row.of("Bob", 1, new Date(0)), Row.of("Bob", 2, new Date(500)), Row.of("Bob", 3, new Date(5000)),
      Row.of("Alice", 1, new Date(6000)));
    const out = await t.partitionBy($("name")).process(ClearAllTimersKeepsStateFunction, descriptor("ts")).execute().toChangelog();
    expect(out).toEqual([
      "+I[Bob, count 1, 1970-01-01T00:00:00Z]",
      "+I[Bob, count 2, 1970-01-01T00:00:00.500Z]",
      "+I[Bob, count 3, 1970-01-01T00:00:05Z]",
      "+I[Alice, count 1, 1970-01-01T00:00:06Z]",
      "+I[Alice, timeout with count 1, 1970-01-01T00:00:07Z]",
    ]);
  });
});

backendSuite("§3.11 late data", () => {
  it("P-075 process-late-events: late rows reach eval; past timers fire at the next watermark or right after the current timer", async () => {
    const env = streamingEnv();
    timedSourceLateEvents(env);
    env.createTemporaryFunction("f", LateTimersFunction);
    expect(await env.fromCall("f", env.from("t").partitionBy($("name")).asArgument("r"), descriptor("ts").asArgument("on_time")).execute().toChangelog()).toEqual([
      "+I[Bob, {Processing input row +I[Bob, 1, 1970-01-01T00:00:00Z] at time 0 watermark null}, 1970-01-01T00:00:00Z]",
      "+I[Bob, {Registering timer bob for 0 at time 0 watermark null}, 1970-01-01T00:00:00Z]",
      "+I[Bob, {Registering timer for 0 at time 0 watermark null}, 1970-01-01T00:00:00Z]",
      "+I[Alice, {Processing input row +I[Alice, 1, 1970-01-01T00:00:00.001Z] at time 1 watermark -1}, 1970-01-01T00:00:00.001Z]",
      "+I[Alice, {Registering timer alice for 1 at time 1 watermark -1}, 1970-01-01T00:00:00.001Z]",
      "+I[Bob, {Timer null fired at time 0 watermark 0}, 1970-01-01T00:00:00Z]",
      "+I[Bob, {Timer bob fired at time 0 watermark 0}, 1970-01-01T00:00:00Z]",
      "+I[Bob, {Processing input row +I[Bob, 2, 1970-01-01T00:01:39.999Z] at time 99999 watermark 0}, 1970-01-01T00:01:39.999Z]",
      "+I[Bob, {Registering timer bob for 0 at time 99999 watermark 0}, 1970-01-01T00:01:39.999Z]",
      "+I[Bob, {Registering timer for 0 at time 99999 watermark 0}, 1970-01-01T00:01:39.999Z]",
      "+I[Bob, {Timer null fired at time 0 watermark 99998}, 1970-01-01T00:00:00Z]",
      "+I[Bob, {Timer bob fired at time 0 watermark 99998}, 1970-01-01T00:00:00Z]",
      "+I[Alice, {Timer alice fired at time 1 watermark 99998}, 1970-01-01T00:00:00.001Z]",
      "+I[Alice, {Registering timer alice-again for 0 at time 1 watermark 99998}, 1970-01-01T00:00:00.001Z]",
      "+I[Alice, {Timer alice-again fired at time 0 watermark 99998}, 1970-01-01T00:00:00Z]",
      "+I[Bob, {Processing input row +I[Bob, 3, 1970-01-01T00:00:00.003Z] at time 3 watermark 99998}, 1970-01-01T00:00:00.003Z]",
      "+I[Bob, {Registering timer bob for 0 at time 3 watermark 99998}, 1970-01-01T00:00:00.003Z]",
      "+I[Bob, {Registering timer for 0 at time 3 watermark 99998}, 1970-01-01T00:00:00.003Z]",
      "+I[Bob, {Processing input row +I[Bob, 4, 1970-01-01T00:00:00.004Z] at time 4 watermark 99998}, 1970-01-01T00:00:00.004Z]",
      "+I[Bob, {Registering timer bob for 0 at time 4 watermark 99998}, 1970-01-01T00:00:00.004Z]",
      "+I[Bob, {Registering timer for 0 at time 4 watermark 99998}, 1970-01-01T00:00:00.004Z]",
      "+I[Bob, {Timer null fired at time 0 watermark 9223372036854775807}, 1970-01-01T00:00:00Z]",
      "+I[Bob, {Timer bob fired at time 0 watermark 9223372036854775807}, 1970-01-01T00:00:00Z]",
    ]);
  });

  it("P-077 process-row-late-events: a row-semantics PTF passes late rows with their own time", async () => {
    const env = streamingEnv();
    timedSourceLateEvents(env);
    env.createTemporaryFunction("f", RequiredTimeFunction);
    expect(await env.fromCall("f", env.from("t").asArgument("r"), descriptor("ts").asArgument("on_time")).execute().toChangelog()).toEqual([
      "+I[{+I[Bob, 1, 1970-01-01T00:00:00Z]}, 1970-01-01T00:00:00Z]",
      "+I[{+I[Alice, 1, 1970-01-01T00:00:00.001Z]}, 1970-01-01T00:00:00.001Z]",
      "+I[{+I[Bob, 2, 1970-01-01T00:01:39.999Z]}, 1970-01-01T00:01:39.999Z]",
      "+I[{+I[Bob, 3, 1970-01-01T00:00:00.003Z]}, 1970-01-01T00:00:00.003Z]",
      "+I[{+I[Bob, 4, 1970-01-01T00:00:00.004Z]}, 1970-01-01T00:00:00.004Z]",
    ]);
  });
});

describe("on_time validation", () => {
  function watermarked() {
    const env = streamingEnv();
    const schema = Schema.newBuilder().column("name", DataTypes.STRING()).column("score", DataTypes.INT()).column("ts", DataTypes.TIMESTAMP_LTZ(3))
      .column("plain", DataTypes.TIMESTAMP(3)).column("fine", DataTypes.TIMESTAMP(6)).watermark("ts", "ts").build();
    return { env, t: env.fromValues(schema, Row.of("Bob", 12, new Date(0), new Date(0), new Date(0))) };
  }

  it("V-33: REQUIRE_ON_TIME without on_time", () => {
    const { env, t } = watermarked();
    env.createTemporaryFunction("f", RequiredTimeFunction);
    expect(() => env.fromCall("f", t.asArgument("r"))).toThrow(
      "Table argument 'r' requires a time attribute. Please provide one using the implicit `on_time` argument. For example: myFunction(..., on_time => DESCRIPTOR(`my_timestamp`)",
    );
  });

  it("the column must be a TIMESTAMP / TIMESTAMP_LTZ up to precision 3 and a time attribute", () => {
    const { env, t } = watermarked();
    env.createTemporaryFunction("f", RequiredTimeFunction);
    expect(() => env.fromCall("f", t.asArgument("r"), descriptor("score").asArgument("on_time"))).toThrow(
      "Unsupported data type for time attribute. The `on_time` argument must reference a TIMESTAMP or TIMESTAMP_LTZ column (up to precision 3). However, column 'score' in table argument 'r' has data type 'INT'.",
    );
    expect(() => env.fromCall("f", t.asArgument("r"), descriptor("fine").asArgument("on_time"))).toThrow("has data type 'TIMESTAMP(6)'");
    expect(() => env.fromCall("f", t.asArgument("r"), descriptor("plain").asArgument("on_time"))).toThrow(
      "Invalid time attribute declaration. Column 'plain' in table argument 'r' of function 'f' is not a time attribute",
    );
    expect(() => env.fromCall("f", t.asArgument("r"), descriptor("ts", "plain").asArgument("on_time"))).toThrow(
      "Ambiguous time attribute found. The `on_time` argument must reference at most one column in a table argument. Currently, the columns in `on_time` point to both 'ts' and 'plain' in table argument 'r'.",
    );
    expect(() => env.fromCall("f", t.asArgument("r"), lit(1).asArgument("on_time"))).toThrow("Data type DESCRIPTOR expected but INT NOT NULL passed (argument 'on_time')");
  });

  it("explain shows the descriptor", () => {
    const { env, t } = watermarked();
    env.createTemporaryFunction("f", RequiredTimeFunction);
    expect(env.fromCall("f", t.asArgument("r"), descriptor("ts").asArgument("on_time")).explain()).toContain("invocation=[f(TABLE(#0), DESCRIPTOR(ts), DEFAULT())]");
  });
});

backendSuite("timers are state", () => {
  it("snapshotState / restoreState carry the timers; a restored operator fires them at its next watermark", () => {
    const env = streamingEnv();
    timedSource(env);
    const call = env.fromCall(NamedTimersFunction, env.from("t").partitionBy($("name")).asArgument("r"), descriptor("ts").asArgument("on_time"));
    const Op = PtfOperator;
    const node = (call as unknown as { node: { call: ConstructorParameters<typeof PtfOperator>[0] } }).node;
    const settings = { clock: () => 0, config: env.getConfig() } as unknown as ConstructorParameters<typeof PtfOperator>[1];
    const rows: string[] = [];
    const sink = { record: (_k: number, r: unknown[]) => rows.push(`${r[0]} ${r[1]}`), watermark: () => {}, endInput: () => {} };
    const a = new Op(node.call, settings);
    a.out = sink;
    a.open();
    a.processElement(0, 0, ["Bob", 1, new Date(0)]);
    const snap = a.snapshotState();
    expect(snap.timers!.map(([k, n, t]) => `${String(k)}:${n}@${t}`)).toEqual(["Bob:timeout1@1", "Bob:timeout2@2", "Bob:timeout3@3", "Bob:timeout4@Infinity", "Bob:timeout5@Infinity"]);
    const b = new Op(node.call, settings);
    b.out = sink;
    b.open();
    b.restoreState(snap);
    rows.length = 0;
    b.processWatermark(0, 1);
    expect(rows).toEqual([
      "Bob {Timer timeout1 fired at time 1 watermark 1}",
      "Bob {Registering timer timeout2 for 5 at time 1 watermark 1}",
      "Bob {Clearing timer timeout3 at time 1 watermark 1}",
    ]);
    expect(b.timers!.size()).toBe(3);
  });
});
