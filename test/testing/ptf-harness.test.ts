// PtfTestHarness (src/testing/ptf-harness.ts): one PTF driven row by row, without a pipeline, on the
// real PTF operator and state backend.
import fc from "fast-check";
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  $, ArgumentTrait, DataTypes, Decimal, EnvironmentSettings, ProcessTableFunction, Row, RowKind, Schema, TableEnvironment, descriptor,
  lit, listView, mapView, scalarArg, structuredType, tableArg, valueState, valueView,
} from "../../src/index.js";
import { PtfTestHarness, type PtfHarnessSnapshot } from "../../src/testing/index.js";
import type { KeyedRow } from "../../src/types/row.js";

const Click = DataTypes.ROW(DataTypes.FIELD("user", DataTypes.STRING()), DataTypes.FIELD("page", DataTypes.STRING().notNull()));

/** A counter per key: the stateful function most tests drive. */
const Counter = ProcessTableFunction.define({
  name: "Counter",
  args: { click: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE) },
  state: { seen: valueState({ clicks: 0 }) },
  output: DataTypes.ROW(DataTypes.FIELD("clicks", DataTypes.INT().notNull()), DataTypes.FIELD("page", DataTypes.STRING())),
  eval(ctx, { seen }, { click }) {
    seen.clicks++;
    ctx.collect({ clicks: seen.clicks, page: click.page as string });
  },
});

const counterHarness = () => PtfTestHarness.of(Counter, { input: Click, partitionBy: ["user"] });

describe("a stateful counter per key", () => {
  it("emits typed rows with their kind, in Flink's notation, and keeps state per key", () => {
    const h = counterHarness();
    h.processElement({ user: "Ann", page: "home" });
    h.processElement(Row.of("Ben", "home"));
    h.processElement({ user: "Ann", page: "cart" });
    expect(h.changelog()).toEqual(["+I[Ann, 1, home]", "+I[Ben, 1, home]", "+I[Ann, 2, cart]"]);
    const out = h.output();
    expect(out).toEqual([
      { user: "Ann", clicks: 1, page: "home" }, { user: "Ben", clicks: 1, page: "home" }, { user: "Ann", clicks: 2, page: "cart" },
    ]);
    expect(out.map((r) => Row.kindOf(r))).toEqual(["+I", "+I", "+I"]);
    expectTypeOf(out[0]!.clicks).toEqualTypeOf<number>();
    expectTypeOf(out[0]!.user).toEqualTypeOf<string | null>();
    expect(h.state("Ann")).toEqual({ seen: { clicks: 2 } });
    expect(h.state("Ben")).toEqual({ seen: { clicks: 1 } });
    expectTypeOf(h.state("Ann").seen).toEqualTypeOf<{ readonly clicks: number } | null>();
    expect(h.keys()).toEqual(["Ann", "Ben"]);
  });

  it("drain() returns the rows since the last drain and forgets them", () => {
    const h = counterHarness();
    h.processElements([{ user: "Ann", page: "a" }, { user: "Ann", page: "b" }]);
    expect(h.drain().map(String)).toEqual(["+I[Ann, 1, a]", "+I[Ann, 2, b]"]);
    expect(h.output()).toEqual([]);
    h.processElement({ user: "Ann", page: "c" });
    expect(h.drain()).toEqual([{ user: "Ann", clicks: 3, page: "c" }]);
    expect(h.changelog()).toEqual([]);
  });

  it("gives the rows a pipeline gives for the same input", async () => {
    const rows = [Row.of("Ann", "a"), Row.of("Ben", "b"), Row.of(null, "c"), Row.of("Ann", "d"), Row.of(null, "e")];
    const h = counterHarness();
    h.processElements(rows);
    const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    const job = await env.fromValues(Click, ...rows).partitionBy($("user")).process(Counter).execute().toChangelog();
    expect(h.changelog()).toEqual(job);
    expect(h.changelog()).toEqual(["+I[Ann, 1, a]", "+I[Ben, 1, b]", "+I[null, 1, c]", "+I[Ann, 2, d]", "+I[null, 2, e]"]);
    expect(h.keys()).toEqual(["Ann", "Ben", null]);
    expect(h.state(null)).toEqual({ seen: { clicks: 2 } });
  });

  it("several PARTITION BY columns: the key is an array of their values", () => {
    const Visit = DataTypes.ROW(DataTypes.FIELD("user", DataTypes.STRING()), DataTypes.FIELD("day", DataTypes.DATE()), DataTypes.FIELD("page", DataTypes.STRING().notNull()));
    const h = PtfTestHarness.of(Counter, { input: Visit, partitionBy: ["user", "day"] });
    h.processElement({ user: "Ann", day: "2024-05-01", page: "a" });
    h.processElement({ user: "Ann", day: "2024-05-02", page: "b" });
    h.processElement({ user: "Ann", day: "2024-05-01", page: "c" });
    expect(h.changelog()).toEqual(["+I[Ann, 2024-05-01, 1, a]", "+I[Ann, 2024-05-02, 1, b]", "+I[Ann, 2024-05-01, 2, c]"]);
    expect(h.state(["Ann", "2024-05-01"])).toEqual({ seen: { clicks: 2 } });
    expect(h.state(["Ann", new Date("2024-05-02T00:00:00Z")])).toEqual({ seen: { clicks: 1 } }); // a DATE is a string; a Date at midnight is accepted
    expect(h.keys()).toEqual([["Ann", "2024-05-01"], ["Ann", "2024-05-02"]]);
  });

  it("without PARTITION BY (OPTIONAL_PARTITION_BY) one virtual processor sees every row", () => {
    const Total = ProcessTableFunction.define({
      name: "Total",
      args: { input: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE, ArgumentTrait.OPTIONAL_PARTITION_BY) },
      state: { sum: valueState({ n: 0 }) },
      output: DataTypes.INT(),
      eval(ctx, { sum }, { input }) {
        sum.n += input.v as number;
        ctx.collect(sum.n);
      },
    });
    const h = PtfTestHarness.of(Total, { input: DataTypes.ROW(DataTypes.FIELD("v", DataTypes.INT())) });
    h.processElements([{ v: 1 }, { v: 2 }, { v: 3 }]);
    expect(h.changelog()).toEqual(["+I[1]", "+I[3]", "+I[6]"]);
    expect(h.state()).toEqual({ sum: { n: 6 } });
    expect(h.state([])).toEqual({ sum: { n: 6 } });
    expect(h.keys()).toEqual([[]]);
  });

  it("a row-semantics function with scalar arguments: values of the declared type or expressions", () => {
    const Threshold = ProcessTableFunction.define({
      name: "Threshold",
      args: {
        input: tableArg(ArgumentTrait.ROW_SEMANTIC_TABLE, ArgumentTrait.PASS_COLUMNS_THROUGH),
        min: scalarArg(DataTypes.DECIMAL(10, 2).notNull()),
        label: scalarArg(DataTypes.STRING(), { optional: true }),
      },
      output: DataTypes.ROW(DataTypes.FIELD("tag", DataTypes.STRING())),
      eval(ctx, _state, { input, min, label }) {
        if (min.lessThanOrEqualTo(input.amount as number)) ctx.collect({ tag: label ?? "big" });
      },
    });
    const Order = DataTypes.ROW(DataTypes.FIELD("id", DataTypes.INT()), DataTypes.FIELD("amount", DataTypes.DOUBLE()));
    const h = PtfTestHarness.of(Threshold, { input: Order, args: { min: new Decimal("10.50") } });
    h.processElements([Row.of(1, 10.49), Row.of(2, 10.5), Row.of(3, 99)]);
    expect(h.changelog()).toEqual(["+I[2, 10.5, big]", "+I[3, 99.0, big]"]);
    expect(h.state()).toEqual({});
    expect(h.keys()).toEqual([]);
    const labelled = PtfTestHarness.of(Threshold, { input: Order, args: { min: lit(1), label: lit("xy").upperCase() } });
    labelled.processElement({ id: 7, amount: 1 });
    expect(labelled.changelog()).toEqual(["+I[7, 1.0, XY]"]);
  });

  it("a Schema as input: rows give the physical columns, computed columns are evaluated", () => {
    const schema = Schema.newBuilder()
      .column("user", DataTypes.STRING())
      .column("page", DataTypes.STRING().notNull())
      .columnByExpression("section", $("page").substring(1, 1))
      .build();
    const h = PtfTestHarness.of(Counter, { input: schema, partitionBy: ["section"] });
    // Row.of gives the physical columns (the row type of a Schema lists its computed columns too, as for fromValues)
    h.processElements([Row.of("Ann", "a1"), Row.of("Ben", "b1"), Row.of("Cy", "a2")]);
    expect(h.changelog()).toEqual(["+I[a, 1, a1]", "+I[b, 1, b1]", "+I[a, 2, a2]"]);
    expect(h.keys()).toEqual(["a", "b"]);
  });

  it("a failing eval fails processElement with the job's message", () => {
    const Failing = ProcessTableFunction.define({
      name: "Failing",
      args: { input: tableArg(ArgumentTrait.ROW_SEMANTIC_TABLE) },
      output: DataTypes.STRING(),
      eval() { throw new Error("boom"); },
    });
    const h = PtfTestHarness.of(Failing, { input: Click });
    expect(() => h.processElement({ user: "Ann", page: "a" })).toThrow("Process table function 'Failing' failed in eval() for row +I[Ann, a]: boom");
  });
});

