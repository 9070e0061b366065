// toSql() of the time-based parts and PTF calls: group windows (window TVFs), over windows, interval and
// temporal joins, PTF calls by registered name, sum0, views of watermarked / changelog VALUES; each text runs
// through executeSql to the Table API program's changelog. Parts Flink SQL cannot say are errors saying why.
import { describe, expect, it } from "vitest";
import {
  $, ArgumentTrait, Cumulate, DataTypes, Over, ProcessTableFunction, Row, RowKind, Schema, Session, Slide, type Table, TableEnvironment, Tumble,
  TableDescriptor, UNBOUNDED_RANGE, ValidationError, and, call, defineConnector, descriptor, lit, rowInterval, tableArg, valueState,
} from "../../src/index.js";
import { DeduplicateKeepFirst } from "../../src/ptf/builtins/index.js";

const at = (s: number) => new Date(Date.UTC(2025, 0, 1, 0, 0, s));
const EVENTS = Schema.newBuilder().column("k", DataTypes.STRING()).column("v", DataTypes.INT()).column("ts", DataTypes.TIMESTAMP(3))
  .watermark("ts", "ts - INTERVAL '1' SECOND").build();
const OTHER = Schema.newBuilder().column("k2", DataTypes.STRING()).column("w", DataTypes.INT()).column("ts2", DataTypes.TIMESTAMP(3))
  .watermark("ts2", "ts2").build();
const RATES = Schema.newBuilder().column("cur", DataTypes.STRING().notNull()).column("rate", DataTypes.INT()).column("rt", DataTypes.TIMESTAMP(3))
  .watermark("rt", "rt").primaryKey("cur").build();

const Counter = ProcessTableFunction.define({
  name: "Counter",
  args: { input: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE) },
  state: { seen: valueState({ n: 0 }) },
  output: DataTypes.ROW(DataTypes.FIELD("n", DataTypes.INT())),
  eval(ctx, state) {
    state.seen.n += 1;
    ctx.collect({ n: state.seen.n });
  },
});

type Any = {
  window(w: unknown): Any; groupBy(...k: unknown[]): Any; select(...e: unknown[]): Table<object>; join(r: unknown, p: unknown): Table<object>;
  partitionBy(...k: unknown[]): Any; process(f: unknown, ...a: unknown[]): Table<object>; filter(p: unknown): Table<object>;
  joinLateral(c: unknown, p?: unknown): Table<object>; leftOuterJoinLateral(c: unknown, p?: unknown): Table<object>;
  createTemporalTableFunction(t: unknown, ...k: unknown[]): never; deduplicate(spec: unknown): Table<object>;
};
const any = (t: unknown) => t as Any;

function setup() {
  const env = TableEnvironment.create();
  const t = env.fromValues(EVENTS, Row.of("a", 1, at(1)), Row.of("b", 2, at(3)), Row.of("a", 3, at(7)), Row.of("a", 4, at(12)), Row.of("b", 5, at(25)));
  env.createTemporaryView("T", t as never);
  const u = env.fromValues(OTHER, Row.of("a", 10, at(2)), Row.of("b", 20, at(8)));
  env.createTemporaryView("U", u as never);
  const rates = env.fromValues(RATES, Row.of("a", 1, at(0)), Row.of("b", 2, at(0)), Row.of("a", 3, at(5)));
  env.createTemporaryView("Rates", rates as never);
  return { env, t, u, rates };
}

/** The program's SQL text, after checking it runs to the program's changelog (returned too). */
async function roundTrip(env: TableEnvironment, t: Table<object>): Promise<{ sql: string; rows: string[] }> {
  const sql = t.toSql();
  const rows = await t.execute().toChangelog();
  expect(await env.executeSql(sql).toChangelog(), sql).toEqual(rows);
  expect(env.sqlQuery(sql).getResolvedSchema().names).toEqual(t.getResolvedSchema().names);
  return { sql, rows };
}

