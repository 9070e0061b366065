// State TTL on the processing-time clock (env.setClock). The test clock is driven by the data: an
// upstream row-semantics PTF sets `now` from each row's `at` column just before the row reaches the
// stateful PTF (the interpreter pushes a row through the whole chain synchronously).
import { afterEach, describe, expect, it } from "vitest";
import {
  $, ArgumentTrait, DataTypes, listView, mapView, ProcessTableFunction, Row, type Table, tableArg, valueState, valueView,
} from "../../src/index.js";
import { ptfInspection } from "../../src/exec/operators/ptf/inspect.js";
import { MultiTtlCountingFunction, TtlCountingFunction } from "../../examples/ptf/counting-functions.js";
import { streamingEnv } from "./support.js";
import { backendSuite } from "../support/state-backends.js";
import type { AnyProcessTableFunction } from "../../src/ptf/typing.js";

const H = 3_600_000;
const { ROW_SEMANTIC_TABLE: ROW, SET_SEMANTIC_TABLE: SET, PASS_COLUMNS_THROUGH: PASS } = ArgumentTrait;

/** Rows (name, at) where `at` is the processing time at which the row is processed. */
function timedEvents(rows: [string, number][]) {
  let now = 0;
  const env = streamingEnv();
  env.setClock(() => now);
  const Tick = ProcessTableFunction.define({
    name: "Tick",
    args: { r: tableArg(ROW, PASS) },
    output: DataTypes.ROW(),
    eval(ctx, _s, { r }) {
      now = r.at as number;
      ctx.collect({});
    },
  });
  const events = env.fromValues(
    DataTypes.ROW(DataTypes.FIELD("name", DataTypes.STRING()), DataTypes.FIELD("at", DataTypes.BIGINT())),
    ...rows.map(([n, at]) => Row.of(n, at)),
  ).process(Tick);
  return { env, events };
}

async function run(events: Table<{ name: string | null; at: number | null }, "append">, fn: AnyProcessTableFunction) {
  return events.partitionBy($("name")).process(fn).execute().toChangelog();
}

backendSuite("value state TTL", (backend) => {
  afterEach(() => {
    ptfInspection.track = false;
    ptfInspection.operators.length = 0;
  });

  it("the TTL CountingFunction forgets a first event after one idle day (expired at exactly 1 day)", async () => {
    const { events } = timedEvents([["Bob", 0], ["Alice", 0], ["Bob", 23 * H], ["Alice", 24 * H], ["Alice", 25 * H]]);
    expect(await run(events, TtlCountingFunction)).toEqual([
      "+I[Bob, Event 1: +I[Bob, 0] and Event 2: +I[Bob, 82800000]]",
      // Alice's first event (0) expired at 24h; the event at 24h became the new first one
      "+I[Alice, Event 1: +I[Alice, 86400000] and Event 2: +I[Alice, 90000000]]",
    ]);
  });

  it("three entries with own TTLs; the entry without one follows table.exec.state.ttl", async () => {
    const rows: [string, number][] = [["Bob", 0], ["Bob", H / 2], ["Bob", 2 * H], ["Bob", 30 * H]];
    const expected = (forever: string) => [
      "+I[Bob, hour: 1, day: 1, forever: 1]",
      "+I[Bob, hour: 2, day: 2, forever: 2]",
      "+I[Bob, hour: 1, day: 3, forever: 3]",
      `+I[Bob, hour: 1, day: 1, forever: ${forever}]`,
    ];
    expect(await run(timedEvents(rows).events, MultiTtlCountingFunction)).toEqual(expected("4"));
    const withGlobal = timedEvents(rows);
    withGlobal.env.getConfig().set("table.exec.state.ttl", "10 h");
    expect(await run(withGlobal.events, MultiTtlCountingFunction)).toEqual(expected("1"));
  });

  it("ttl '0' disables TTL even with a global default", async () => {
    const Forever = ProcessTableFunction.define({
      name: "Forever", args: { r: tableArg(SET) }, state: { s: valueState({ n: 0 }, { ttl: "0" }) }, output: DataTypes.INT(),
      eval(ctx, { s }) { ctx.collect(++s.n); },
    });
    const { env, events } = timedEvents([["Bob", 0], ["Bob", 1000 * H]]);
    env.getConfig().set("table.exec.state.ttl", "1 h");
    expect(await run(events, Forever)).toEqual(["+I[Bob, 1]", "+I[Bob, 2]"]);
  });

  it("TTL is refreshed when the state is created or changed, not when it is only read", async () => {
    const FirstSeen = ProcessTableFunction.define({
      name: "FirstSeen", args: { r: tableArg(SET) }, state: { s: valueState<{ first: number | null }>({ first: null }, { ttl: "1 h" }) },
      output: DataTypes.BIGINT(),
      eval(ctx, { s }, { r }) {
        if (s.first === null) s.first = r.at as number;
        ctx.collect(s.first);
      },
    });
    const { events } = timedEvents([["Bob", 0], ["Bob", 3_240_000], ["Bob", 3_960_000], ["Bob", 5_400_000]]);
    // the read at 0.9h does not extend the state written at 0: at 1.1h it has expired
    expect(await run(events, FirstSeen)).toEqual(["+I[Bob, 0]", "+I[Bob, 0]", "+I[Bob, 3960000]", "+I[Bob, 3960000]"]);
  });

  // reads the operator's state after the job ended: the disk backend has removed its store by then
  it.skipIf(backend.name === "disk")("idle keys are removed incrementally while other keys are processed", async () => {
    const rows: [string, number][] = [];
    for (let i = 0; i < 100; i++) rows.push([`k${i}`, 0]);
    for (let i = 0; i < 60; i++) rows.push(["z", 2 * H]);
    ptfInspection.track = true;
    const Counting = ProcessTableFunction.define({
      name: "Counting", args: { r: tableArg(SET) }, state: { s: valueState({ n: 0 }, { ttl: "1 h" }) }, output: DataTypes.INT(),
      eval(ctx, { s }) { ctx.collect(++s.n); },
    });
    const out = await run(timedEvents(rows).events, Counting);
    expect(out).toHaveLength(160);
    const op = ptfInspection.operators.find((o) => o.call.functionName === "Counting")!;
    expect(op.stateKeyCount()).toBe(1);
  });
});