/** The tutorial's step 11 Greeter: visits per user in state that expires 30 minutes after its last write. */
const Visit = DataTypes.ROW(DataTypes.FIELD("user", DataTypes.STRING()), DataTypes.FIELD("at", DataTypes.TIMESTAMP(3).notNull()));
const Greeter = ProcessTableFunction.define({
  name: "Greeter",
  args: { visit: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE).typed(Visit) },
  state: { seen: valueState({ visits: 0 }, { ttl: "30 min" }) },
  output: DataTypes.ROW(DataTypes.FIELD("greeting", DataTypes.STRING())),
  eval(ctx, { seen }) {
    seen.visits++;
    ctx.collect({ greeting: seen.visits === 1 ? "Hello!" : `Welcome back, visit ${seen.visits}` });
  },
});
const at = (time: string) => new Date(`2024-05-01T${time}:00Z`);

describe("TTL on the harness's processing-time clock", () => {
  it("the tutorial's visits: no upstream device, the test sets the clock", () => {
    const h = PtfTestHarness.of(Greeter, { partitionBy: ["user"], processingTime: at("12:00").getTime() });
    const visit = (user: string, time: string) => {
      h.setProcessingTime(at(time).getTime());
      h.processElement({ user, at: at(time) });
    };
    visit("Ann", "12:00");
    visit("Ann", "12:20");
    visit("Ben", "12:25");
    visit("Ann", "12:45");
    visit("Ben", "13:00");
    visit("Ann", "13:20");
    expect(h.changelog()).toEqual([
      "+I[Ann, Hello!]", "+I[Ann, Welcome back, visit 2]", "+I[Ben, Hello!]",
      "+I[Ann, Welcome back, visit 3]", "+I[Ben, Hello!]", "+I[Ann, Hello!]",
    ]);
  });

  it("state(key) shows an entry until its TTL has passed, then null; looking does not refresh it", () => {
    const h = PtfTestHarness.of(Greeter, { partitionBy: ["user"] });
    h.processElement({ user: "Ann", at: at("12:00") });
    h.advanceProcessingTime("10 min");
    h.processElement({ user: "Ben", at: at("12:10") });
    h.advanceProcessingTime(19 * 60_000 + 59_999); // 29:59.999 after Ann's write
    expect(h.state("Ann")).toEqual({ seen: { visits: 1 } });
    expect(h.keys()).toEqual(["Ann", "Ben"]);
    h.advanceProcessingTime(1); // exactly 30 minutes: expired (an entry written at t is gone at t + ttl)
    expect(h.currentProcessingTime()).toBe(30 * 60_000);
    expect(h.state("Ann")).toEqual({ seen: null });
    expect(h.state("Ben")).toEqual({ seen: { visits: 1 } });
    expect(h.keys()).toEqual(["Ben"]);
    h.processElement({ user: "Ann", at: at("12:30") });
    expect(h.drain().map(String)).toEqual(["+I[Ann, Hello!]", "+I[Ben, Hello!]", "+I[Ann, Hello!]"]);
    expect(h.state("Ann")).toEqual({ seen: { visits: 1 } });
  });

  it("a write refreshes the TTL (OnCreateAndWrite); table.exec.state.ttl applies to entries without their own", () => {
    const Plain = ProcessTableFunction.define({
      name: "Plain",
      args: { visit: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE) },
      state: { seen: valueState({ visits: 0 }), forever: valueState({ visits: 0 }, { ttl: 0 }) },
      output: DataTypes.INT(),
      eval(ctx, { seen, forever }) {
        seen.visits++;
        forever.visits++;
        ctx.collect(seen.visits);
      },
    });
    const h = PtfTestHarness.of(Plain, { input: Visit, partitionBy: ["user"], config: { "table.exec.state.ttl": "1 h" } });
    h.processElement({ user: "Ann", at: 0 });
    h.advanceProcessingTime("59 min");
    h.processElement({ user: "Ann", at: 0 }); // written at 59 min: lives until 1 h 59 min
    h.advanceProcessingTime("59 min");
    expect(h.state("Ann")).toEqual({ seen: { visits: 2 }, forever: { visits: 2 } });
    h.advanceProcessingTime("1 min");
    expect(h.state("Ann")).toEqual({ seen: null, forever: { visits: 2 } });
    h.processElement({ user: "Ann", at: 0 });
    expect(h.changelog()).toEqual(["+I[Ann, 1]", "+I[Ann, 2]", "+I[Ann, 1]"]);
  });

  it("the clock does not go back; durations use Flink's syntax", () => {
    const h = PtfTestHarness.of(Greeter, { partitionBy: ["user"], processingTime: 1000 });
    expect(() => h.setProcessingTime(999)).toThrow("PtfTestHarness.setProcessingTime(999): processing time cannot go back (it is 1000)");
    expect(() => h.advanceProcessingTime("2 fortnights")).toThrow(
      "PtfTestHarness.advanceProcessingTime: time unit 'fortnights' in '2 fortnights' is not one of d|day(s), h|hour(s), min|m|minute(s), s|sec(s)|second(s), ms|milli(s)|millisecond(s)",
    );
    expect(() => h.advanceProcessingTime(-5)).toThrow("PtfTestHarness.advanceProcessingTime: a duration in milliseconds must be a non-negative integer, got -5");
    h.advanceProcessingTime("1 day");
    expect(h.currentProcessingTime()).toBe(1000 + 86_400_000);
  });
});

