// State matched by uid across query changes: a PTF keeps its state under its uid however the query around
// it changes; an operator without uid keeps it while it and everything upstream are unchanged; state that
// no operator claims, or a state entry whose type changed, fails the restore naming the uid and the entry.
import { Decimal } from "decimal.js";
import { describe, expect, it } from "vitest";
import { $, ArgumentTrait, DataTypes, ProcessTableFunction, Schema, Tumble, listView, lit, mapView, tableArg, valueState } from "../../src/index.js";
import type { Table, TableEnvironment } from "../../src/index.js";
import { type AnyTable, type ProgramSource, twoPhase } from "./two-phase.js";

const T = Schema.newBuilder().column("name", DataTypes.STRING()).column("score", DataTypes.INT()).build();
type Scores = Table<{ name: string | null; score: number | null }>;
const scores = (tables: Record<string, AnyTable>) => tables.t as unknown as Scores;
const SCORES: ProgramSource = { name: "t", schema: T, before: [["Bob", 12], ["Alice", 42], ["Bob", 3]], after: [["Bob", 99], ["Alice", 400]] };

/** Value state of a class whose fields hold a DECIMAL, a BIGINT, a Date and a Map. */
class Totals {
  total: Decimal | null = null;
  rows: bigint | null = null;
  last: Date | null = null;
  scores: Map<string, number> | null = null;
}

const render = (t: Totals, n: number | null) =>
  `total=${t.total!.toFixed(2)} rows=${t.rows} last=${t.last!.toISOString().slice(17, 23)} scores=${[...t.scores!.values()].join("/")} seen=${n}`;

function tally(seen: "map" | "list") {
  return ProcessTableFunction.define({
    name: "Tally",
    args: { r: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE) },
    state: seen === "map"
      ? { totals: valueState(Totals), seen: mapView(DataTypes.STRING(), DataTypes.INT()) }
      : { totals: valueState(Totals), seen: listView(DataTypes.STRING()) },
    output: DataTypes.ROW(DataTypes.FIELD("out", DataTypes.STRING())),
    eval(ctx, state, { r }) {
      const row = r as unknown as { name: string; score: number };
      const t = state.totals as Totals;
      t.total = (t.total ?? new Decimal(0)).plus(new Decimal(row.score).div(4));
      t.rows = (t.rows ?? 0n) + 1n;
      t.last = new Date(Number(t.rows) * 1000 + row.score);
      t.scores = new Map([...(t.scores ?? []), [`s${t.rows}`, row.score]]);
      const seen = state.seen as { get(k: string): number | null; put(k: string, v: number): void };
      seen.put(row.name, (seen.get(row.name) ?? 0) + 1);
      ctx.collect({ out: render(t, seen.get(row.name)) });
    },
  });
}
const Tally = tally("map");

const ptf = (withUid: boolean, threshold: number, doubled: boolean) => (e: TableEnvironment, tables: Record<string, AnyTable>) => {
  const t = scores(tables);
  const input = (doubled ? t.select($("name"), $("score").times(2).as("score")) : t).filter($("score").isGreater(threshold));
  const keyed = input.partitionBy($("name")).asArgument("r");
  const call = withUid ? e.fromCall(Tally, keyed, lit("tally-v1").asArgument("uid")) : e.fromCall(Tally, keyed);
  return call.select($("out"), $("name"));
};

