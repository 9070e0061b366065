import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { AggregateOptions } from "../../src/exec/aggregates/aggregate-layout.js";
import { GroupAggregateOperator } from "../../src/exec/operators/group-aggregate.js";
import { $, DataTypes, Decimal, EnvironmentSettings, Row, TableEnvironment, lit } from "../../src/index.js";
import type { AggregateNode } from "../../src/plan/nodes.js";

/**
 * The group aggregate's generated code inlines the built-in accumulators as typed-array updates; with
 * `inlineAccumulators: false` every call goes through its accumulator object (builtin.ts), the reference.
 * Both must give exactly the same changelog — kinds, values, order — on random input, for every key type
 * (each picks another key index) and every aggregate, in streaming and batch mode, with and without
 * retractions, and their snapshots must be interchangeable.
 */

const INPUT = DataTypes.ROW(
  DataTypes.FIELD("k", DataTypes.STRING()), DataTypes.FIELD("i", DataTypes.INT()), DataTypes.FIELD("b", DataTypes.BIGINT().notNull()),
  DataTypes.FIELD("d", DataTypes.DOUBLE()), DataTypes.FIELD("ts", DataTypes.TIMESTAMP(3)), DataTypes.FIELD("m", DataTypes.DECIMAL(10, 2)),
);
const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
const t = env.fromValues(INPUT, Row.of("a", 1, 2, 1.5, "2024-01-01 00:00:00", "1.50"));

/** Every built-in aggregate, over nullable and NOT NULL, integer, floating and decimal arguments. */
const aggs = () => [
  lit(1).count().as("n"), $("i").count().as("ci"), $("b").count().as("cb"), $("i").sum().as("si"), $("b").sum().as("sb"),
  $("d").sum0().as("s0"), $("i").avg().as("ai"), $("d").avg().as("ad"), $("b").avg().as("ab"), $("d").min().as("mnd"),
  $("i").max().as("mxi"), $("b").min().as("mnb"), $("i").countDistinct().as("cdi"), $("d").sum().distinct().as("sdd"),
  $("m").sum().as("sm"), $("m").max().as("mxm"), $("k").min().as("mnk"),
] as const;

const plans = {
  "INT key (NumericIndex)": t.groupBy($("i")).select($("i"), ...aggs()),
  "DOUBLE key with NaN, -0 and NULL (NumericIndex)": t.groupBy($("d")).select($("d"), ...aggs()),
  "timestamp key (NumericIndex over millis)": t.groupBy($("ts")).select($("ts"), ...aggs()),
  "string key (MapIndex by value)": t.groupBy($("k")).select($("k"), ...aggs()),
  "decimal key (MapIndex by canonical string)": t.groupBy($("m")).select($("m"), ...aggs()),
  "composite key": t.groupBy($("k"), $("i")).select($("k"), $("i"), ...aggs()),
  "computed key": t.groupBy($("b").plus(1)).select($("b").plus(1).as("b1"), $("d").max().as("mx"), $("b").sum().as("s")),
  "global": t.select(...aggs()),
  // no COUNT(*), AVG or accumulator object: over an insert-only input the row count is only a presence flag
  "SUM, MIN, MAX and COUNT(x) only": t.groupBy($("i")).select($("i"), $("b").sum().as("sb"), $("d").sum0().as("s0"), $("i").min().as("mn"),
    $("d").max().as("mx"), $("d").count().as("cd"), $("i").sum().as("si")),
  "SUM and MAX only, global": t.select($("b").sum().as("s"), $("d").max().as("mx")),
  "no aggregates": t.groupBy($("k"), $("d")).select($("k"), $("d")),
};

const aggregateOf = (q: { node: unknown }): AggregateNode => {
  let n = q.node as { kind: string; input?: unknown };
  while (n.kind !== "Aggregate") n = n.input as typeof n;
  return n as unknown as AggregateNode;
};

const value = fc.tuple(
  fc.constantFrom("a", "b", null), fc.option(fc.integer({ min: -3, max: 3 }), { freq: 4 }), fc.integer({ min: 0, max: 5 }),
  fc.constantFrom(0, -0, 1.5, -2, NaN, null), fc.constantFrom(0, 1000, null), fc.constantFrom("1.50", "1.5", "-2.00", null),
);
type Value = typeof value extends fc.Arbitrary<infer V> ? V : never;
const toRow = ([k, i, b, d, ts, m]: Value): unknown[] => [k, i, b, d, ts === null ? null : new Date(ts), m === null ? null : new Decimal(m)];