describe("toSql(): group windows as window table functions", () => {
  it("a tumbling window: TUMBLE(TABLE ...) GROUP BY window_start, window_end, keys; sum0 as COALESCE(SUM(x), 0)", async () => {
    const { env, t } = setup();
    const p = any(t).window(Tumble.over(lit(10).seconds()).on($("ts")).as("w")).groupBy($("w"), $("k"))
      .select($("k"), $("w").start().as("s"), $("w").end().as("e"), $("v").sum().as("total"), $("v").sum0().as("t0"));
    const { sql, rows } = await roundTrip(env, p);
    expect(sql).toBe([
      "SELECT `k` AS `k`, `w$start` AS `s`, `w$end` AS `e`, `EXPR$0` AS `total`, `EXPR$1` AS `t0`",
      "FROM (",
      "  SELECT `k` AS `k`, SUM(`v`) AS `EXPR$0`, COALESCE(SUM(`v`), CAST(0 AS INT)) AS `EXPR$1`, window_start AS `w$start`, window_end AS `w$end`",
      "  FROM TABLE(TUMBLE(TABLE `T`, DESCRIPTOR(`ts`), INTERVAL '10' SECOND))",
      "  GROUP BY window_start, window_end, `k`",
      ") AS t0",
    ].join("\n"));
    expect(rows).toEqual([
      "+I[a, 2025-01-01T00:00, 2025-01-01T00:00:10, 4, 4]", "+I[b, 2025-01-01T00:00, 2025-01-01T00:00:10, 2, 2]",
      "+I[a, 2025-01-01T00:00:10, 2025-01-01T00:00:20, 4, 4]", "+I[b, 2025-01-01T00:00:20, 2025-01-01T00:00:30, 5, 5]",
    ]);
  });

  it("slide (HOP, slide before size), cumulate (step before size) and session (PARTITION BY its keys) windows", async () => {
    const { env, t } = setup();
    const hop = await roundTrip(env, any(t).window(Slide.over(lit(10).seconds()).every(lit(5).seconds()).on($("ts")).as("w")).groupBy($("w"), $("k"))
      .select($("k"), $("w").rowtime().as("r"), $("v").count().as("c")));
    expect(hop.sql).toContain("FROM TABLE(HOP(TABLE `T`, DESCRIPTOR(`ts`), INTERVAL '5' SECOND, INTERVAL '10' SECOND))");
    expect(hop.sql).toContain("window_time AS `w$rowtime`");
    expect(hop.rows).toHaveLength(8);
    const cumulate = await roundTrip(env, any(t).window(Cumulate.over(lit(10).seconds()).step(lit(5).seconds()).on($("ts")).as("w")).groupBy($("w"))
      .select($("w").end().as("e"), $("v").sum().as("s")));
    expect(cumulate.sql).toContain("FROM TABLE(CUMULATE(TABLE `T`, DESCRIPTOR(`ts`), INTERVAL '5' SECOND, INTERVAL '10' SECOND))\n  GROUP BY window_start, window_end\n");
    const session = await roundTrip(env, any(t).window(Session.withGap(lit(3).seconds()).on($("ts")).as("w")).groupBy($("w"), $("k"))
      .select($("k"), $("w").start().as("s"), $("v").max().as("m")));
    expect(session.sql).toContain("FROM TABLE(SESSION(TABLE `T` PARTITION BY `k`, DESCRIPTOR(`ts`), INTERVAL '3' SECOND))");
    expect(session.rows).toEqual([
      "+I[a, 2025-01-01T00:00:01, 1]", "+I[b, 2025-01-01T00:00:03, 2]", "+I[a, 2025-01-01T00:00:07, 3]", "+I[a, 2025-01-01T00:00:12, 4]",
      "+I[b, 2025-01-01T00:00:25, 5]",
    ]);
  });

  it("a size no single interval field holds (150 s) is a DAY TO SECOND literal", async () => {
    const { env, t } = setup();
    const { sql, rows } = await roundTrip(env, any(t).window(Tumble.over(lit(150).seconds()).on($("ts")).as("w")).groupBy($("w"))
      .select($("w").end().as("e"), $("v").sum().as("total")));
    expect(sql).toContain("TUMBLE(TABLE `T`, DESCRIPTOR(`ts`), INTERVAL '0 00:02:30.000' DAY TO SECOND)");
    expect(rows).toEqual(["+I[2025-01-01T00:02:30, 15]"]);
  });

  it("a window over a query (not a registered table) reads it as a WITH query", async () => {
    const { env, t } = setup();
    const { sql } = await roundTrip(env, any(any(t).filter($("v").isGreater(1))).window(Tumble.over(lit(10).seconds()).on($("ts")).as("w"))
      .groupBy($("w")).select($("w").start().as("s"), $("v").sum().as("total")));
    expect(sql).toContain("WITH t1 AS (\n    SELECT *\n    FROM `T` AS t2\n    WHERE (`v` > 1)\n  )\n  SELECT SUM(`v`) AS `EXPR$0`, window_start AS `w$start`\n  FROM TABLE(TUMBLE(TABLE t1,");
  });
});