backendSuite("data view TTL is per entry", () => {
  it("ValueView", async () => {
    const F = ProcessTableFunction.define({
      name: "F", args: { r: tableArg(SET) }, state: { v: valueView(DataTypes.INT(), { ttl: "1 h" }) }, output: DataTypes.INT(),
      eval(ctx, { v }) {
        ctx.collect(v.getValue());
        v.setValue((v.getValue() ?? 0) + 1);
      },
    });
    const { events } = timedEvents([["Bob", 0], ["Bob", H / 2], ["Bob", 2 * H]]);
    expect(await run(events, F)).toEqual(["+I[Bob, null]", "+I[Bob, 1]", "+I[Bob, null]"]);
  });

  it("ListView: each element expires on its own", async () => {
    const F = ProcessTableFunction.define({
      name: "F", args: { r: tableArg(SET) }, state: { l: listView(DataTypes.BIGINT(), { ttl: "1 h" }) }, output: DataTypes.STRING(),
      eval(ctx, { l }, { r }) {
        l.add(r.at as number);
        ctx.collect(l.getList().join(","));
      },
    });
    const { events } = timedEvents([["Bob", 0], ["Bob", H / 2], ["Bob", 4_320_000], ["Bob", 3 * H]]);
    expect(await run(events, F)).toEqual(["+I[Bob, 0]", "+I[Bob, 0,1800000]", "+I[Bob, 1800000,4320000]", "+I[Bob, 10800000]"]);
  });

  it("MapView: each entry expires on its own; a put refreshes its entry", async () => {
    const F = ProcessTableFunction.define({
      name: "F", args: { r: tableArg(SET) }, state: { m: mapView(DataTypes.STRING(), DataTypes.BIGINT(), { ttl: "1 h" }) },
      output: DataTypes.STRING(),
      eval(ctx, { m }, { r }) {
        const at = r.at as number;
        m.put(at < H ? "early" : "late", at);
        if (at === 0) m.put("refreshed", 0);
        if (at === H / 2) m.put("refreshed", at);
        ctx.collect([...m.entries()].map(([k, v]) => `${k}=${v}`).sort().join(" "));
      },
    });
    const { events } = timedEvents([["Bob", 0], ["Bob", H / 2], ["Bob", 4_320_000], ["Bob", 5_760_000]]);
    expect(await run(events, F)).toEqual([
      "+I[Bob, early=0 refreshed=0]",
      "+I[Bob, early=1800000 refreshed=1800000]",
      "+I[Bob, early=1800000 late=4320000 refreshed=1800000]",
      "+I[Bob, late=5760000]",
    ]);
  });
});
