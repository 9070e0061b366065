// Flink's join programs (R-001 .. R-021) in SQL form, with Flink's rows. The Table API forms are in test/joins/;
// the fixtures are theirs.
import { describe, expect, it } from "vitest";
import { $, DataTypes, Row, Schema, type TableEnvironment } from "../../src/index.js";
import {
  DEPARTMENT, DEPARTMENT_TYPE, EMPLOYEE, EMPLOYEE_TYPE, T1, T2, T_TYPE, materialize, sorted, streaming,
} from "../joins/fixtures.js";

function joinEnv(): TableEnvironment {
  const env = streaming();
  env.createTemporaryView("EMPLOYEE", env.fromValues(EMPLOYEE_TYPE, EMPLOYEE) as never);
  env.createTemporaryView("DEPARTMENT", env.fromValues(DEPARTMENT_TYPE, DEPARTMENT) as never);
  env.createTemporaryView("T1", env.fromValues(T_TYPE, T1) as never);
  env.createTemporaryView("T2", env.fromValues(T_TYPE, T2) as never);
  return env;
}
const run = async (env: TableEnvironment, sql: string) => env.executeSql(sql).toChangelog();

describe("regular joins in SQL", () => {
  it("R-001 join-non-window-inner-join: subqueries with aliases, t1.a = t2.a AND t1.b > t2.b", async () => {
    const sql = `SELECT t2.a, t2.c, t1.c
FROM (
 SELECT if(a = 3, cast(null as int), a) as a, b, c FROM T1
) as t1
JOIN (
 SELECT if(a = 3, cast(null as int), a) as a, b, c FROM T2
) as t2
ON t1.a = t2.a AND t1.b > t2.b`;
    const env = joinEnv();
    expect(env.sqlQuery(sql).changelogMode()).toBe("[I]");
    expect(sorted(await run(env, sql))).toEqual(sorted([
      "+I[1, BakerBaker, Baker2]", "+I[1, BakerBaker, Baker2]", "+I[1, BakerBaker, Baker3]", "+I[2, HeHe, Baker5]",
      "+I[1, BakerBaker, Baker6]", "+I[1, BakerBaker, Baker8]", "+I[2, PostRestoreRight, Baker5]",
    ]));
    // the right side's a, b, c are named a0, b0, c0 in the join (Flink's names for duplicates)
    expect(joinEnv().sqlQuery("SELECT * FROM T1 JOIN T2 ON T1.a = T2.a").getResolvedSchema().names).toEqual(["a", "b", "c", "a0", "b0", "c0"]);
  });

  it("R-003 join-cross-join: a comma join", async () => {
    const out = await run(joinEnv(), "SELECT name, department_name FROM EMPLOYEE, DEPARTMENT");
    const names = ["Adam", "Baker", "Charlie", "Don", "Victor", "Juliet", "Helena", "Ivana"];
    const depts = ["Accounting", "Research", "Human Resources", "HR", "Sales", "People Operations", "Engineering"];
    expect(sorted(out)).toEqual(sorted(names.flatMap((n) => depts.map((d) => `+I[${n}, ${d}]`))));
    expect(sorted(await run(joinEnv(), "SELECT name, department_name FROM EMPLOYEE CROSS JOIN DEPARTMENT"))).toEqual(sorted(out));
  });

  it("R-005 join-inner-join-with-duplicate-key", async () => {
    expect(sorted(await run(joinEnv(), "SELECT deptno, department_num FROM EMPLOYEE JOIN DEPARTMENT ON deptno = department_num AND deptno = b3")))
      .toEqual(sorted(["+I[2, 2]", "+I[4, 4]", "+I[4, 4]"]));
  });

  it("R-007 join-inner-join-with-equal-pk: two GROUP BY subqueries without aliases", async () => {
    const sql = "SELECT deptno, department_num FROM (SELECT MIN(salary) AS salary, deptno FROM EMPLOYEE GROUP BY deptno) "
      + "JOIN (SELECT MIN(b2) AS b2, department_num FROM DEPARTMENT GROUP BY department_num) ON deptno = department_num";
    expect(sorted(await run(joinEnv(), sql))).toEqual(sorted(["+I[1, 1]", "+I[2, 2]", "+I[3, 3]", "+I[4, 4]"]));
  });

  it("R-009 join-outer-join: FULL OUTER JOIN (materialized); FULL JOIN is the same", async () => {
    const expected = sorted([
      "+I[Adam, null]", "+I[null, Accounting]", "+I[Baker, Research]", "+I[Charlie, Human Resources]", "+I[Charlie, HR]", "+I[Don, Sales]", "+I[Victor, null]",
      "+I[Helena, Engineering]", "+I[Juliet, Engineering]", "+I[Ivana, Research]", "+I[Charlie, People Operations]",
    ]);
    expect(materialize(await run(joinEnv(), "SELECT name, department_name FROM EMPLOYEE FULL OUTER JOIN DEPARTMENT ON deptno = department_num"))).toEqual(expected);
    expect(materialize(await run(joinEnv(), "SELECT name, department_name FROM EMPLOYEE FULL JOIN DEPARTMENT ON deptno = department_num"))).toEqual(expected);
  });

  it("R-011 join-right-join: RIGHT OUTER JOIN (materialized), same rows as the Table API", async () => {
    const env = joinEnv();
    const sql = await run(env, "SELECT name, department_name FROM EMPLOYEE RIGHT OUTER JOIN DEPARTMENT ON deptno = department_num");
    const api = await env.from("EMPLOYEE").rightOuterJoin(env.from("DEPARTMENT") as never, $("deptno").isEqual($("department_num")) as never)
      .select($("name"), $("department_name")).execute().toChangelog();
    expect(sql).toEqual(api);
    expect(materialize(sql)).toEqual(sorted([
      "+I[null, Accounting]", "+I[Baker, Research]", "+I[Charlie, Human Resources]", "+I[Charlie, HR]", "+I[Don, Sales]",
      "+I[Helena, Engineering]", "+I[Juliet, Engineering]", "+I[Ivana, Research]", "+I[Charlie, People Operations]",
    ]));
  });

  it("a LEFT JOIN keeps unmatched left rows; an ambiguous column must be qualified", async () => {
    const env = joinEnv();
    expect(materialize(await run(env, "SELECT e.name, d.department_name FROM EMPLOYEE AS e LEFT JOIN DEPARTMENT d ON e.deptno = d.department_num WHERE e.salary > 5")))
      .toEqual(["+I[Adam, null]", "+I[Victor, null]"]);
    expect(() => env.sqlQuery("SELECT a FROM T1 JOIN T2 ON T1.a = T2.a")).toThrow("SQL validation failed. At line 1, column 8: column 'a' is ambiguous; qualify it: T1.a, T2.a");
  });
});