/** A function with every kind of state entry. */
const Tag = DataTypes.ROW(DataTypes.FIELD("user", DataTypes.STRING()), DataTypes.FIELD("tag", DataTypes.STRING().notNull()), DataTypes.FIELD("day", DataTypes.TIMESTAMP(3)));
const Tags = ProcessTableFunction.define({
  name: "Tags",
  args: { input: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE).typed(Tag) },
  state: {
    recent: listView(DataTypes.STRING(), { ttl: "1 min" }),
    perDay: mapView(DataTypes.TIMESTAMP(3), DataTypes.INT()),
    last: valueView(DataTypes.STRING()),
  },
  output: DataTypes.STRING(),
  eval(ctx, { recent, perDay, last }, { input }) {
    if (input.tag === "reset") {
      ctx.clearState("perDay");
      return;
    }
    recent.add(input.tag);
    if (input.day !== null) perDay.put(input.day, (perDay.get(input.day) ?? 0) + 1);
    last.setValue(input.tag);
    ctx.collect(recent.getList().join(","));
  },
});
const day = (d: string) => new Date(`2024-05-${d}T00:00:00Z`);

describe("ListView, MapView and ValueView inspection", () => {
  it("shows view contents per key: list elements, map entries with their original keys, the value", () => {
    const h = PtfTestHarness.of(Tags, { partitionBy: ["user"] });
    h.processElement({ user: "Ann", tag: "a", day: "2024-05-01 00:00" });
    h.processElement({ user: "Ann", tag: "b", day: "2024-05-02 00:00" });
    h.processElement({ user: "Ann", tag: "c", day: "2024-05-01 00:00" });
    h.processElement({ user: "Ben", tag: "x", day: null });
    const ann = h.state("Ann");
    expect(ann).toEqual({ recent: ["a", "b", "c"], perDay: new Map([[day("01"), 2], [day("02"), 1]]), last: "c" });
    expect([...ann.perDay.keys()].every((k) => k instanceof Date)).toBe(true);
    expect(h.state("Ben")).toEqual({ recent: ["x"], perDay: new Map(), last: "x" });
    expectTypeOf(ann.recent).toEqualTypeOf<readonly string[]>();
    expectTypeOf(ann.perDay).toEqualTypeOf<ReadonlyMap<Date, number | null>>();
    expectTypeOf(ann.last).toEqualTypeOf<string | null>();
  });

  it("list elements expire one by one; clearState empties a view after eval", () => {
    const h = PtfTestHarness.of(Tags, { partitionBy: ["user"] });
    h.processElement({ user: "Ann", tag: "a", day: "2024-05-01 00:00" });
    h.advanceProcessingTime("40 s");
    h.processElement({ user: "Ann", tag: "b", day: "2024-05-01 00:00" });
    h.advanceProcessingTime("20 s"); // "a" is one minute old
    expect(h.state("Ann").recent).toEqual(["b"]);
    h.processElement({ user: "Ann", tag: "reset", day: null });
    expect(h.state("Ann")).toEqual({ recent: ["b"], perDay: new Map(), last: "b" });
    h.advanceProcessingTime("40 s");
    expect(h.state("Ann").recent).toEqual([]);
    expect(h.keys()).toEqual(["Ann"]); // the ValueView has no TTL
    expect(h.changelog()).toEqual(["+I[Ann, a]", "+I[Ann, a,b]"]);
  });

  it("a state snapshot is a frozen copy: changing it throws, later rows do not change it", () => {
    const h = PtfTestHarness.of(Tags, { partitionBy: ["user"] });
    h.processElement({ user: "Ann", tag: "a", day: "2024-05-01 00:00" });
    const before = h.state("Ann");
    expect(() => { (before.recent as string[]).push("z"); }).toThrow(TypeError);
    expect(() => { (before.perDay as Map<Date, number>).set(day("09"), 9); }).toThrow(/frozen/);
    expect(() => { (before as { last: string }).last = "z"; }).toThrow(TypeError);
    h.processElement({ user: "Ann", tag: "b", day: "2024-05-01 00:00" });
    expect(before).toEqual({ recent: ["a"], perDay: new Map([[day("01"), 1]]), last: "a" });
    expect(h.state("Ann")).toEqual({ recent: ["a", "b"], perDay: new Map([[day("01"), 2]]), last: "b" });
  });

  it("value state of a ROW or structured type keeps its class, frozen", () => {
    class Score {
      name: string | null = null;
      total = 0;
    }
    const ScoreType = structuredType(Score, DataTypes.ROW(DataTypes.FIELD("name", DataTypes.STRING()), DataTypes.FIELD("total", DataTypes.INT())));
    const Scores = ProcessTableFunction.define({
      name: "Scores",
      args: { input: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE) },
      state: { score: valueState(ScoreType), last: valueState(DataTypes.ROW(DataTypes.FIELD("page", DataTypes.STRING()))) },
      output: DataTypes.INT(),
      eval(ctx, { score, last }, { input }) {
        score.name = input.user as string;
        score.total += 1;
        last.page = input.page as string;
        ctx.collect(score.total);
      },
    });
    const h = PtfTestHarness.of(Scores, { input: Click, partitionBy: ["user"] });
    h.processElement({ user: "Ann", page: "a" });
    const s = h.state("Ann");
    expect(s.score).toBeInstanceOf(Score);
    expect(s.score).toEqual(Object.assign(new Score(), { name: "Ann", total: 1 }));
    expect(String(s.last)).toBe("+I[a]");
    expect(Object.isFrozen(s.score) && Object.isFrozen(s.last)).toBe(true);
  });
});