describe("toSql(): over windows, interval and temporal joins", () => {
  it("over windows: OVER (PARTITION BY ... ORDER BY t ROWS|RANGE BETWEEN ... PRECEDING AND CURRENT ROW)", async () => {
    const { env, t } = setup();
    const unbounded = await roundTrip(env, any(t).window(Over.partitionBy($("k")).orderBy($("ts")).preceding(UNBOUNDED_RANGE).as("o"))
      .select($("k"), $("v"), $("v").sum().over($("o")).as("s")));
    expect(unbounded.sql).toContain("SUM(`v`) OVER (PARTITION BY `k` ORDER BY `ts` ASC RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)");
    expect(unbounded.rows).toEqual(["+I[a, 1, 1]", "+I[b, 2, 2]", "+I[a, 3, 4]", "+I[a, 4, 8]", "+I[b, 5, 7]"]);
    const rows = await roundTrip(env, any(t).window(Over.partitionBy($("k")).orderBy($("ts")).preceding(rowInterval(1)).as("o"))
      .select($("k"), $("v"), $("v").max().over($("o")).as("m")));
    expect(rows.sql).toContain("ROWS BETWEEN 1 PRECEDING AND CURRENT ROW");
    const range = await roundTrip(env, any(t).window(Over.partitionBy($("k")).orderBy($("ts")).preceding(lit(5).seconds()).as("o"))
      .select($("k"), $("v"), $("v").count().over($("o")).as("c")));
    expect(range.sql).toContain("RANGE BETWEEN INTERVAL '5' SECOND PRECEDING AND CURRENT ROW");
    // a at 12 s sees 7 s and 12 s; a at 7 s only itself (1 s is 6 s before)
    expect(range.rows).toEqual(["+I[a, 1, 1]", "+I[b, 2, 1]", "+I[a, 3, 1]", "+I[a, 4, 2]", "+I[b, 5, 1]"]);
  });

  it("an interval join keeps its time bounds in ON: l.t BETWEEN r.t - lower AND r.t + upper", async () => {
    const { env, t, u } = setup();
    const { sql, rows } = await roundTrip(env, any(t).join(u, and($("k").isEqual($("k2")), $("ts").isGreaterOrEqual($("ts2").minus(lit(3).seconds())),
      $("ts").isLessOrEqual($("ts2").plus(lit(5).seconds())))));
    expect(sql).toBe("SELECT t0.`k` AS `k`, t0.`v` AS `v`, t0.`ts` AS `ts`, t1.`k2` AS `k2`, t1.`w` AS `w`, t1.`ts2` AS `ts2`\nFROM `T` AS t0\n"
      + "JOIN `U` AS t1 ON (t0.`k` = t1.`k2`) AND (t0.`ts` BETWEEN (t1.`ts2` - INTERVAL '3' SECOND) AND (t1.`ts2` + INTERVAL '5' SECOND))");
    expect(env.sqlQuery(sql).explain()).toContain("IntervalJoin");
    // partners within [ts2 - 3 s, ts2 + 5 s]: a's at 1 s and 7 s (a2 at 2 s); b at 3 s is too early for b2 at 8 s
    expect(rows).toEqual(["+I[a, 1, 2025-01-01T00:00:01, a, 10, 2025-01-01T00:00:02]", "+I[a, 3, 2025-01-01T00:00:07, a, 10, 2025-01-01T00:00:02]"]);
  });

  it("a temporal join (temporal table function) as FOR SYSTEM_TIME AS OF the registered versioned table", async () => {
    const { env, t, rates } = setup();
    const fn = any(rates).createTemporalTableFunction($("rt"), $("cur"));
    const { sql, rows } = await roundTrip(env, any(t).joinLateral(call(fn, $("ts")), $("k").isEqual($("cur"))));
    expect(sql).toBe("SELECT t0.`k` AS `k`, t0.`v` AS `v`, t0.`ts` AS `ts`, t1.`cur` AS `cur`, t1.`rate` AS `rate`, t1.`rt` AS `rt`\nFROM `T` AS t0\n"
      + "JOIN `Rates` FOR SYSTEM_TIME AS OF t0.`ts` AS t1 ON (t0.`k` = t1.`cur`)");
    expect(rows.map((r) => r.split(", ").slice(0, 2).concat(r.split(", ")[4]!).join(", "))).toEqual([
      "+I[a, 1, 1", "+I[b, 2, 2", "+I[a, 3, 3", "+I[a, 4, 3", "+I[b, 5, 2",
    ]);
    // a LEFT temporal join, and a residual condition over the joined row
    const left = await roundTrip(env, any(t).leftOuterJoinLateral(call(fn, $("ts")), and($("k").isEqual($("cur")), $("rate").isGreater(1))));
    expect(left.sql).toContain("LEFT JOIN `Rates` FOR SYSTEM_TIME AS OF t0.`ts` AS t1 ON (t0.`k` = t1.`cur`) AND (t1.`rate` > 1)");
  });

  it("a versioned table that is not registered has no name for FOR SYSTEM_TIME AS OF: the error says to register it", () => {
    const { env, t } = setup();
    const unnamed = env.fromValues(RATES, Row.of("a", 1, at(0)));
    const fn = any(unnamed).createTemporalTableFunction($("rt"), $("cur"));
    expect(() => any(t).joinLateral(call(fn, $("ts")), $("k").isEqual($("cur"))).toSql())
      .toThrow("toSql: a temporal join with a versioned table that is not registered has no Flink SQL form; FOR SYSTEM_TIME AS OF needs a table name: register the versioned table with createTable or createTemporaryView");
  });
});