/** IntervalJoinTestPrograms: orders_t and shipments_t (both with an `id` column), event time. */
function intervalEnv(): TableEnvironment {
  const env = streaming();
  const orders = Schema.newBuilder().column("id", DataTypes.INT()).column("order_ts_str", DataTypes.STRING())
    .columnByExpression("order_ts", "TO_TIMESTAMP(order_ts_str)").watermark("order_ts", "`order_ts` - INTERVAL '1' SECOND").build();
  const shipments = Schema.newBuilder().column("id", DataTypes.INT()).column("order_id", DataTypes.INT()).column("shipment_ts_str", DataTypes.STRING())
    .columnByExpression("shipment_ts", "TO_TIMESTAMP(shipment_ts_str)").watermark("shipment_ts", "`shipment_ts` - INTERVAL '1' SECOND").build();
  env.createTemporaryView("orders_t", env.fromValues(orders,
    Row.of(1, "2020-04-15 08:00:01"), Row.of(2, "2020-04-15 08:00:02"), Row.of(4, "2020-04-15 08:00:04"), Row.of(5, "2020-04-15 08:00:05"),
    Row.of(3, "2020-04-15 08:00:03"), Row.of(7, "2020-04-15 08:00:09"), Row.of(10, "2020-04-15 08:00:11")) as never);
  env.createTemporaryView("shipments_t", env.fromValues(shipments,
    Row.of(2, 1, "2020-04-15 08:00:02"), Row.of(5, 2, "2020-04-15 08:00:05"), Row.of(6, 5, "2020-04-15 08:00:06"),
    Row.of(15, 4, "2020-04-15 08:00:15"), Row.of(16, 6, "2020-04-15 08:00:15"),
    Row.of(7, 3, "2020-04-15 08:00:15"), Row.of(11, 7, "2020-04-15 08:00:16"), Row.of(13, 10, "2020-04-15 08:00:16")) as never);
  return env;
}

