import { describe, expect, it } from "vitest";
import {
  $, CURRENT_ROW, DataTypes, Over, Row, RowKind, TableEnvironment, UNBOUNDED_RANGE, UNBOUNDED_ROW, ValidationError, lit, rowInterval,
} from "../../src/index.js";
import { counter, drive, ev, events } from "./support.js";
import { backendSuite } from "../support/state-backends.js";


backendSuite("OVER aggregation over event time", (backend) => {
  const env = TableEnvironment.create();
  for (const [k, v] of Object.entries(backend.options)) env.getConfig().set(k, v);
  // watermarks after each row: 0, 2, 2, 2, 2, 4, 4, then +∞
  const input = env.fromValues(events,
    ev("a", 1, 1),
    ev("a", 2, 3), // wm 2: releases a@1
    ev("a", 4, 2.5), // out of order, after the watermark: waits
    ev("b", 8, 3),
    ev("a", 16, 3), // a peer of a@3 (same time)
    ev("a", 32, 5), // wm 4: releases 2.5 s and 3 s, in time order
    ev("a", 64, 1.5), // late (1.5 <= wm 4): dropped
  );
  const T = (s: number) => `1970-01-01T00:00:0${s}Z`;

  it("RANGE UNBOUNDED PRECEDING: rows released in time order as the watermark passes, peers share one value", () => {
    const t = input.window(Over.partitionBy($("k")).orderBy($("ts")).preceding(UNBOUNDED_RANGE).as("w"))
      .select($("k"), $("v"), $("ts"), $("v").sum().over($("w")).as("total"), $("v").count().over($("w")).as("n"));
    expect(t.changelogMode()).toBe("[I]");
    const { steps, operators } = drive(t, backend.options);
    expect(steps).toEqual([
      [],
      [`+I[a, 1, ${T(1)}, 1, 1]`],
      [], [], [],
      [`+I[a, 4, 1970-01-01T00:00:02.500Z, 5, 2]`, `+I[a, 2, ${T(3)}, 23, 4]`, `+I[a, 16, ${T(3)}, 23, 4]`, `+I[b, 8, ${T(3)}, 8, 1]`],
      [`+I[a, 32, ${T(5)}, 55, 5]`],
    ]);
    expect(counter(operators, "numLateRecordsDropped")).toBe(1);
  });

  it("ROWS UNBOUNDED PRECEDING: each row's frame ends at the row itself (peers in arrival order)", async () => {
    const rows = await input.window(Over.partitionBy($("k")).orderBy($("ts")).preceding(UNBOUNDED_ROW).as("w"))
      .select($("k"), $("v"), $("v").sum().over($("w")).as("total"))
      .execute().toChangelog();
    expect(rows).toEqual(["+I[a, 1, 1]", "+I[a, 4, 5]", "+I[a, 2, 7]", "+I[a, 16, 23]", "+I[b, 8, 8]", "+I[a, 32, 55]"]);
  });

  it("a bounded RANGE covers [t - interval, t]; MAX and MIN retract what leaves the frame", async () => {
    const rows = await input.window(Over.partitionBy($("k")).orderBy($("ts")).preceding(lit(1).seconds()).as("w"))
      .select($("k"), $("v"), $("v").sum().over($("w")).as("total"), $("v").min().over($("w")).as("low"))
      .execute().toChangelog();
    // a@2.5: [1.5, 2.5] has only itself; a@3: [2, 3] has 2.5 s and both 3 s rows; a@5: [4, 5]
    expect(rows).toEqual(["+I[a, 1, 1, 1]", "+I[a, 4, 4, 4]", "+I[a, 2, 22, 2]", "+I[a, 16, 22, 2]", "+I[b, 8, 8, 8]", "+I[a, 32, 32, 32]"]);
  });

  it("a bounded ROWS frame holds the n preceding rows and the current one", async () => {
    const rows = await input.window(Over.partitionBy($("k")).orderBy($("ts")).preceding(rowInterval(1)).following(CURRENT_ROW).as("w"))
      .select($("k"), $("v"), $("v").sum().over($("w")).as("total"), $("v").max().over($("w")).as("top"))
      .execute().toChangelog();
    expect(rows).toEqual(["+I[a, 1, 1, 1]", "+I[a, 4, 5, 4]", "+I[a, 2, 6, 4]", "+I[a, 16, 18, 16]", "+I[b, 8, 8, 8]", "+I[a, 32, 48, 32]"]);
  });

  it("without partitionBy: one frame over all rows; select may compute over the aggregate", async () => {
    const rows = await input.window(Over.orderBy($("ts")).as("w"))
      .select($("k"), $("v").sum().over($("w")).plus(1000).as("total"))
      .execute().toChangelog();
    expect(rows).toEqual(["+I[a, 1001]", "+I[a, 1005]", "+I[a, 1031]", "+I[b, 1031]", "+I[a, 1031]", "+I[a, 1063]"]);
  });

  it("reports planning errors with the window and column", () => {
    const plain = env.fromValues(DataTypes.ROW(DataTypes.FIELD("ts", DataTypes.TIMESTAMP(3)), DataTypes.FIELD("v", DataTypes.INT())),
      Row.of(new Date(0), 1));
    expect(() => plain.window(Over.orderBy($("ts")).as("w")).select($("v").sum().over($("w"))))
      .toThrow(new ValidationError("over window 'w': orderBy column 'ts' is a TIMESTAMP(3) but not an event-time attribute; declare a watermark for it"));
    const byValue = env.fromValues(DataTypes.ROW(DataTypes.FIELD("v", DataTypes.INT())), Row.of(1));
    expect(() => byValue.window(Over.orderBy($("v")).preceding(rowInterval(2)).as("w")).select($("v").sum().over($("w"))))
      .toThrow(new ValidationError("over window 'w': a bounded frame needs orderBy on an event-time attribute; ordered by 'v', only UNBOUNDED_RANGE or UNBOUNDED_ROW is supported"));
    const w = input.window(Over.partitionBy($("k")).orderBy($("ts")).as("w"));
    // @ts-expect-error an aggregate needs .over($("w")) here
    expect(() => w.select($("v").sum())).toThrow(new ValidationError(`select: aggregate SUM(v) needs an over window here: SUM(v).over($("w"))`));
    expect(() => w.select($("v").sum().over($("x")))).toThrow(
      new ValidationError("select: over(SUM(v), x) refers to an unknown over window; this table's over window is 'w'"));
    expect(() => input.window(Over.orderBy($("ts")).preceding(UNBOUNDED_RANGE).following(CURRENT_ROW).as("w")).select($("v").sum().over($("w"))))
      .toThrow(new ValidationError("over window 'w': Preceding and following must be of same interval type."));
    expect(() => input.window(Over.orderBy($("ts").desc()).as("w")).select($("v").sum().over($("w"))))
      .toThrow(new ValidationError("over window 'w': an over window on the event-time attribute 'ts' must be ordered ascending"));
  });
});

