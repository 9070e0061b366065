// §1 regular joins, §2 interval joins, §3 temporal joins (JoinTestPrograms, IntervalJoinTestPrograms,
// TemporalJoinTestPrograms): two-phase restore form through SQL, Flink's exact rows (multisets; outer and
// anti joins compared materialized, as Flink's testMaterializedData does).
import { describe, expect, it } from "vitest";
import { $ } from "../../src/index.js";
import { type CatalogueSource, materialized, runRestore, sorted } from "./restore-runner.js";

const EMPLOYEE: CatalogueSource = {
  name: "EMPLOYEE", columns: "deptno int, salary bigint, name varchar",
  before: [[null, 101, "Adam"], [1, 1, "Baker"], [2, 2, "Charlie"], [3, 2, "Don"], [7, 6, "Victor"]],
  after: [[4, 3, "Juliet"], [4, 4, "Helena"], [1, 1, "Ivana"]],
};
const DEPARTMENT: CatalogueSource = {
  name: "DEPARTMENT", columns: "department_num int, b2 bigint, b3 int, department_name varchar",
  before: [[null, 102, 0, "Accounting"], [1, 1, 0, "Research"], [2, 2, 1, "Human Resources"], [2, 3, 2, "HR"], [3, 1, 2, "Sales"]],
  after: [[2, 4, 3, "People Operations"], [4, 2, 4, "Engineering"]],
};
const DEPARTMENT_NONULLS: CatalogueSource = {
  ...DEPARTMENT,
  before: [[1, 1, 0, "Research"], [2, 2, 1, "Human Resources"], [2, 3, 2, "HR"], [3, 1, 2, "Sales"]],
  after: [[2, 4, 3, "People Operations"]],
};
const T1: CatalogueSource = {
  name: "T1", columns: "a int, b bigint, c varchar",
  before: [[1, 1, "Baker1"], [1, 2, "Baker2"], [1, 2, "Baker2"], [1, 5, "Baker3"], [2, 7, "Baker5"], [1, 9, "Baker6"], [1, 8, "Baker8"], [3, 8, "Baker9"]],
  after: [[1, 1, "PostRestore"]],
};
const T2: CatalogueSource = { name: "T2", columns: "a int, b bigint, c varchar", before: [[1, 1, "BakerBaker"], [2, 2, "HeHe"], [3, 2, "HeHe"]], after: [[2, 1, "PostRestoreRight"]] };
const NAME_DEPT = { name: "MySink", columns: "name varchar, department_name varchar" };
const DEPTNOS = { name: "MySink", columns: "deptno int, department_num int" };