describe("interval joins in SQL", () => {
  it("R-015 interval-join-event-time: BETWEEN ... - INTERVAL ... AND ... + INTERVAL ... in WHERE", async () => {
    const sql = `SELECT
     o.id AS order_id,
     o.order_ts_str,
     s.shipment_ts_str
 FROM orders_t o
 JOIN shipments_t s ON o.id = s.order_id
 WHERE o.order_ts BETWEEN s.shipment_ts - INTERVAL '5' SECOND AND s.shipment_ts + INTERVAL '5' SECOND;`;
    const env = intervalEnv();
    expect(env.sqlQuery(sql.replace(/;$/, "")).explain()).toContain("IntervalJoin");
    expect(sorted(await run(env, sql))).toEqual(sorted([
      "+I[1, 2020-04-15 08:00:01, 2020-04-15 08:00:02]", "+I[2, 2020-04-15 08:00:02, 2020-04-15 08:00:05]", "+I[5, 2020-04-15 08:00:05, 2020-04-15 08:00:06]",
      "+I[10, 2020-04-15 08:00:11, 2020-04-15 08:00:16]",
    ]));
  });

  it("R-017 interval-join-negative-interval: LEFT OUTER with the bounds in ON pads every order", async () => {
    const sql = `SELECT
     o.id AS order_id,
     o.order_ts_str,
     s.shipment_ts_str
 FROM orders_t o LEFT OUTER JOIN shipments_t s
 ON o.id = s.order_id
 AND o.order_ts BETWEEN s.shipment_ts + INTERVAL '10' SECOND AND s.shipment_ts + INTERVAL '5' SECOND;`;
    expect(sorted(await run(intervalEnv(), sql))).toEqual(sorted([
      "+I[1, 2020-04-15 08:00:01, null]", "+I[2, 2020-04-15 08:00:02, null]", "+I[4, 2020-04-15 08:00:04, null]", "+I[5, 2020-04-15 08:00:05, null]",
      "+I[3, 2020-04-15 08:00:03, null]", "+I[7, 2020-04-15 08:00:09, null]", "+I[10, 2020-04-15 08:00:11, null]",
    ]));
  });
});

