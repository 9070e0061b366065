// Filter pushdown into lookup sources (R-023 with 'filterable-fields', as Flink's test values source declares
// it): conditions on the dimension table alone go into the source, which applies them; the rows stay the same.
import { describe, expect, it } from "vitest";
import { $, DataTypes, EnvironmentSettings, Row, Schema, TableEnvironment, call, defineConnector, option } from "../../../src/index.js";
import { type PushedFilter, pushedFilterPredicate } from "../../../src/plan/pushed-filter.js";

const CUSTOMERS: unknown[][] = [
  [1, "Bob", 28, "Mountain View", "California", 94043], [2, "Alice", 32, "San Francisco", "California", 95016],
  [3, "Claire", 37, "Austin", "Texas", 73301], [4, "Shannon", 29, "Boise", "Idaho", 83701], [5, "Jake", 42, "New York City", "New York", 10001],
];
const ORDERS = [
  Row.of(1, 3, 44.44), Row.of(2, 5, 100.02), Row.of(4, 2, 92.61), Row.of(3, 1, 23.89), Row.of(6, 4, 7.65), Row.of(5, 2, 12.78),
];
const ORDERS_SCHEMA = Schema.newBuilder().column("order_id", DataTypes.INT()).column("customer_id", DataTypes.INT()).column("total", DataTypes.DOUBLE())
  .columnByExpression("proc_time", "PROCTIME()").build();
const COLS = "O.order_id, O.total, C.id, C.name, C.age, C.city, C.state, C.zipcode";

/** A dimension table applying the filters it accepts ('filterable-fields', `;`-separated), recording what it got. */
function setup(filterable?: string) {
  const seen = { filters: [] as PushedFilter[][], rowsReturned: 0 };
  const connector = defineConnector({
    name: "values-dim",
    options: { "filterable-fields": option.string({ description: "Columns whose filters the source applies (Flink's test values source)." }) },
    lookup: {
      acceptFilter: (f, table) => {
        const fields = (table.options["filterable-fields"] ?? "").split(";").filter((x) => x !== "");
        const columns = f.op === "OR" ? f.any!.map((g) => g.column) : [f.column];
        return columns.every((c) => fields.includes(c));
      },
      createReader: (ctx) => {
        seen.filters.push([...ctx.filters]);
        const idx = ctx.keys.map((k) => ctx.columns.findIndex((c) => c.name === k));
        const passes = pushedFilterPredicate(ctx.filters, (name) => ctx.columns.findIndex((c) => c.name === name));
        return {
          lookup: async (key: readonly unknown[]) => {
            const rows = CUSTOMERS.filter((r) => idx.every((c, i) => r[c] === key[i]) && passes(r));
            seen.rowsReturned += rows.length;
            return rows;
          },
        };
      },
    },
  });
  const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
  env.registerConnector(connector);
  env.executeSql("CREATE TABLE customers_t (id INT, name STRING, age INT, city STRING, state STRING, zipcode INT, PRIMARY KEY (id) NOT ENFORCED) "
    + `WITH ('connector' = 'values-dim'${filterable === undefined ? "" : `, 'filterable-fields' = '${filterable}'`})`);
  env.createTemporaryView("orders_t", env.fromValues(ORDERS_SCHEMA, ORDERS) as never);
  return { env, seen };
}

const R023 = `SELECT ${COLS} FROM orders_t as O JOIN customers_t FOR SYSTEM_TIME AS OF O.proc_time AS C ON O.customer_id = C.id AND C.age > 30`;
const R023_ROWS = [
  "+I[1, 44.44, 3, Claire, 37, Austin, Texas, 73301]", "+I[2, 100.02, 5, Jake, 42, New York City, New York, 10001]",
  "+I[4, 92.61, 2, Alice, 32, San Francisco, California, 95016]", "+I[5, 12.78, 2, Alice, 32, San Francisco, California, 95016]",
];