describe("toSql(): lookup joins", () => {
  it("need a processing-time attribute on the probe side (FOR SYSTEM_TIME AS OF l.proc_time): without one the error says so", () => {
    const { env, t } = setup();
    const dim = defineConnector({ name: "dim", options: {}, lookup: { createReader: async () => ({ lookup: async () => [] }) } });
    env.registerConnector(dim);
    env.createTemporaryTable("Dim", TableDescriptor.forConnector("dim")
      .schema(Schema.newBuilder().column("id", DataTypes.STRING().notNull()).column("label", DataTypes.STRING()).build()).build());
    const joined = any(t).joinLateral(call(env.lookupFunction("Dim", "id"), $("k")));
    expect(joined.getResolvedSchema().names).toEqual(["k", "v", "ts", "id", "label"]);
    expect(() => joined.toSql()).toThrow("toSql: a lookup join with 'Dim' over a table without a processing-time attribute has no Flink SQL form; "
      + "Flink SQL writes it JOIN t FOR SYSTEM_TIME AS OF l.proc_time: declare a column `proc_time AS PROCTIME()` on the probe table");
  });
});

describe("toSql(): lookup joins round-trip through executeSql", () => {
  const CUSTOMERS: unknown[][] = [["a", "Alice", 32], ["b", "Bob", 28]];
  function lookupSetup() {
    const env = TableEnvironment.create();
    env.setClock(() => Date.UTC(2025, 0, 1, 8));
    env.registerConnector(defineConnector({
      name: "memory-dim",
      options: {},
      lookup: { createReader: () => ({ lookup: async (key: readonly unknown[]) => CUSTOMERS.filter((r) => r[0] === key[0]) }) },
    }));
    env.executeSql("CREATE TABLE Dim (id STRING, name STRING, age INT, PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'memory-dim')");
    const orders = env.fromValues(Schema.newBuilder().column("o", DataTypes.INT()).column("k", DataTypes.STRING())
      .columnByExpression("pt", "PROCTIME()").build(), Row.of(1, "a"), Row.of(2, "z"), Row.of(3, "b"), Row.of(4, null));
    env.createTemporaryView("Orders", orders as never);
    return { env, orders };
  }

  it("an inner lookup join: JOIN t FOR SYSTEM_TIME AS OF l.pt AS r ON key = r.id, the same rows", async () => {
    const { env, orders } = lookupSetup();
    const { sql, rows } = await roundTrip(env, any(orders).joinLateral(call(env.lookupFunction("Dim", "id"), $("k"))));
    // the PROCTIME() column of a VALUES table is a projection over it (Flink's plan has the same Calc)
    expect(sql).toBe([
      "SELECT t0.`o` AS `o`, t0.`k` AS `k`, t0.`pt` AS `pt`, t3.`id` AS `id`, t3.`name` AS `name`, t3.`age` AS `age`",
      "FROM (",
      "  SELECT `o` AS `o`, `k` AS `k`, PROCTIME() AS `pt`",
      "  FROM (",
      "    SELECT * FROM (VALUES (CAST(1 AS INT), CAST('a' AS STRING)), (CAST(2 AS INT), CAST('z' AS STRING)), (CAST(3 AS INT), CAST('b' AS STRING)), (CAST(4 AS INT), CAST(NULL AS STRING))) AS t2 (`o`, `k`)",
      "  ) AS t1",
      ") AS t0",
      "JOIN `Dim` FOR SYSTEM_TIME AS OF t0.`pt` AS t3 ON (t0.`k` = t3.`id`)",
    ].join("\n"));
    expect(rows).toEqual(["+I[1, a, 2025-01-01T08:00:00Z, a, Alice, 32]", "+I[3, b, 2025-01-01T08:00:00Z, b, Bob, 28]"]);
  });

  it("a LEFT lookup join with a condition on the looked-up row: misses and NULL keys are padded", async () => {
    const { env, orders } = lookupSetup();
    const joined = any(orders).leftOuterJoinLateral(call(env.lookupFunction("Dim", "id"), $("k")), $("age").isGreater(30));
    const { sql, rows } = await roundTrip(env, joined);
    expect(sql).toContain("\nLEFT JOIN `Dim` FOR SYSTEM_TIME AS OF t0.`pt` AS t3 ON (t0.`k` = t3.`id`) AND (t3.`age` > 30)");
    expect(rows).toEqual([
      "+I[1, a, 2025-01-01T08:00:00Z, a, Alice, 32]", "+I[2, z, 2025-01-01T08:00:00Z, null, null, null]",
      "+I[3, b, 2025-01-01T08:00:00Z, null, null, null]", "+I[4, null, 2025-01-01T08:00:00Z, null, null, null]",
    ]);
  });
});