/** The stateful example of the property: value state, a list and a map, with TTLs. */
const Tracker = ProcessTableFunction.define({
  name: "Tracker",
  args: { click: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE).typed(Click) },
  state: {
    count: valueState({ n: 0 }, { ttl: "10 s" }),
    recent: listView(DataTypes.STRING(), { ttl: "5 s" }),
    pages: mapView(DataTypes.STRING(), DataTypes.INT(), { ttl: "8 s" }),
  },
  output: DataTypes.ROW(DataTypes.FIELD("n", DataTypes.INT()), DataTypes.FIELD("recent", DataTypes.STRING()), DataTypes.FIELD("visits", DataTypes.INT())),
  eval(ctx, { count, recent, pages }, { click }) {
    count.n++;
    recent.add(click.page);
    const list = recent.getList();
    if (list.length > 3) recent.remove(list[0]!);
    const visits = (pages.get(click.page) ?? 0) + 1;
    pages.put(click.page, visits);
    if (count.n % 4 === 0) ctx.clearState("pages");
    ctx.collect({ n: count.n, recent: recent.getList().join(","), visits });
  },
});

type Op = { readonly row: { user: string | null; page: string } } | { readonly advance: number };
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ row: fc.record({ user: fc.constantFrom("a", "b", "c", null), page: fc.constantFrom("x", "y", "z") }) }) },
  { weight: 1, arbitrary: fc.record({ advance: fc.integer({ min: 0, max: 7000 }) }) },
);
const apply = (h: PtfTestHarness<typeof Tracker, { user: string | null; page: string }, "user">, op: Op) => {
  if ("row" in op) h.processElement(op.row);
  else h.advanceProcessingTime(op.advance);
};
const trackerHarness = (processingTime = 0, uid?: string) => PtfTestHarness.of(Tracker, { partitionBy: ["user"], processingTime, ...(uid ? { uid } : {}) });

