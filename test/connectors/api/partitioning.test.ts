// The public connector API's table layout: SinkDefinition.partitioning / bucketing (Flink's SupportsPartitioning /
// SupportsBucketing), SourceDefinition.partitions (SupportsPartitionPushDown) and SinkDefinition.metadata
// (SupportsWritingMetadata): what the writer and reader are told, and Flink's errors without them.
import { describe, expect, it } from "vitest";
import {
  DataTypes, EnvironmentSettings, TableEnvironment, ValidationError, defineConnector, option,
  type PartitionSpec, type SinkBatch, type SinkContext, type SourceBatch,
} from "../../../src/index.js";

interface Seen { ctx?: SinkContext; rows: unknown[][] }

function memorySink(seen: Seen, layout: { partitioning?: boolean; bucketing?: boolean; metadata?: boolean }) {
  return defineConnector({
    name: "memory",
    options: {},
    sink: {
      ...(layout.partitioning ? { partitioning: true } : {}),
      ...(layout.bucketing ? { bucketing: true } : {}),
      ...(layout.metadata ? { metadata: { headers: DataTypes.STRING(), ts: DataTypes.BIGINT() } } : {}),
      createWriter: (ctx) => {
        seen.ctx = ctx;
        return { write: (b: SinkBatch) => { for (const r of b.rows) seen.rows.push([...r]); }, close: () => {} };
      },
    },
  });
}

function streaming(): TableEnvironment {
  return TableEnvironment.create(EnvironmentSettings.inStreamingMode());
}

describe("connector API: partitioning and bucketing", () => {
  it("without the declaration, PARTITIONED BY and DISTRIBUTED BY are Flink's errors naming the table and the connector", () => {
    const env = streaming();
    env.registerConnector(memorySink({ rows: [] }, {}));
    env.executeSql("CREATE TABLE p (a INT, b STRING) PARTITIONED BY (b) WITH ('connector' = 'memory')");
    env.executeSql("CREATE TABLE d (a INT, b STRING) DISTRIBUTED BY HASH(a) INTO 4 BUCKETS WITH ('connector' = 'memory')");
    expect(() => env.executeSql("INSERT INTO p VALUES (1, 'x')")).toThrow(ValidationError);
    expect(() => env.executeSql("INSERT INTO p VALUES (1, 'x')")).toThrow("Table 'default_catalog.default_database.p' is a partitioned table, but the underlying DynamicTableSink (connector 'memory') doesn't implement the SupportsPartitioning interface.");
    expect(() => env.executeSql("INSERT INTO d VALUES (1, 'x')")).toThrow("Table 'default_catalog.default_database.d' is a bucketed table, but the underlying DynamicTableSink (connector 'memory') doesn't implement the SupportsBucketing interface.");
  });

  it("a sink that declares them receives the partition keys, the static partition and the distribution", async () => {
    const seen: Seen = { rows: [] };
    const env = streaming();
    env.registerConnector(memorySink(seen, { partitioning: true, bucketing: true }));
    env.executeSql("CREATE TABLE t (a INT, b STRING, c STRING) DISTRIBUTED BY HASH(a) INTO 4 BUCKETS PARTITIONED BY (b, c) WITH ('connector' = 'memory')");
    await env.executeSql("INSERT INTO t PARTITION (b = 'x') SELECT * FROM (VALUES (1, 'p'), (2, 'q')) AS s(a, c)").await();
    expect(seen.ctx!.partitionKeys).toEqual(["b", "c"]);
    expect(seen.ctx!.staticPartition).toEqual({ b: "x" });
    expect(seen.ctx!.distribution).toEqual({ kind: "hash", bucketKeys: ["a"], bucketCount: 4 });
    expect(seen.rows).toEqual([[1, "x", "p"], [2, "x", "q"]]);
    await env.executeSql("INSERT INTO t VALUES (3, 'y', 'r')").await();
    expect(seen.ctx!.staticPartition).toEqual({});
    expect(seen.rows.at(-1)).toEqual([3, "y", "r"]);
  });
});

describe("connector API: partition pruning", () => {
  function partitioned(read: (PartitionSpec[] | undefined)[]) {
    const data: Record<string, unknown[][]> = { "2024-01-01": [[1, "a", "2024-01-01"]], "2024-01-02": [[2, "b", "2024-01-02"], [3, "c", "2024-01-02"]] };
    return defineConnector({
      name: "daily",
      options: {},
      source: {
        partitions: { list: () => Object.keys(data).map((dt) => ({ dt })) },
        createReader: (ctx) => {
          read.push(ctx.partitions === undefined ? undefined : [...ctx.partitions]);
          let done = false;
          return {
            read(): SourceBatch | null {
              if (done) return null;
              done = true;
              const days = ctx.partitions?.map((p) => p.dt!) ?? Object.keys(data);
              return { rows: days.flatMap((d) => data[d]!.map((r) => [...r])) };
            },
            position: () => (done ? 1 : 0),
            close: () => {},
          };
        },
      },
    });
  }

  it("filters on partition columns pick the partitions the reader gets (and explain shows); other filters stay in the plan", async () => {
    const read: (PartitionSpec[] | undefined)[] = [];
    const env = TableEnvironment.create(EnvironmentSettings.inBatchMode());
    env.registerConnector(partitioned(read));
    env.executeSql("CREATE TABLE t (id INT, v STRING, dt STRING) PARTITIONED BY (dt) WITH ('connector' = 'daily')");
    const q = "SELECT id, v FROM t WHERE dt = '2024-01-02' AND id > 2";
    const plan = env.sqlQuery(q).explain();
    expect(plan).toContain("partitions=[{dt=2024-01-02}]");
    expect(plan).toContain("Filter(condition=[greaterThan(id, 2)]");
    expect(await env.executeSql(q).toChangelog()).toEqual(["+I[3, c]"]);
    expect(read).toEqual([[{ dt: "2024-01-02" }]]);
    expect(await env.executeSql("SELECT id FROM t").toChangelog()).toEqual(["+I[1]", "+I[2]", "+I[3]"]);
    expect(read[1]).toBeUndefined();
    expect(await env.executeSql("SELECT id FROM t WHERE dt = '2023-12-31'").toChangelog()).toEqual([]);
    expect(read[2]).toEqual([]);
  });
});