describe("toSql(): processing-time deduplication round-trips through executeSql", () => {
  it("keep first / keep last: ROW_NUMBER() OVER (PARTITION BY k ORDER BY pt ASC|DESC) = 1, the same changelog", async () => {
    const env = TableEnvironment.create();
    env.setClock(() => Date.UTC(2025, 0, 1, 8));
    const t = env.fromValues(Schema.newBuilder().column("v", DataTypes.INT()).column("k", DataTypes.STRING()).columnByExpression("pt", "PROCTIME()").build(),
      Row.of(1, "x"), Row.of(2, "x"), Row.of(3, "y"), Row.of(4, "x"));
    const first = await roundTrip(env, any(t).deduplicate({ keys: [$("k")], keep: "first" }));
    expect(first.sql).toContain("ROW_NUMBER() OVER (PARTITION BY `k` ORDER BY `pt` ASC) AS `rn`");
    expect(first.rows).toEqual(["+I[1, x, 2025-01-01T08:00:00Z]", "+I[3, y, 2025-01-01T08:00:00Z]"]);
    const last = await roundTrip(env, any(t).deduplicate({ keys: [$("k")], keep: "last" }));
    expect(last.sql).toContain("ROW_NUMBER() OVER (PARTITION BY `k` ORDER BY `pt` DESC) AS `rn`");
    expect(last.rows).toEqual([
      "+I[1, x, 2025-01-01T08:00:00Z]", "-U[1, x, 2025-01-01T08:00:00Z]", "+U[2, x, 2025-01-01T08:00:00Z]", "+I[3, y, 2025-01-01T08:00:00Z]",
      "-U[2, x, 2025-01-01T08:00:00Z]", "+U[4, x, 2025-01-01T08:00:00Z]",
    ]);
  });
});