describe("snapshot and restore", () => {
  it("a restored harness continues with the output and state of one that never stopped", () => {
    const first = trackerHarness();
    first.processElements([{ user: "a", page: "x" }, { user: "a", page: "y" }, { user: "b", page: "x" }]);
    first.advanceProcessingTime("6 s");
    const snapshot = first.snapshot();
    const restored = trackerHarness(first.currentProcessingTime());
    restored.restore(snapshot);
    expect(restored.keys()).toEqual(["a", "b"]);
    expect(restored.state("a")).toEqual(first.state("a"));
    expect(restored.state("a")).toEqual({ count: { n: 2 }, recent: [], pages: new Map([["x", 1], ["y", 1]]) });
    for (const h of [first, restored]) h.processElements([{ user: "a", page: "x" }, { user: "b", page: "z" }]);
    expect(restored.changelog()).toEqual(["+I[a, 3, x, 2]", "+I[b, 2, z, 1]"]);
    expect(first.changelog().slice(3)).toEqual(restored.changelog());
  });

  it("a snapshot is frozen and does not change when the harness goes on", () => {
    const h = trackerHarness();
    h.processElement({ user: "a", page: "x" });
    const snapshot = h.snapshot();
    const json = JSON.stringify(snapshot);
    expect(Object.isFrozen(snapshot.state.values)).toBe(true);
    h.processElements([{ user: "a", page: "y" }, { user: "b", page: "x" }]);
    expect(JSON.stringify(snapshot)).toBe(json);
  });

  it("property: snapshot at any point + restore into a new harness = one harness that never stopped", () => {
    fc.assert(fc.property(fc.array(opArb, { maxLength: 40 }), fc.nat(), (ops, at) => {
      const split = ops.length === 0 ? 0 : at % (ops.length + 1);
      const whole = trackerHarness();
      const before = trackerHarness();
      for (const op of ops.slice(0, split)) {
        apply(whole, op);
        apply(before, op);
      }
      whole.drain();
      const after = trackerHarness(before.currentProcessingTime());
      after.restore(before.snapshot());
      for (const op of ops.slice(split)) {
        apply(whole, op);
        apply(after, op);
      }
      expect(after.changelog()).toEqual(whole.changelog());
      expect(after.keys()).toEqual(whole.keys());
      for (const k of whole.keys()) expect(after.state(k)).toEqual(whole.state(k));
    }), { numRuns: 200 });
  });

  it("restore needs a new harness, the same uid and state entries of the same kind", () => {
    const h = trackerHarness();
    h.processElement({ user: "a", page: "x" });
    const snapshot = h.snapshot();
    expect(() => h.restore(snapshot)).toThrow(
      "PtfTestHarness.restore(): restore into a new harness, before its first processElement (Flink's initializeState comes before open)",
    );
    const twice = trackerHarness();
    twice.restore(snapshot);
    expect(() => twice.restore(snapshot)).toThrow("PtfTestHarness.restore(): restore into a new harness");
    expect(() => trackerHarness(0, "other").restore(snapshot)).toThrow(
      "PtfTestHarness.restore(): the snapshot holds the state of uid 'Tracker' but this call of 'Tracker' has uid 'other'; state is found again by uid",
    );
    const Evolved = ProcessTableFunction.define({
      name: "Tracker",
      args: { click: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE).typed(Click) },
      state: { count: valueState({ n: 0 }), recent: mapView(DataTypes.STRING(), DataTypes.INT()) },
      output: DataTypes.INT(),
      eval(ctx, { count }) { ctx.collect(++count.n); },
    });
    expect(() => PtfTestHarness.of(Evolved, { partitionBy: ["user"] }).restore(snapshot)).toThrow(
      "PtfTestHarness.restore(): state entry 'recent' is a listView in the snapshot but function 'Tracker' declares a mapView",
    );
    expect(() => trackerHarness().restore({} as PtfHarnessSnapshot)).toThrow("PtfTestHarness.restore(): expected a snapshot taken with PtfTestHarness.snapshot()");
  });

  it("an evolved function with the same uid and compatible state continues from the snapshot", () => {
    const h = trackerHarness();
    h.processElements([{ user: "a", page: "x" }, { user: "a", page: "x" }]);
    const Evolved = ProcessTableFunction.define({
      name: "TrackerV2",
      args: { click: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE).typed(Click) },
      state: { count: valueState({ n: 0 }) },
      output: DataTypes.INT(),
      eval(ctx, { count }) { ctx.collect(++count.n); },
    });
    const v2 = PtfTestHarness.of(Evolved, { partitionBy: ["user"], uid: "Tracker" });
    v2.restore(h.snapshot());
    v2.processElement({ user: "a", page: "y" });
    expect(v2.changelog()).toEqual(["+I[a, 3]"]);
  });
});

