import { describe, expect, it } from "vitest";
import {
  $, Cumulate, DataTypes, Row, Schema, Session, Slide, TableEnvironment, Tumble, ValidationError, ExecutionError, lit,
} from "../../src/index.js";
import { BACKENDS, BACKEND_NAMES, at, counter, drive, ev, events } from "./support.js";


describe.each(BACKEND_NAMES)("tumbling windows (state.backend.type = %s)", (backend) => {
  const env = TableEnvironment.create();
  for (const [k, v] of Object.entries(BACKENDS[backend])) env.getConfig().set(k, v);

  it("fire when the watermark passes their end, drop and count late rows, and flush at end of input", () => {
    const t = env.fromValues(events,
      ev("a", 1, 0.5), // wm -0.5
      ev("b", 2, 1.2), // wm 0.2
      ev("a", 3, 0.9), // out of order, not late
      ev("a", 4, 2.5), // wm 1.5: [0, 2) is not complete yet
      ev("b", 5, 3.0), // wm 2.0 >= 2 - 1 ms: [0, 2) fires
      ev("a", 6, 1.5), // late: [0, 2) has fired
      ev("a", 7, 5.0), // wm 4.0: [2, 4) fires
    );
    const w = t.window(Tumble.over(lit(2).seconds()).on($("ts")).as("w"))
      .groupBy($("k"), $("w"))
      .select($("k"), $("w").start().as("s"), $("w").end().as("e"), $("v").count().as("n"), $("v").sum().as("total"));
    const { steps, operators } = drive(w, backend);
    expect(steps).toEqual([
      [], [], [], [],
      ["+I[a, 1970-01-01T00:00, 1970-01-01T00:00:02, 2, 4]", "+I[b, 1970-01-01T00:00, 1970-01-01T00:00:02, 1, 2]"],
      [],
      // the last row's step ends with end of input: the +∞ watermark fires the last window
      ["+I[a, 1970-01-01T00:00:02, 1970-01-01T00:00:04, 1, 4]", "+I[b, 1970-01-01T00:00:02, 1970-01-01T00:00:04, 1, 5]",
        "+I[a, 1970-01-01T00:00:04, 1970-01-01T00:00:06, 1, 7]"],
    ]);
    expect(counter(operators, "numLateRecordsDropped")).toBe(1);
  });

  it("fires exactly when the watermark reaches end - 1 ms, not before", () => {
    const t = env.fromValues(events, ev("a", 1, 0), ev("a", 2, 2.998), ev("a", 3, 2.999), ev("a", 4, 3.0));
    const { steps } = drive(t.window(Tumble.over(lit(2).seconds()).on($("ts")).as("w"))
      .groupBy($("w")).select($("v").sum().as("total"), $("w").end().as("e")), backend);
    // watermarks: -1, 1.998, 1.999 (= end of [0, 2) - 1 ms: fires), 2.0
    expect(steps).toEqual([[], [], ["+I[1, 1970-01-01T00:00:02]"], ["+I[9, 1970-01-01T00:00:04]"]]);
  });

  it("gives typed rows: start and end are Dates, the rowtime is end - 1 ms", async () => {
    const t = env.fromValues(events, ev("a", 1, 10.25), ev("a", 2, 11));
    const rows = await t.window(Tumble.over(lit(5).seconds()).on($("ts")).as("w"))
      .groupBy($("w"), $("k"))
      .select($("k"), $("w").start().as("s"), $("w").end().as("e"), $("w").rowtime().as("rt"), $("v").max().as("top"))
      .execute().toArray();
    expect(rows).toEqual([{ k: "a", s: at(10), e: at(15), rt: new Date(14999), top: 2 }]);
  });

  it("windows of windows: $(\"w\").rowtime() stays an event-time attribute", async () => {
    const t = env.fromValues(events, ev("a", 1, 0), ev("b", 1, 1), ev("a", 1, 2.5), ev("a", 1, 4.1), ev("b", 1, 6), ev("a", 1, 9));
    const perSecond = t.window(Tumble.over(lit(1).seconds()).on($("ts")).as("w"))
      .groupBy($("k"), $("w"))
      .select($("k"), $("w").rowtime().as("rt"), $("v").count().as("n"));
    expect(perSecond.getResolvedSchema().column("rt").type.toString()).toBe("TIMESTAMP_LTZ(3) NOT NULL *ROWTIME*");
    const perFive = perSecond.window(Tumble.over(lit(5).seconds()).on($("rt")).as("w5"))
      .groupBy($("w5"))
      .select($("w5").start().as("s"), $("n").sum().as("rows"), $("k").count().as("groups"));
    expect(await perFive.execute().toChangelog()).toEqual([
      "+I[1970-01-01T00:00, 4, 4]",
      "+I[1970-01-01T00:00:05, 2, 2]",
    ]);
  });

  it("groups by several keys, with null keys as a group of their own", async () => {
    const t = env.fromValues(events, ev(null, 1, 0), ev("a", 2, 0.5), ev(null, 3, 0.7));
    const rows = await t.addColumns($("v").mod(2).as("odd"))
      .window(Tumble.over(lit(1).seconds()).on($("ts")).as("w"))
      .groupBy($("k"), $("odd"), $("w"))
      .select($("k"), $("odd"), $("v").sum().as("total"))
      .execute().toChangelog();
    expect(rows).toEqual(["+I[null, 1, 4]", "+I[a, 0, 2]"]);
  });
});