describe("toSql(): PTF calls", () => {
  it("SELECT * FROM f(input => TABLE t PARTITION BY k, uid => ...) with the function's registered name", async () => {
    const { env, t } = setup();
    env.createFunction("Counter", Counter);
    const byObject = await roundTrip(env, any(t).partitionBy($("k")).process(Counter));
    expect(byObject.sql).toBe("SELECT * FROM `Counter`(input => TABLE `T` PARTITION BY `k`)");
    expect(byObject.rows).toEqual(["+I[a, 1]", "+I[b, 1]", "+I[a, 2]", "+I[a, 3]", "+I[b, 2]"]);
    const byName = await roundTrip(env, any(any(t).filter($("v").isGreater(1))).partitionBy($("k")).process("Counter", lit("c1").asArgument("uid")));
    expect(byName.sql).toBe("WITH t0 AS (\n  SELECT *\n  FROM `T` AS t1\n  WHERE (`v` > 1)\n)\nSELECT * FROM `Counter`(input => TABLE t0 PARTITION BY `k`, uid => 'c1')");
  });

  it("ORDER BY, on_time => DESCRIPTOR(...) and several PARTITION BY columns", async () => {
    const { env, t } = setup();
    env.createFunction("Counter", Counter);
    const p = (any(t).partitionBy($("k"), $("v")) as unknown as { orderBy(...o: unknown[]): Any }).orderBy($("ts").asc())
      .process("Counter", descriptor("ts").asArgument("on_time"));
    const { sql, rows } = await roundTrip(env, p);
    expect(sql).toBe("SELECT * FROM `Counter`(input => TABLE `T` PARTITION BY (`k`, `v`) ORDER BY `ts` ASC, on_time => DESCRIPTOR(`ts`))");
    expect(rows).toEqual([
      "+I[a, 1, 1, 2025-01-01T00:00:01]", "+I[b, 2, 1, 2025-01-01T00:00:03]", "+I[a, 3, 1, 2025-01-01T00:00:07]", "+I[a, 4, 1, 2025-01-01T00:00:12]",
      "+I[b, 5, 1, 2025-01-01T00:00:25]",
    ]);
  });

  it("a built-in PTF by its name, with its scalar arguments as written (passed as an object too)", async () => {
    const { env, t } = setup();
    const byName = await roundTrip(env, any(t).partitionBy($("k")).process("DEDUPLICATE_KEEP_FIRST", lit(5).seconds().asArgument("state_ttl")));
    expect(byName.sql).toBe("SELECT * FROM `DEDUPLICATE_KEEP_FIRST`(input => TABLE `T` PARTITION BY `k`, state_ttl => INTERVAL '5' SECOND)");
    expect(byName.rows).toEqual(["+I[a, 1, 2025-01-01T00:00:01]", "+I[b, 2, 2025-01-01T00:00:03]"]);
    expect(any(t).partitionBy($("k")).process(DeduplicateKeepFirst).toSql()).toBe("SELECT * FROM `DEDUPLICATE_KEEP_FIRST`(input => TABLE `T` PARTITION BY `k`)");
  });

  it("an inline (unregistered) PTF is an error naming it and saying to register it", () => {
    const { t } = setup();
    expect(() => any(t).partitionBy($("k")).process(Counter).toSql()).toThrow(ValidationError);
    expect(() => any(t).partitionBy($("k")).process(Counter).toSql())
      .toThrow("toSql: the process table function 'Counter' is not registered, and SQL calls a function by its name: register it with env.createFunction(\"Counter\", F)");
  });
});