describe("§1 regular joins, restored from a savepoint", () => {
  it("R-001 join-non-window-inner-join", async () => {
    const r = await runRestore({
      sources: [T1, T2], sink: { name: "MySink", columns: "a int, c1 varchar, c2 varchar" },
      sql: `insert into MySink SELECT t2.a, t2.c, t1.c
FROM (
 SELECT if(a = 3, cast(null as int), a) as a, b, c FROM T1
) as t1
JOIN (
 SELECT if(a = 3, cast(null as int), a) as a, b, c FROM T2
) as t2
ON t1.a = t2.a AND t1.b > t2.b`,
    });
    expect(sorted(r.before)).toEqual(sorted([
      "+I[1, BakerBaker, Baker2]", "+I[1, BakerBaker, Baker2]", "+I[1, BakerBaker, Baker3]", "+I[2, HeHe, Baker5]", "+I[1, BakerBaker, Baker6]", "+I[1, BakerBaker, Baker8]",
    ]));
    expect(r.after).toEqual(["+I[2, PostRestoreRight, Baker5]"]);
  });

  it("R-003 join-cross-join", async () => {
    const r = await runRestore({ sources: [EMPLOYEE, DEPARTMENT], sink: NAME_DEPT, sql: "insert into MySink SELECT name, department_name FROM EMPLOYEE, DEPARTMENT" });
    const cross = (names: string[], depts: string[]) => names.flatMap((n) => depts.map((d) => `+I[${n}, ${d}]`));
    const oldNames = ["Adam", "Baker", "Charlie", "Don", "Victor"];
    const oldDepts = ["Accounting", "Research", "Human Resources", "HR", "Sales"];
    expect(sorted(r.before)).toEqual(sorted(cross(oldNames, oldDepts)));
    // the new rows joined with everything held in state and with each other
    expect(sorted(r.after)).toEqual(sorted([
      ...cross(["Juliet", "Helena", "Ivana"], [...oldDepts, "People Operations", "Engineering"]),
      ...cross(oldNames, ["People Operations", "Engineering"]),
    ]));
  });

  it("R-005 join-inner-join-with-duplicate-key", async () => {
    const r = await runRestore({ sources: [EMPLOYEE, DEPARTMENT], sink: DEPTNOS, sql: "insert into MySink SELECT deptno, department_num FROM EMPLOYEE JOIN DEPARTMENT ON deptno = department_num AND deptno = b3" });
    expect(r).toEqual({ before: ["+I[2, 2]"], after: ["+I[4, 4]", "+I[4, 4]"] });
  });

  it("R-007 join-inner-join-with-equal-pk: a join of two aggregates on their keys", async () => {
    const r = await runRestore({
      sources: [EMPLOYEE, DEPARTMENT], sink: DEPTNOS,
      sql: "INSERT INTO MySink SELECT deptno, department_num FROM (SELECT MIN(salary) AS salary, deptno FROM EMPLOYEE GROUP BY deptno) "
        + "JOIN (SELECT MIN(b2) AS b2, department_num FROM DEPARTMENT GROUP BY department_num) ON deptno = department_num",
    });
    expect(sorted(r.before)).toEqual(["+I[1, 1]", "+I[2, 2]", "+I[3, 3]"]);
    expect(r.after).toEqual(["+I[4, 4]"]);
  });

  it("R-009 join-outer-join: FULL OUTER JOIN (materialized)", async () => {
    const r = await runRestore({ sources: [EMPLOYEE, DEPARTMENT], sink: NAME_DEPT, sql: "insert into MySink SELECT name, department_name FROM EMPLOYEE FULL OUTER JOIN DEPARTMENT ON deptno = department_num" });
    const before = ["+I[Adam, null]", "+I[null, Accounting]", "+I[Baker, Research]", "+I[Charlie, Human Resources]", "+I[Charlie, HR]", "+I[Don, Sales]", "+I[Victor, null]"];
    expect(materialized(r.before)).toEqual(sorted(before));
    expect(materialized([...r.before, ...r.after])).toEqual(sorted([
      ...before, "+I[Helena, Engineering]", "+I[Juliet, Engineering]", "+I[Ivana, Research]", "+I[Charlie, People Operations]",
    ]));
  });

  it("R-011 join-right-join (materialized)", async () => {
    const r = await runRestore({ sources: [EMPLOYEE, DEPARTMENT], sink: NAME_DEPT, sql: "insert into MySink SELECT name, department_name FROM EMPLOYEE RIGHT OUTER JOIN DEPARTMENT ON deptno = department_num" });
    const before = ["+I[null, Accounting]", "+I[Baker, Research]", "+I[Charlie, Human Resources]", "+I[Charlie, HR]", "+I[Don, Sales]"];
    expect(materialized(r.before)).toEqual(sorted(before));
    expect(materialized([...r.before, ...r.after])).toEqual(sorted([
      ...before, "+I[Helena, Engineering]", "+I[Juliet, Engineering]", "+I[Ivana, Research]", "+I[Charlie, People Operations]",
    ]));
  });

  it("R-013 join-anti-join: NOT IN (subquery), retracted when a match arrives after the restore (materialized)", async () => {
    const r = await runRestore({ sources: [EMPLOYEE, DEPARTMENT_NONULLS], sink: { name: "MySink", columns: "name varchar" }, sql: "insert into MySink SELECT name FROM EMPLOYEE WHERE deptno NOT IN (SELECT department_num FROM DEPARTMENT)" });
    expect(materialized(r.before)).toEqual(["+I[Victor]"]);
    expect(materialized([...r.before, ...r.after])).toEqual(sorted(["+I[Victor]", "+I[Juliet]", "+I[Helena]"]));
  });
});

