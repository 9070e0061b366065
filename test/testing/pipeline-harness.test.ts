// PipelineHarness (src/testing/pipeline-harness.ts): any Table API program driven by hand on its real job graph.
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  $, ArgumentTrait, DataTypes, ProcessTableFunction, Row, RowKind, Schema, Tumble, descriptor, lit, tableArg, valueState,
} from "../../src/index.js";
import { PipelineHarness, checkRestoreAtAnyRecord } from "../../src/testing/index.js";
import type { KeyedRow } from "../../src/types/row.js";

const Clicks = DataTypes.ROW(DataTypes.FIELD("user", DataTypes.STRING().notNull()), DataTypes.FIELD("n", DataTypes.INT().notNull()));
const Events = Schema.newBuilder()
  .column("k", DataTypes.STRING().notNull()).column("v", DataTypes.INT().notNull()).column("ts", DataTypes.TIMESTAMP_LTZ(3).notNull())
  .watermark("ts", "ts - INTERVAL '1' SECOND")
  .build();

const totals = () => PipelineHarness.of({
  inputs: { clicks: Clicks },
  program: ({ clicks }) => clicks.groupBy($("user")).select($("user"), $("n").sum().as("total")),
});

/** Sends a reminder ten seconds after a key's latest event. */
const Reminder = ProcessTableFunction.define({
  name: "Reminder",
  args: { input: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE, ArgumentTrait.REQUIRE_ON_TIME) },
  state: { last: valueState({ time: 0 }) },
  output: DataTypes.STRING(),
  eval(ctx, { last }) {
    const time = ctx.timeContext();
    last.time = Math.max(last.time, time.time()!.getTime());
    time.registerOnTime("remind", last.time + 10_000);
  },
  onTimer(ctx, { last }) {
    ctx.collect(`quiet since ${last.time}`);
  },
});

const at = (ms: number) => new Date(ms);