describe("filter pushdown into lookup sources", () => {
  it("R-023 with 'filterable-fields' = 'age': C.age > 30 goes into the source; explain shows it; the rows are Flink's", async () => {
    const { env, seen } = setup("age");
    const plan = env.sqlQuery(R023).explain();
    expect(plan).toMatch(/LookupJoin\(table=\[customers_t\], joinType=\[InnerJoin\], lookup=\[customer_id\], filter=\[age > 30\], changelogMode=\[I\]\)/);
    expect(await env.executeSql(R023).toChangelog()).toEqual(R023_ROWS);
    expect(seen.filters).toEqual([[{ column: "age", op: ">", value: 30 }]]);
    // Bob (28) and Shannon (29) never left the source
    expect(seen.rowsReturned).toBe(4);
  });

  it("a LOOKUP hint shapes the calls and the filters still reach the source", async () => {
    const { env, seen } = setup("age");
    const sql = R023.replace("SELECT ", "SELECT /*+ LOOKUP('table'='C', 'async'='false') */ ");
    expect(env.sqlQuery(sql).explain()).toMatch(/filter=\[age > 30\], changelogMode/);
    expect(await env.executeSql(sql).toChangelog()).toEqual(R023_ROWS);
    expect(seen.filters).toEqual([[{ column: "age", op: ">", value: 30 }]]);
  });

  it("without 'filterable-fields' nothing is pushed: the join filters, the rows are the same", async () => {
    const { env, seen } = setup();
    expect(env.sqlQuery(R023).explain()).toMatch(/LookupJoin\(table=\[customers_t\], joinType=\[InnerJoin\], lookup=\[customer_id\], where=\[.*age.*30.*\]\)/);
    expect(await env.executeSql(R023).toChangelog()).toEqual(R023_ROWS);
    expect(seen.filters).toEqual([[]]);
    expect(seen.rowsReturned).toBe(6);
  });

  it("R-027: a LEFT join pushes its dimension conjunct and keeps the one over the left side", async () => {
    const { env, seen } = setup("age;state");
    const sql = `SELECT ${COLS} FROM orders_t as O LEFT JOIN customers_t FOR SYSTEM_TIME AS OF O.proc_time AS C ON O.customer_id = C.id AND C.age > 30 AND O.customer_id <> 3`;
    expect(env.sqlQuery(sql).explain()).toMatch(/joinType=\[LeftOuterJoin\], lookup=\[customer_id\], filter=\[age > 30\], where=\[.*customer_id.*3.*\]\)/);
    expect(await env.executeSql(sql).toChangelog()).toEqual([
      "+I[1, 44.44, null, null, null, null, null, null]", "+I[2, 100.02, 5, Jake, 42, New York City, New York, 10001]",
      "+I[4, 92.61, 2, Alice, 32, San Francisco, California, 95016]", "+I[3, 23.89, null, null, null, null, null, null]",
      "+I[6, 7.65, null, null, null, null, null, null]", "+I[5, 12.78, 2, Alice, 32, San Francisco, California, 95016]",
    ]);
    expect(seen.filters).toEqual([[{ column: "age", op: ">", value: 30 }]]);
  });

  it("a WHERE on the dimension over an INNER join is pushed; over a LEFT join it stays (padded rows)", async () => {
    const inner = setup("state;age");
    const where = `SELECT O.order_id, C.name FROM orders_t as O JOIN customers_t FOR SYSTEM_TIME AS OF O.proc_time AS C ON O.customer_id = C.id WHERE C.state IN ('California', 'Texas') AND O.total > 20`;
    expect(inner.env.sqlQuery(where).explain()).toMatch(/filter=\[state IN \('California', 'Texas'\)\]/);
    expect(await inner.env.executeSql(where).toChangelog()).toEqual(["+I[1, Claire]", "+I[4, Alice]", "+I[3, Bob]"]);
    expect(inner.seen.filters).toEqual([[{ column: "state", op: "IN", value: ["California", "Texas"] }]]);
    const left = setup("state");
    const leftWhere = `SELECT O.order_id, C.name FROM orders_t as O LEFT JOIN customers_t FOR SYSTEM_TIME AS OF O.proc_time AS C ON O.customer_id = C.id WHERE C.state IS NULL OR C.state = 'Texas'`;
    expect(left.env.sqlQuery(leftWhere).explain()).not.toMatch(/filter=\[/);
    expect(await left.env.executeSql(leftWhere).toChangelog()).toEqual(["+I[1, Claire]"]);
    expect(left.seen.filters).toEqual([[]]);
  });

  it("a dimension column renamed because the left side has it is pushed under the source's own name", async () => {
    const { env, seen } = setup("name");
    env.createTemporaryView("named_orders", env.fromValues(Schema.newBuilder().column("order_id", DataTypes.INT()).column("customer_id", DataTypes.INT())
      .column("name", DataTypes.STRING()).columnByExpression("proc_time", "PROCTIME()").build(), Row.of(1, 2, "x"), Row.of(2, 3, "y")) as never);
    const sql = "SELECT O.order_id, O.name, C.name FROM named_orders AS O JOIN customers_t FOR SYSTEM_TIME AS OF O.proc_time AS C ON O.customer_id = C.id AND C.name <> 'Alice'";
    expect(env.sqlQuery(sql).explain()).toMatch(/filter=\[name <> 'Alice'\]/);
    expect(await env.executeSql(sql).toChangelog()).toEqual(["+I[2, y, Claire]"]);
    expect(seen.filters).toEqual([[{ column: "name", op: "<>", value: "Alice" }]]);
  });

  it("the Table API's joinLateral condition is pushed the same way", async () => {
    const { env, seen } = setup("age;city");
    const orders = env.fromValues(ORDERS_SCHEMA, ORDERS);
    const t = orders.joinLateral(call(env.lookupFunction<{ id: number; name: string | null; age: number | null; city: string | null }>("customers_t", "id"), $("customer_id")),
      $("age").isLessOrEqual(32).and($("city").isEqual("Boise").or($("city").isEqual("Mountain View")))).select($("order_id"), $("name"));
    expect(t.explain()).toMatch(/filter=\[age <= 32 AND \(city = 'Boise' OR city = 'Mountain View'\)\]/);
    expect(await t.execute().toChangelog()).toEqual(["+I[3, Bob]", "+I[6, Shannon]"]);
    expect(seen.filters[0]).toHaveLength(2);
  });
});
