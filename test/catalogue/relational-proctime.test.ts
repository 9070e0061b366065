// Flink's processing-time programs in their two-phase restore form: lookup joins,
// top-N and deduplication on a PROCTIME() column, temporal sort and processing-time
// window aggregation. Each phase reads its own scripted job clock (`clock`); the dimension
// table of the lookup programs holds Flink's "after" rows in phase two (Bob's row replaced, Joana added).
import { describe, expect, it } from "vitest";
import { DataTypes, EnvironmentSettings, Row, Schema, TableEnvironment, defineConnector } from "../../src/index.js";
import { type CatalogueSource, runRestore, sorted } from "./restore-runner.js";

const at = (iso: string) => Date.parse(`${iso}Z`);

// ---- lookup joins ---------------------------------------------------------------------------------------
const CUSTOMERS_BEFORE: unknown[][] = [
  [1, "Bob", 28, "Mountain View", "California", 94043], [2, "Alice", 32, "San Francisco", "California", 95016],
  [3, "Claire", 37, "Austin", "Texas", 73301], [4, "Shannon", 29, "Boise", "Idaho", 83701], [5, "Jake", 42, "New York City", "New York", 10001],
];
const CUSTOMERS_AFTER: unknown[][] = [
  [1, "Bob", 28, "San Jose", "California", 94089], ...CUSTOMERS_BEFORE.slice(1), [6, "Joana", 54, "Atlanta", "Georgia", 30033],
];

/** `customers_t`: a dimension table answering lookups from the rows of the phase it runs in. */
function customers(env: TableEnvironment, phase: "before" | "after"): void {
  const rows = phase === "before" ? CUSTOMERS_BEFORE : CUSTOMERS_AFTER;
  env.registerConnector(defineConnector({
    name: "memory-dim",
    options: {},
    lookup: {
      createReader: (ctx) => {
        const idx = ctx.keys.map((k) => ctx.columns.findIndex((c) => c.name === k));
        return { lookup: async (key: readonly unknown[]) => rows.filter((r) => idx.every((c, i) => r[c] === key[i])) };
      },
    },
  }));
  env.executeSql("CREATE TABLE customers_t (id INT PRIMARY KEY NOT ENFORCED, name STRING, age INT, city STRING, state STRING, zipcode INT) WITH ('connector' = 'memory-dim')");
}

const ORDERS: CatalogueSource = {
  name: "orders_t",
  columns: "order_id INT, customer_id INT, total DOUBLE, order_time STRING, proc_time AS PROCTIME()",
  before: [
    [1, 3, 44.44, "2020-10-10 00:00:01"], [2, 5, 100.02, "2020-10-10 00:00:02"], [4, 2, 92.61, "2020-10-10 00:00:04"],
    [3, 1, 23.89, "2020-10-10 00:00:03"], [6, 4, 7.65, "2020-10-10 00:00:06"], [5, 2, 12.78, "2020-10-10 00:00:05"],
  ],
  after: [[7, 6, 17.58, "2020-10-10 00:00:07"], [9, 1, 143.21, "2020-10-10 00:00:08"]],
};
const LOOKUP_SINK = { name: "sink_t", columns: "order_id INT, total DOUBLE, id INT, name STRING, age INT, city STRING, state STRING, zipcode INT" };
const COLUMNS = "O.order_id, O.total, C.id, C.name, C.age, C.city, C.state, C.zipcode";
const lookup = (sql: string) => runRestore({ sources: [ORDERS], sink: LOOKUP_SINK, setup: customers, sql });

