// `table.exec.state.ttl` governs all keyed state (group aggregation, DISTINCT, distinct aggregates,
// non-time OVER), on the job's processing-time clock (env.setClock). The test clock is driven by the data:
// a row-semantics PTF sets `now` from each row's `at` column just before the row reaches the keyed
// operator (a row is pushed through the whole chain synchronously).
import { describe, expect, it } from "vitest";
import {
  $, ArgumentTrait, DataTypes, EnvironmentSettings, Over, ProcessTableFunction, Row, TableEnvironment, UNBOUNDED_RANGE, lit, tableArg,
} from "../../src/index.js";
import { measureAggregateState } from "../../src/exec/aggregates/state-size.js";
import { activeBackendOptions, backendSuite } from "../support/state-backends.js";

const H = 3_600_000;

/** Rows (name, x, at), each processed at processing time `at`; `ttl` as table.exec.state.ttl. */
function timed(rows: readonly (readonly [string, number, number])[], ttl: string | undefined) {
  let now = 0;
  const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
  env.setClock(() => now);
  for (const [k, v] of Object.entries(activeBackendOptions())) env.getConfig().set(k, v);
  if (ttl !== undefined) env.getConfig().set("table.exec.state.ttl", ttl);
  const Tick = ProcessTableFunction.define({
    name: "Tick",
    args: { r: tableArg(ArgumentTrait.ROW_SEMANTIC_TABLE, ArgumentTrait.PASS_COLUMNS_THROUGH) },
    output: DataTypes.ROW(),
    eval(ctx, _s, { r }) {
      now = r.at as number;
      ctx.collect({});
    },
  });
  const type = DataTypes.ROW(DataTypes.FIELD("name", DataTypes.STRING()), DataTypes.FIELD("x", DataTypes.INT()), DataTypes.FIELD("at", DataTypes.BIGINT()));
  return env.fromValues(type, ...rows.map(([n, x, at]) => Row.of(n, x, at))).process(Tick);
}

const BOB = [["Bob", 1, 0], ["Bob", 1, H / 2], ["Bob", 1, 2 * H]] as const;

backendSuite("table.exec.state.ttl: an idle key starts afresh (+I), as in Flink", () => {
  it.each([
    ["group aggregate COUNT", undefined, ["+I[Bob, 1]", "-U[Bob, 1]", "+U[Bob, 2]", "-U[Bob, 2]", "+U[Bob, 3]"]],
    // idle from 0.5 h to 2 h > 1 h: expired, the third row is a new group
    ["group aggregate COUNT", "1 h", ["+I[Bob, 1]", "-U[Bob, 1]", "+U[Bob, 2]", "+I[Bob, 1]"]],
  ] as const)("%s, ttl %s", async (_what, ttl, expected) => {
    const t = timed(BOB, ttl).groupBy($("name")).select($("name"), $("x").count().as("n"));
    expect(await t.execute().toChangelog()).toEqual(expected);
  });

  it("a result that does not change: nothing without TTL, -U/+U with it (Flink refreshes downstream state)", async () => {
    const q = (ttl?: string) => timed(BOB, ttl).groupBy($("name")).select($("name"), $("x").max().as("m")).execute().toChangelog();
    expect(await q()).toEqual(["+I[Bob, 1]"]);
    expect(await q("1 h")).toEqual(["+I[Bob, 1]", "-U[Bob, 1]", "+U[Bob, 1]", "+I[Bob, 1]"]);
  });

  it("exactly at the TTL the state has expired; just before it has not", async () => {
    const rows = [["Bob", 1, 0], ["Bob", 1, H - 1], ["Bob", 1, 2 * H - 1]] as const;
    const t = timed(rows, "1 h").groupBy($("name")).select($("name"), $("x").count().as("n"));
    expect(await t.execute().toChangelog()).toEqual(["+I[Bob, 1]", "-U[Bob, 1]", "+U[Bob, 2]", "+I[Bob, 1]"]);
  });

  it("a global aggregate (no keys) expires too", async () => {
    const t = timed(BOB, "1 h").select($("x").sum().as("s"));
    expect(await t.execute().toChangelog()).toEqual(["+I[1]", "-U[1]", "+U[2]", "+I[1]"]);
  });

  it("a distinct aggregate forgets the values it saw", async () => {
    const q = (ttl?: string) => timed(BOB, ttl).groupBy($("name")).select($("name"), $("x").count().distinct().as("n")).execute().toChangelog();
    expect(await q()).toEqual(["+I[Bob, 1]"]);
    expect(await q("1 h")).toEqual(["+I[Bob, 1]", "-U[Bob, 1]", "+U[Bob, 1]", "+I[Bob, 1]"]);
  });

  it("DISTINCT emits a row again once its state expired", async () => {
    const q = (ttl?: string) => timed(BOB, ttl).select($("name"), $("x")).distinct().execute().toChangelog();
    expect(await q()).toEqual(["+I[Bob, 1]"]);
    expect(await q("1 h")).toEqual(["+I[Bob, 1]", "+I[Bob, 1]"]);
  });

  it("a non-time OVER partition starts afresh", async () => {
    const q = (ttl?: string) => timed(BOB, ttl)
      .window(Over.partitionBy($("name")).orderBy($("at")).preceding(UNBOUNDED_RANGE).as("o"))
      .select($("name"), $("at"), $("x").sum().over($("o")).as("s")).execute().toChangelog();
    expect(await q()).toEqual(["+I[Bob, 0, 1]", `+I[Bob, ${H / 2}, 2]`, `+I[Bob, ${2 * H}, 3]`]);
    expect(await q("1 h")).toEqual(["+I[Bob, 0, 1]", `+I[Bob, ${H / 2}, 2]`, `+I[Bob, ${2 * H}, 1]`]);
  });

  it("keys that leave the cache keep their write time: an idle one read back from the store has expired", async () => {
    // the disk backend's cache holds two groups here: Ann and Cid push Bob out, and Bob comes back from the store
    const rows = [["Bob", 1, 0], ["Ann", 1, 10], ["Cid", 1, 20], ["Ann", 1, H / 2], ["Bob", 1, H + 5], ["Ann", 1, H + 6]] as const;
    const t = timed(rows, "1 h").groupBy($("name")).select($("name"), $("x").count().as("n"));
    expect(await t.execute().toChangelog()).toEqual([
      "+I[Bob, 1]", "+I[Ann, 1]", "+I[Cid, 1]", "-U[Ann, 1]", "+U[Ann, 2]", "+I[Bob, 1]", "-U[Ann, 2]", "+U[Ann, 3]",
    ]);
  });

  it("batch mode ignores the TTL (it is about idle state in unbounded jobs)", async () => {
    const env = TableEnvironment.create(EnvironmentSettings.inBatchMode());
    let now = 0;
    env.setClock(() => (now += H));
    env.getConfig().set("table.exec.state.ttl", "1 ms");
    const t = env.fromValues(DataTypes.ROW(DataTypes.FIELD("k", DataTypes.STRING())), Row.of("a"), Row.of("a"))
      .groupBy($("k")).select($("k"), lit(1).count().as("n"));
    expect(await t.execute().toChangelog()).toEqual(["+I[a, 2]"]);
  });
});