describe("OVER aggregation ordered by a non-time column", () => {
  const env = TableEnvironment.create();

  it("on an updating input: a retraction removes the row, emits it with its kind, and updates the rows after it", async () => {
    const t = env.fromValues(DataTypes.ROW(DataTypes.FIELD("k", DataTypes.STRING()), DataTypes.FIELD("v", DataTypes.INT())),
      Row.of("a", 1), Row.of("b", 2), Row.of("c", 3), Row.ofKind(RowKind.DELETE, "b", 2), Row.ofKind(RowKind.DELETE, "x", 9),
      Row.ofKind(RowKind.UPDATE_BEFORE, "a", 1), Row.ofKind(RowKind.UPDATE_AFTER, "a", 5));
    const r = t.window(Over.orderBy($("v")).as("w")).select($("k"), $("v"), $("v").sum().over($("w")).as("total"));
    expect(r.changelogMode()).toBe("[I,UB,UA,D]");
    expect(await r.execute().toChangelog()).toEqual([
      "+I[a, 1, 1]", "+I[b, 2, 3]", "+I[c, 3, 6]",
      "-D[b, 2, 3]", "-U[c, 3, 6]", "+U[c, 3, 4]",
      // the retraction of a row never seen is ignored
      "-U[a, 1, 1]", "-U[c, 3, 4]", "+U[c, 3, 3]",
      "+U[a, 5, 8]",
    ]);
  });

  it("orders descending, nulls last", async () => {
    const t = env.fromValues(DataTypes.ROW(DataTypes.FIELD("v", DataTypes.INT())), Row.of(1), Row.of(null), Row.of(3));
    expect(await t.window(Over.orderBy($("v").desc()).as("w")).select($("v"), $("v").count().over($("w")).as("n"))
      .execute().toChangelog()).toEqual([
      "+I[1, 1]", "+I[null, 1]", "+I[3, 1]", "-U[1, 1]", "+U[1, 2]", "-U[null, 1]", "+U[null, 2]", // order: 3, 1, null
    ]);
  });
});