describe("PipelineHarness: feeding inputs and watching the changelog", () => {
  it("emits the changelog row by row, typed, and drain() forgets what was read", () => {
    const h = totals();
    h.send("clicks", { user: "Ann", n: 1 });
    expect(h.changelog()).toEqual(["+I[Ann, 1]"]);
    h.send("clicks", Row.of("Ann", 2)).send("clicks", { user: "Ben", n: 5 });
    expect(h.changelog()).toEqual(["+I[Ann, 1]", "-U[Ann, 1]", "+U[Ann, 3]", "+I[Ben, 5]"]);
    const rows = h.drain();
    expect(rows).toEqual([{ user: "Ann", total: 1 }, { user: "Ann", total: 1 }, { user: "Ann", total: 3 }, { user: "Ben", total: 5 }]);
    expect(rows.map((r) => Row.kindOf(r))).toEqual(["+I", "-U", "+U", "+I"]);
    expect(h.output()).toEqual([]);
    h.send("clicks", { user: "Ben", n: 1 });
    expect(h.table()).toBe([
      "| op | user | total |",
      "| -U | Ben  |     5 |",
      "| +U | Ben  |     6 |",
    ].join("\n"));
  });

  it("state sizes grow with the keys held; the operators are named after their plan nodes", () => {
    const h = totals();
    expect(h.operators()).toEqual(["Aggregate", "Collect"]);
    h.send("clicks", { user: "Ann", n: 1 });
    const one = h.stateSizes()["Aggregate"]!;
    expect(one).toBeGreaterThan(0);
    h.send("clicks", { user: "Ann", n: 1 });
    h.send("clicks", { user: "Ben", n: 1 });
    expect(h.stateSizes()["Aggregate"]!).toBeGreaterThan(one);
  });

  it("a Schema's watermark follows the rows; a window fires when it passes the window's end", () => {
    const h = PipelineHarness.of({
      inputs: { events: Events },
      program: ({ events }) => events.window(Tumble.over(lit(5).seconds()).on($("ts")).as("w"))
        .groupBy($("k"), $("w")).select($("k"), $("w").end().as("wend"), $("v").sum().as("total")),
    });
    h.send("events", { k: "a", v: 1, ts: at(1000) });
    h.send("events", { k: "a", v: 2, ts: at(4000) });
    expect(h.inputWatermark("events")).toBe(3000);
    expect(h.changelog()).toEqual([]);
    h.send("events", { k: "a", v: 4, ts: at(6500) }); // watermark 5500: the window [0, 5 s) fires
    expect(h.changelog()).toEqual(["+I[a, 1970-01-01T00:00:05, 3]"]);
    expect(h.currentWatermark()).toBe(5500);
    h.watermark("events", 20_000);
    expect(h.changelog()).toEqual(["+I[a, 1970-01-01T00:00:05, 3]", "+I[a, 1970-01-01T00:00:10, 4]"]);
    h.watermark("events", 10_000); // behind: nothing
    expect(h.inputWatermark("events")).toBe(20_000);
  });

  it("watermarks: \"manual\" ignores the schema's declaration", () => {
    const h = PipelineHarness.of({
      inputs: { events: Events }, watermarks: "manual",
      program: ({ events }) => events.window(Tumble.over(lit(5).seconds()).on($("ts")).as("w"))
        .groupBy($("w")).select($("v").sum().as("total")),
    });
    h.send("events", { k: "a", v: 1, ts: at(1000) }).send("events", { k: "a", v: 2, ts: at(9000) });
    expect(h.inputWatermark("events")).toBe(-Infinity);
    expect(h.changelog()).toEqual([]);
    h.watermark("events", at(4999));
    expect(h.changelog()).toEqual(["+I[1]"]);
  });

  it("shows the pending timers of a PTF call and fires them as the watermark passes", () => {
    const h = PipelineHarness.of({
      inputs: { events: Events },
      program: ({ events }) => events.partitionBy($("k")).process(Reminder, descriptor("ts").asArgument("on_time")),
    });
    h.send("events", { k: "a", v: 1, ts: at(1000) }).send("events", { k: "b", v: 1, ts: at(2000) }).send("events", { k: "a", v: 1, ts: at(3000) });
    expect(h.timers()).toEqual([
      { operator: "Process[Reminder]", key: "b", name: "remind", time: 12_000 },
      { operator: "Process[Reminder]", key: "a", name: "remind", time: 13_000 },
    ]);
    h.watermark("events", 12_500);
    expect(h.changelog()).toEqual(["+I[b, quiet since 2000, 1970-01-01T00:00:12Z]"]);
    expect(h.timers()).toEqual([{ operator: "Process[Reminder]", key: "a", name: "remind", time: 13_000 }]);
    h.endInput();
    expect(h.timers()).toEqual([]);
    expect(h.changelog()).toHaveLength(2);
  });

  it("two inputs: rows of each go to their side of a join", () => {
    const Users = DataTypes.ROW(DataTypes.FIELD("id", DataTypes.STRING().notNull()), DataTypes.FIELD("name", DataTypes.STRING()));
    const h = PipelineHarness.of({
      inputs: { clicks: Clicks, users: Users },
      program: ({ clicks, users }) => clicks.join(users, $("user").isEqual($("id"))).select($("name"), $("n")),
    });
    h.send("clicks", { user: "u1", n: 3 });
    expect(h.changelog()).toEqual([]);
    h.send("users", { id: "u1", name: "Ann" });
    expect(h.changelog()).toEqual(["+I[Ann, 3]"]);
    expect(Object.keys(h.stateSizes())).toEqual(["Join"]);
  });

  it("a changelog input takes rows with kinds; a deletion retracts downstream", () => {
    const h = PipelineHarness.of({
      inputs: { clicks: { schema: Clicks, changelog: true } },
      program: ({ clicks }) => clicks.groupBy($("user")).select($("user"), $("n").sum().as("total")),
    });
    h.send("clicks", { user: "Ann", n: 2 }).send("clicks", Row.ofKind(RowKind.DELETE, "Ann", 2));
    expect(h.changelog()).toEqual(["+I[Ann, 2]", "-D[Ann, 2]"]);
  });

  it("the processing-time clock drives state TTL", () => {
    const h = PipelineHarness.of({
      inputs: { clicks: Clicks }, config: { "table.exec.state.ttl": "1 min" }, processingTime: 1000,
      program: ({ clicks }) => clicks.groupBy($("user")).select($("user"), $("n").sum().as("total")),
    });
    h.send("clicks", { user: "Ann", n: 1 });
    h.advanceProcessingTime("2 min");
    expect(h.currentProcessingTime()).toBe(121_000);
    h.send("clicks", { user: "Ann", n: 1 });
    // the first group expired: the sum starts again
    expect(h.changelog()).toEqual(["+I[Ann, 1]", "+I[Ann, 1]"]);
  });

  it("a program may read other bounded sources: they run to their end when the job opens", () => {
    const h = PipelineHarness.of({
      inputs: { clicks: Clicks },
      program: ({ clicks }, env) => clicks.unionAll(env.fromValues(Clicks, [{ user: "Zed", n: 9 }])),
    });
    h.send("clicks", { user: "Ann", n: 1 });
    expect(h.changelog()).toEqual(["+I[Zed, 9]", "+I[Ann, 1]"]);
  });
});

