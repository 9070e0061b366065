// The PTF guide's "function chaining" in SQL: WITH ptf1 AS (...), ptf2 AS (... TABLE ptf1 ...) SELECT * FROM ptf2,
// and its Table API twin (partitionBy().process().partitionBy().process()).
import { describe, expect, it } from "vitest";
import { events, PingLaterFunction } from "../../examples/ptf/ping-later.js";
import { $, ArgumentTrait, DataTypes, EnvironmentSettings, ProcessTableFunction, TableEnvironment, descriptor, tableArg, valueState } from "../../src/index.js";

/** Counts the rows of its partition and says at which event time each arrived. */
const PingCounter = ProcessTableFunction.define({
  name: "PingCounter",
  args: { input: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE, ArgumentTrait.REQUIRE_ON_TIME) },
  state: { seen: valueState({ n: 0 }) },
  output: DataTypes.ROW(DataTypes.FIELD("pings", DataTypes.INT())),
  eval(ctx, state) {
    state.seen.n += 1;
    ctx.collect({ pings: state.seen.n });
  },
});

describe("WITH: function chaining", () => {
  it("runs the guide's statement; same rows as the chained Table API calls", async () => {
    const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    env.createTemporaryView("t", events(env) as never);
    env.createFunction("f1", PingLaterFunction);
    env.createFunction("f2", PingCounter);
    const sql = `WITH
ptf1 AS (
SELECT * FROM f1(input => TABLE t PARTITION BY id, on_time => DESCRIPTOR(ts))
),
ptf2 AS (
SELECT * FROM f2(input => TABLE ptf1 PARTITION BY id, on_time => DESCRIPTOR(rowtime))
)
SELECT * FROM ptf2;`;
    const rows = await env.executeSql(sql).toChangelog();
    expect(rows).toEqual([
      "+I[b, 1, 2025-03-26T16:56:10Z]", "+I[a, 1, 2025-03-26T16:56:30Z]", "+I[c, 1, 2025-03-26T16:58:00Z]",
    ]);
    const api = env.from("t").partitionBy($("id")).process("f1", descriptor("ts").asArgument("on_time"))
      .partitionBy($("id")).process("f2", descriptor("rowtime").asArgument("on_time"));
    expect(await api.execute().toChangelog()).toEqual(rows);
  });
});
