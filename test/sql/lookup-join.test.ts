// SQL lookup joins, `JOIN customers_t FOR SYSTEM_TIME AS OF O.proc_time AS C ON ...` (R-023 .. R-029), against a
// connector with a lookup side written with the public connector API. Flink's restore programs change the
// dimension table between the phases (Bob's row replaced, Joana added): phase 1 runs the before orders against
// the before customers, then the table content is replaced and phase 2 runs the after orders.
import { describe, expect, it } from "vitest";
import { DataTypes, EnvironmentSettings, Row, Schema, TableEnvironment, ValidationError, SqlParseError, defineConnector } from "../../src/index.js";

const sorted = (rows: readonly string[]) => [...rows].sort();

const CUSTOMERS_BEFORE: unknown[][] = [
  [1, "Bob", 28, "Mountain View", "California", 94043], [2, "Alice", 32, "San Francisco", "California", 95016],
  [3, "Claire", 37, "Austin", "Texas", 73301], [4, "Shannon", 29, "Boise", "Idaho", 83701], [5, "Jake", 42, "New York City", "New York", 10001],
];
const CUSTOMERS_AFTER: unknown[][] = [
  [1, "Bob", 28, "San Jose", "California", 94089], ...CUSTOMERS_BEFORE.slice(1), [6, "Joana", 54, "Atlanta", "Georgia", 30033],
];
const ORDERS_SCHEMA = Schema.newBuilder()
  .column("order_id", DataTypes.INT()).column("customer_id", DataTypes.INT()).column("total", DataTypes.DOUBLE()).column("order_time", DataTypes.STRING())
  .columnByExpression("proc_time", "PROCTIME()")
  .build();
const ORDERS_BEFORE = [
  Row.of(1, 3, 44.44, "2020-10-10 00:00:01"), Row.of(2, 5, 100.02, "2020-10-10 00:00:02"), Row.of(4, 2, 92.61, "2020-10-10 00:00:04"),
  Row.of(3, 1, 23.89, "2020-10-10 00:00:03"), Row.of(6, 4, 7.65, "2020-10-10 00:00:06"), Row.of(5, 2, 12.78, "2020-10-10 00:00:05"),
];
const ORDERS_AFTER = [Row.of(7, 6, 17.58, "2020-10-10 00:00:07"), Row.of(9, 1, 143.21, "2020-10-10 00:00:08")];

/** An in-memory dimension table with a lookup side (by any key columns), answering asynchronously when `async`. */
function dimension() {
  const state = { rows: CUSTOMERS_BEFORE, lookups: 0 };
  const connector = defineConnector({
    name: "memory-dim",
    options: {},
    lookup: {
      createReader: (ctx) => {
        const idx = ctx.keys.map((k) => ctx.columns.findIndex((c) => c.name === k));
        return {
          lookup: async (key: readonly unknown[]) => {
            state.lookups++;
            await new Promise((r) => setImmediate(r));
            return state.rows.filter((r) => idx.every((c, i) => r[c] === key[i]));
          },
        };
      },
    },
  });
  return { state, connector };
}

const CUSTOMERS_DDL = "CREATE TABLE customers_t (id INT, name STRING, age INT, city STRING, state STRING, zipcode INT, PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'memory-dim')";
const SINK_COLUMNS = "O.order_id, O.total, C.id, C.name, C.age, C.city, C.state, C.zipcode";

async function phases(sql: string): Promise<{ before: string[]; after: string[]; env: TableEnvironment }> {
  const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
  const dim = dimension();
  env.registerConnector(dim.connector);
  env.executeSql(CUSTOMERS_DDL);
  env.createTemporaryView("orders_t", env.fromValues(ORDERS_SCHEMA, ORDERS_BEFORE) as never);
  const before = await env.executeSql(sql).toChangelog();
  dim.state.rows = CUSTOMERS_AFTER;
  env.dropTemporaryView("orders_t");
  env.createTemporaryView("orders_t", env.fromValues(ORDERS_SCHEMA, ORDERS_AFTER) as never);
  const after = await env.executeSql(sql).toChangelog();
  return { before, after, env };
}

