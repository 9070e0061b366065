// INSERT INTO t (a, c) ...: the listed sink columns take the query's columns, the others are NULL.
import { describe, expect, it } from "vitest";
import { CollectionSink, EnvironmentSettings, Schema, TableEnvironment, ValidationError } from "../../src/index.js";

function setup(mode = EnvironmentSettings.inStreamingMode()) {
  const env = TableEnvironment.create(mode);
  env.executeSql("CREATE VIEW source_t(a, b, c) AS VALUES (1, CAST(1 AS BIGINT), 'hi'), (2, CAST(2 AS BIGINT), 'hello'), (3, CAST(2 AS BIGINT), 'hello world'), (4, CAST(4 AS BIGINT), 'foo'), (5, CAST(2 AS BIGINT), 'foo bar')");
  const sink = new CollectionSink<object>();
  const schema = Schema.newBuilder().column("a", "INT").column("b", "BIGINT").column("c", "STRING")
    .column("d", "DECIMAL(10, 2)").column("e", "DOUBLE").build();
  env.createTemporaryTable("sink_t", sink.descriptor(schema));
  return { env, sink };
}

describe("partial insert: INSERT INTO t (columns)", () => {
  it("R-145 sink-partial-insert: INSERT INTO sink_t (a, b, c) SELECT a, b, c FROM source_t fills d and e with NULL", async () => {
    const { env, sink } = setup();
    await env.executeSql("INSERT INTO sink_t (a, b, c) SELECT a, b, c FROM source_t").await();
    expect(sink.changelog()).toEqual([
      "+I[1, 1, hi, null, null]", "+I[2, 2, hello, null, null]", "+I[3, 2, hello world, null, null]",
      "+I[4, 4, foo, null, null]", "+I[5, 2, foo bar, null, null]",
    ]);
  });

  it("the list gives the order: the query's columns go to the listed columns, whatever the sink's order", async () => {
    const { env, sink } = setup();
    await env.executeSql("INSERT INTO sink_t (e, c, a) SELECT CAST(b AS DOUBLE), c, a FROM source_t WHERE a < 3").await();
    expect(sink.changelog()).toEqual(["+I[1, null, hi, null, 1.0]", "+I[2, null, hello, null, 2.0]"]);
  });

  it("INSERT INTO t (columns) VALUES ...; in a statement set too", async () => {
    const { env, sink } = setup(EnvironmentSettings.inBatchMode());
    await env.executeSql("INSERT INTO sink_t (c, a) VALUES ('x', 7), ('y', 8)").await();
    await env.executeSql("EXECUTE STATEMENT SET BEGIN INSERT INTO sink_t (d) VALUES (CAST(1.5 AS DECIMAL(10, 2))); END").await();
    expect(sink.changelog()).toEqual(["+I[7, null, x, null, null]", "+I[8, null, y, null, null]", "+I[null, null, null, 1.50, null]"]);
  });

  it("EXPLAIN shows the NULLs projected for the missing columns", async () => {
    const { env } = setup();
    const plan = (await env.executeSql("EXPLAIN INSERT INTO sink_t (a) SELECT a FROM source_t").toArray())[0]!.result as string;
    expect(plan).toContain("Sink(table=[sink_t], connector=[collection], fields=[a, b, c, d, e])");
    expect(plan).toContain("Project(select=[a, NULL AS b, NULL AS c, NULL AS d, NULL AS e]) -> [a: INT NOT NULL, b: BIGINT, c: STRING, d: DECIMAL(10, 2), e: DOUBLE]");
  });

  it("Flink's errors: an unknown or repeated target column, a count mismatch, a NOT NULL column left out, a type mismatch", () => {
    const { env } = setup();
    expect(() => env.executeSql("INSERT INTO sink_t (a, x) SELECT a, c FROM source_t"))
      .toThrow("SQL validation failed. At line 1, column 24: Unknown target column 'x'");
    expect(() => env.executeSql("INSERT INTO sink_t (a, a) SELECT a, b FROM source_t"))
      .toThrow("SQL validation failed. At line 1, column 24: Target column 'a' is assigned more than once");
    expect(() => env.executeSql("INSERT INTO sink_t (a, b) SELECT a FROM source_t"))
      .toThrow("SQL validation failed. At line 1, column 13: Number of INSERT target columns (2) does not equal number of source items (1)");
    expect(() => env.executeSql("INSERT INTO sink_t (c) SELECT a FROM source_t")).toThrow(/Incompatible types for sink column 'c' at position 2/);
    const strict = new CollectionSink<object>();
    env.createTemporaryTable("strict_t", strict.descriptor(Schema.newBuilder().column("a", "INT").column("p", "BIGINT NOT NULL").build()));
    expect(() => env.executeSql("INSERT INTO strict_t (a) SELECT a FROM source_t"))
      .toThrow("SQL validation failed. At line 1, column 13: Column 'p' has no default value and does not allow NULLs");
    expect(() => env.executeSql("INSERT INTO strict_t (a) SELECT a FROM source_t")).toThrow(ValidationError);
  });
});

describe("static partitions: INSERT INTO t PARTITION (k = v)", () => {
  function partitioned() {
    const { env } = setup();
    const sink = new CollectionSink<object>();
    const schema = Schema.newBuilder().column("a", "INT").column("b", "BIGINT").column("p", "BIGINT NOT NULL").column("c", "STRING").build();
    env.createTemporaryTable("part_t", sink.descriptor(schema).toBuilder().partitionedBy("b").build());
    return { env, sink };
  }

  it("R-141 sink-partition: PARTITION (b=2) fills b with the constant, the query's (a, b, c) go to (a, p, c)", async () => {
    const { env, sink } = partitioned();
    await env.executeSql("INSERT INTO part_t PARTITION (b=2) SELECT * FROM source_t").await();
    expect(sink.changelog()).toEqual([
      "+I[1, 2, 1, hi]", "+I[2, 2, 2, hello]", "+I[3, 2, 2, hello world]", "+I[4, 2, 4, foo]", "+I[5, 2, 2, foo bar]",
    ]);
  });

  it("PARTITION with a column list: the listed columns take the query, the rest NULL", async () => {
    const { env, sink } = partitioned();
    await env.executeSql("INSERT INTO part_t PARTITION (b = 7) (c, p) SELECT c, CAST(a AS BIGINT) FROM source_t WHERE a = 1").await();
    expect(sink.changelog()).toEqual(["+I[null, 7, 1, hi]"]);
  });

  it("errors: a static column that is no partition key, one also in the column list, a value that is no literal", () => {
    const { env } = partitioned();
    expect(() => env.executeSql("INSERT INTO part_t PARTITION (a = 1) SELECT a, b, c FROM source_t"))
      .toThrow("SQL validation failed. At line 1, column 31: Static partition column 'a' should be in the partition keys list [b] for table 'default_catalog.default_database.part_t'.");
    expect(() => env.executeSql("INSERT INTO part_t PARTITION (b = 1) (b, p) SELECT a, b FROM source_t"))
      .toThrow("SQL validation failed. At line 1, column 39: Target column 'b' is assigned more than once");
    expect(() => env.executeSql("INSERT INTO part_t PARTITION (b = a) SELECT a, b, c FROM source_t"))
      .toThrow("the value of static partition column 'b' must be a literal");
    expect(() => env.executeSql("INSERT INTO part_t PARTITION (b = 1) SELECT a, c FROM source_t"))
      .toThrow("Number of INSERT target columns (3) does not equal number of source items (2)");
  });
});