describe("connector API: writable metadata", () => {
  it("non-VIRTUAL METADATA columns are written: the writer gets them after the physical values, in declared order", async () => {
    const seen: Seen = { rows: [] };
    const env = streaming();
    env.registerConnector(memorySink(seen, { metadata: true }));
    env.executeSql("CREATE TABLE t (id INT, `time` BIGINT METADATA FROM 'ts', v STRING, headers STRING METADATA, `off` BIGINT METADATA FROM 'ts' VIRTUAL) WITH ('connector' = 'memory')");
    await env.executeSql("INSERT INTO t SELECT * FROM (VALUES (1, CAST(100 AS BIGINT), 'a', 'h1')) AS s(id, t, v, h)").await();
    expect(seen.ctx!.metadata.map((m) => `${m.name}:${m.type}`)).toEqual(["ts:BIGINT", "headers:STRING"]);
    expect(seen.ctx!.columns.map((c) => c.name)).toEqual(["id", "v"]);
    expect(seen.rows).toEqual([[1, "a", 100, "h1"]]);
    // a column list may leave a metadata column out (NULL), and may not name a VIRTUAL one
    await env.executeSql("INSERT INTO t (id, v) VALUES (2, 'b')").await();
    expect(seen.rows.at(-1)).toEqual([2, "b", null, null]);
    expect(() => env.executeSql("INSERT INTO t (id, v, `off`) VALUES (3, 'c', 1)")).toThrow("Unknown target column 'off'");
    // the VIRTUAL column is no part of the sink: a query that fills it has one column too many
    expect(() => env.executeSql("INSERT INTO t SELECT * FROM (VALUES (1, CAST(100 AS BIGINT), 'a', 'h1', CAST(5 AS BIGINT))) AS s(a, b, c, d, e)"))
      .toThrow(/Column types of query result and sink for 't' do not match\.\nCause: Different number of columns\./);
  });

  it("Flink's errors: a sink without writable metadata, an unknown key, a wrong type", () => {
    const env = streaming();
    env.registerConnector(memorySink({ rows: [] }, {}));
    env.executeSql("CREATE TABLE n (id INT, m STRING METADATA) WITH ('connector' = 'memory')");
    expect(() => env.executeSql("INSERT INTO n VALUES (1, 'x')")).toThrow("Table 'default_catalog.default_database.n' declares persistable metadata columns, but the underlying DynamicTableSink (connector 'memory') doesn't implement the SupportsWritingMetadata interface. If the column should not be persisted, it can be declared with the VIRTUAL keyword.");
    // declared VIRTUAL, it is not written: the insert fills the physical column only
    env.executeSql("CREATE TABLE nv (id INT, m STRING METADATA VIRTUAL) WITH ('connector' = 'memory')");
    expect(() => env.executeSql("INSERT INTO nv VALUES (1)")).not.toThrow();
    const env2 = streaming();
    env2.registerConnector(memorySink({ rows: [] }, { metadata: true }));
    env2.executeSql("CREATE TABLE u (id INT, m STRING METADATA FROM 'key') WITH ('connector' = 'memory')");
    expect(() => env2.executeSql("INSERT INTO u VALUES (1, 'x')")).toThrow("Invalid metadata key 'key' in column 'm' of table 'default_catalog.default_database.u'. The DynamicTableSink of connector 'memory' supports the following metadata keys for writing:\nheaders\nts");
    env2.executeSql("CREATE TABLE w (id INT, m STRING METADATA FROM 'ts') WITH ('connector' = 'memory')");
    expect(() => env2.executeSql("INSERT INTO w VALUES (1, 'x')")).toThrow("Invalid data type for metadata column 'm' of table 'default_catalog.default_database.w'. The column cannot be declared as 'STRING' because the type must be castable to metadata type 'BIGINT'.");
  });

  it("the options object is unchanged by the declarations (option.* still typed)", () => {
    const c = defineConnector({ name: "x", options: { p: option.string() }, sink: { partitioning: true, createWriter: () => ({ write: () => {}, close: () => {} }) } });
    expect(c.sink!.partitioning).toBe(true);
  });
});