describe.each(BACKEND_NAMES)("sliding windows (state.backend.type = %s)", (backend) => {
  const env = TableEnvironment.create();
  for (const [k, v] of Object.entries(BACKENDS[backend])) env.getConfig().set(k, v);

  it("assign a row to every window containing it; a late row still counts in the windows not yet fired", () => {
    const t = env.fromValues(events,
      ev("a", 1, 1), // size 4 s, slide 2 s: windows [-2, 2) and [0, 4)
      ev("a", 2, 4.5), // wm 3.5: [-2, 2) fires ([0, 4) needs 3.999)
      ev("a", 4, 1.5), // [-2, 2) fired, [0, 4) open: counts only there
      ev("a", 8, 6), // wm 5: [0, 4) fires
      ev("a", 16, 0.5), // [-2, 2) and [0, 4) both fired: dropped
    );
    const { steps, operators } = drive(t.window(Slide.over(lit(4).seconds()).every(lit(2).seconds()).on($("ts")).as("w"))
      .groupBy($("w"), $("k"))
      .select($("k"), $("w").start().as("s"), $("v").sum().as("total")), backend);
    expect(steps).toEqual([
      [],
      ["+I[a, 1969-12-31T23:59:58, 1]"],
      [],
      ["+I[a, 1970-01-01T00:00, 5]"], // 1 (at 1 s) + 4 (the late row at 1.5 s)
      // the dropped row, then end of input: [2, 6) has 4.5 s; [4, 8) has 4.5 s and 6 s; [6, 10) has 6 s
      ["+I[a, 1970-01-01T00:00:02, 2]", "+I[a, 1970-01-01T00:00:04, 10]", "+I[a, 1970-01-01T00:00:06, 8]"],
    ]);
    expect(counter(operators, "numLateRecordsDropped")).toBe(1);
  });

  it("handles a size that is not a multiple of the slide", async () => {
    // size 3 s, slide 2 s: windows [-2, 1), [0, 3), [2, 5), [4, 7) ...
    const t = env.fromValues(events, ev("a", 1, 0.5), ev("a", 2, 2.5), ev("a", 4, 4.5));
    expect(await t.window(Slide.over(lit(3).seconds()).every(lit(2).seconds()).on($("ts")).as("w"))
      .groupBy($("w")).select($("w").start().as("s"), $("w").end().as("e"), $("v").sum().as("total"))
      .execute().toChangelog()).toEqual([
      "+I[1969-12-31T23:59:58, 1970-01-01T00:00:01, 1]",
      "+I[1970-01-01T00:00, 1970-01-01T00:00:03, 3]",
      "+I[1970-01-01T00:00:02, 1970-01-01T00:00:05, 6]",
      "+I[1970-01-01T00:00:04, 1970-01-01T00:00:07, 4]",
    ]);
  });
});

