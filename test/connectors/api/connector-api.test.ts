import { describe, expect, it } from "vitest";
import {
  $, DataTypes, EnvironmentSettings, ExecutionError, Schema, TableDescriptor, TableEnvironment, ValidationError,
  defineConnector, option, type SinkBatch, type SourceBatch,
} from "../../../src/index.js";

const env = () => TableEnvironment.create(EnvironmentSettings.inStreamingMode());
const schema = Schema.newBuilder().column("id", DataTypes.INT().notNull()).column("name", DataTypes.STRING()).build();

/** A bounded source of `count` rows served in batches of `batch`, counting how many rows were pulled. */
function counting(count: number, batch: number) {
  const probe = { pulled: 0, closed: 0, reads: 0 };
  const connector = defineConnector({
    name: "counting",
    options: { prefix: option.string({ default: "n" }) },
    source: {
      createReader: (ctx) => ({
        async read(): Promise<SourceBatch | null> {
          probe.reads++;
          await Promise.resolve();
          if (probe.pulled >= count) return null;
          const rows: unknown[][] = [];
          for (let i = 0; i < batch && probe.pulled < count; i++) { probe.pulled++; rows.push([probe.pulled, `${ctx.options.prefix}${probe.pulled}`]); }
          return { rows };
        },
        position: () => probe.pulled,
        close: () => { probe.closed++; },
      }),
    },
  });
  return { probe, connector };
}

/** A sink whose writes settle only when released, recording what it received and the most rows in flight. */
function slowSink() {
  const probe = { rows: [] as string[], inFlightRows: 0, maxInFlightRows: 0, writes: 0, flushed: 0, closed: 0, aborted: 0 };
  const connector = defineConnector({
    name: "slow",
    options: { "fail-at": option.int({ min: 1 }) },
    sink: {
      createWriter: (ctx) => ({
        async write(b: SinkBatch) {
          probe.writes++;
          probe.inFlightRows += b.rows.length;
          probe.maxInFlightRows = Math.max(probe.maxInFlightRows, probe.inFlightRows);
          // a slow server: several macrotasks per batch
          for (let k = 0; k < 3; k++) await new Promise((r) => setImmediate(r));
          probe.inFlightRows -= b.rows.length;
          b.rows.forEach((r, i) => {
            const failAt = ctx.options["fail-at"];
            if (failAt !== undefined && r[0] === failAt) throw Object.assign(new Error("duplicate key"), { rowIndex: i });
            probe.rows.push(`${b.kinds[i]}[${r.join(", ")}]`);
          });
        },
        flush: () => { probe.flushed++; },
        abort: () => { probe.aborted++; },
        close: () => { probe.closed++; },
      }),
    },
  });
  return { probe, connector };
}