describe("SQL lookup joins: Flink's programs", () => {
  it("R-023 lookup-join-filter-pushdown: inner lookup join with C.age > 30", async () => {
    const r = await phases(`SELECT ${SINK_COLUMNS} FROM orders_t as O JOIN customers_t FOR SYSTEM_TIME AS OF O.proc_time AS C ON O.customer_id = C.id AND C.age > 30`);
    expect(r.before).toEqual([
      "+I[1, 44.44, 3, Claire, 37, Austin, Texas, 73301]", "+I[2, 100.02, 5, Jake, 42, New York City, New York, 10001]",
      "+I[4, 92.61, 2, Alice, 32, San Francisco, California, 95016]", "+I[5, 12.78, 2, Alice, 32, San Francisco, California, 95016]",
    ]);
    expect(r.after).toEqual(["+I[7, 17.58, 6, Joana, 54, Atlanta, Georgia, 30033]"]);
  });

  it("R-025 lookup-join-post-filter: LEFT lookup join with CAST(O.total AS INT) < C.age", async () => {
    const r = await phases(`SELECT ${SINK_COLUMNS} FROM orders_t as O LEFT JOIN customers_t FOR SYSTEM_TIME AS OF O.proc_time AS C ON O.customer_id = C.id AND CAST(O.total AS INT) < C.age`);
    expect(r.before).toEqual([
      "+I[1, 44.44, null, null, null, null, null, null]", "+I[2, 100.02, null, null, null, null, null, null]",
      "+I[4, 92.61, null, null, null, null, null, null]", "+I[3, 23.89, 1, Bob, 28, Mountain View, California, 94043]",
      "+I[6, 7.65, 4, Shannon, 29, Boise, Idaho, 83701]", "+I[5, 12.78, 2, Alice, 32, San Francisco, California, 95016]",
    ]);
    expect(r.after).toEqual(["+I[7, 17.58, 6, Joana, 54, Atlanta, Georgia, 30033]", "+I[9, 143.21, null, null, null, null, null, null]"]);
  });

  it("R-027 lookup-join-left-join: LEFT with C.age > 30 AND O.customer_id <> 3", async () => {
    const r = await phases(`SELECT ${SINK_COLUMNS} FROM orders_t as O LEFT JOIN customers_t FOR SYSTEM_TIME AS OF O.proc_time AS C ON O.customer_id = C.id AND C.age > 30 AND O.customer_id <> 3`);
    expect(r.before).toEqual([
      "+I[1, 44.44, null, null, null, null, null, null]", "+I[2, 100.02, 5, Jake, 42, New York City, New York, 10001]",
      "+I[4, 92.61, 2, Alice, 32, San Francisco, California, 95016]", "+I[3, 23.89, null, null, null, null, null, null]",
      "+I[6, 7.65, null, null, null, null, null, null]", "+I[5, 12.78, 2, Alice, 32, San Francisco, California, 95016]",
    ]);
    expect(r.after).toEqual(["+I[7, 17.58, 6, Joana, 54, Atlanta, Georgia, 30033]", "+I[9, 143.21, null, null, null, null, null, null]"]);
  });

  const R028 = {
    before: [
      "+I[1, 44.44, 3, Claire, 37, Austin, Texas, 73301]", "+I[2, 100.02, 5, Jake, 42, New York City, New York, 10001]",
      "+I[4, 92.61, 2, Alice, 32, San Francisco, California, 95016]", "+I[3, 23.89, 1, Bob, 28, Mountain View, California, 94043]",
      "+I[6, 7.65, 4, Shannon, 29, Boise, Idaho, 83701]", "+I[5, 12.78, 2, Alice, 32, San Francisco, California, 95016]",
    ],
    after: ["+I[7, 17.58, 6, Joana, 54, Atlanta, Georgia, 30033]", "+I[9, 143.21, 1, Bob, 28, San Jose, California, 94089]"],
  };

  it("R-029 lookup-join-retry-hint: the LOOKUP hint with a retry on misses changes nothing without misses", async () => {
    const r = await phases(`INSERT INTO sink_t SELECT /*+ LOOKUP('table'='C', 'retry-predicate'='lookup_miss', 'retry-strategy'='fixed_delay', 'fixed-delay'='10s', 'max-attempts'='3') */ ${SINK_COLUMNS} FROM orders_t as O JOIN customers_t FOR SYSTEM_TIME AS OF O.proc_time AS C ON O.customer_id = C.id`
      .replace("INSERT INTO sink_t ", ""));
    expect(r.before).toEqual(R028.before);
    expect(r.after).toEqual(R028.after);
  });

  it("R-028's async hint (allow_unordered, timeout, capacity) gives the same rows (order not asserted)", async () => {
    const r = await phases(`SELECT /*+ LOOKUP('table'='C', 'async'='true', 'output-mode'='allow_unordered', 'timeout'='500s', 'capacity'='2000') */ ${SINK_COLUMNS} FROM orders_t as O JOIN customers_t FOR SYSTEM_TIME AS OF O.proc_time AS C ON O.customer_id = C.id`);
    expect(sorted(r.before)).toEqual(sorted(R028.before));
    expect(sorted(r.after)).toEqual(sorted(R028.after));
  });

  it("runs INSERT INTO a sink, and explain shows the Table API's LookupJoin", async () => {
    const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    const dim = dimension();
    env.registerConnector(dim.connector);
    env.executeSql(CUSTOMERS_DDL);
    env.createTemporaryView("orders_t", env.fromValues(ORDERS_SCHEMA, ORDERS_BEFORE) as never);
    const q = `SELECT ${SINK_COLUMNS} FROM orders_t as O JOIN customers_t FOR SYSTEM_TIME AS OF O.proc_time AS C ON O.customer_id = C.id AND C.age > 40`;
    expect(env.sqlQuery(q).explain()).toContain("LookupJoin(table=[customers_t], joinType=[InnerJoin], lookup=[customer_id]");
    expect(await env.executeSql(q).toChangelog()).toEqual(["+I[2, 100.02, 5, Jake, 42, New York City, New York, 10001]"]);
  });
});