describe.each(BACKEND_NAMES)("session windows (state.backend.type = %s)", (backend) => {
  const env = TableEnvironment.create();
  for (const [k, v] of Object.entries(BACKENDS[backend])) env.getConfig().set(k, v);

  it("merge out-of-order rows into sessions, drop late rows, and flush at end of input", () => {
    const t = env.fromValues(events,
      ev("a", 1, 0), // a: [0, 2)
      ev("a", 2, 5), // a: [5, 7); wm 4: a [0, 2) fires
      ev("b", 3, 5.5), // b: [5.5, 7.5)
      ev("a", 4, 7.5), // a: [5, 7) and [7.5, 9.5) do not touch; wm 6.5
      ev("a", 5, 6.8), // out of order: [6.8, 8.8) bridges them -> a: [5, 9.5)
      ev("a", 6, 0.5), // late: [0.5, 2.5) reaches no open session and ended before wm 6.5
      ev("b", 7, 9), // b: [5.5, 7.5) and [9, 11); wm 8: b [5.5, 7.5) fires
      ev("b", 8, 14), // wm 13: a [5, 9.5) and b [9, 11) fire, a first (earlier end); end of input: b [14, 16)
    );
    const { steps, operators } = drive(t.window(Session.withGap(lit(2).seconds()).on($("ts")).as("w"))
      .groupBy($("k"), $("w"))
      .select($("k"), $("w").start().as("s"), $("w").end().as("e"), $("v").sum().as("total"), $("v").count().as("n")), backend);
    expect(steps).toEqual([
      [],
      ["+I[a, 1970-01-01T00:00, 1970-01-01T00:00:02, 1, 1]"],
      [], [], [], [],
      ["+I[b, 1970-01-01T00:00:05.500, 1970-01-01T00:00:07.500, 3, 1]"],
      ["+I[a, 1970-01-01T00:00:05, 1970-01-01T00:00:09.500, 11, 3]", "+I[b, 1970-01-01T00:00:09, 1970-01-01T00:00:11, 7, 1]",
        "+I[b, 1970-01-01T00:00:14, 1970-01-01T00:00:16, 8, 1]"],
    ]);
    expect(counter(operators, "numLateRecordsDropped")).toBe(1);
  });

  it("accepts a row behind the watermark when it reaches an open session (touching counts, as in Flink)", async () => {
    const t = env.fromValues(events,
      ev("a", 1, 5), // [5, 7)
      ev("a", 2, 6.5), // [5, 8.5); wm 5.5
      ev("a", 4, 3), // [3, 5) is behind the watermark but touches [5, 8.5): merged
    );
    expect(await t.window(Session.withGap(lit(2).seconds()).on($("ts")).as("w"))
      .groupBy($("k"), $("w")).select($("k"), $("w").start().as("s"), $("w").end().as("e"), $("v").sum().as("total"))
      .execute().toChangelog()).toEqual(["+I[a, 1970-01-01T00:00:03, 1970-01-01T00:00:08.500, 7]"]);
  });
});

describe.each(BACKEND_NAMES)("cumulating windows (state.backend.type = %s)", (backend) => {
  const env = TableEnvironment.create();
  for (const [k, v] of Object.entries(BACKENDS[backend])) env.getConfig().set(k, v);

  it("emit growing windows of a cycle as each step completes", () => {
    const t = env.fromValues(events,
      ev("a", 1, 0.5), // cycle [0, 3): [0, 1), [0, 2), [0, 3)
      ev("a", 2, 1.5), // [0, 2), [0, 3); wm 0.5
      ev("a", 4, 3.2), // next cycle [3, 6); wm 2.2: [0, 1) and [0, 2) fire
      ev("a", 8, 1.8), // late for [0, 2), counts in [0, 3)
      ev("a", 16, 4.5), // wm 3.5: [0, 3) fires
    );
    const { steps, operators } = drive(t.window(Cumulate.over(lit(3).seconds()).step(lit(1).seconds()).on($("ts")).as("w"))
      .groupBy($("w")).select($("w").start().as("s"), $("w").end().as("e"), $("v").sum().as("total")), backend);
    expect(steps).toEqual([
      [], [],
      ["+I[1970-01-01T00:00, 1970-01-01T00:00:01, 1]", "+I[1970-01-01T00:00, 1970-01-01T00:00:02, 3]"],
      [],
      // wm 3.5 fires [0, 3); end of input fires the next cycle's windows
      ["+I[1970-01-01T00:00, 1970-01-01T00:00:03, 11]", "+I[1970-01-01T00:00:03, 1970-01-01T00:00:04, 4]",
        "+I[1970-01-01T00:00:03, 1970-01-01T00:00:05, 20]", "+I[1970-01-01T00:00:03, 1970-01-01T00:00:06, 20]"],
    ]);
    expect(counter(operators, "numLateRecordsDropped")).toBe(0);
  });
});

