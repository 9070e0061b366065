// CREATE TABLE ... DISTRIBUTED BY / PARTITIONED BY: kept on the table, printed back, checked against the sink.
import { describe, expect, it } from "vitest";
import { CollectionSink, EnvironmentSettings, Schema, SqlParseError, TableDescriptor, TableEnvironment, ValidationError } from "../../src/index.js";

const SOURCE = "CREATE VIEW source_t(a, b, c) AS VALUES (1, CAST(1 AS BIGINT), 'hi'), (2, CAST(2 AS BIGINT), 'hello'), (3, CAST(2 AS BIGINT), 'hello world'), (4, CAST(4 AS BIGINT), 'foo'), (5, CAST(2 AS BIGINT), 'foo bar')";
const ROWS = ["+I[1, 1, hi]", "+I[2, 2, hello]", "+I[3, 2, hello world]", "+I[4, 4, foo]", "+I[5, 2, foo bar]"];
const schema = () => Schema.newBuilder().column("a", "INT").column("b", "BIGINT").column("c", "STRING").build();
const showCreate = async (env: TableEnvironment, name: string) => (await env.executeSql(`SHOW CREATE TABLE ${name}`).toArray())[0]!.result as string;

function bucketed(configure: (d: ReturnType<typeof TableDescriptor.forConnector>) => ReturnType<typeof TableDescriptor.forConnector>) {
  const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
  env.executeSql(SOURCE);
  const sink = new CollectionSink<object>();
  const base = sink.descriptor(schema()).toBuilder() as unknown as ReturnType<typeof TableDescriptor.forConnector>;
  env.createTemporaryTable("sink_t", configure(base).build());
  return { env, sink };
}