describe("SQL lookup joins: rules", () => {
  const env = () => {
    const e = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    const dim = dimension();
    e.registerConnector(dim.connector);
    e.executeSql(CUSTOMERS_DDL);
    e.createTemporaryView("orders_t", e.fromValues(ORDERS_SCHEMA, ORDERS_BEFORE) as never);
    return { e, dim };
  };

  it("a key column the left side has too is renamed (id0); the retry hint asks a missing key again", async () => {
    const { e, dim } = env();
    e.createTemporaryView("o2", e.sqlQuery("SELECT order_id AS id, customer_id, proc_time FROM orders_t") as never);
    const q = e.sqlQuery("SELECT /*+ LOOKUP('table'='customers_t', 'retry-predicate'='lookup_miss', 'retry-strategy'='fixed_delay', 'fixed-delay'='1ms', 'max-attempts'='2') */ o2.id, c.id, c.name FROM o2 JOIN customers_t FOR SYSTEM_TIME AS OF o2.proc_time AS c ON c.id = o2.id AND c.age > 30");
    expect(q.getResolvedSchema().names).toEqual(["id", "id0", "name"]);
    expect(sorted(await q.execute().toChangelog())).toEqual(["+I[2, 2, Alice]", "+I[3, 3, Claire]", "+I[5, 5, Jake]"]);
    expect(dim.state.lookups).toBe(5 + 3);
  });

  it("a table that cannot be looked up, a missing key equality and bad hints are Flink's errors", () => {
    const { e } = env();
    e.createTemporaryView("plain", e.fromValues(ORDERS_SCHEMA, ORDERS_BEFORE) as never);
    expect(() => e.sqlQuery("SELECT * FROM orders_t AS o JOIN plain FOR SYSTEM_TIME AS OF o.proc_time AS p ON o.order_id = p.order_id"))
      .toThrow(/Processing-time temporal join is not supported yet. 'plain' is not a connector table/);
    expect(() => e.sqlQuery("SELECT * FROM orders_t AS O JOIN customers_t FOR SYSTEM_TIME AS OF O.proc_time AS C ON C.age > 30"))
      .toThrow(/Temporal table join requires an equality condition on fields of table \[customers_t\]/);
    // FOR SYSTEM_TIME AS OF needs a left side to take the time from; LATERAL TABLE likewise
    expect(() => e.sqlQuery("SELECT * FROM customers_t FOR SYSTEM_TIME AS OF TIMESTAMP '2020-10-10 00:00:00' AS C"))
      .toThrow(/FOR SYSTEM_TIME AS OF must be the right side of a join/);
    expect(() => e.sqlQuery("SELECT * FROM LATERAL TABLE(f(1))")).toThrow(/LATERAL TABLE\(\.\.\.\) must be the right side of a join/);
    const hinted = (hint: string) => () => e.sqlQuery(`SELECT /*+ ${hint} */ O.order_id FROM orders_t AS O JOIN customers_t FOR SYSTEM_TIME AS OF O.proc_time AS C ON O.customer_id = C.id`);
    expect(hinted("LOOKUP('table'='C', 'asnyc'='true')")).toThrow(/Invalid LOOKUP hint options: unsupported option\(s\) 'asnyc'/);
    expect(hinted("LOOKUP('table'='C', 'max-attempts'='3')")).toThrow(/the retry options .* go together; missing 'retry-predicate'/);
    expect(hinted("LOOKUP('async'='true')")).toThrow(/the option 'table' is required/);
    expect(hinted("LOOKUP('table'='C', 'timeout'='soon')")).toThrow(/'soon' is not a duration/);
    expect(hinted("LOOKUP('table'='C', 'capacity'='0')")).toThrow(ValidationError);
    expect(() => e.sqlQuery("SELECT /*+ LOOKUP('table' = ) */ 1 FROM orders_t")).toThrow(SqlParseError);
    expect(() => e.sqlQuery("SELECT /* a comment */ order_id FROM orders_t /* unterminated")).toThrow(/unterminated comment/);
  });

  it("plain comments are skipped; hints on other tables are ignored", async () => {
    const { e } = env();
    const rows = await e.executeSql("SELECT /* the ids */ /*+ LOOKUP('table'='other') */ O.order_id FROM orders_t AS O JOIN customers_t FOR SYSTEM_TIME AS OF O.proc_time AS C ON O.customer_id = C.id WHERE C.age < 30").toChangelog();
    expect(rows).toEqual(["+I[3]", "+I[6]"]);
  });
});