describe("misuse is reported with the column, argument or key", () => {
  const h = () => {
    const x = counterHarness();
    x.processElements([{ user: "Ann", page: "a" }, { user: "Ben", page: "b" }]);
    return x;
  };

  it("a row that does not fit the input type names the row and the column", () => {
    const x = h();
    expect(() => x.processElement({ user: "Ann", page: 42 as unknown as string })).toThrow(
      "PtfTestHarness.processElement row 3, column 'page': value 42 (number) does not fit type STRING NOT NULL",
    );
    expect(() => x.processElement({ user: "Ann" } as { user: string; page: string })).toThrow(
      "PtfTestHarness.processElement row 4, column 'page': null value for NOT NULL type STRING NOT NULL",
    );
    expect(() => x.processElement({ user: "Ann", page: "a", agent: "x" } as { user: string; page: string })).toThrow(
      "PtfTestHarness.processElement row 5: column 'agent' is not in the input columns [user, page]",
    );
    expect(() => x.processElement(Row.of("Ann"))).toThrow("PtfTestHarness.processElement row 6: Row.of(...) has 1 values but the input has 2 columns [user, page]");
    expect(() => x.processElement("Ann" as never)).toThrow(
      "PtfTestHarness.processElement row 7: expected Row.of(...) or an object with the columns [user, page], got Ann",
    );
    const typed = PtfTestHarness.of(Greeter, { partitionBy: ["user"] });
    expect(() => typed.processElement({ user: "Ann", at: "yesterday" })).toThrow("PtfTestHarness.processElement row 1, column 'at': ");
    expect(x.changelog()).toEqual(["+I[Ann, 1, a]", "+I[Ben, 1, b]"]);
  });

  it("a row of another kind than INSERT needs SUPPORT_UPDATES", () => {
    expect(() => h().processElement(Row.ofKind(RowKind.DELETE, "Ann", "a"))).toThrow(
      "PtfTestHarness.processElement row 3: a row of kind DELETE, but table argument 'click' of function 'Counter' takes an insert-only table (it does not declare ArgumentTrait.SUPPORT_UPDATES)",
    );
  });

  it("an unknown key lists the keys seen; a key of the wrong type names the key column", () => {
    const x = h();
    expect(() => x.state("Zed")).toThrow("PtfTestHarness.state(): no row with key Zed (PARTITION BY user) was processed or restored; keys seen: [Ann, Ben]");
    expect(() => x.state(7 as unknown as string)).toThrow("PtfTestHarness.state(): key column 'user': value 7 (number) does not fit type STRING");
    expect(() => (x.state as () => unknown)()).toThrow("PtfTestHarness.state(): give the key of a virtual processor: the value of column 'user'");
    const Visit2 = DataTypes.ROW(DataTypes.FIELD("user", DataTypes.STRING()), DataTypes.FIELD("n", DataTypes.INT()), DataTypes.FIELD("page", DataTypes.STRING().notNull()));
    const two = PtfTestHarness.of(Counter, { input: Visit2, partitionBy: ["user", "n"] });
    two.processElement({ user: "Ann", n: 1, page: "a" });
    expect(() => two.state(["Ann"])).toThrow('PtfTestHarness.state(): the key of columns [user, n] is an array of 2 values, got ["Ann"]');
    expect(() => two.state(["Ann", 2])).toThrow("PtfTestHarness.state(): no row with key [Ann, 2] (PARTITION BY user, n) was processed or restored; keys seen: [[Ann, 1]]");
    const none = PtfTestHarness.of(Tracker, { partitionBy: ["user"] });
    expect(() => none.state("a")).toThrow("PtfTestHarness.state(): no row with key a (PARTITION BY user) was processed or restored; keys seen: []");
    const total = PtfTestHarness.of(
      ProcessTableFunction.define({
        name: "T", args: { t: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE, ArgumentTrait.OPTIONAL_PARTITION_BY) }, state: { s: valueState({ n: 0 }) },
        output: DataTypes.INT(), eval(ctx, { s }) { ctx.collect(++s.n); },
      }),
      { input: Click },
    );
    expect(() => (total.state as unknown as (k: string) => unknown)("Ann")).toThrow(
      "PtfTestHarness.state(): the call has no PARTITION BY, so there is one virtual processor: call state() without a key",
    );
    expect(() => total.state()).toThrow("PtfTestHarness.state(): no row with key [] (PARTITION BY ) was processed or restored; keys seen: []");
  });

  it("an invalid call fails as in a pipeline, with Flink's messages", () => {
    expect(() => PtfTestHarness.of(Counter, { input: Click, partitionBy: ["usr" as "user"] })).toThrow(
      "Invalid column 'usr' for PARTITION BY clause. Available columns are: [user, page]",
    );
    expect(() => PtfTestHarness.of(Counter, { input: Click })).toThrow("Table argument 'click' requires a PARTITION BY clause for parallel processing.");
    expect(() => PtfTestHarness.of(Counter, { input: Click, partitionBy: ["user"], uid: "1st" })).toThrow(
      "Invalid unique identifier for process table function. The `uid` argument must be a string literal that follows the pattern [a-zA-Z_][a-zA-Z-_0-9]*. But found: 1st",
    );
    expect(() => PtfTestHarness.of(Counter, { partitionBy: ["user"] } as never)).toThrow(
      "PtfTestHarness: table argument 'click' of function 'Counter' takes any table; give the input's row type: { input: DataTypes.ROW(...) } or a Schema",
    );
    expect(() => PtfTestHarness.of(Greeter, { input: Click, partitionBy: ["user"] })).toThrow(
      "Invalid argument value. Argument 'visit' expects a typed table, but the provided table is incompatible and cannot be cast to the target type.",
    );
    expect(() => PtfTestHarness.of(Counter, { input: DataTypes.STRING() as never })).toThrow("PtfTestHarness: input must be a ROW data type or a Schema, got STRING");
    const Gen = ProcessTableFunction.define({ name: "Gen", output: DataTypes.INT(), eval(ctx) { ctx.collect(1); } });
    expect(() => PtfTestHarness.of(Gen, {} as never)).toThrow(
      "PtfTestHarness: function 'Gen' has no table argument: it is evaluated once (a generator); test it with env.fromCall(Gen)",
    );
  });

  it("scalar arguments are checked as in a pipeline", () => {
    const F = ProcessTableFunction.define({
      name: "F",
      args: { input: tableArg(ArgumentTrait.ROW_SEMANTIC_TABLE), threshold: scalarArg(DataTypes.INT()), cols: scalarArg(DataTypes.DESCRIPTOR(), { optional: true }) },
      output: DataTypes.STRING(),
      eval(ctx, _s, { threshold, cols }) { ctx.collect(`${threshold} ${cols === null ? "-" : cols.names.join("|")}`); },
    });
    expect(() => PtfTestHarness.of(F, { input: Click, args: { threshold: 1.5 } })).toThrow("argument 'threshold' of function 'F': literal 1.5: value 1.5 (number) does not fit type INT");
    expect(() => PtfTestHarness.of(F, { input: Click, args: {} as { threshold: number } })).toThrow(
      "Invalid function call to 'F': argument 'threshold' (position 1, INT) is not optional; pass a value, or declare it with scalarArg(type, { optional: true }).",
    );
    expect(() => PtfTestHarness.of(F, { input: Click, args: { threshold: 1, treshold: 2 } as { threshold: number } })).toThrow(
      "Invalid function call to 'F': unknown argument 'treshold'. Arguments are: [input, threshold, cols, on_time, uid].",
    );
    const ok = PtfTestHarness.of(F, { input: Click, args: { threshold: 3, cols: descriptor("user", "page") } });
    ok.processElement({ user: "Ann", page: "a" });
    expect(ok.changelog()).toEqual(["+I[3 user|page]"]);
  });

  it("the compiler checks partition columns, argument names and row columns", () => {
    // @ts-expect-error 'usr' is not a column of the input
    expect(() => PtfTestHarness.of(Counter, { input: Click, partitionBy: ["usr"] })).toThrow("Invalid column 'usr'");
    const F = ProcessTableFunction.define({
      name: "F",
      args: { input: tableArg(ArgumentTrait.ROW_SEMANTIC_TABLE), threshold: scalarArg(DataTypes.INT()) },
      output: DataTypes.STRING(),
      eval(ctx) { ctx.collect("x"); },
    });
    // @ts-expect-error the required argument 'threshold' is missing
    expect(() => PtfTestHarness.of(F, { input: Click })).toThrow("argument 'threshold' (position 1, INT) is not optional");
    // @ts-expect-error 'treshold' is not an argument of F
    expect(() => PtfTestHarness.of(F, { input: Click, args: { threshold: 1, treshold: 2 } })).toThrow("unknown argument 'treshold'");
    const x = counterHarness();
    // @ts-expect-error 'agent' is not an input column
    expect(() => x.processElement({ user: "Ann", page: "a", agent: "x" })).toThrow("column 'agent' is not in the input columns");
    // @ts-expect-error the key of PARTITION BY user is a string
    expect(() => x.state(1)).toThrow("key column 'user'");
  });
});