describe("DISTRIBUTED BY / PARTITIONED BY", () => {
  it("R-137 sink-bucketing_with-count: DISTRIBUTED INTO 3 BUCKETS, partitioned by b: the rows are unchanged", async () => {
    const { env, sink } = bucketed((d) => d.distributedInto(3).partitionedBy("b"));
    await env.executeSql("INSERT INTO sink_t SELECT * FROM source_t").await();
    expect(sink.changelog()).toEqual(ROWS);
    expect(await showCreate(env, "sink_t")).toContain(")\nDISTRIBUTED INTO 3 BUCKETS\nPARTITIONED BY (`b`)\nWITH (\n  'connector' = 'collection'\n)\n");
  });

  it("R-139 sink-bucketing_hash-with-keys-with-count: DISTRIBUTED BY HASH(a) INTO 3 BUCKETS", async () => {
    const { env, sink } = bucketed((d) => d.distributedByHash(3, "a").partitionedBy("b"));
    await env.executeSql("INSERT INTO sink_t SELECT * FROM source_t").await();
    expect(sink.changelog()).toEqual(ROWS);
    expect(await showCreate(env, "sink_t")).toContain(")\nDISTRIBUTED BY HASH(`a`) INTO 3 BUCKETS\nPARTITIONED BY (`b`)\nWITH (");
  });

  it("SQL: every form of the clause is parsed, kept and printed back as Flink prints it", async () => {
    const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    const forms: [string, string][] = [
      ["DISTRIBUTED BY HASH(a) INTO 4 BUCKETS", "DISTRIBUTED BY HASH(`a`) INTO 4 BUCKETS"],
      ["DISTRIBUTED BY RANGE(a, b)", "DISTRIBUTED BY RANGE(`a`, `b`)"],
      ["DISTRIBUTED BY (b) INTO 2 BUCKETS", "DISTRIBUTED BY (`b`) INTO 2 BUCKETS"],
      ["DISTRIBUTED INTO 7 BUCKETS PARTITIONED BY (c, b)", "DISTRIBUTED INTO 7 BUCKETS\nPARTITIONED BY (`c`, `b`)"],
      ["PARTITIONED BY (a)", "PARTITIONED BY (`a`)"],
    ];
    for (const [i, [clause, shown]] of forms.entries()) {
      env.executeSql(`CREATE TABLE t${i} (a INT, b BIGINT, c STRING) COMMENT 'x' ${clause} WITH ('connector' = 'blackhole')`);
      expect(await showCreate(env, `t${i}`)).toBe(`CREATE TABLE \`default_catalog\`.\`default_database\`.\`t${i}\` (\n  \`a\` INT,\n  \`b\` BIGINT,\n  \`c\` STRING\n)\nCOMMENT 'x'\n${shown}\nWITH (\n  'connector' = 'blackhole'\n)\n`);
    }
    // the printed statement reads back to the same table
    const printedBack = await showCreate(env, "t3");
    env.executeSql(printedBack.replace("`default_catalog`.`default_database`.`t3`", "t3_copy"));
    expect(await showCreate(env, "t3_copy")).toBe(printedBack.replace("`t3`", "`t3_copy`"));
  });

  it("a sink that cannot bucket or partition is Flink's error when it is written, not when it is declared", () => {
    const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    env.executeSql(SOURCE);
    env.executeSql("CREATE TABLE b_t (a INT, b BIGINT, c STRING) DISTRIBUTED BY HASH(a) INTO 3 BUCKETS WITH ('connector' = 'blackhole')");
    env.executeSql("CREATE TABLE p_t (a INT, b BIGINT, c STRING) PARTITIONED BY (b) WITH ('connector' = 'blackhole')");
    expect(() => env.executeSql("INSERT INTO b_t SELECT * FROM source_t"))
      .toThrow("Table 'default_catalog.default_database.b_t' is a bucketed table, but the underlying DynamicTableSink (connector 'blackhole') doesn't implement the SupportsBucketing interface.");
    expect(() => env.executeSql("INSERT INTO p_t SELECT * FROM source_t"))
      .toThrow("Table 'default_catalog.default_database.p_t' is a partitioned table, but the underlying DynamicTableSink (connector 'blackhole') doesn't implement the SupportsPartitioning interface.");
  });

  it("errors: a key that is not a physical column, a zero bucket count, a misplaced or incomplete clause", () => {
    const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    expect(() => env.executeSql("CREATE TABLE t (a INT, b AS a + 1) DISTRIBUTED BY HASH(b) WITH ('connector' = 'blackhole')"))
      .toThrow("Invalid bucket key 'b'. A bucket key for a distribution must reference a physical column in the schema. Available columns are: [a]");
    expect(() => env.executeSql("CREATE TABLE t (a INT) PARTITIONED BY (x) WITH ('connector' = 'blackhole')"))
      .toThrow("Invalid partition key 'x'. A partition key must reference a physical column in the schema. Available columns are: [a]");
    expect(() => env.executeSql("CREATE TABLE t (a INT) DISTRIBUTED INTO 0 BUCKETS WITH ('connector' = 'blackhole')")).toThrow(SqlParseError);
    expect(() => env.executeSql("CREATE TABLE t (a INT) DISTRIBUTED INTO 0 BUCKETS WITH ('connector' = 'blackhole')")).toThrow("the number of buckets must be greater than zero");
    expect(() => env.executeSql("CREATE TABLE t (a INT) PARTITIONED BY (a) DISTRIBUTED INTO 2 BUCKETS WITH ('connector' = 'blackhole')")).toThrow("DISTRIBUTED goes before PARTITIONED BY");
    expect(() => env.executeSql("CREATE TABLE t (a INT) DISTRIBUTED WITH ('connector' = 'blackhole')")).toThrow("expected BY or INTO after DISTRIBUTED");
    const b = TableDescriptor.forConnector("blackhole").schema(Schema.newBuilder().column("a", "INT").build());
    expect(() => b.distributedInto(-1)).toThrow(ValidationError);
    expect(() => b.distributedInto(-1)).toThrow("Bucket count must be a positive integer, got -1");
    expect(() => b.distributedByHash()).toThrow("a HASH distribution needs bucket keys");
    expect(() => env.createTemporaryTable("t", b.distributedBy(2, "zz").build())).toThrow("Invalid bucket key 'zz'");
  });
});