describe("PipelineHarness: snapshot and restore", () => {
  it("a harness restored from a snapshot continues as the original", () => {
    const run = PipelineHarness.of({
      inputs: { events: Events },
      program: ({ events }) => events.partitionBy($("k")).process(Reminder, descriptor("ts").asArgument("on_time")),
    });
    const make = () => PipelineHarness.of({
      inputs: { events: Events },
      program: ({ events }) => events.partitionBy($("k")).process(Reminder, descriptor("ts").asArgument("on_time")),
    });
    run.send("events", { k: "a", v: 1, ts: at(1000) }).send("events", { k: "b", v: 1, ts: at(5000) });
    const snap = JSON.parse(JSON.stringify(run.snapshot())) as ReturnType<typeof run.snapshot>;
    const rest = [{ k: "a", v: 1, ts: at(9000) }, { k: "c", v: 1, ts: at(30_000) }];
    run.sendAll("events", rest).endInput();
    const restored = make().restore(snap);
    expect(restored.inputWatermark("events")).toBe(-Infinity);
    restored.sendAll("events", rest).endInput();
    expect(restored.changelog()).toEqual(run.changelog());
    expect(restored.changelog()).toEqual([
      "+I[b, quiet since 5000, 1970-01-01T00:00:15Z]", "+I[a, quiet since 9000, 1970-01-01T00:00:19Z]", "+I[c, quiet since 30000, 1970-01-01T00:00:40Z]",
    ]);
  });

  it("refuses a restore after the first step, a snapshot of another program, and a snapshot after end of input", () => {
    const h = totals();
    const snap = h.snapshot();
    h.send("clicks", { user: "Ann", n: 1 });
    expect(() => h.restore(snap)).toThrow(/restore into a new harness/);
    const other = PipelineHarness.of({ inputs: { clicks: Clicks }, program: ({ clicks }) => clicks.filter($("n").isGreater(1)) });
    expect(() => other.restore(snap)).toThrow(/the snapshot is of another program: it holds the state of the operators \[Aggregate/);
    h.endInput();
    expect(() => h.snapshot()).toThrow(/input 'clicks' has ended/);
  });
});

describe("PipelineHarness: bad input is a clear error", () => {
  it("names the input, the row and the column", () => {
    const h = totals();
    // @ts-expect-error not an input of this harness
    expect(() => h.send("orders", { user: "Ann", n: 1 })).toThrow("PipelineHarness.send: no input 'orders'; the inputs are [clicks]");
    // @ts-expect-error n is an INT
    expect(() => h.send("clicks", { user: "Ann", n: "x" })).toThrow(/PipelineHarness.send\('clicks'\) row 1, column 'n'/);
    expect(() => h.send("clicks", Row.ofKind(RowKind.DELETE, "Ann", 1))).toThrow(
      "PipelineHarness.send('clicks') row 1: a row of kind DELETE, but input 'clicks' is insert-only; declare it as { schema, changelog: true }",
    );
    expect(() => PipelineHarness.of({ inputs: { clicks: Clicks, unused: Clicks }, program: ({ clicks }) => clicks }))
      .toThrow("PipelineHarness: the program does not read input 'unused'");
    expect(() => h.watermark("clicks", Number.NaN)).toThrow(/expected epoch milliseconds or a Date/);
    expect(() => h.setProcessingTime(-1)).toThrow(/processing time cannot go back/);
  });
});

/** Flink's GreetingWithLastPurchase: two co-partitioned tables share one virtual processor per key. */
const GreetingWithLastPurchase = ProcessTableFunction.define({
  name: "GreetingWithLastPurchase",
  args: { visit: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE), purchase: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE) },
  state: { memory: valueState<{ lastItem: string | null }>({ lastItem: null }) },
  output: DataTypes.STRING(),
  eval(ctx, { memory }, { visit, purchase }) {
    if (purchase !== null) memory.lastItem = purchase.item as string;
    else if (visit !== null) ctx.collect(memory.lastItem === null ? `Hello ${visit.name}` : `Hello ${visit.name}, ${memory.lastItem} again?`);
  },
});