/** A valid changelog: inserts (+I or +U), and retractions (-U or -D) of rows that are present. */
const changelog = (retractions: boolean) => fc.array(fc.tuple(fc.nat(3), value, fc.nat()), { maxLength: 60 }).map((cmds) => {
  const present: unknown[][] = [];
  const out: [number, unknown[]][] = [];
  for (const [kind, v, pick] of cmds) {
    const retract = retractions && (kind === 1 || kind === 3) && present.length > 0;
    if (retract) out.push([kind, present.splice(pick % present.length, 1)[0]!]);
    else {
      const row = toRow(v);
      present.push(row);
      out.push([retractions ? (kind === 2 ? 2 : 0) : 0, row]);
    }
  }
  return out;
});

/** A value as text that keeps what equality would lose: -0, NaN, decimal scale, a Date's millis. */
function show(v: unknown): string {
  if (typeof v === "number") return Object.is(v, -0) ? "-0" : String(v);
  if (v instanceof Date) return `@${v.getTime()}`;
  if (Decimal.isDecimal(v)) return `d${(v as Decimal).toFixed()}`;
  return JSON.stringify(v);
}

function operator(node: AggregateNode, batch: boolean, retractable: boolean, options: AggregateOptions, out: string[]): GroupAggregateOperator {
  const op = new GroupAggregateOperator(node, batch, retractable, undefined, options);
  op.out = { record: (k, r) => out.push(`${k}[${r.map(show).join(",")}]`), watermark: () => {}, endInput: () => out.push("end") };
  op.open();
  return op;
}

function run(node: AggregateNode, records: readonly [number, unknown[]][], batch: boolean, retractable: boolean, options: AggregateOptions): string[] {
  const out: string[] = [];
  const op = operator(node, batch, retractable, options, out);
  for (const [k, r] of records) op.processElement(0, k, r);
  op.endInput(0);
  return out;
}

const INLINE: AggregateOptions = {};
const OBJECTS: AggregateOptions = { inlineAccumulators: false };

describe("group aggregate: generated inline accumulators = accumulator objects", () => {
  for (const [name, q] of Object.entries(plans)) {
    const node = aggregateOf(q);
    for (const [mode, batch, retractable] of [["streaming, retracting input", false, true], ["streaming, insert-only input", false, false],
      ["batch, retracting input", true, true], ["batch, insert-only input", true, false]] as const) {
      it(`${name}, ${mode}`, () => {
        fc.assert(fc.property(changelog(retractable), (records) => {
          const inline = run(node, records, batch, retractable, INLINE);
          expect(inline).toEqual(run(node, records, batch, retractable, OBJECTS));
          expect(inline.at(-1)).toBe("end");
        }), { numRuns: 60 });
      });
    }
  }

  it("emits the rows Flink's GroupAggFunction does (inline path, exact changelog)", () => {
    const node = aggregateOf(t.groupBy($("i")).select($("i"), lit(1).count().as("n"), $("d").sum().as("s"), $("d").max().as("mx")));
    const row = (i: number, d: number | null) => [null, i, 0, d, null, null];
    const out = run(node, [[0, row(1, 2)], [0, row(1, null)], [0, row(2, 5)], [1, row(1, 2)], [2, row(1, 7)], [3, row(1, null)], [3, row(1, 7)]],
      false, true, INLINE);
    expect(out).toEqual([
      "0[1,1,2,2]", "1[1,1,2,2]", "2[1,2,2,2]", "0[2,1,5,5]",
      "1[1,2,2,2]", "2[1,1,null,null]", // the -U of the only value: SUM and MAX are NULL again
      "1[1,1,null,null]", "2[1,2,7,7]",
      "1[1,2,7,7]", "2[1,1,7,7]", "3[1,1,7,7]", // the last row retracted: -D with the last result
      "end",
    ]);
  });

  it("fails an integer SUM that leaves its type, naming the type (inline path)", () => {
    const node = aggregateOf(t.select($("i").sum().as("s")));
    expect(() => run(node, [[0, [null, 2147483647, 0, null, null, null]], [0, [null, 1, 0, null, null, null]]], false, false, INLINE))
      .toThrow("SUM overflow: 2147483648 does not fit INT");
    const big = aggregateOf(t.select($("b").sum().as("s")));
    expect(() => run(big, [[0, [null, 0, Number.MAX_SAFE_INTEGER, null, null, null]], [0, [null, 0, 1, null, null, null]]], true, false, INLINE))
      .toThrow("SUM overflow: 9007199254740992 does not fit BIGINT (exactly representable range ±(2^53-1))");
  });

  for (const [name, q] of Object.entries(plans)) it(`snapshots of the two paths are interchangeable: ${name}`, () => {
    const node = aggregateOf(q);
    fc.assert(fc.property(changelog(true), fc.nat(), fc.boolean(), (records, at, inlineFirst) => {
      const cut = at % (records.length + 1);
      const whole = run(node, records, false, true, INLINE);
      const split: string[] = [];
      const a = operator(node, false, true, inlineFirst ? INLINE : OBJECTS, split);
      for (const [k, r] of records.slice(0, cut)) a.processElement(0, k, r);
      const b = operator(node, false, true, inlineFirst ? OBJECTS : INLINE, split);
      b.restoreState(a.snapshotState());
      expect(b.groupCount()).toBe(a.groupCount());
      for (const [k, r] of records.slice(cut)) b.processElement(0, k, r);
      b.endInput(0);
      expect(split).toEqual(whole);
    }), { numRuns: 40 });
  });
});