describe("query evolution", () => {
  it("a PTF keeps its state (DECIMAL, BIGINT, Date, Map, a class, a map view) when the query around it changes", async () => {
    const r = await twoPhase([SCORES], ptf(true, 0, false), {}, { query: ptf(true, -1000, true) });
    expect(r.before).toEqual([
      "+I[total=3.00 rows=1 last=01.012 scores=12 seen=1, Bob]",
      "+I[total=10.50 rows=1 last=01.042 scores=42 seen=1, Alice]",
      "+I[total=3.75 rows=2 last=02.003 scores=12/3 seen=2, Bob]",
    ]);
    // upstream now doubles the scores and filters differently; the state under uid 'tally-v1' continues
    expect(r.after).toEqual([
      "+I[total=53.25 rows=3 last=03.198 scores=12/3/198 seen=3, Bob]",
      "+I[total=210.50 rows=2 last=02.800 scores=42/800 seen=2, Alice]",
    ]);
  });

  it("without a uid argument the function's name is the uid (Flink's rule), so the same holds", async () => {
    const r = await twoPhase([SCORES], ptf(false, 0, false), {}, { query: ptf(false, 5, true) });
    expect(r.after).toEqual([
      "+I[total=53.25 rows=3 last=03.198 scores=12/3/198 seen=3, Bob]",
      "+I[total=210.50 rows=2 last=02.800 scores=42/800 seen=2, Alice]",
    ]);
  });

  it("a state entry whose type changed is an error naming the uid and the entry", async () => {
    const changed = (e: TableEnvironment, tables: Record<string, AnyTable>) =>
      e.fromCall(tally("list"), scores(tables).partitionBy($("name")).asArgument("r"), lit("tally-v1").asArgument("uid")).select($("out"), $("name"));
    await expect(twoPhase([SCORES], ptf(true, 0, false), {}, { query: changed }))
      .rejects.toThrow("incompatible state for uid 'tally-v1' in ");
    await expect(twoPhase([SCORES], ptf(true, 0, false), {}, { query: changed }))
      .rejects.toThrow("state 'seen' was MapView<STRING, INT> in the snapshot and is ListView<STRING> now");
  });

  it("an aggregate keeps its state when only what follows it changes", async () => {
    const sums = (_e: TableEnvironment, tables: Record<string, AnyTable>) => scores(tables).groupBy($("name")).select($("name"), $("score").sum().as("s"));
    const evolved = (e: TableEnvironment, tables: Record<string, AnyTable>) => sums(e, tables).filter($("s").isGreater(100));
    const r = await twoPhase([SCORES], sums, {}, { query: evolved });
    expect(r.before).toEqual(["+I[Bob, 12]", "+I[Alice, 42]", "-U[Bob, 12]", "+U[Bob, 15]"]);
    // the filter after it sees Bob 15 → 114 and Alice 42 → 442 as updates of rows it never passed on
    expect(r.after).toEqual(["+U[Bob, 114]", "+U[Alice, 442]"]);
  });

  it("a window aggregate keeps its state when the select above it changes, from a fused projection to a Calc and back", async () => {
    const E = Schema.newBuilder().column("k", DataTypes.STRING()).column("v", DataTypes.INT()).column("ts", DataTypes.TIMESTAMP_LTZ(3))
      .watermark("ts", "ts").build();
    const EVENTS: ProgramSource = { name: "e", schema: E, before: [["a", 1, 1000], ["a", 2, 2000]], after: [["a", 5, 3000], ["b", 1, 20000]] };
    type Events = Table<{ k: string | null; v: number | null; ts: Date | null }>;
    const windowed = (tables: Record<string, AnyTable>) => (tables.e as unknown as Events)
      .window(Tumble.over(lit(10).seconds()).on($("ts")).as("w")).groupBy($("k"), $("w"));
    // the window node is the same in all three (same keys, aggregates, properties); only the select differs.
    // plain columns: the window operator emits them itself
    const fused = (_e: TableEnvironment, tables: Record<string, AnyTable>) => windowed(tables).select($("k"), $("w").end().as("we"), $("v").sum().as("s"));
    // a computed column: a Calc after the window
    const computed = (_e: TableEnvironment, tables: Record<string, AnyTable>) => windowed(tables).select($("k"), $("w").end().as("we"), $("v").sum().times(10).as("s"));
    const b = await twoPhase([EVENTS], fused, {}, { query: computed });
    expect(b.before).toEqual([]);
    expect(b.after).toEqual(["+I[a, 1970-01-01T00:00:10, 80]", "+I[b, 1970-01-01T00:00:30, 10]"]);
    const c = await twoPhase([EVENTS], computed, {}, { query: fused });
    expect(c.after).toEqual(["+I[a, 1970-01-01T00:00:10, 8]", "+I[b, 1970-01-01T00:00:30, 1]"]);
  });

  it("state nothing claims (the query changed upstream of an aggregate) fails unless ignore-unclaimed-state", async () => {
    const sums = (threshold: number) => (_e: TableEnvironment, tables: Record<string, AnyTable>) =>
      scores(tables).filter($("score").isGreater(threshold)).groupBy($("name")).select($("name"), $("score").sum().as("s"));
    await expect(twoPhase([SCORES], sums(0), {}, { query: sums(5) })).rejects.toThrow(/cannot map the state in .* to this job: no operator of it has uid '[0-9a-f]{16}' \(GroupAggregateOperator\)/);
    await expect(twoPhase([SCORES], sums(0), {}, { query: sums(5) })).rejects.toThrow("Set 'execution.savepoint.ignore-unclaimed-state' = 'true'");
    const r = await twoPhase([SCORES], sums(0), {}, { query: sums(5), config: { "execution.savepoint.ignore-unclaimed-state": "true" } });
    // the aggregate starts empty
    expect(r.after).toEqual(["+I[Bob, 99]", "+I[Alice, 400]"]);
  });
});
