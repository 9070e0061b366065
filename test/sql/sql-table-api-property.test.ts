// Property: for random inputs (with retractions), SQL queries give exactly the changelog of their Table API
// twins — they bind onto the same plan nodes, so row order and row kinds must match too.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { $, DataTypes, EnvironmentSettings, type PositionalRow, Row, RowKind, type Table, TableEnvironment, lit } from "../../src/index.js";

const TYPE = DataTypes.ROW(DataTypes.FIELD("k", DataTypes.STRING()), DataTypes.FIELD("v", DataTypes.INT()), DataTypes.FIELD("id", DataTypes.INT()));
const OTHER = DataTypes.ROW(DataTypes.FIELD("k2", DataTypes.STRING()), DataTypes.FIELD("w", DataTypes.INT()));

/** A random changelog over (k, v, id): inserts, and deletes of rows that are present. */
const changelog = fc.array(fc.tuple(fc.nat(9), fc.constantFrom("a", "b", "c", null), fc.option(fc.integer({ min: 0, max: 4 }), { freq: 5 }), fc.integer({ min: 0, max: 3 })),
  { maxLength: 25 }).map((steps) => {
  const present: (string | number | null)[][] = [];
  const rows: PositionalRow<readonly unknown[]>[] = [];
  for (const [op, k, v, id] of steps) {
    if (op < 7 || present.length === 0) { rows.push(Row.of(k, v, id)); present.push([k, v, id]); continue; }
    const [gone] = present.splice(op % present.length, 1);
    rows.push(Row.ofKind(RowKind.DELETE, ...gone!));
  }
  return rows;
});
const others = fc.array(fc.tuple(fc.constantFrom("a", "b", "c", null), fc.integer({ min: 0, max: 4 })), { maxLength: 6 });

type Twin = { sql: string; api: (t: Table<object>, u: Table<object>) => Table<object> };
const any = (t: Table<object>) => t as unknown as {
  filter(p: unknown): Table<object>; groupBy(...k: unknown[]): { select(...e: unknown[]): Table<object> }; select(...e: unknown[]): Table<object>;
  join(r: unknown, p: unknown): Table<object>; leftOuterJoin(r: unknown, p: unknown): Table<object>; unionAll(o: unknown): Table<object>;
  distinct(): Table<object>; topN(n: number, spec: unknown): Table<object>;
};
const TWINS: Twin[] = [
  {
    sql: "SELECT k, COUNT(*) AS n, SUM(v) AS s, MAX(id) AS m FROM T WHERE v IS NOT NULL GROUP BY k",
    api: (t) => any(any(t).filter($("v").isNotNull())).groupBy($("k")).select($("k"), lit(1).count().as("n"), $("v").sum().as("s"), $("id").max().as("m")),
  },
  {
    sql: "SELECT T.k, v, w FROM T JOIN U ON T.k = U.k2 AND v < w",
    api: (t, u) => any(any(t).join(u, $("k").isEqual($("k2")).and($("v").isLess($("w"))))).select($("k"), $("v"), $("w")),
  },
  {
    sql: "SELECT id, w FROM T LEFT JOIN U ON k = k2",
    api: (t, u) => any(any(t).leftOuterJoin(u, $("k").isEqual($("k2")))).select($("id"), $("w")),
  },
  {
    sql: "SELECT * FROM (SELECT k, id, ROW_NUMBER() OVER (PARTITION BY k ORDER BY id DESC) AS rn FROM T) WHERE rn <= 2",
    api: (t) => any(any(t).topN(2, { partitionBy: [$("k")], orderBy: [$("id").desc()], rowNumber: "$rn" })).select($("k"), $("id"), $("$rn").as("rn")),
  },
  {
    sql: "SELECT DISTINCT k FROM (SELECT k FROM T UNION ALL SELECT k2 FROM U)",
    api: (t, u) => any(any(any(t).select($("k"))).unionAll(any(u).select($("k2").as("k")))).distinct(),
  },
];

describe("SQL = Table API (property)", () => {
  for (const twin of TWINS) {
    it(`${twin.sql}`, async () => {
      await fc.assert(fc.asyncProperty(changelog, others, async (rows, us) => {
        const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        env.createTemporaryView("T", env.fromValues(TYPE, ...(rows as never[])) as never);
        env.createTemporaryView("U", env.fromValues(OTHER, ...us.map(([k, w]) => Row.of(k, w))) as never);
        const sql = await env.executeSql(twin.sql).toChangelog();
        const api = await twin.api(env.from("T") as never, env.from("U") as never).execute().toChangelog();
        expect(sql).toEqual(api);
      }), { numRuns: 40 });
    });
  }
});