describe("row count as a presence flag", () => {
  it("is used over an insert-only input when no call needs the number of rows, and gives SQL's results", () => {
    const node = aggregateOf(plans["SUM and MAX only, global"]);
    const op = new GroupAggregateOperator(node, true, false);
    expect((op as unknown as { layout: { presence: boolean } }).layout.presence).toBe(true);
    // a global aggregate over no rows still has its row: SUM and MAX of nothing are NULL
    expect(run(node, [], true, false, INLINE)).toEqual(["0[null,null]", "end"]);
    expect(run(node, [[0, [null, 0, 4, null, null, null]], [0, [null, 0, 5, 2.5, null, null]]], true, false, INLINE))
      .toEqual(["0[9,2.5]", "end"]);
  });

  it("is not used when the input retracts or a call needs the count", () => {
    const presence = (q: { node: unknown }, retractable: boolean) =>
      (new GroupAggregateOperator(aggregateOf(q), false, retractable) as unknown as { layout: { presence: boolean } }).layout.presence;
    expect(presence(plans["SUM and MAX only, global"], true)).toBe(false);
    expect(presence(t.select($("b").avg().as("a")), false)).toBe(false);
    expect(presence(t.select(lit(1).count().as("n"), $("b").sum().as("s")), false)).toBe(false);
    expect(presence(t.select($("m").sum().as("s")), false)).toBe(false);
  });
});

describe("COUNT read as a small integer", () => {
  // the inline COUNT reads its Float64 column as an int32 when the count fits one (aggregate-layout.ts
  // smallCount); past int32 the value must still be the exact count
  it("emits counts past int32 exactly, across the int32 boundary, after a restore", () => {
    const node = aggregateOf(t.groupBy($("k")).select($("k"), lit(1).count().as("n"), $("i").count().as("ci")));
    const row = (i: number | null) => ["a", i, 0, null, null, null];
    for (const [start, next] of [[2147483646, 2147483647], [2147483647, 2147483648], [2147483648, 2147483649], [4294967296, 4294967297]]) {
      const a = operator(node, false, true, INLINE, []);
      a.processElement(0, 0, row(1));
      const snap = a.snapshotState() as { rows: number; accs: unknown[] }[];
      snap[0]!.rows = start!;
      snap[0]!.accs[1] = start;
      const out: string[] = [];
      const b = operator(node, false, true, INLINE, out);
      b.restoreState(snap);
      b.processElement(0, 0, row(2));
      b.processElement(0, 0, row(null)); // COUNT(i) unchanged, COUNT(*) one more
      b.processElement(0, 1, row(null));
      expect(out).toEqual([
        `1["a",${start},${start}]`, `2["a",${next},${next}]`,
        `1["a",${next},${next}]`, `2["a",${next! + 1},${next}]`,
        `1["a",${next! + 1},${next}]`, `2["a",${next},${next}]`,
      ]);
    }
  });
});