describe("the public connector API", () => {
  it("a registered connector serves TableDescriptor.forConnector and SQL WITH ('connector' = ...)", async () => {
    const e = env();
    const { connector } = counting(3, 2);
    e.registerConnector(connector);
    e.createTemporaryTable("src", TableDescriptor.forConnector("counting").schema(schema).option("prefix", "p").build());
    expect(await e.from("src").execute().toChangelog()).toEqual(["+I[1, p1]", "+I[2, p2]", "+I[3, p3]"]);

    const e2 = env();
    e2.registerConnector(counting(2, 5).connector);
    await e2.executeSql("CREATE TABLE s (id INT NOT NULL, name STRING) WITH ('connector' = 'counting')");
    expect(await e2.sqlQuery("SELECT name, id * 10 AS x FROM s").execute().toChangelog()).toEqual(["+I[n1, 10]", "+I[n2, 20]"]);
  });

  it("unknown and malformed options are errors naming the option and listing the valid ones", () => {
    const e = env();
    e.registerConnector(slowSink().connector);
    const t = e.fromValues(schema, [{ id: 1, name: "a" }]);
    expect(() => t.executeInsert(TableDescriptor.forConnector("slow").option("fail-on", "1").build()))
      .toThrow(/Unsupported options found for 'slow'[^]*fail-on[^]*Supported options:\n\nfail-at\nsink.batch.max-size\nsink.parallelism\nsink.requests.max-inflight/);
    expect(() => t.executeInsert(TableDescriptor.forConnector("slow").option("sink.batch.max-size", "zero").build()))
      .toThrow(new ValidationError("option 'sink.batch.max-size' of table '*anonymous_slow$1*' (connector 'slow') is invalid: expected int ≥ 1 (must be a whole number, got 'zero')").message.replace("$1", "$2"));
  });

  it("a connector name is registered once; an unknown connector lists the registered ones", () => {
    const e = env();
    e.registerConnector(slowSink().connector);
    expect(() => e.registerConnector(slowSink().connector)).toThrow("a connector named 'slow' is already registered");
    expect(() => e.registerConnector(defineConnector({ name: "print", options: {}, sink: { createWriter: () => ({ write() {}, close() {} }) } })))
      .toThrow("a connector named 'print' is already registered");
    expect(() => e.createTemporaryTable("x", TableDescriptor.forConnector("nope").schema(schema).build()))
      .toThrow(/Could not find any factory for identifier 'nope'.*\[async-iterable, blackhole, collection, datagen, filesystem, jdbc, parquet, print, slow\]/);
    // another environment does not see it
    expect(() => env().createTemporaryTable("x", TableDescriptor.forConnector("slow").schema(schema).build())).toThrow(/Could not find any factory/);
  });

  it("a slow async sink fed by a fast source keeps a bounded number of rows in flight (backpressure)", async () => {
    const e = env();
    const src = counting(20_000, 1000);
    const sink = slowSink();
    e.registerConnector(src.connector).registerConnector(sink.connector);
    e.createTemporaryTable("src", TableDescriptor.forConnector("counting").schema(schema).build());
    e.createTemporaryTable("out", TableDescriptor.forConnector("slow").schema(schema)
      .option("sink.batch.max-size", 100).option("sink.requests.max-inflight", 2).build());
    await e.from("src").executeInsert("out").await();
    expect(sink.probe.rows.length).toBe(20_000);
    expect(sink.probe.rows[19_999]).toBe("+I[20000, n20000]");
    expect(sink.probe.maxInFlightRows).toBeLessThanOrEqual(200);
    expect(sink.probe.maxInFlightRows).toBeGreaterThan(100);
    expect(sink.probe.writes).toBe(200);
    expect(sink.probe).toMatchObject({ flushed: 1, closed: 1, aborted: 0 });
    expect(src.probe.closed).toBe(1);
  });

  it("the source is pulled no further than the sink can take", async () => {
    const e = env();
    const src = counting(1_000_000, 100);
    const sink = slowSink();
    e.registerConnector(src.connector).registerConnector(sink.connector);
    e.createTemporaryTable("src", TableDescriptor.forConnector("counting").schema(schema).build());
    e.createTemporaryTable("out", TableDescriptor.forConnector("slow").schema(schema).option("sink.batch.max-size", 50).build());
    const job = e.from("src").executeInsert("out");
    // let the job run until the sink took 2000 rows, then look at how far the source was read
    while (sink.probe.rows.length < 2000) await new Promise((r) => setImmediate(r));
    const ahead = src.probe.pulled - sink.probe.rows.length;
    // one job step (4096 records) plus one batch of the source plus one in-flight batch at most
    expect(ahead).toBeLessThanOrEqual(4096 + 100 + 50);
    job.getJobClient()!.cancel();
    await job.await().catch(() => {});
    expect(src.probe.closed).toBe(1);
    // the writer closes once its pending write settled (cancel does not wait for it)
    for (let i = 0; i < 100 && sink.probe.closed === 0; i++) await new Promise((r) => setImmediate(r));
    expect(sink.probe.closed).toBe(1);
    expect(sink.probe.flushed).toBe(1);
  });

  it("a failing write fails the job with an error naming connector, table and row", async () => {
    const e = env();
    const sink = slowSink();
    e.registerConnector(sink.connector);
    e.createTemporaryTable("out", TableDescriptor.forConnector("slow").schema(schema).option("fail-at", 3).option("sink.batch.max-size", 2).build());
    const rows = [1, 2, 3, 4, 5].map((id) => ({ id, name: `n${id}` }));
    const err = await e.fromValues(schema, rows).executeInsert("out").await().then(() => undefined, (x: unknown) => x);
    expect(err).toBeInstanceOf(ExecutionError);
    expect((err as Error).message).toBe("connector 'slow' table 'out': write failed for row 3 +I[3, n3]: duplicate key");
    expect(sink.probe).toMatchObject({ aborted: 1, closed: 1 });
  });

  it("a failing read fails the job naming connector and table, and closes the reader", async () => {
    const e = env();
    let closed = 0;
    e.registerConnector(defineConnector({
      name: "broken",
      options: {},
      source: { createReader: () => ({ read: () => Promise.reject(new Error("connection reset")), position: () => null, close: () => { closed++; } }) },
    }));
    e.createTemporaryTable("b", TableDescriptor.forConnector("broken").schema(schema).build());
    await expect(e.from("b").execute().toChangelog()).rejects.toThrow("connector 'broken' table 'b': read failed after 0 rows: connection reset");
    expect(closed).toBe(1);
  });

  it("rows are checked against the column types, naming the row and column", async () => {
    const e = env();
    e.registerConnector(defineConnector({
      name: "bad-rows",
      options: {},
      source: { createReader: () => { let done = false; return { read: () => (done ? null : (done = true, { rows: [[1, "a"], ["x", "b"]] })), position: () => null, close() {} }; } },
    }));
    e.createTemporaryTable("b", TableDescriptor.forConnector("bad-rows").schema(schema).build());
    await expect(e.from("b").execute().toChangelog()).rejects.toThrow(/connector 'bad-rows' table 'b', row 2, column 'id'/);
  });

  it("an upsert sink (primary key) receives +I/+U/-D, never -U", async () => {
    const e = env();
    const sink = slowSink();
    e.registerConnector(sink.connector);
    const pk = Schema.newBuilder().column("name", DataTypes.STRING().notNull()).column("n", DataTypes.BIGINT().notNull()).primaryKey("name").build();
    e.createTemporaryTable("out", TableDescriptor.forConnector("slow").schema(pk).build());
    const t = e.fromValues(schema, [{ id: 1, name: "a" }, { id: 2, name: "a" }, { id: 3, name: "b" }]).groupBy($("name")).select($("name"), $("id").count().as("n"));
    await t.executeInsert("out").await();
    expect(sink.probe.rows).toEqual(["+I[a, 1]", "+U[a, 2]", "+I[b, 1]"]);
  });
});