/** A reminder per key, 10 ms after its latest row (event time). */
const Reminder = ProcessTableFunction.define({
  name: "Reminder",
  args: { input: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE) },
  state: { rows: valueState({ n: 0 }) },
  output: DataTypes.STRING(),
  eval(ctx, { rows }) {
    rows.n++;
    const time = ctx.timeContext("millis");
    time.registerOnTime("remind", time.time()! + 10);
  },
  onTimer(ctx, { rows }) {
    ctx.collect(`${ctx.currentTimer()} after ${rows.n} rows`);
  },
});
const TimedClick = Schema.newBuilder().column("user", DataTypes.STRING()).column("ts", DataTypes.TIMESTAMP_LTZ(3)).watermark("ts", "ts").build();

describe("event time: on_time, watermarks from the test, timers", () => {
  it("timers fire when the test's watermark passes them; output has the rowtime column", () => {
    const h = PtfTestHarness.of(Reminder, { input: TimedClick, partitionBy: ["user"], onTime: "ts" });
    h.processElements([Row.of("a", new Date(0)), Row.of("a", new Date(5)), Row.of("b", new Date(8))]);
    expect(h.output()).toEqual([]);
    expect(h.currentWatermark()).toBe(-Infinity);
    h.processWatermark(14);
    expect(h.output()).toEqual([]);
    h.processWatermark(new Date(15));
    expect(h.currentWatermark()).toBe(15);
    const out = h.drain();
    expect(out).toEqual([{ user: "a", EXPR$0: "remind after 2 rows", rowtime: new Date(15) }]);
    expectTypeOf(out[0]!.rowtime).toEqualTypeOf<Date>();
    h.processWatermark(10); // behind the current watermark: nothing happens
    h.endInput(); // +∞ fires the rest
    expect(h.changelog()).toEqual(["+I[b, remind after 1 rows, 1970-01-01T00:00:00.018Z]"]);
    expect(() => h.processElement(Row.of("a", new Date(30)))).toThrow("PtfTestHarness.processElement(): the input has ended (endInput() was called)");
  });

  it("timers are part of a snapshot; watermarks are not (as in Flink)", () => {
    const h = PtfTestHarness.of(Reminder, { input: TimedClick, partitionBy: ["user"], onTime: "ts" });
    h.processElements([Row.of("a", new Date(0)), Row.of("b", new Date(8))]);
    h.processWatermark(12);
    const snapshot = h.snapshot();
    const restored = PtfTestHarness.of(Reminder, { input: TimedClick, partitionBy: ["user"], onTime: "ts" });
    restored.restore(snapshot);
    expect(restored.currentWatermark()).toBe(-Infinity);
    for (const x of [h, restored]) {
      x.processElement(Row.of("b", new Date(13))); // moves b's reminder to 23
      x.processWatermark(30);
    }
    expect(h.changelog()).toEqual(["+I[a, remind after 1 rows, 1970-01-01T00:00:00.010Z]", "+I[b, remind after 2 rows, 1970-01-01T00:00:00.023Z]"]);
    expect(restored.changelog()).toEqual(["+I[b, remind after 2 rows, 1970-01-01T00:00:00.023Z]"]);
  });

  it("the on_time column must be a time attribute of the input", () => {
    const plain = DataTypes.ROW(DataTypes.FIELD("user", DataTypes.STRING()), DataTypes.FIELD("ts", DataTypes.TIMESTAMP_LTZ(3)));
    expect(() => PtfTestHarness.of(Reminder, { input: plain, partitionBy: ["user"], onTime: "ts" })).toThrow(
      "Invalid time attribute declaration. Column 'ts' in table argument 'input' of function 'Reminder' is not a time attribute",
    );
    // @ts-expect-error 'time' is not a column of the input
    expect(() => PtfTestHarness.of(Reminder, { input: TimedClick, partitionBy: ["user"], onTime: "time" })).toThrow(
      "Invalid time attribute declaration. Each column in the `on_time` argument must reference at least one column in one of the table arguments. Unknown references: [time]",
    );
  });
});

