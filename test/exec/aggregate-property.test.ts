import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { $, DataTypes, EnvironmentSettings, Row, RowKind, TableEnvironment, coalesce, lit } from "../../src/index.js";
import type { PositionalRow, Table } from "../../src/index.js";

/**
 * Oracle tests: for random insert/retract changelogs, the streaming changelog of a group aggregate,
 * materialized, equals the batch result of the same query and a from-scratch recomputation — after every
 * prefix of the input, not only at the end.
 */

type Input = [string | null, number | null];
const KV = DataTypes.ROW(DataTypes.FIELD("k", DataTypes.STRING()), DataTypes.FIELD("v", DataTypes.INT()));

const command = fc.oneof(
  fc.record({ op: fc.constant("add" as const), k: fc.constantFrom("a", "b", "c", null), v: fc.option(fc.integer({ min: -4, max: 4 }), { freq: 5 }), after: fc.boolean() }),
  fc.record({ op: fc.constant("retract" as const), pick: fc.nat(), before: fc.boolean() }),
);

/** Turns commands into a valid changelog: a retraction always removes a row that is present. */
function changelog(commands: readonly unknown[]): { rows: PositionalRow[]; live: Input[][] } {
  const present: Input[] = [];
  const rows: PositionalRow[] = [];
  const live: Input[][] = [];
  for (const c of commands as ({ op: "add"; k: string | null; v: number | null; after: boolean } | { op: "retract"; pick: number; before: boolean })[]) {
    if (c.op === "add") {
      present.push([c.k, c.v]);
      rows.push(Row.ofKind(c.after ? RowKind.UPDATE_AFTER : RowKind.INSERT, c.k, c.v));
    } else {
      if (present.length === 0) continue;
      const [r] = present.splice(c.pick % present.length, 1);
      rows.push(Row.ofKind(c.before ? RowKind.UPDATE_BEFORE : RowKind.DELETE, r![0], r![1]));
    }
    live.push(present.slice());
  }
  return { rows, live };
}

type T = Table<{ k: string | null; v: number | null }>;

/** Each query with its oracle: the expected result rows computed directly from the rows present. */
const queries: { name: string; grouped: boolean; run: (t: T) => Table<object>; expect: (k: string | null, vs: (number | null)[]) => unknown[] }[] = [
  {
    name: "every built-in aggregate",
    grouped: true,
    run: (t) => t.groupBy($("k")).select(
      $("k"), $("v").count().as("cnt"), lit(1).count().as("n"), $("v").sum().as("s"), $("v").sum0().as("s0"),
      $("v").min().as("mn"), $("v").max().as("mx"), $("v").avg().as("av"), $("v").countDistinct().as("cd")),
    expect: (k, vs) => {
      const nn = vs.filter((v): v is number => v !== null);
      const sum = nn.reduce((a, b) => a + b, 0);
      return [k, nn.length, vs.length, nn.length ? sum : null, sum, nn.length ? Math.min(...nn) : null, nn.length ? Math.max(...nn) : null,
        nn.length ? Math.trunc(sum / nn.length) : null, new Set(nn).size];
    },
  },
  {
    // results that often stay the same: checks that unchanged results are not re-emitted
    name: "max and count distinct",
    grouped: true,
    run: (t) => t.groupBy($("k")).select($("k"), $("v").max().as("mx"), $("v").countDistinct().as("cd")),
    expect: (k, vs) => {
      const nn = vs.filter((v): v is number => v !== null);
      return [k, nn.length ? Math.max(...nn) : null, new Set(nn).size];
    },
  },
  {
    // NOT NULL arguments: the accumulators use the group's row count instead of their own
    name: "NOT NULL argument",
    grouped: true,
    run: (t) => t.select($("k"), coalesce($("v"), 0).as("w")).groupBy($("k"))
      .select($("k"), $("w").min().as("mn"), $("w").max().as("mx"), $("w").sum().as("s"), $("w").avg().as("av"), $("w").count().as("n")),
    expect: (k, vs) => {
      const ws = vs.map((v) => v ?? 0);
      const sum = ws.reduce((a, b) => a + b, 0);
      return [k, Math.min(...ws), Math.max(...ws), sum, Math.trunc(sum / ws.length), ws.length];
    },
  },
  {
    name: "global",
    grouped: false,
    run: (t) => t.select(lit(1).count().as("n"), $("v").sum().as("s"), $("v").min().as("mn"), $("v").countDistinct().as("cd")),
    expect: (_k, vs) => {
      const nn = vs.filter((v): v is number => v !== null);
      return [vs.length, nn.length ? nn.reduce((a, b) => a + b, 0) : null, nn.length ? Math.min(...nn) : null, new Set(nn).size];
    },
  },
];

