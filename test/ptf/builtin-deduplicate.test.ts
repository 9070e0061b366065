// The built-in DEDUPLICATE_KEEP_FIRST PTF: Flink's programs R-045 … R-064
// with Flink's rows and messages, in SQL and Table API form.
import { describe, expect, it } from "vitest";
import { $, DataTypes, Row, RowKind, Schema, ValidationError, lit } from "../../src/index.js";
import type { TableEnvironment } from "../../src/index.js";
import { PtfTestHarness } from "../../src/testing/index.js";
import { DeduplicateKeepFirst } from "../../src/ptf/builtins/index.js";
import { streamingEnv } from "./support.js";

const USER_EVENTS = DataTypes.ROW(DataTypes.FIELD("user_name", DataTypes.STRING()), DataTypes.FIELD("action", DataTypes.STRING()));
const TIMED_EVENTS = Schema.newBuilder().column("user_name", DataTypes.STRING()).column("action", DataTypes.STRING())
  .column("ts", DataTypes.TIMESTAMP_LTZ(3)).watermark("ts", "ts - INTERVAL '10' SECOND").build();

function userEvents(env: TableEnvironment, ...rows: ReturnType<typeof Row.of>[]): void {
  env.createTemporaryView("user_events", env.fromValues(USER_EVENTS, ...rows) as never);
}
const sql = (env: TableEnvironment, q: string) => env.executeSql(q).toChangelog();

