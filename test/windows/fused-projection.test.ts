// A select of plain columns over a TUMBLE / SLIDE / CUMULATE window is emitted by the window operator itself
// (the projection fused into it, exec/core-operators.ts). Its rows must be those of the unfused plan — a select
// that computes, which keeps a Calc after the window — on both state backends, also when a second window
// runs on the first one's rowtime.
import { describe, expect, it } from "vitest";
import { $, Cumulate, DataTypes, Row, Schema, Slide, TableEnvironment, Tumble, lit } from "../../src/index.js";
import { BACKENDS, BACKEND_NAMES } from "./support.js";

const S = Schema.newBuilder().column("k", DataTypes.STRING()).column("v", DataTypes.INT()).column("ts", DataTypes.TIMESTAMP_LTZ(3))
  .watermark("ts", "ts").build();
const ROWS = ([["a", 1, 100], ["b", 2, 1500], ["a", 3, 2500], ["a", 4, 4100], ["b", 5, 5200], ["a", 6, 9000]] as const)
  .map(([k, v, t]) => Row.of(k, v, new Date(t)));

describe.each(BACKEND_NAMES)("fused window projection (state.backend.type = %s)", (backend) => {
  const env = TableEnvironment.create();
  for (const [k, v] of Object.entries(BACKENDS[backend])) env.getConfig().set(k, v);
  const source = () => env.fromValues(S, ...ROWS);

  it("a second window on the first one's rowtime: the same rows fused and unfused", async () => {
    const run = async (fused: boolean) => {
      const inner = source().window(Tumble.over(lit(1).seconds()).on($("ts")).as("w")).groupBy($("k"), $("w"));
      const first = fused ? inner.select($("k"), $("w").rowtime().as("rt"), $("v").sum().as("s"))
        : inner.select($("k"), $("w").rowtime().as("rt"), $("v").sum().plus(0).as("s"));
      return first.window(Tumble.over(lit(5).seconds()).on($("rt")).as("w2")).groupBy($("k"), $("w2"))
        .select($("k"), $("w2").end().as("e"), $("s").sum().as("total"), lit(1).count().as("n")).execute().toChangelog();
    };
    const want = [
      "+I[a, 1970-01-01T00:00:05, 8, 3]", "+I[b, 1970-01-01T00:00:05, 2, 1]", "+I[b, 1970-01-01T00:00:10, 5, 1]", "+I[a, 1970-01-01T00:00:10, 6, 1]",
    ];
    expect(await run(true)).toEqual(want);
    expect(await run(false)).toEqual(want);
  });

  it("SLIDE and CUMULATE with a select that reorders and drops columns", async () => {
    const slide = await source().window(Slide.over(lit(4).seconds()).every(lit(2).seconds()).on($("ts")).as("w")).groupBy($("w"), $("k"))
      .select($("v").sum().as("total"), $("w").end().as("e"), $("k")).execute().toChangelog();
    expect(slide).toEqual([
      "+I[1, 1970-01-01T00:00:02, a]", "+I[2, 1970-01-01T00:00:02, b]",
      "+I[4, 1970-01-01T00:00:04, a]", "+I[2, 1970-01-01T00:00:04, b]",
      "+I[7, 1970-01-01T00:00:06, a]", "+I[5, 1970-01-01T00:00:06, b]",
      "+I[4, 1970-01-01T00:00:08, a]", "+I[5, 1970-01-01T00:00:08, b]",
      "+I[6, 1970-01-01T00:00:10, a]", "+I[6, 1970-01-01T00:00:12, a]",
    ]);
    const cumulate = await source().window(Cumulate.over(lit(4).seconds()).step(lit(2).seconds()).on($("ts")).as("w")).groupBy($("k"), $("w"))
      .select($("w").end().as("e"), $("v").count().as("n")).execute().toChangelog();
    expect(cumulate).toEqual([
      "+I[1970-01-01T00:00:02, 1]", "+I[1970-01-01T00:00:02, 1]",
      "+I[1970-01-01T00:00:04, 2]", "+I[1970-01-01T00:00:04, 1]",
      "+I[1970-01-01T00:00:06, 1]", "+I[1970-01-01T00:00:06, 1]",
      "+I[1970-01-01T00:00:08, 1]", "+I[1970-01-01T00:00:08, 1]",
      "+I[1970-01-01T00:00:10, 1]", "+I[1970-01-01T00:00:12, 1]",
    ]);
  });
});