describe("table.exec.state.ttl: state plateaus under a steady stream of new keys", { timeout: 120_000 }, () => {
  const KEYS = 20_000;
  const TTL_MS = 100;
  const rows = (env: TableEnvironment) => env.fromValues(
    DataTypes.ROW(DataTypes.FIELD("k", DataTypes.INT().notNull()), DataTypes.FIELD("s", DataTypes.STRING().notNull())),
    ...Array.from({ length: KEYS }, (_, i) => Row.of(i, `k${i}`)));
  // every clock read advances the clock by 1 ms: one read per record, so a key a record
  const ticking = () => { let t = 0; return () => t++; };

  it.each([
    ["group aggregate, numeric key", (env: TableEnvironment) => rows(env).groupBy($("k")).select($("k"), lit(1).count().as("n"))],
    ["group aggregate, string key and a distinct aggregate", (env: TableEnvironment) => rows(env).groupBy($("s")).select($("s"), $("k").count().distinct().as("n"))],
    ["group aggregate, two keys", (env: TableEnvironment) => rows(env).groupBy($("k"), $("s")).select($("k"), $("s"), lit(1).count().as("n"))],
    ["DISTINCT", (env: TableEnvironment) => rows(env).distinct()],
    ["non-time OVER", (env: TableEnvironment) => rows(env).window(Over.partitionBy($("s")).orderBy($("k")).preceding(UNBOUNDED_RANGE).as("o"))
      .select($("s"), $("k").count().over($("o")).as("n"))],
  ] as const)("%s", (_what, query) => {
    const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    const plan = query(env).node;
    expect(measureAggregateState(plan, { clock: ticking() }).groups).toBe(KEYS);
    const config = new Map([["table.exec.state.ttl", `${TTL_MS} ms`]]);
    const kept = measureAggregateState(plan, { clock: ticking(), config }).groups;
    // the keys of the last TTL are live; the incremental cleanup keeps the expired ones within a small factor
    expect(kept).toBeGreaterThanOrEqual(TTL_MS - 1);
    expect(kept).toBeLessThanOrEqual(4 * TTL_MS);
  });
});
