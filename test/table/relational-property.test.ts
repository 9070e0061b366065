// Properties of top-N, deduplication and the set operations: for random inputs with random retractions,
// the materialized streaming changelog equals the batch result and a reference computed from the final
// input; every changelog is well-formed (each -U / -D retracts a row that is present, -U is followed by +U).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { $, DataTypes, EnvironmentSettings, type PositionalRow, Row, RowKind, type Table, TableEnvironment } from "../../src/index.js";

const TYPE = DataTypes.ROW(DataTypes.FIELD("k", DataTypes.STRING()), DataTypes.FIELD("v", DataTypes.INT()), DataTypes.FIELD("id", DataTypes.INT()));
type Values = [string | null, number | null, number];
const render = (r: readonly unknown[]) => `[${r.map((x) => (x === null ? "null" : String(x))).join(", ")}]`;

/** A random changelog over (k, v, id): inserts, and retractions (-D, or -U/+U) of rows that are present. */
const changelog = (withRetractions: boolean) => fc.array(fc.tuple(
  fc.nat(9), fc.constantFrom("a", "b", "c", null), fc.option(fc.integer({ min: 0, max: 4 }), { freq: 5 }), fc.integer({ min: 0, max: 3 }),
), { maxLength: 30 }).map((steps) => {
  const present: Values[] = [];
  const rows: PositionalRow<readonly unknown[]>[] = [];
  for (const [op, k, v, id] of steps) {
    const row: Values = [k, v, id];
    if (!withRetractions || op < 6 || present.length === 0) {
      rows.push(Row.of(...row));
      present.push(row);
      continue;
    }
    const [gone] = present.splice(op % present.length, 1);
    if (op < 8) rows.push(Row.ofKind(RowKind.DELETE, ...gone!));
    else {
      rows.push(Row.ofKind(RowKind.UPDATE_BEFORE, ...gone!), Row.ofKind(RowKind.UPDATE_AFTER, ...row));
      present.push(row);
    }
  }
  return { rows, present };
});

/** Applies a changelog (strings `+I[...]`) as a multiset, failing on a malformed one; returns the sorted rows. */
function materialize(log: readonly string[]): string[] {
  const held = new Map<string, number>();
  log.forEach((entry, i) => {
    const kind = entry.slice(0, 2);
    const row = entry.slice(2);
    if (kind === "+I" || kind === "+U") held.set(row, (held.get(row) ?? 0) + 1);
    else {
      const n = held.get(row) ?? 0;
      if (n === 0) throw new Error(`${entry} at ${i} retracts a row that is not present`);
      if (n === 1) held.delete(row);
      else held.set(row, n - 1);
      if (kind === "-U" && !log[i + 1]?.startsWith("+U")) throw new Error(`${entry} at ${i} is not followed by +U`);
    }
  });
  return [...held].flatMap(([r, n]) => new Array<string>(n).fill(r)).sort();
}

const envs = () => ({
  streaming: TableEnvironment.create(EnvironmentSettings.inStreamingMode()),
  batch: TableEnvironment.create(EnvironmentSettings.inBatchMode()),
});

async function check(build: (env: TableEnvironment) => Table<object>, expected: string[]): Promise<void> {
  const { streaming, batch } = envs();
  const stream = materialize(await build(streaming).execute().toChangelog());
  const once = await build(batch).execute().toChangelog();
  expect(once.every((r) => r.startsWith("+I"))).toBe(true);
  expect(stream).toEqual(expected);
  expect(once.map((r) => r.slice(2)).sort()).toEqual(expected);
}

/** NULLs first ascending, as ORDER BY sorts them by default. */
const cmp = (a: unknown, b: unknown) => (a === b ? 0 : a === null ? -1 : b === null ? 1 : (a as number | string) < (b as number | string) ? -1 : 1);

describe("properties: streaming result = batch result = reference", () => {
  it("top-N per partition with a row number, over random retractions", async () => {
    await fc.assert(fc.asyncProperty(changelog(true), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 0, max: 2 }), async ({ rows, present }, n, offset) => {
      const byKey = new Map<string | null, Values[]>();
      for (const r of present) byKey.set(r[0], [...(byKey.get(r[0]) ?? []), r]);
      const expected: string[] = [];
      for (const part of byKey.values()) {
        // v DESC (NULLS LAST), id ASC: rows that compare equal are equal, so ties cannot make results differ
        part.sort((x, y) => -cmp(x[1], y[1]) || cmp(x[2], y[2]));
        part.slice(offset, offset + n).forEach((r, i) => expected.push(render([...r, offset + i + 1])));
      }
      await check((env) => env.fromValues(TYPE, ...rows)
        .topN(n, { partitionBy: [$("k")], orderBy: [$("v").desc(), $("id")], rowNumber: "rn", offset }), expected.sort());
    }), { numRuns: 60 });
  });

  it("global ORDER BY ... LIMIT (top-N without row number), over random retractions", async () => {
    await fc.assert(fc.asyncProperty(changelog(true), fc.integer({ min: 1, max: 4 }), async ({ rows, present }, n) => {
      const expected = [...present].sort((x, y) => cmp(x[1], y[1]) || cmp(x[2], y[2]) || cmp(x[0], y[0])).slice(0, n).map(render).sort();
      await check((env) => env.fromValues(TYPE, ...rows).orderBy($("v"), $("id"), $("k")).limit(n), expected);
    }), { numRuns: 60 });
  });

  for (const keep of ["first", "last"] as const) {
    it(`deduplicate keep ${keep} by processing time`, async () => {
      await fc.assert(fc.asyncProperty(changelog(false), async ({ present }) => {
        const kept = new Map<string | null, Values>();
        for (const r of present) if (keep === "last" || !kept.has(r[0])) kept.set(r[0], r);
        await check((env) => env.fromValues(TYPE, ...present.map((r) => Row.of(...r))).deduplicate({ keys: [$("k")], keep }),
          [...kept.values()].map(render).sort());
      }), { numRuns: 40 });
    });
  }

  const SETS = {
    intersect: (l: number, r: number) => (l > 0 && r > 0 ? 1 : 0),
    intersectAll: (l: number, r: number) => Math.min(l, r),
    minus: (l: number, r: number) => (l > 0 && r === 0 ? 1 : 0),
    minusAll: (l: number, r: number) => Math.max(l - r, 0),
  };
  for (const [op, count] of Object.entries(SETS)) {
    it(`${op} over random retractions on both sides`, async () => {
      await fc.assert(fc.asyncProperty(changelog(true), changelog(true), async (left, right) => {
        const counts = (rows: Values[]) => {
          const m = new Map<string, number>();
          for (const r of rows) m.set(render([r[0], r[1]]), (m.get(render([r[0], r[1]])) ?? 0) + 1);
          return m;
        };
        const l = counts(left.present);
        const r = counts(right.present);
        const expected = [...new Set([...l.keys(), ...r.keys()])].flatMap((row) => new Array<string>(count(l.get(row) ?? 0, r.get(row) ?? 0)).fill(row));
        await check((env) => {
          const a = env.fromValues(TYPE, ...left.rows).select($("k"), $("v"));
          const b = env.fromValues(TYPE, ...right.rows).select($("k"), $("v"));
          return (a[op as keyof typeof SETS] as (o: typeof b) => Table<object>)(b);
        }, expected.sort());
      }), { numRuns: 40 });
    });
  }
});