const ORDERS_ET = "id INT, order_ts_str STRING, order_ts AS TO_TIMESTAMP(order_ts_str), WATERMARK for `order_ts` AS `order_ts` - INTERVAL '1' SECOND";
const SHIPMENTS_ET = "id INT, order_id INT, shipment_ts_str STRING, shipment_ts AS TO_TIMESTAMP(shipment_ts_str), WATERMARK for `shipment_ts` AS `shipment_ts` - INTERVAL '1' SECOND";
const ORDERS_T: CatalogueSource = {
  name: "orders_t", columns: ORDERS_ET,
  before: [[1, "2020-04-15 08:00:01"], [2, "2020-04-15 08:00:02"], [4, "2020-04-15 08:00:04"], [5, "2020-04-15 08:00:05"], [3, "2020-04-15 08:00:03"]],
  after: [[7, "2020-04-15 08:00:09"], [10, "2020-04-15 08:00:11"]],
};
const SHIPMENTS_T: CatalogueSource = {
  name: "shipments_t", columns: SHIPMENTS_ET,
  before: [[2, 1, "2020-04-15 08:00:02"], [5, 2, "2020-04-15 08:00:05"], [6, 5, "2020-04-15 08:00:06"], [15, 4, "2020-04-15 08:00:15"], [16, 6, "2020-04-15 08:00:15"]],
  after: [[7, 3, "2020-04-15 08:00:15"], [11, 7, "2020-04-15 08:00:16"], [13, 10, "2020-04-15 08:00:16"]],
};
const SINK_T = { name: "sink_t", columns: "order_id INT, order_ts_str STRING, shipment_ts_str STRING" };

describe("§2 interval joins, restored from a savepoint", () => {
  it("R-015 interval-join-event-time: ±5 s; both sides' buffered rows survive the restore", async () => {
    const r = await runRestore({
      sources: [ORDERS_T, SHIPMENTS_T], sink: SINK_T,
      sql: `INSERT INTO sink_t SELECT
     o.id AS order_id,
     o.order_ts_str,
     s.shipment_ts_str
 FROM orders_t o
 JOIN shipments_t s ON o.id = s.order_id
 WHERE o.order_ts BETWEEN s.shipment_ts - INTERVAL '5' SECOND AND s.shipment_ts + INTERVAL '5' SECOND;`,
    });
    expect(sorted(r.before)).toEqual(sorted(["+I[1, 2020-04-15 08:00:01, 2020-04-15 08:00:02]", "+I[2, 2020-04-15 08:00:02, 2020-04-15 08:00:05]", "+I[5, 2020-04-15 08:00:05, 2020-04-15 08:00:06]"]));
    expect(r.after).toEqual(["+I[10, 2020-04-15 08:00:11, 2020-04-15 08:00:16]"]);
  });

  it("R-017 interval-join-negative-interval: a LEFT join over an empty interval pads every order", async () => {
    const r = await runRestore({
      sources: [ORDERS_T, SHIPMENTS_T], sink: SINK_T,
      sql: `INSERT INTO sink_t SELECT
     o.id AS order_id,
     o.order_ts_str,
     s.shipment_ts_str
 FROM orders_t o LEFT OUTER JOIN shipments_t s
 ON o.id = s.order_id
 AND o.order_ts BETWEEN s.shipment_ts + INTERVAL '10' SECOND AND s.shipment_ts + INTERVAL '5' SECOND;`,
    });
    expect(sorted(r.before)).toEqual(sorted([
      "+I[1, 2020-04-15 08:00:01, null]", "+I[2, 2020-04-15 08:00:02, null]", "+I[4, 2020-04-15 08:00:04, null]", "+I[5, 2020-04-15 08:00:05, null]", "+I[3, 2020-04-15 08:00:03, null]",
    ]));
    expect(sorted(r.after)).toEqual(sorted(["+I[7, 2020-04-15 08:00:09, null]", "+I[10, 2020-04-15 08:00:11, null]"]));
  });
});

