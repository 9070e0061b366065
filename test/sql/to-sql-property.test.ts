// Property: a random Table API program (projections, filters, aggregations, joins, top-N, distinct) and its
// toSql() text run through executeSql give the same changelog — kinds, values and order.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { $, DataTypes, EnvironmentSettings, Row, Schema, type Table, TableDescriptor, TableEnvironment, ValidationError, lit } from "../../src/index.js";

const T = DataTypes.ROW(DataTypes.FIELD("k", DataTypes.STRING()), DataTypes.FIELD("v", DataTypes.INT()), DataTypes.FIELD("id", DataTypes.INT()));
const U = DataTypes.ROW(DataTypes.FIELD("k2", DataTypes.STRING()), DataTypes.FIELD("w", DataTypes.INT()));

type Col = { name: string; str: boolean };
type Prog = { table: Table<object>; cols: Col[] };
type Step = { op: "filter" | "project" | "aggregate" | "join" | "leftJoin" | "topN" | "distinct"; n: number; m: number };

const any = (t: Table<object>) => t as unknown as {
  filter(p: unknown): Table<object>; groupBy(...k: unknown[]): { select(...e: unknown[]): Table<object> }; select(...e: unknown[]): Table<object>;
  join(r: unknown, p: unknown): Table<object>; leftOuterJoin(r: unknown, p: unknown): Table<object>;
  distinct(): Table<object>; topN(n: number, spec: unknown): Table<object>;
};

/** Applies one step where it fits the columns so far (else leaves the program as it is). */
function apply(p: Prog, s: Step, u: Table<object>, depth: number): Prog {
  const strs = p.cols.filter((c) => c.str);
  const ints = p.cols.filter((c) => !c.str);
  const pick = <T>(xs: T[], i: number) => xs[i % xs.length]!;
  const fresh = (base: string) => `${base}${depth}`;
  switch (s.op) {
    case "filter": {
      if (ints.length === 0) return p;
      const c = pick(ints, s.n);
      const cond = s.m % 3 === 0 ? $(c.name).isGreater(s.n % 4) : s.m % 3 === 1 ? $(c.name).isNull().not() : $(c.name).isEqual(s.n % 3).or($(c.name).isLess(1));
      return { table: any(p.table).filter(cond), cols: p.cols };
    }
    case "project": {
      if (ints.length === 0) return p;
      const a = pick(ints, s.n);
      const b = pick(ints, s.m);
      const keep = strs.length > 0 ? [pick(strs, s.m)] : [];
      const name = fresh("s");
      return {
        table: any(p.table).select(...keep.map((c) => $(c.name)), $(a.name).plus($(b.name)).times(2).as(name), $(a.name).as(fresh("a"))),
        cols: [...keep, { name, str: false }, { name: fresh("a"), str: false }],
      };
    }
    case "aggregate": {
      if (strs.length === 0 || ints.length === 0) return p;
      const key = pick(strs, s.n);
      const val = pick(ints, s.m);
      return {
        table: any(p.table).groupBy($(key.name)).select($(key.name), lit(1).count().as(fresh("n")), $(val.name).sum().as(fresh("t")), $(val.name).max().as(fresh("x"))),
        cols: [key, { name: fresh("n"), str: false }, { name: fresh("t"), str: false }, { name: fresh("x"), str: false }],
      };
    }
    case "join": case "leftJoin": {
      if (strs.length === 0 || p.cols.some((c) => c.name === "k2" || c.name === "w")) return p;
      const key = pick(strs, s.n);
      const cond = $(key.name).isEqual($("k2"));
      return { table: s.op === "join" ? any(p.table).join(u, cond) : any(p.table).leftOuterJoin(u, cond), cols: [...p.cols, { name: "k2", str: true }, { name: "w", str: false }] };
    }
    case "topN": {
      if (strs.length === 0 || ints.length === 0) return p;
      const rn = fresh("rn");
      return {
        table: any(p.table).topN(1 + (s.n % 2), { partitionBy: [$(pick(strs, s.m).name)], orderBy: [s.m % 2 === 0 ? $(pick(ints, s.n).name).desc() : $(pick(ints, s.n).name).asc()], rowNumber: rn }),
        cols: [...p.cols, { name: rn, str: false }],
      };
    }
    case "distinct": return { table: any(p.table).distinct(), cols: p.cols };
  }
}