describe("toSql(): VALUES Flink SQL cannot declare", () => {
  it("a registered view of watermarked or changelog VALUES appears by name; unregistered, the error says what to do", async () => {
    const { env, t } = setup();
    expect(any(t).filter($("v").isGreater(2)).toSql()).toBe("SELECT *\nFROM `T` AS t0\nWHERE (`v` > 2)");
    const wm = env.fromValues(EVENTS, Row.of("a", 1, at(1)));
    expect(() => any(wm).filter($("v").isGreater(2)).toSql())
      .toThrow("toSql: a VALUES table with a watermark has no Flink SQL form; Flink SQL declares watermarks on tables only: register it with createTemporaryView");
    const changes = env.fromValues(DataTypes.ROW(DataTypes.FIELD("k", DataTypes.STRING()), DataTypes.FIELD("n", DataTypes.INT())),
      Row.of("a", 1), Row.ofKind(RowKind.DELETE, "a", 1), Row.of("b", 2));
    expect(() => any(changes).filter($("n").isGreater(0)).toSql()).toThrow("toSql: a VALUES table with row kinds other than INSERT (a changelog) has no Flink SQL form; Flink SQL's VALUES is insert-only");
    env.createTemporaryView("Changes", changes as never);
    const { sql, rows } = await roundTrip(env, any(changes).filter($("n").isGreater(0)));
    expect(sql).toBe("SELECT *\nFROM `Changes` AS t0\nWHERE (`n` > 0)");
    expect(rows).toEqual(["+I[a, 1]", "-D[a, 1]", "+I[b, 2]"]);
  });

  it("deduplication in processing-time order needs a processing-time attribute in SQL; the error says so", () => {
    const { t } = setup();
    expect(() => any(t).deduplicate({ keys: [$("k")], keep: "first" }).toSql())
      .toThrow("toSql: a deduplication in processing-time order over a table without a processing-time attribute has no Flink SQL form; Flink SQL orders it by one: declare a column `pt AS PROCTIME()`");
  });
});

describe("StatementSet.explain({ sql: true })", () => {
  it("prints the plan, then the set as one EXECUTE STATEMENT SET statement that executeSql runs", async () => {
    const { env, t } = setup();
    env.createFunction("Counter", Counter);
    env.executeSql("CREATE TABLE a_sink (k STRING, n INT) WITH ('connector' = 'blackhole')");
    env.executeSql("CREATE TABLE b_sink (k STRING, n INT) WITH ('connector' = 'blackhole')");
    const counted = any(t).partitionBy($("k")).process("Counter", lit("same").asArgument("uid"));
    const set = env.createStatementSet()
      .addInsert("a_sink", any(counted).filter($("k").isEqual("a")) as unknown as Table<object>)
      .addInsert("b_sink", any(counted).filter($("k").isEqual("b")) as unknown as Table<object>);
    const text = set.explain({ sql: true });
    expect(text.startsWith(`${set.explain()}\n\n== Flink SQL ==\n`)).toBe(true);
    expect(text.slice(text.indexOf("== Flink SQL ==\n") + 16)).toBe([
      "EXECUTE STATEMENT SET",
      "BEGIN",
      "INSERT INTO `a_sink`",
      "SELECT *",
      "FROM (",
      "  SELECT * FROM `Counter`(input => TABLE `T` PARTITION BY `k`, uid => 'same')",
      ") AS t0",
      "WHERE (`k` = 'a');",
      "INSERT INTO `b_sink`",
      "SELECT *",
      "FROM (",
      "  SELECT * FROM `Counter`(input => TABLE `T` PARTITION BY `k`, uid => 'same')",
      ") AS t1",
      "WHERE (`k` = 'b');",
      "END;",
    ].join("\n"));
    // the same uid: one PTF operator, in the Table API's set and in the SQL text's
    expect(set.explain()).toContain("Reused(reference_id=[1])");
    expect(await env.executeSql(`EXPLAIN ${set.toSql()}`).toChangelog()).toEqual([expect.stringContaining("Reused(reference_id=[1])")]);
    await env.executeSql(set.toSql()).await();
  });
});