const RATES: CatalogueSource = {
  name: "RatesHistory",
  columns: "currency STRING, rate bigint, rate_time STRING, rowtime as TO_TIMESTAMP(rate_time) , WATERMARK FOR rowtime AS rowtime, PRIMARY KEY(currency) NOT ENFORCED",
  before: [["USD", 102, "2020-10-10 00:00:41"], ["Euro", 114, "2020-10-10 00:00:41"], ["Yen", 1, "2020-10-10 00:00:41"], ["Euro", 116, "2020-10-10 00:00:45"], ["Euro", 119, "2020-10-10 00:00:47"]],
  after: [["USD", 103, "2020-10-10 00:00:58"], ["Euro", 120, "2020-10-10 00:00:59"]],
};
const AMOUNTS = { name: "MySink", columns: "amount bigint" };
const AMOUNTS_BEFORE = ["+I[102]", "+I[228]", "+I[348]", "+I[50]"];
const AMOUNTS_AFTER = ["+I[103]", "+I[119]"];

describe("§3 temporal joins, restored from a savepoint", () => {
  it("R-019 temporal-join-table-join-nested-key: FOR SYSTEM_TIME AS OF with a key over a nested field", async () => {
    const orders: CatalogueSource = {
      name: "OrdersNestedId",
      columns: "amount bigint, nested_row ROW<currency STRING>, nested_map MAP<STRING NOT NULL, STRING>, order_time STRING, rowtime as TO_TIMESTAMP(order_time) , WATERMARK FOR rowtime AS rowtime",
      before: [
        [2, ["Euro"], new Map([["currency", "Euro"]]), "2020-10-10 00:00:42"], [1, ["usd"], new Map([["currency", "USD"]]), "2020-10-10 00:00:43"],
        [50, ["Yen"], new Map([["currency", "Yen"]]), "2020-10-10 00:00:44"], [3, ["Euro"], new Map([["currency", "Euro"]]), "2020-10-10 00:00:45"],
      ],
      after: [[1, ["Euro"], new Map([["currency", "Euro"]]), "2020-10-10 00:00:58"], [1, ["usd"], new Map([["currency", "USD"]]), "2020-10-10 00:00:58"]],
    };
    const r = await runRestore({
      sources: [orders, RATES], sink: AMOUNTS,
      sql: "INSERT INTO MySink SELECT amount * r.rate FROM OrdersNestedId AS o JOIN RatesHistory FOR SYSTEM_TIME AS OF o.rowtime AS r "
        + "ON (case when o.nested_row.currency = 'usd' then upper(o.nested_row.currency) ELSE o.nested_row.currency END) = r.currency ",
    });
    expect(sorted(r.before)).toEqual(sorted(AMOUNTS_BEFORE));
    expect(sorted(r.after)).toEqual(sorted(AMOUNTS_AFTER));
  });

  it("R-021 temporal-join-temporal-function: LATERAL TABLE (Rates(o.rowtime))", async () => {
    const orders: CatalogueSource = {
      name: "Orders", columns: "amount bigint, currency STRING, order_time STRING, rowtime as TO_TIMESTAMP(order_time) , WATERMARK FOR rowtime AS rowtime",
      before: [[2, "Euro", "2020-10-10 00:00:42"], [1, "USD", "2020-10-10 00:00:43"], [50, "Yen", "2020-10-10 00:00:44"], [3, "Euro", "2020-10-10 00:00:45"]],
      after: [[1, "Euro", "2020-10-10 00:00:58"], [1, "USD", "2020-10-10 00:00:58"]],
    };
    const r = await runRestore({
      sources: [orders, RATES], sink: AMOUNTS,
      setup: (env) => env.createTemporaryFunction("Rates", env.from("RatesHistory").createTemporalTableFunction($("rowtime"), $("currency"))),
      sql: "INSERT INTO MySink SELECT amount * r.rate FROM Orders AS o,  LATERAL TABLE (Rates(o.rowtime)) AS r WHERE o.currency = r.currency ",
    });
    expect(sorted(r.before)).toEqual(sorted(AMOUNTS_BEFORE));
    expect(sorted(r.after)).toEqual(sorted(AMOUNTS_AFTER));
  });
});