describe("DEDUPLICATE_KEEP_FIRST (§8)", () => {
  it("R-045 deduplicate-keep-first-keyed", async () => {
    const env = streamingEnv();
    userEvents(env, Row.of("Vas", "login"), Row.of("Vas", "click"));
    const result = env.executeSql("SELECT * FROM DEDUPLICATE_KEEP_FIRST(input => TABLE user_events PARTITION BY user_name)");
    expect(result.getResolvedSchema().names).toEqual(["user_name", "action"]);
    expect(await result.toChangelog()).toEqual(["+I[Vas, login]"]);
  });

  it("R-047 deduplicate-keep-first-table-api-with-args", async () => {
    const env = streamingEnv();
    userEvents(env, Row.of("Vas", "login"), Row.of("Vas", "click"));
    const result = env.from("user_events").partitionBy($("user_name"))
      .process("DEDUPLICATE_KEEP_FIRST", lit(5).seconds().asArgument("state_ttl"), lit(false).asArgument("reset_ttl_on_duplicate"));
    expect(await result.execute().toChangelog()).toEqual(["+I[Vas, login]"]);
  });

  it("R-049 deduplicate-keep-first-multi-column-key", async () => {
    const env = streamingEnv();
    env.createTemporaryView("user_events", env.fromValues(
      Row.of("EU", "Vas", "login"), Row.of("EU", "Vas", "click"), Row.of("US", "Vas", "signup"), Row.of("EU", "Alice", "view"),
    ).as("region", "user_name", "action") as never);
    expect(await sql(env, "SELECT * FROM DEDUPLICATE_KEEP_FIRST(input => TABLE user_events PARTITION BY (region, user_name))"))
      .toEqual(["+I[EU, Vas, login]", "+I[US, Vas, signup]", "+I[EU, Alice, view]"]);
  });

  it("R-051 deduplicate-keep-first-no-partition-by: only the very first row", async () => {
    const env = streamingEnv();
    userEvents(env, Row.of("Vas", "login"), Row.of("Alice", "click"), Row.of("Bob", "view"));
    expect(await sql(env, "SELECT * FROM DEDUPLICATE_KEEP_FIRST(input => TABLE user_events)")).toEqual(["+I[Vas, login]"]);
    expect(await env.fromCall("DEDUPLICATE_KEEP_FIRST", env.from("user_events").asArgument("input")).execute().toChangelog()).toEqual(["+I[Vas, login]"]);
  });

  it("R-053 deduplicate-keep-first-no-ttl-reset", async () => {
    const env = streamingEnv();
    userEvents(env, Row.of("Vas", "login"), Row.of("Vas", "click"), Row.of("Vas", "view"));
    expect(await sql(env, "SELECT * FROM DEDUPLICATE_KEEP_FIRST(input => TABLE user_events PARTITION BY user_name, state_ttl => INTERVAL '5' SECOND, reset_ttl_on_duplicate => FALSE)"))
      .toEqual(["+I[Vas, login]"]);
  });

  it("R-055 deduplicate-keep-first-whole-row-key", async () => {
    const env = streamingEnv();
    userEvents(env, Row.of("Vas", "login"), Row.of("Vas", "login"));
    expect(await sql(env, "SELECT * FROM DEDUPLICATE_KEEP_FIRST(input => TABLE user_events PARTITION BY (user_name, action))")).toEqual(["+I[Vas, login]"]);
  });

  it("R-057 deduplicate-keep-first-event-time-multi-key: the earliest row per key, ties to the first arrival", async () => {
    const env = streamingEnv();
    const rows = [["Alice", "Hi", 1], ["Alice", "Hello", 3], ["Alice", "Hello world", 2], ["Bob", "I am fine.", 3], ["Bob", "Comment#1", 6],
      ["Carol", "Comment#2", 3], ["Carol", "Comment#3", 2], ["Dave", "Comment#4", 4], ["Dave", "Comment#5", 4]] as const;
    env.createTemporaryView("user_events", env.fromValues(TIMED_EVENTS, ...rows.map(([u, a, ts]) => Row.of(u, a, new Date(ts)))) as never);
    const result = env.executeSql("SELECT user_name, action, rowtime FROM DEDUPLICATE_KEEP_FIRST(input => TABLE user_events PARTITION BY user_name, on_time => DESCRIPTOR(ts))");
    expect(result.getResolvedSchema().toShortString()).toBe("[user_name: STRING, action: STRING, rowtime: TIMESTAMP_LTZ(3) NOT NULL *ROWTIME*]");
    // released at the end of input in time order (Flink asserts a multiset)
    expect(await result.toChangelog()).toEqual([
      "+I[Alice, Hi, 1970-01-01T00:00:00.001Z]",
      "+I[Carol, Comment#3, 1970-01-01T00:00:00.002Z]",
      "+I[Bob, I am fine., 1970-01-01T00:00:00.003Z]",
      "+I[Dave, Comment#4, 1970-01-01T00:00:00.004Z]",
    ]);
  });

  it("R-059 deduplicate-keep-first-updating-input: an insert-only result of an updating input", async () => {
    const env = streamingEnv();
    userEvents(env, Row.ofKind(RowKind.DELETE, "Vas", "logout"), Row.of("Vas", "login"), Row.of("Vas", "login"),
      Row.ofKind(RowKind.UPDATE_BEFORE, "Vas", "login"), Row.ofKind(RowKind.UPDATE_AFTER, "Vas", "click"), Row.ofKind(RowKind.DELETE, "Vas", "click"));
    const result = env.executeSql("SELECT * FROM DEDUPLICATE_KEEP_FIRST(input => TABLE user_events PARTITION BY user_name)");
    expect(result.getResolvedSchema().names).toEqual(["user_name", "action"]);
    expect(await result.toChangelog()).toEqual(["+I[Vas, login]"]);
  });

  it("R-061 deduplicate-keep-first-updating-event-time-fails", () => {
    const env = streamingEnv();
    env.createTemporaryView("user_events", env.fromValues(TIMED_EVENTS, Row.of("Vas", "login", new Date(0)), Row.ofKind(RowKind.DELETE, "Vas", "login", new Date(0))) as never);
    expect(() => env.executeSql("SELECT user_name, action FROM DEDUPLICATE_KEEP_FIRST(input => TABLE user_events PARTITION BY user_name, on_time => DESCRIPTOR(ts))"))
      .toThrow("not supported for PTFs that consume or produce updates");
  });

  it("R-062 / R-063 / R-064: state_ttl and reset_ttl_on_duplicate must be constant literals; state_ttl not negative", () => {
    const env = streamingEnv();
    userEvents(env, Row.of("Vas", "login"));
    const call = (arg: string) => () => env.executeSql(`SELECT * FROM DEDUPLICATE_KEEP_FIRST(input => TABLE user_events PARTITION BY user_name, ${arg})`);
    expect(call("state_ttl => INTERVAL '-1' SECOND")).toThrow(ValidationError);
    expect(call("state_ttl => INTERVAL '-1' SECOND")).toThrow("The 'state_ttl' argument must not be negative");
    expect(call("state_ttl => INTERVAL '1' SECOND * 2")).toThrow("The 'state_ttl' argument must be a constant INTERVAL literal.");
    expect(call("reset_ttl_on_duplicate => 1 = 1")).toThrow("The 'reset_ttl_on_duplicate' argument must be a constant BOOLEAN literal.");
    // the same mistakes through the Table API
    const t = env.from("user_events").partitionBy($("user_name"));
    expect(() => t.process("DEDUPLICATE_KEEP_FIRST", lit(1).seconds().times(2).asArgument("state_ttl"))).toThrow("The 'state_ttl' argument must be a constant INTERVAL literal.");
    expect(() => t.process("DEDUPLICATE_KEEP_FIRST", lit(1).isEqual(1).asArgument("reset_ttl_on_duplicate"))).toThrow("The 'reset_ttl_on_duplicate' argument must be a constant BOOLEAN literal.");
  });

  it("state_ttl: a key is remembered for state_ttl; reset_ttl_on_duplicate refreshes it on each duplicate", () => {
    for (const [reset, expected] of [[true, ["+I[Vas, a]"]], [false, ["+I[Vas, a]", "+I[Vas, c]"]]] as const) {
      const h = PtfTestHarness.of(DeduplicateKeepFirst, { input: USER_EVENTS, partitionBy: ["user_name"], args: { state_ttl: lit(5).seconds(), reset_ttl_on_duplicate: reset } });
      h.processElement(Row.of("Vas", "a"));
      h.advanceProcessingTime(3000);
      h.processElement(Row.of("Vas", "b")); // a duplicate at 3 s
      h.advanceProcessingTime(3000);
      h.processElement(Row.of("Vas", "c")); // 6 s: still known when reset at 3 s, else expired (first written at 0)
      h.advanceProcessingTime(1000);
      h.processElement(Row.of("Vas", "d")); // 7 s
      expect(h.changelog()).toEqual(expected);
    }
  });

  it("the built-in's name is reserved in the function catalog", () => {
    const env = streamingEnv();
    expect(() => env.createTemporaryFunction("deduplicate_keep_first", DeduplicateKeepFirst)).toThrow("is the name of a built-in function");
  });
});