describe("window planning errors", () => {
  const env = TableEnvironment.create();
  const t = env.fromValues(events, ev("a", 1, 0));

  it("needs an event-time attribute", () => {
    const plain = env.fromValues(DataTypes.ROW(DataTypes.FIELD("ts", DataTypes.TIMESTAMP(3)), DataTypes.FIELD("v", DataTypes.INT())),
      Row.of(at(0), 1));
    expect(() => plain.window(Tumble.over(lit(1).seconds()).on($("ts")).as("w")).groupBy($("w")).select($("v").sum()))
      .toThrow(new ValidationError(`window 'w' (Tumble): column 'ts' is not an event-time attribute (it has type TIMESTAMP(3)); declare a watermark for it (Schema.newBuilder()...watermark("ts", ...)), and note that it stops being one once an expression changes it`));
  });

  it("needs the window alias in groupBy, and only its properties in select", () => {
    const w = t.window(Tumble.over(lit(1).seconds()).on($("ts")).as("w"));
    // @ts-expect-error the window alias is missing from groupBy
    expect(() => w.groupBy($("k")).select($("k"))).toThrow(
      new ValidationError(`window 'w': groupBy must contain the window alias exactly once, e.g. groupBy($("w"), ...), got [k]`));
    // @ts-expect-error the alias itself is not a value
    expect(() => w.groupBy($("w")).select($("w"))).toThrow(
      new ValidationError(`select: the window alias 'w' can only be used as $("w").start(), $("w").end() or $("w").rowtime()`));
    // @ts-expect-error v is neither a key nor aggregated
    expect(() => w.groupBy($("w")).select($("v"))).toThrow(
      new ValidationError(`select: column 'v' is neither a grouping key nor inside an aggregate (grouping keys: [w])`));
  });

  it("rejects updating input, bad sizes and an alias that is a column", () => {
    const counts = t.groupBy($("k")).select($("k"), $("ts").max().as("ts"));
    expect(() => counts.window(Tumble.over(lit(1).seconds()).on($("ts")).as("w")).groupBy($("w")).select($("k").count()))
      .toThrow(ValidationError);
    expect(() => t.window(Cumulate.over(lit(10).seconds()).step(lit(3).seconds()).on($("ts")).as("w")).groupBy($("w")).select($("v").sum()))
      .toThrow(new ValidationError("window 'w' (Cumulate): the maximum size must be a whole multiple of the step, got 10000 ms and step 3000 ms"));
    expect(() => t.window(Tumble.over(lit(0).seconds()).on($("ts")).as("w")).groupBy($("w")).select($("v").sum()))
      .toThrow(new ValidationError("window 'w' (Tumble): the size must be positive, got 0 ms"));
    // @ts-expect-error the alias is a column already
    expect(() => t.window(Tumble.over(lit(1).seconds()).on($("ts")).as("v")).groupBy($("v")).select($("k").count()))
      .toThrow(new ValidationError("window 'v' (Tumble): the window alias 'v' is already a column of [k, v, ts]"));
  });

  it("fails the job on a null event time, as Flink does", async () => {
    const withNull = env.fromValues(events, ev("a", 1, 0), Row.of("a", 2, null));
    await expect(withNull.window(Tumble.over(lit(1).seconds()).on($("ts")).as("w")).groupBy($("w")).select($("v").sum())
      .execute().toArray()).rejects.toThrow(new ExecutionError(
      "RowTime field should not be null, please convert it to a non-null long value (window 'w' on column 'ts')"));
  });
});

describe("explain", () => {
  it("shows window and over aggregates with their windows and changelog modes", () => {
    const env = TableEnvironment.create();
    const t = env.fromValues(events, ev("a", 1, 0));
    expect(t.window(Slide.over(lit(10).seconds()).every(lit(5).seconds()).on($("ts")).as("w")).groupBy($("k"), $("w"))
      .select($("k"), $("w").end().as("e"), $("v").sum().as("total")).explain()).toBe([
      "== Logical Plan ==",
      "Project(select=[k, w$end AS e, EXPR$0 AS total], changelogMode=[I]) -> [k: STRING, e: TIMESTAMP(3) NOT NULL, total: INT]",
      "+- WindowAggregate(groupBy=[k], window=[SlidingGroupWindow('w, ts, 10000ms, 5000ms)], select=[k, SUM(v) AS EXPR$0, end('w) AS w$end], changelogMode=[I]) -> [k: STRING, EXPR$0: INT, w$end: TIMESTAMP(3) NOT NULL]",
      "   +- Values(rows=1, watermark=[ts - 1000ms], changelogMode=[I]) -> [k: STRING, v: INT, ts: TIMESTAMP_LTZ(3) *ROWTIME*]",
    ].join("\n"));
  });
});
