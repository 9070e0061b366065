// PTFs in batch mode (a tablestream extension; Flink runs PTFs in streaming mode only): the same
// operator over bounded inputs whose sources send only the final watermark. Watermark-driven functions
// give the streaming rows; see docs/ptf.md "Batch mode".
import { describe, expect, it } from "vitest";
import { $, ChangelogMode, DataTypes, EnvironmentSettings, ProcessTableFunction, Row, TableEnvironment, ArgumentTrait, descriptor, tableArg } from "../../src/index.js";
import { ClearAllTimersKeepsStateFunction, timedSource } from "./flink-time-functions.js";
import { GreetingWithMemory } from "../../examples/ptf/greeting-with-memory.js";
import { BroadcastClearStateFunction, broadcastRulesValues } from "./flink-broadcast-functions.js";
import { multiValues, sorted } from "./support.js";

const modes = { streaming: EnvironmentSettings.inStreamingMode(), batch: EnvironmentSettings.inBatchMode() };

describe("PTFs in batch mode", () => {
  it("a timer at the row's time + 1 s fires at the end of input in both modes: the same rows", async () => {
    const run = async (s: EnvironmentSettings) => {
      const env = TableEnvironment.create(s);
      return timedSource(env).partitionBy($("name")).process(ClearAllTimersKeepsStateFunction, descriptor("ts").asArgument("on_time")).execute().toChangelog();
    };
    const streaming = await run(modes.streaming);
    expect(streaming).toContain("+I[Alice, timeout with count 1, 1970-01-01T00:00:01.001Z]");
    expect(await run(modes.batch)).toEqual(streaming);
  });

  it("state per key without time: the same rows", async () => {
    const run = async (s: EnvironmentSettings) => {
      const env = TableEnvironment.create(s);
      return env.fromValues("Bob", "Alice", "Bob").as("name").partitionBy($("name")).process(GreetingWithMemory).execute().toChangelog();
    };
    expect(await run(modes.batch)).toEqual(await run(modes.streaming));
  });

  it("broadcast tables and timers at end of input (P-093): the same multiset", async () => {
    const run = async (s: EnvironmentSettings) => {
      const env = TableEnvironment.create(s);
      multiValues(env);
      broadcastRulesValues(env);
      return env.from("t").partitionBy($("name")).process(BroadcastClearStateFunction, env.from("rules").asArgument("rule")).execute().toChangelog();
    };
    expect(sorted(await run(modes.batch))).toEqual(sorted(["+I[Bob, {3, {Eve=4}}]", "+I[Alice, {2, {Eve=4}}]"]));
  });

  it("an updating output is refused in batch mode", () => {
    const env = TableEnvironment.create(modes.batch);
    const F = ProcessTableFunction.define({
      name: "Upd", args: { r: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE) }, output: DataTypes.INT(), changelogMode: ChangelogMode.all(), eval() {},
    });
    expect(() => env.fromValues(Row.of("Bob", 1)).as("name", "score").partitionBy($("name")).process(F)).toThrow(
      "Process table function 'Upd' declares an updating output ([I,UB,UA,D]), which batch mode cannot run: a batch result is final (insert-only). Run it in streaming mode.",
    );
  });
});