function recompute(rows: readonly Input[], q: (typeof queries)[number]): string[] {
  const groups = new Map<string | null, (number | null)[]>();
  for (const [k, v] of rows) {
    const key = q.grouped ? k : null;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key)!.push(v);
  }
  return [...groups].map(([k, vs]) => render(q.expect(k, vs))).sort();
}

const render = (values: readonly unknown[]) => `[${values.map((v) => (v === null ? "null" : String(v))).join(", ")}]`;

/**
 * Applies a retract changelog to a table keyed by `keyOf`, checking it is well-formed on the way: +I only
 * for an absent key, -U/-D only with the row that is there, every -U directly followed by the +U of its key.
 */
function materialize(log: readonly string[], keyOf: (row: string) => string): string[] {
  const table = new Map<string, string>();
  for (let i = 0; i < log.length; i++) {
    const kind = log[i]!.slice(0, 2);
    const row = log[i]!.slice(2);
    const key = keyOf(row);
    switch (kind) {
      case "+I":
        expect(table.has(key), `+I for present key at ${i}: ${log.join(" ")}`).toBe(false);
        table.set(key, row);
        break;
      case "-U":
        expect(table.get(key), `-U must retract the current row at ${i}`).toBe(row);
        expect(log[i + 1]?.slice(0, 2), `-U not followed by +U at ${i}`).toBe("+U");
        expect(keyOf(log[i + 1]!.slice(2))).toBe(key);
        expect(log[i + 1]!.slice(2), `-U/+U with an unchanged row at ${i}`).not.toBe(row);
        table.delete(key);
        break;
      case "+U":
        expect(log[i - 1]?.slice(0, 2), `+U without -U at ${i}`).toBe("-U");
        table.set(key, row);
        break;
      case "-D":
        expect(table.get(key), `-D must delete the current row at ${i}`).toBe(row);
        table.delete(key);
        break;
    }
  }
  return [...table.values()].sort();
}

const firstField = (row: string) => row.slice(1, row.indexOf(","));

describe("streaming aggregation = batch = recomputation (fast-check)", () => {
  for (const q of queries) {
    it(`${q.name}: holds after every prefix of random insert/retract changelogs`, async () => {
      await fc.assert(fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 24 }), async (commands) => {
        const { rows, live } = changelog(commands);
        for (let n = 1; n <= rows.length; n++) {
          const prefix = rows.slice(0, n);
          const stream = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
          const log = await q.run(stream.fromValues(KV, ...prefix)).execute().toChangelog();
          const streamed = materialize(log, q.grouped ? firstField : () => "");
          const b = TableEnvironment.create(EnvironmentSettings.inBatchMode());
          const batched = await q.run(b.fromValues(KV, ...prefix)).execute().toChangelog();
          expect(batched.every((r) => r.startsWith("+I"))).toBe(true);
          const expected = recompute(live[n - 1]!, q);
          expect(streamed).toEqual(expected);
          if (q.grouped || live[n - 1]!.length > 0) expect(batched.map((r) => r.slice(2)).sort()).toEqual(expected);
          // over no rows, batch still has SQL's one row of a global aggregate, streaming has deleted it
          else expect(batched).toEqual([`+I${render(q.expect(null, []))}`]);
        }
      }), { numRuns: 40 });
    });
  }
});