describe("PipelineHarness: a PTF with several table arguments", () => {
  const Visits = DataTypes.ROW(DataTypes.FIELD("name", DataTypes.STRING().notNull()));
  const Purchases = DataTypes.ROW(DataTypes.FIELD("customer", DataTypes.STRING().notNull()), DataTypes.FIELD("item", DataTypes.STRING().notNull()));
  const make = () => PipelineHarness.of({
    inputs: { visits: Visits, purchases: Purchases },
    program: ({ visits, purchases }, env) => env.fromCall(GreetingWithLastPurchase, visits.partitionBy($("name")), purchases.partitionBy($("customer"))),
  });

  it("rows of each table reach the call; state(F, key) shows the shared virtual processor; the output is typed", () => {
    const h = make();
    h.send("visits", { name: "Ann" });
    expect(h.state(GreetingWithLastPurchase, "Ann")).toEqual({ memory: null });
    h.send("purchases", { customer: "Ann", item: "tea" }).send("visits", { name: "Ann" }).send("visits", { name: "Ben" });
    expect(h.changelog()).toEqual(["+I[Ann, Ann, Hello Ann]", "+I[Ann, Ann, Hello Ann, tea again?]", "+I[Ben, Ben, Hello Ben]"]);
    expect(h.state(GreetingWithLastPurchase, "Ann")).toEqual({ memory: { lastItem: "tea" } });
    expect(Object.isFrozen(h.state(GreetingWithLastPurchase, "Ann").memory)).toBe(true);
    expect(h.getResolvedSchema().names).toEqual(["name", "customer", "EXPR$0"]);
    expectTypeOf(h.output()).toEqualTypeOf<KeyedRow<{ name: string; customer: string; EXPR$0: string | null }>[]>();
    expectTypeOf(h.state(GreetingWithLastPurchase, "Ann").memory).toEqualTypeOf<{ readonly lastItem: string | null } | null>();
  });

  it("state() names what is wrong with the function or the key", () => {
    const h = make();
    expect(() => h.state(Reminder, "a")).toThrow("PipelineHarness.state(): the program does not call function 'Reminder'; its operators are [Process[GreetingWithLastPurchase], Collect]");
    expect(() => h.state(GreetingWithLastPurchase)).toThrow("PipelineHarness.state(): give the key of a virtual processor of 'GreetingWithLastPurchase': the value of 'name'");
    expect(() => h.state(GreetingWithLastPurchase, 1)).toThrow(/key column 'name'/);
  });

  it("restore at any record holds for the call", () => {
    checkRestoreAtAnyRecord({
      inputs: { visits: Visits, purchases: Purchases },
      program: ({ visits, purchases }, env) => env.fromCall(GreetingWithLastPurchase, visits.partitionBy($("name")), purchases.partitionBy($("customer"))),
      steps: [
        { input: "visits", row: { name: "Ann" } }, { input: "purchases", row: { customer: "Ann", item: "tea" } },
        { input: "visits", row: { name: "Ann" } }, { input: "purchases", row: { customer: "Ben", item: "jam" } }, { input: "visits", row: { name: "Ben" } },
      ],
    });
  });
});