describe("lookup joins (FOR SYSTEM_TIME AS OF O.proc_time), two phases", () => {
  it("R-023 lookup-join-filter-pushdown", async () => {
    const r = await lookup(`INSERT INTO sink_t SELECT ${COLUMNS} FROM orders_t as O JOIN customers_t FOR SYSTEM_TIME AS OF O.proc_time AS C ON O.customer_id = C.id AND C.age > 30`);
    expect(r.before).toEqual([
      "+I[1, 44.44, 3, Claire, 37, Austin, Texas, 73301]", "+I[2, 100.02, 5, Jake, 42, New York City, New York, 10001]",
      "+I[4, 92.61, 2, Alice, 32, San Francisco, California, 95016]", "+I[5, 12.78, 2, Alice, 32, San Francisco, California, 95016]",
    ]);
    expect(r.after).toEqual(["+I[7, 17.58, 6, Joana, 54, Atlanta, Georgia, 30033]"]);
  });

  it("R-025 lookup-join-post-filter", async () => {
    const r = await lookup(`INSERT INTO sink_t SELECT ${COLUMNS} FROM orders_t as O LEFT JOIN customers_t FOR SYSTEM_TIME AS OF O.proc_time AS C ON O.customer_id = C.id AND CAST(O.total AS INT) < C.age`);
    expect(r.before).toEqual([
      "+I[1, 44.44, null, null, null, null, null, null]", "+I[2, 100.02, null, null, null, null, null, null]",
      "+I[4, 92.61, null, null, null, null, null, null]", "+I[3, 23.89, 1, Bob, 28, Mountain View, California, 94043]",
      "+I[6, 7.65, 4, Shannon, 29, Boise, Idaho, 83701]", "+I[5, 12.78, 2, Alice, 32, San Francisco, California, 95016]",
    ]);
    expect(r.after).toEqual(["+I[7, 17.58, 6, Joana, 54, Atlanta, Georgia, 30033]", "+I[9, 143.21, null, null, null, null, null, null]"]);
  });

  it("R-027 lookup-join-left-join", async () => {
    const r = await lookup(`INSERT INTO sink_t SELECT ${COLUMNS} FROM orders_t as O LEFT JOIN customers_t FOR SYSTEM_TIME AS OF O.proc_time AS C ON O.customer_id = C.id AND C.age > 30 AND O.customer_id <> 3`);
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

  it("R-029 lookup-join-retry-hint", async () => {
    const r = await lookup(`INSERT INTO sink_t SELECT /*+ LOOKUP('table'='C', 'retry-predicate'='lookup_miss', 'retry-strategy'='fixed_delay', 'fixed-delay'='10s', 'max-attempts'='3') */ ${COLUMNS} FROM orders_t as O JOIN customers_t FOR SYSTEM_TIME AS OF O.proc_time AS C ON O.customer_id = C.id`);
    expect(r.before).toEqual(R028.before);
    expect(r.after).toEqual(R028.after);
  });

  it("R-028 lookup-join-async-hint (order not asserted, as in Flink)", async () => {
    const r = await lookup(`INSERT INTO sink_t SELECT /*+ LOOKUP('table'='C', 'async'='true', 'output-mode'='allow_unordered', 'timeout'='500s', 'capacity'='2000') */ ${COLUMNS} FROM orders_t as O JOIN customers_t FOR SYSTEM_TIME AS OF O.proc_time AS C ON O.customer_id = C.id`);
    expect(sorted(r.before)).toEqual(sorted(R028.before));
    expect(sorted(r.after)).toEqual(sorted(R028.after));
  });
});

describe("a lookup join's rows in flight at the savepoint", () => {
  it("are in the snapshot and looked up again after the restore (neither lost nor emitted twice)", async () => {
    // phase one: the lookup of customer 2 never answers, so order 4 and every later order wait behind it (input order)
    const stuck = (env: TableEnvironment, phase: "before" | "after") => {
      const rows = phase === "before" ? CUSTOMERS_BEFORE : CUSTOMERS_AFTER;
      env.registerConnector(defineConnector({
        name: "memory-dim",
        options: {},
        lookup: {
          createReader: () => ({
            lookup: (key: readonly unknown[]) => (phase === "before" && key[0] === 2 ? new Promise<unknown[][]>(() => { /* never */ })
              : Promise.resolve(rows.filter((r) => r[0] === key[0]))),
          }),
        },
      }));
      env.executeSql("CREATE TABLE customers_t (id INT PRIMARY KEY NOT ENFORCED, name STRING, age INT, city STRING, state STRING, zipcode INT) WITH ('connector' = 'memory-dim')");
    };
    const r = await runRestore({
      sources: [ORDERS], sink: LOOKUP_SINK, setup: stuck,
      sql: `INSERT INTO sink_t SELECT ${COLUMNS} FROM orders_t as O JOIN customers_t FOR SYSTEM_TIME AS OF O.proc_time AS C ON O.customer_id = C.id`,
    });
    expect(r.before).toEqual(["+I[1, 44.44, 3, Claire, 37, Austin, Texas, 73301]", "+I[2, 100.02, 5, Jake, 42, New York City, New York, 10001]"]);
    // orders 4, 3, 6, 5 were restored and looked up in the table of phase two (Bob's new row)
    expect(r.after).toEqual([
      "+I[4, 92.61, 2, Alice, 32, San Francisco, California, 95016]", "+I[3, 23.89, 1, Bob, 28, San Jose, California, 94089]",
      "+I[6, 7.65, 4, Shannon, 29, Boise, Idaho, 83701]", "+I[5, 12.78, 2, Alice, 32, San Francisco, California, 95016]",
      "+I[7, 17.58, 6, Joana, 54, Atlanta, Georgia, 30033]", "+I[9, 143.21, 1, Bob, 28, San Jose, California, 94089]",
    ]);
  });
});

// ---- top-N, deduplication, temporal sort ------------------------------------------------------------------
describe("top-N, deduplication and sort on a PROCTIME() column, two phases", () => {
  it("R-041 rank-n-test: the first two arrivals per key; state carries the count over the restore", async () => {
    const r = await runRestore({
      sources: [{
        name: "MyTable1", columns: "a STRING, b INT, c INT, t as proctime()",
        before: [["book", 1, 12], ["book", 2, 19], ["book", 4, 11], ["fruit", 4, 33]],
        after: [["cereal", 6, 21], ["cereal", 7, 23], ["apple", 8, 31], ["fruit", 9, 41]],
      }],
      sink: { name: "result1", columns: "a varchar, b int, c bigint" },
      clock: { before: at("2020-10-10T00:00:01"), after: at("2020-10-10T00:00:02") },
      sql: "insert into `result1` select * from (select a, b, row_number() over(partition by a order by t asc) as c from MyTable1) where c <= 2",
    });
    expect(r.before).toEqual(["+I[book, 1, 1]", "+I[book, 2, 2]", "+I[fruit, 4, 1]"]);
    expect(r.after).toEqual(["+I[cereal, 6, 1]", "+I[cereal, 7, 2]", "+I[apple, 8, 1]", "+I[fruit, 9, 2]"]);
  });

  it("R-043 deduplicate-asc-proctime: the first row per product, kept over the restore", async () => {
    const r = await runRestore({
      sources: [{
        name: "MyTable",
        // Flink's DDL also has `event_time as TO_TIMESTAMP(FROM_UNIXTIME(order_time))`, unused by the query;
        // left out here until FROM_UNIXTIME is a built-in
        columns: "order_id bigint, `user` varchar, product varchar, order_time bigint , proctime AS PROCTIME() ",
        before: [[1, "terry", "pen", 1000], [2, "alice", "pen", 2000], [3, "bob", "pen", 3000], [4, "bob", "apple", 4000], [5, "fish", "apple", 5000]],
        after: [[6, "jerry", "pen", 6000], [7, "larry", "apple", 7000], [8, "bill", "banana", 8000], [9, "carol", "apple", 9000]],
      }],
      sink: { name: "MySink", columns: "order_id bigint, `user` varchar, product varchar, order_time bigint, primary key(product) not enforced" },
      clock: { before: at("2020-10-10T00:00:01"), after: at("2020-10-10T00:00:02") },
      sql: `insert into MySink select order_id, user, product, order_time 
FROM (  SELECT *,    ROW_NUMBER() OVER (PARTITION BY product ORDER BY proctime ASC) AS row_num
  FROM MyTable)WHERE row_num = 1`,
    });
    expect(r.before).toEqual(["+I[1, terry, pen, 1000]", "+I[4, bob, apple, 4000]"]);
    expect(r.after).toEqual(["+I[8, bill, banana, 8000]"]);
  });

  // Rows of one processing time wait for the clock to pass it (Flink's ProcTimeSortOperator: a timer at t + 1 ms);
  // phase one's clock moves on while its source is idle, and the timer releases them before the savepoint.
  it("R-135 temporal-sort-proctime: rows leave in arrival order, each phase's when the clock passes it", async () => {
    const r = await runRestore({
      sources: [{
        name: "source_t", columns: "a INT, b BIGINT, c STRING, `proctime` as PROCTIME()",
        before: [[1, 1, "Hi"], [2, 2, "Hello"], [3, 2, "Hello world"]], after: [[4, 1, "Guten Morgen"], [5, 2, "Guten Tag"]],
      }],
      sink: { name: "sink_t", columns: "a INT" },
      clock: { before: at("2020-10-10T00:00:01"), beforeSavepoint: at("2020-10-10T00:00:01.001"), after: at("2020-10-10T00:00:02") },
      sql: "INSERT INTO sink_t SELECT a from source_t ORDER BY proctime",
    });
    expect(r.before).toEqual(["+I[1]", "+I[2]", "+I[3]"]);
    expect(r.after).toEqual(["+I[4]", "+I[5]"]);
  });

  it("R-135 while the clock has not passed the rows' time, they wait (and are restored)", async () => {
    const r = await runRestore({
      sources: [{
        name: "source_t", columns: "a INT, b BIGINT, c STRING, `proctime` as PROCTIME()",
        before: [[1, 1, "Hi"], [2, 2, "Hello"], [3, 2, "Hello world"]], after: [[4, 1, "Guten Morgen"], [5, 2, "Guten Tag"]],
      }],
      sink: { name: "sink_t", columns: "a INT" },
      clock: { before: at("2020-10-10T00:00:01"), after: at("2020-10-10T00:00:02") },
      sql: "INSERT INTO sink_t SELECT a from source_t ORDER BY proctime",
    });
    expect(r.before).toEqual([]);
    expect(r.after).toEqual(["+I[1]", "+I[2]", "+I[3]", "+I[4]", "+I[5]"]);
  });
});

// ---- processing-time window aggregation ---------------------------------------------------------------
const BID: CatalogueSource = {
  name: "bid_t",
  columns: "ts STRING, price DECIMAL(10,2), item STRING, `bid_time` AS TO_TIMESTAMP(`ts`), `proc_time` AS PROCTIME(), WATERMARK for `bid_time` AS `bid_time` - INTERVAL '1' SECOND",
  before: [
    ["2020-04-15 08:00:05", "4.00", "C"], ["2020-04-15 08:00:07", "2.00", "A"], ["2020-04-15 08:00:09", "5.00", "D"],
    ["2020-04-15 08:00:11", "3.00", "B"], ["2020-04-15 08:00:13", "1.00", "E"], ["2020-04-15 08:00:17", "6.00", "F"],
  ],
  after: [["2020-04-15 08:00:21", "4.00", "A"], ["2020-04-15 08:00:27", "5.00", "C"]],
};
const PROC_AGG = (tvf: string) => `INSERT INTO sink_t SELECT
     SUM(price)
 FROM
     ${tvf}
 GROUP BY window_start, window_end`;
const PROC_SINK = { name: "sink_t", columns: "price DECIMAL(10,2)" };

describe("processing-time window aggregation, two phases", () => {
  // Flink fires a processing-time window on a timer at its end: phase one's clock moves past 08:00:10 while the
  // source is idle (no later row), the job wakes at the window's timer and its 21.00 is out before the savepoint.
  // Phase two's rows fall in [08:00:10, 08:00:20), which the end of the bounded input fires.
  it("R-161 window-table-function-tumble-tvf-agg-proc-time", async () => {
    const r = await runRestore({
      sources: [BID], sink: PROC_SINK,
      clock: { before: at("2020-04-15T08:00:01"), beforeSavepoint: at("2020-04-15T08:00:10"), after: at("2020-04-15T08:00:12") },
      sql: PROC_AGG("TABLE(TUMBLE(TABLE bid_t, DESCRIPTOR(proc_time), INTERVAL '10' SECOND))"),
    });
    expect(r.before).toEqual(["+I[21.00]"]);
    expect(r.after).toEqual(["+I[9.00]"]);
  });

  it("R-167 window-table-function-cumulate-tvf-agg-proc-time", async () => {
    const r = await runRestore({
      sources: [BID], sink: PROC_SINK,
      clock: { before: at("2020-04-15T08:00:01"), beforeSavepoint: at("2020-04-15T08:00:10"), after: at("2020-04-15T08:00:17") },
      sql: PROC_AGG("TABLE(CUMULATE(TABLE bid_t, DESCRIPTOR(proc_time), INTERVAL '5' SECOND, INTERVAL '10' SECOND))"),
    });
    expect(r.before).toEqual(["+I[21.00]", "+I[21.00]"]);
    expect(r.after).toEqual(["+I[9.00]"]);
  });

  it("R-161 a window whose end the clock has not reached is in the savepoint and fires in phase two", async () => {
    const r = await runRestore({
      sources: [BID], sink: PROC_SINK,
      clock: { before: at("2020-04-15T08:00:01"), beforeSavepoint: at("2020-04-15T08:00:09.999"), after: at("2020-04-15T08:00:12") },
      sql: PROC_AGG("TABLE(TUMBLE(TABLE bid_t, DESCRIPTOR(proc_time), INTERVAL '10' SECOND))"),
    });
    expect(r.before).toEqual([]);
    expect(r.after).toEqual(["+I[21.00]", "+I[9.00]"]);
  });
});

// ---- MATCH_RECOGNIZE ordered by a PROCTIME() attribute ------------------------------------------------
const SKIP_SQL = (skip: string) => `insert into MySink SELECT * FROM MyTable MATCH_RECOGNIZE(PARTITION BY vehicle_id ORDER BY proctime
      MEASURES FIRST(A.engine_temperature) as Initial_Temp, LAST(A.engine_temperature) as Final_Temp ONE ROW PER MATCH ${skip}
      PATTERN (A+ B) DEFINE A as LAST(A.engine_temperature,1) is NULL OR A.engine_temperature > LAST(A.engine_temperature,1),
      B as B.engine_temperature < LAST(A.engine_temperature)) MR`;
const TEMPERATURES: CatalogueSource = {
  name: "MyTable", columns: "vehicle_id bigint, engine_temperature int, proctime as PROCTIME()",
  before: [[1, 100], [1, 102], [1, 104], [1, 106], [1, 105], [1, 107], [1, 101], [1, 100]], after: [[1, 110], [1, 111], [1, 99]],
};
const MATCH_CLOCK = { before: at("2020-10-10T00:00:01"), after: at("2020-10-10T00:00:02") };
const TEMPERATURE_SINK = { name: "MySink", columns: "vehicle_id bigint, Initial_Temp int, Final_Temp int" };

describe("MATCH_RECOGNIZE ORDER BY proctime (rows in arrival order), two phases", () => {
  it("R-149 match-simple: the partial match a, b survives the savepoint and completes with c", async () => {
    const r = await runRestore({
      sources: [{
        name: "MyTable", columns: "id bigint, name varchar, proctime as PROCTIME()",
        before: [[1, "a"], [2, "z"], [3, "b"], [4, "c"], [5, "d"], [6, "a"], [7, "b"], [8, "c"], [9, "a"], [10, "b"]], after: [[11, "c"]],
      }],
      sink: { name: "MySink", columns: "a bigint, b bigint, c bigint" },
      clock: MATCH_CLOCK,
      sql: `insert into MySink SELECT T.aid, T.bid, T.cid
     FROM MyTable MATCH_RECOGNIZE (
             ORDER BY proctime
             MEASURES
             \`A"\`.id AS aid,
             l.id AS bid,
             C.id AS cid
             PATTERN (\`A"\` l C)
             DEFINE
                 \`A"\` AS name = 'a',
                 l AS name = 'b',
                 C AS name = 'c'
     ) AS T`,
    });
    expect(r.before).toEqual(["+I[6, 7, 8]"]);
    expect(r.after).toEqual(["+I[9, 10, 11]"]);
  });

  it("R-153 match-skip-to-first", async () => {
    const r = await runRestore({ sources: [TEMPERATURES], sink: TEMPERATURE_SINK, clock: MATCH_CLOCK, sql: SKIP_SQL("AFTER MATCH SKIP TO FIRST B") });
    expect(r.before).toEqual(["+I[1, 100, 106]", "+I[1, 105, 107]", "+I[1, 101, 101]"]);
    expect(r.after).toEqual(["+I[1, 100, 111]"]);
  });

  it("R-155 match-skip-to-next-row", async () => {
    const r = await runRestore({ sources: [TEMPERATURES], sink: TEMPERATURE_SINK, clock: MATCH_CLOCK, sql: SKIP_SQL("AFTER MATCH SKIP TO NEXT ROW") });
    expect(r.before).toEqual(["+I[1, 100, 106]", "+I[1, 102, 106]", "+I[1, 104, 106]", "+I[1, 106, 106]", "+I[1, 105, 107]", "+I[1, 107, 107]", "+I[1, 101, 101]"]);
    expect(r.after).toEqual(["+I[1, 100, 111]", "+I[1, 110, 111]", "+I[1, 111, 111]"]);
  });
});

describe("MATCH_PROCTIME()", () => {
  it("is the match's processing time (its last row's PROCTIME() value), a proctime attribute of the output", async () => {
    const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    let n = 0;
    env.setClock(() => at("2020-10-10T00:00:00") + 1000 * n++);
    env.createTemporaryView("T", env.fromValues(Schema.newBuilder().column("id", DataTypes.INT()).column("name", DataTypes.STRING())
      .columnByExpression("proctime", "PROCTIME()").build(), Row.of(1, "a"), Row.of(2, "b"), Row.of(3, "a"), Row.of(4, "z"), Row.of(5, "b")) as never);
    const q = env.sqlQuery("SELECT * FROM T MATCH_RECOGNIZE (ORDER BY proctime MEASURES A.id AS aid, MATCH_PROCTIME() AS p PATTERN (A B) DEFINE A AS name = 'a', B AS name = 'b') AS M");
    expect(q.getResolvedSchema().column("p").type.toString()).toBe("TIMESTAMP_LTZ(3) NOT NULL *PROCTIME*");
    expect(await q.execute().toChangelog()).toEqual(["+I[1, 2020-10-10T00:00:01Z]"]);
    expect(() => env.sqlQuery("SELECT * FROM T MATCH_RECOGNIZE (ORDER BY proctime MEASURES A.id AS aid PATTERN (A B) DEFINE A AS MATCH_PROCTIME() IS NOT NULL, B AS name = 'b') AS M"))
      .toThrow(/MATCH_PROCTIME\(\) can only be used in MEASURES/);
  });
});
