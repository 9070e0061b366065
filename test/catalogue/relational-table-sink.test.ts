// §21 table sinks (TableSinkTestPrograms): bucketing, static partition, writing metadata and partial insert, restored from a savepoint.
import { describe, expect, it } from "vitest";
import type { TableDescriptor } from "../../src/index.js";
import { runRestore } from "./restore-runner.js";

const source = {
  name: "source_t", columns: "a INT, b BIGINT, c VARCHAR",
  before: [[1, 1, "hi"], [2, 2, "hello"], [3, 2, "hello world"]], after: [[4, 4, "foo"], [5, 2, "foo bar"]],
} as const;
const UNCHANGED = { before: ["+I[1, 1, hi]", "+I[2, 2, hello]", "+I[3, 2, hello world]"], after: ["+I[4, 4, foo]", "+I[5, 2, foo bar]"] };

describe("§21 table sinks, restored from a savepoint", () => {
  it("R-137 sink-bucketing_with-count: DISTRIBUTED INTO 3 BUCKETS, partitioned by b", async () => {
    const r = await runRestore({
      sources: [source],
      sink: { name: "sink_t", columns: "a INT, b BIGINT, c VARCHAR", layout: (d: TableDescriptor<object>) => d.toBuilder().distributedInto(3).partitionedBy("b").build() },
      sql: "INSERT INTO sink_t SELECT * FROM source_t",
    });
    expect(r).toEqual(UNCHANGED);
  });

  it("R-139 sink-bucketing_hash-with-keys-with-count: DISTRIBUTED BY HASH(a) INTO 3 BUCKETS, partitioned by b", async () => {
    const r = await runRestore({
      sources: [source],
      sink: { name: "sink_t", columns: "a INT, b BIGINT, c VARCHAR", layout: (d: TableDescriptor<object>) => d.toBuilder().distributedByHash(3, "a").partitionedBy("b").build() },
      sql: "INSERT INTO sink_t SELECT * FROM source_t",
    });
    expect(r).toEqual(UNCHANGED);
  });

  it("R-141 sink-partition: PARTITION (b=2), the query's columns go to (a, p, c)", async () => {
    const r = await runRestore({
      sources: [source],
      sink: { name: "sink_t", columns: "a INT, b BIGINT, p BIGINT NOT NULL, c VARCHAR", layout: (d: TableDescriptor<object>) => d.toBuilder().partitionedBy("b").build() },
      sql: "INSERT INTO sink_t PARTITION (b=2) SELECT * FROM source_t",
    });
    expect(r).toEqual({
      before: ["+I[1, 2, 1, hi]", "+I[2, 2, 2, hello]", "+I[3, 2, 2, hello world]"],
      after: ["+I[4, 2, 4, foo]", "+I[5, 2, 2, foo bar]"],
    });
  });

  it("R-143 sink-writing-metadata: the non-VIRTUAL METADATA column c is written through the sink's 'writable-metadata' key", async () => {
    const r = await runRestore({
      sources: [source],
      sink: { name: "sink_t", columns: "a INT, b BIGINT, c VARCHAR METADATA", layout: (d: TableDescriptor<object>) => d.toBuilder().option("writable-metadata", "c:STRING").build() },
      sql: "INSERT INTO sink_t SELECT * FROM source_t",
    });
    expect(r).toEqual(UNCHANGED);
  });

  it("R-145 sink-partial-insert: INSERT INTO sink_t (a, b, c), d and e NULL", async () => {
    const r = await runRestore({
      sources: [source],
      sink: { name: "sink_t", columns: "a INT, b BIGINT, c VARCHAR, d DECIMAL(10,2), e DOUBLE" },
      sql: "INSERT INTO sink_t (a, b, c) SELECT a, b, c FROM source_t",
    });
    expect(r).toEqual({
      before: ["+I[1, 1, hi, null, null]", "+I[2, 2, hello, null, null]", "+I[3, 2, hello world, null, null]"],
      after: ["+I[4, 4, foo, null, null]", "+I[5, 2, foo bar, null, null]"],
    });
  });
});