/** TemporalJoinTestPrograms: Orders and the versioned RatesHistory (a CSV file table with a primary key and a watermark). */
async function temporalEnv(): Promise<TableEnvironment> {
  const { mkdtempSync, writeFileSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const { join } = await import("node:path");
  const dir = mkdtempSync(join(tmpdir(), "ts-sql-temporal-"));
  writeFileSync(join(dir, "orders.csv"), ["2,Euro,2020-10-10 00:00:42", "1,USD,2020-10-10 00:00:43", "50,Yen,2020-10-10 00:00:44",
    "3,Euro,2020-10-10 00:00:45", "1,Euro,2020-10-10 00:00:58", "1,USD,2020-10-10 00:00:58"].join("\n") + "\n");
  writeFileSync(join(dir, "rates.csv"), ["USD,102,2020-10-10 00:00:41", "Euro,114,2020-10-10 00:00:41", "Yen,1,2020-10-10 00:00:41",
    "Euro,116,2020-10-10 00:00:45", "Euro,119,2020-10-10 00:00:47", "USD,103,2020-10-10 00:00:58", "Euro,120,2020-10-10 00:00:59"].join("\n") + "\n");
  const env = streaming();
  env.executeSql(`CREATE TABLE Orders (amount bigint, currency STRING, order_time STRING, rowtime as TO_TIMESTAMP(order_time), WATERMARK FOR rowtime AS rowtime)
    WITH ('connector' = 'filesystem', 'path' = '${join(dir, "orders.csv")}', 'format' = 'csv')`);
  env.executeSql(`CREATE TABLE RatesHistory (currency STRING, rate bigint, rate_time STRING, rowtime as TO_TIMESTAMP(rate_time), WATERMARK FOR rowtime AS rowtime,
    PRIMARY KEY(currency) NOT ENFORCED) WITH ('connector' = 'filesystem', 'path' = '${join(dir, "rates.csv")}', 'format' = 'csv')`);
  return env;
}
const AMOUNTS = ["+I[102]", "+I[228]", "+I[348]", "+I[50]", "+I[103]", "+I[119]"];

describe("temporal joins in SQL", () => {
  it("R-019 (key as an expression): JOIN RatesHistory FOR SYSTEM_TIME AS OF o.rowtime AS r ON (CASE ...) = r.currency", async () => {
    // Flink's program reads the currency from a nested ROW field; here it is a column, as in the Table API form
    const env = await temporalEnv();
    const sql = "SELECT amount * r.rate FROM Orders AS o JOIN RatesHistory FOR SYSTEM_TIME AS OF o.rowtime AS r "
      + "ON (case when o.currency = 'usd' then upper(o.currency) ELSE o.currency END) = r.currency";
    expect(env.sqlQuery(sql).explain()).toContain("TemporalJoin");
    expect(sorted(await run(env, sql))).toEqual(sorted(AMOUNTS));
    // RatesHistory's rowtime is named rowtime0 next to Orders' rowtime
    expect(env.sqlQuery("SELECT * FROM Orders AS o JOIN RatesHistory FOR SYSTEM_TIME AS OF o.rowtime AS r ON o.currency = r.currency").getResolvedSchema().names)
      .toEqual(["amount", "currency", "order_time", "rowtime", "currency0", "rate", "rate_time", "rowtime0"]);
  });

  it("R-021 temporal-join-temporal-function: FROM Orders AS o, LATERAL TABLE (Rates(o.rowtime)) AS r WHERE o.currency = r.currency", async () => {
    const env = await temporalEnv();
    const history = env.from("RatesHistory").select($("currency").as("r_currency"), $("rate"), $("rowtime").as("rate_rowtime"));
    env.createTemporaryFunction("Rates", history.createTemporalTableFunction($("rate_rowtime"), $("r_currency")) as never);
    const sql = "SELECT amount * r.rate FROM Orders AS o,  LATERAL TABLE (Rates(o.rowtime)) AS r WHERE o.currency = r.r_currency ";
    expect(sorted(await run(env, sql))).toEqual(sorted(AMOUNTS));
  });

  it("FOR SYSTEM_TIME AS OF a table without a primary key is an error naming it", async () => {
    const env = await temporalEnv();
    expect(() => env.sqlQuery("SELECT * FROM RatesHistory AS r JOIN Orders FOR SYSTEM_TIME AS OF r.rowtime AS o ON o.currency = r.currency"))
      .toThrow("SQL validation failed. At line 1, column 38: FOR SYSTEM_TIME AS OF needs a versioned table: 'Orders' must declare a PRIMARY KEY and a WATERMARK (it has no primary key)");
  });
});

describe("LATERAL TABLE of a table function in SQL", () => {
  it("comma / CROSS JOIN LATERAL and LEFT JOIN LATERAL ... ON TRUE: joinLateral / leftOuterJoinLateral; AS r (c) renames", async () => {
    const { SplitFunction } = await import("../../examples/table-api/split-function.js");
    const env = streaming();
    env.executeSql("CREATE VIEW Orders (id, tags) AS VALUES (1, 'red, green'), (2, 'blue'), (3, CAST(NULL AS STRING))");
    env.createTemporaryFunction("split", SplitFunction);
    expect(await run(env, "SELECT o.id, r.tag FROM Orders AS o, LATERAL TABLE(split(o.tags)) AS r (tag)"))
      .toEqual(["+I[1, red]", "+I[1, green]", "+I[2, blue]"]);
    expect(await run(env, "SELECT id, tag FROM Orders CROSS JOIN LATERAL TABLE(split(tags)) AS r (tag) WHERE tag <> 'red'"))
      .toEqual(["+I[1, green]", "+I[2, blue]"]);
    expect(await run(env, "SELECT id, f0 FROM Orders LEFT JOIN LATERAL TABLE(split(tags)) ON TRUE"))
      .toEqual(["+I[1, red]", "+I[1, green]", "+I[2, blue]", "+I[3, null]"]);
  });
});