/** Collects the rows of a key in the order eval sees them. */
const InOrder = ProcessTableFunction.define({
  name: "InOrder",
  args: { input: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE) },
  output: DataTypes.ROW(DataTypes.FIELD("seen", DataTypes.BIGINT().notNull())),
  eval(ctx, _state, { input }) {
    ctx.collect({ seen: (input.ts as Date).getTime() });
  },
});
const Delayed = Schema.newBuilder().column("user", DataTypes.STRING()).column("ts", DataTypes.TIMESTAMP_LTZ(3))
  .watermark("ts", "ts - INTERVAL '0.005' SECOND").build();

describe("ORDER BY, watermarks from the schema, output column types", () => {
  it("orderBy: rows wait in the sort buffer for the watermark and reach eval in time order; late rows are dropped", () => {
    const h = PtfTestHarness.of(InOrder, { input: TimedClick, partitionBy: ["user"], orderBy: ["ts"] });
    h.processElements([Row.of("a", new Date(30)), Row.of("a", new Date(10)), Row.of("a", new Date(20))]);
    expect(h.changelog()).toEqual([]);
    h.processWatermark(25);
    expect(h.drain().map((r) => r.seen)).toEqual([10, 20]);
    h.processElement(Row.of("a", new Date(25))); // at the watermark: late
    h.endInput();
    expect(h.changelog()).toEqual(["+I[a, 30]"]);
  });

  it("orderBy takes expressions too, and checks its columns", () => {
    const h = PtfTestHarness.of(InOrder, { input: TimedClick, partitionBy: ["user"], orderBy: [$("ts").asc()] });
    h.processElements([Row.of("a", new Date(3)), Row.of("a", new Date(1))]);
    h.endInput();
    expect(h.changelog()).toEqual(["+I[a, 1]", "+I[a, 3]"]);
    // @ts-expect-error 'time' is not a column of the input
    expect(() => PtfTestHarness.of(InOrder, { input: TimedClick, partitionBy: ["user"], orderBy: ["time"] })).toThrow(/time/);
  });

  it("watermarks: \"schema\" makes the input's watermarks from its declaration after each row", () => {
    const h = PtfTestHarness.of(Reminder, { input: Delayed, partitionBy: ["user"], onTime: "ts", watermarks: "schema" });
    h.processElement(Row.of("a", new Date(0))); // reminder at 10
    expect(h.currentWatermark()).toBe(-5);
    h.processElement(Row.of("b", new Date(16))); // watermark 11: a's reminder fires
    expect(h.currentWatermark()).toBe(11);
    expect(h.changelog()).toEqual(["+I[a, remind after 1 rows, 1970-01-01T00:00:00.010Z]"]);
    const plain = DataTypes.ROW(DataTypes.FIELD("user", DataTypes.STRING()), DataTypes.FIELD("ts", DataTypes.TIMESTAMP_LTZ(3)));
    expect(() => PtfTestHarness.of(InOrder, { input: plain, partitionBy: ["user"], watermarks: "schema" })).toThrow(
      "PtfTestHarness: watermarks: \"schema\" needs an input Schema with a watermark declaration",
    );
  });

  it("getResolvedSchema() gives the output columns and their types; the rows are typed the same", () => {
    const h = PtfTestHarness.of(Reminder, { input: TimedClick, partitionBy: ["user"], onTime: "ts" });
    expect(h.getResolvedSchema().names).toEqual(["user", "EXPR$0", "rowtime"]);
    expect(h.getResolvedSchema().types.map(String)).toEqual(["STRING", "STRING", "TIMESTAMP_LTZ(3) NOT NULL *ROWTIME*"]);
    expectTypeOf(h.output()).toEqualTypeOf<KeyedRow<{ user: string | null; EXPR$0: string | null; rowtime: Date }>[]>();
  });
});