const rowsT = fc.array(fc.tuple(fc.constantFrom("a", "b", "c", null), fc.option(fc.integer({ min: -2, max: 4 }), { freq: 5 }), fc.integer({ min: 0, max: 5 })), { minLength: 1, maxLength: 12 });
const rowsU = fc.array(fc.tuple(fc.constantFrom("a", "b", null), fc.integer({ min: 0, max: 4 })), { minLength: 1, maxLength: 5 });
const steps = fc.array(fc.record({
  op: fc.constantFrom("filter", "project", "aggregate", "join", "leftJoin", "topN", "distinct") as fc.Arbitrary<Step["op"]>, n: fc.nat(7), m: fc.nat(7),
}), { minLength: 1, maxLength: 4 });

describe("toSql() = the program (property)", () => {
  it("random programs give the same changelog as their SQL text through executeSql", async () => {
    await fc.assert(fc.asyncProperty(rowsT, rowsU, steps, fc.boolean(), async (ts, us, program, batch) => {
      const env = TableEnvironment.create(batch ? EnvironmentSettings.inBatchMode() : EnvironmentSettings.inStreamingMode());
      const t = env.fromValues(T, ...ts.map((r) => Row.of(...r))) as unknown as Table<object>;
      const u = env.fromValues(U, ...us.map((r) => Row.of(...r))) as unknown as Table<object>;
      let p: Prog = { table: t, cols: [{ name: "k", str: true }, { name: "v", str: false }, { name: "id", str: false }] };
      program.forEach((s, i) => { p = apply(p, s, u, i); });
      const sql = p.table.toSql();
      const expected = await p.table.execute().toChangelog();
      const actual = await env.executeSql(sql).toChangelog();
      expect(actual, sql).toEqual(expected);
      expect(env.sqlQuery(sql).getResolvedSchema().names).toEqual(p.table.getResolvedSchema().names);
    }), { numRuns: 60 });
  });
});

describe("toSql()", () => {
  it("names tables and registered functions by name; a statement set renders as EXECUTE STATEMENT SET", async () => {
    const env = TableEnvironment.create();
    env.executeSql("CREATE TABLE Orders (id INT, customer STRING) WITH ('connector' = 'datagen', 'number-of-rows' = '2')");
    env.executeSql("CREATE TABLE Out (id INT, customer STRING) WITH ('connector' = 'blackhole')");
    const t = env.from("Orders").filter($("id").isGreater(0));
    expect(t.toSql()).toBe("SELECT *\nFROM `Orders` AS t0\nWHERE (`id` > 0)");
    const set = env.createStatementSet().addInsert("Out", t);
    expect(set.toSql()).toBe("EXECUTE STATEMENT SET\nBEGIN\nINSERT INTO `Out`\nSELECT *\nFROM `Orders` AS t0\nWHERE (`id` > 0);\nEND");
    await env.executeSql(set.toSql()).await();
  });

  it("sum0 is COALESCE(SUM(x), CAST(0 AS <its type>)): the same changelog, retractions included", async () => {
    const env = TableEnvironment.create();
    const t = env.fromValues(T, Row.of("a", 1, 1), Row.of("a", null, 2), Row.of("b", 3, 3)) as unknown as Table<object>;
    const grouped = (t as unknown as { groupBy(...k: unknown[]): { select(...e: unknown[]): Table<object> } }).groupBy($("k")).select($("k"), $("v").sum().as("s"));
    const p = (grouped as unknown as { select(...e: unknown[]): Table<object> }).select($("s").sum0().as("s0"));
    const sql = p.toSql();
    expect(sql).toContain("COALESCE(SUM(`s`), CAST(0 AS INT)) AS `s0`");
    const rows = await p.execute().toChangelog();
    expect(rows).toEqual(["+I[1]", "-U[1]", "+U[4]"]);
    expect(await env.executeSql(sql).toChangelog()).toEqual(rows);
  });

  it("parts without a SQL form raise a ValidationError naming them", () => {
    const env = TableEnvironment.create();
    const anon = env.from(TableDescriptor.forConnector("datagen").schema(Schema.newBuilder().column("a", DataTypes.INT()).build()).option("number-of-rows", "1").build());
    expect(() => anon.toSql()).toThrow(ValidationError);
    expect(() => anon.toSql()).toThrow("toSql: a scan of an anonymous TableDescriptor (register the table with createTable) has no Flink SQL form in tablestream yet");
  });
});
