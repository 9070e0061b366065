import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  $, CollectionSink, DataTypes, EnvironmentSettings, ExecutionError, Row, Schema, TableDescriptor, TableEnvironment, ValidationError,
} from "../../src/index.js";
import { printed } from "../support.js";

afterEach(() => { vi.restoreAllMocks(); });

const env = () => TableEnvironment.create(EnvironmentSettings.inStreamingMode());
const orders = (e: TableEnvironment) => e.fromValues(
  DataTypes.ROW(DataTypes.FIELD("product", DataTypes.STRING()), DataTypes.FIELD("amount", DataTypes.INT()), DataTypes.FIELD("ts", DataTypes.TIMESTAMP_LTZ(3))),
  Row.of("widget", 2, new Date(1000)), Row.of("gadget", 1, null), Row.of("widget", 3, new Date(2500)),
);
const countsSchema = Schema.newBuilder().column("product", DataTypes.STRING()).column("n", DataTypes.BIGINT()).build();
const counts = (e: TableEnvironment) => orders(e).groupBy($("product")).select($("product"), $("amount").count().as("n"));

describe("print sink", () => {
  it("prints each record as Flink's print connector does, every row kind, with an identifier", async () => {
    const out = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    const e = env();
    e.createTemporaryTable("p", TableDescriptor.forConnector("print").schema(countsSchema).option("print-identifier", "counts").build());
    await counts(e).executeInsert("p").await();
    expect(out.mock.calls.map((c) => c[0])).toEqual([
      "counts> +I[widget, 1]\n", "counts> +I[gadget, 1]\n", "counts> -U[widget, 1]\n", "counts> +U[widget, 2]\n",
    ]);
    out.mockClear();
    // a descriptor without a schema takes the table's; timestamps render as Java's Instant
    await orders(e).executeInsert(TableDescriptor.forConnector("print").build()).await();
    expect(out.mock.calls.map((c) => c[0])).toEqual([
      "+I[widget, 2, 1970-01-01T00:00:01Z]\n", "+I[gadget, 1, null]\n", "+I[widget, 3, 1970-01-01T00:00:02.500Z]\n",
    ]);
  });

  it("the insert result is Flink's: one row -1 in a column named after the sink", async () => {
    vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    const e = env();
    e.createTemporaryTable("p", TableDescriptor.forConnector("blackhole").schema(countsSchema).build());
    const r = counts(e).executeInsert("p");
    expect(r.getResolvedSchema().names).toEqual(["default_catalog.default_database.p"]);
    // the tableau cuts names past 30 characters, as Flink's does
    expect(await printed(r)).toBe([
      "+--------------------------------+",
      "| default_catalog.default_dat... |",
      "+--------------------------------+",
      "|                             -1 |",
      "+--------------------------------+",
      "1 row in set",
    ].join("\n"));
    await r.await();
  });
});

describe("collection sink", () => {
  it("keeps the raw changelog and materializes it", async () => {
    const e = env();
    const sink = new CollectionSink<{ product: string | null; n: number | null }>();
    e.createTemporaryTable("out", sink.descriptor(countsSchema));
    await counts(e).executeInsert("out").await();
    expect(sink.changelog()).toEqual(["+I[widget, 1]", "+I[gadget, 1]", "-U[widget, 1]", "+U[widget, 2]"]);
    expect(sink.materialized()).toEqual([{ product: "gadget", n: 1 }, { product: "widget", n: 2 }]);
    expect(sink.rows().map((r) => Row.kindOf(r))).toEqual(["+I", "+I", "-U", "+U"]);
  });

  it("with a primary key is an upsert sink: no UPDATE_BEFORE, materialized by key", async () => {
    const e = env();
    const sink = new CollectionSink();
    e.createTemporaryTable("out", sink.descriptor(Schema.newBuilder().column("product", DataTypes.STRING()).column("n", DataTypes.BIGINT()).primaryKey("product").build()));
    await counts(e).executeInsert("out").await();
    expect(sink.changelog()).toEqual(["+I[widget, 1]", "+I[gadget, 1]", "+U[widget, 2]"]);
    expect(sink.materialized()).toEqual([{ product: "widget", n: 2 }, { product: "gadget", n: 1 }]);
  });

  it("an upsert sink needs a primary key; an insert-only one refuses updates", () => {
    const e = env();
    e.createTemporaryTable("up", new CollectionSink().descriptor(countsSchema, { "sink.changelog-mode": "upsert" }));
    expect(() => counts(e).executeInsert("up")).toThrow(new ValidationError(
      `Table sink 'up' (connector 'collection') writes upserts and needs a primary key: declare one with Schema.newBuilder()...primaryKey("id")`));
    e.createTemporaryTable("ins", new CollectionSink().descriptor(countsSchema, { "sink.changelog-mode": "insert-only" }));
    expect(() => counts(e).executeInsert("ins")).toThrow(/^Table sink 'ins' \(connector 'collection'\) is append-only and doesn't support consuming update and delete changes \[I,UB,UA\] which are produced by node Aggregate/);
  });

  it("enforces NOT NULL columns (ERROR by default, DROP on request) and widens INT to DECIMAL", async () => {
    const s = Schema.newBuilder().column("product", DataTypes.STRING()).column("amount", DataTypes.DECIMAL(5, 1)).column("ts", DataTypes.TIMESTAMP_LTZ(3).notNull()).build();
    const e = env();
    const sink = new CollectionSink();
    e.createTemporaryTable("out", sink.descriptor(s));
    await expect(orders(e).executeInsert("out").await()).rejects.toThrow(new ExecutionError(
      "Column 'ts' is NOT NULL, however, a null value is being written into it (table 'out'). You can set job configuration 'table.exec.sink.not-null-enforcer'='DROP' to suppress this exception and drop such records silently."));
    expect(sink.changelog()).toEqual(["+I[widget, 2.0, 1970-01-01T00:00:01Z]"]);
    sink.clear();
    e.getConfig().set("table.exec.sink.not-null-enforcer", "DROP");
    await orders(e).executeInsert("out").await();
    expect(sink.changelog()).toEqual(["+I[widget, 2.0, 1970-01-01T00:00:01Z]", "+I[widget, 3.0, 1970-01-01T00:00:02.500Z]"]);
  });

  it("insertInto makes a pipeline that explains the plan with its sink", () => {
    const e = env();
    e.createTemporaryTable("out", new CollectionSink().descriptor(countsSchema));
    const p = counts(e).insertInto("out");
    expect(p.getSinkIdentifier()).toBe("default_catalog.default_database.out");
    expect(p.explain().split("\n").slice(0, 2)).toEqual([
      "== Logical Plan ==",
      "Sink(table=[out], connector=[collection], fields=[product, n], changelogMode=[I]) -> [product: STRING, n: BIGINT]",
    ]);
  });
});

describe("cancelling an unbounded insert", () => {
  it("stops the job and commits whole records only", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tablestream-cancel-"));
    try {
      const e = env();
      e.createTemporaryTable("gen", TableDescriptor.forConnector("datagen")
        .schema(Schema.newBuilder().column("id", DataTypes.BIGINT()).column("s", DataTypes.STRING()).build())
        .option("rows-per-second", "500").option("fields.s.length", "20").option("seed", "9").build());
      e.createTemporaryTable("out", TableDescriptor.forConnector("filesystem")
        .schema(Schema.newBuilder().column("id", DataTypes.BIGINT()).column("s", DataTypes.STRING()).build())
        .option("path", dir).format("csv").build());
      const result = e.from("gen").executeInsert("out");
      await new Promise((r) => setTimeout(r, 150));
      // while running, the part file is hidden: readers of the directory see nothing
      expect(readdirSync(dir).filter((f) => !f.startsWith("."))).toEqual([]);
      await result.getJobClient().cancel();
      await result.await();
      const files = readdirSync(dir);
      expect(files).toHaveLength(1);
      expect(files[0]).toMatch(/^part-.*-0-0\.csv$/);
      const text = readFileSync(join(dir, files[0]!), "utf8");
      const lines = text.split("\n");
      expect(lines.pop()).toBe("");
      expect(lines.length).toBeGreaterThan(20);
      for (const l of lines) expect(l).toMatch(/^-?\d+,[0-9a-f]{20}$/);
      // and it reads back as the same number of rows
      expect(await e.from(TableDescriptor.forConnector("filesystem").schema(Schema.newBuilder().column("id", DataTypes.BIGINT()).column("s", DataTypes.STRING()).build())
        .option("path", dir).format("csv").build()).execute().toArray()).toHaveLength(lines.length);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("an AbortSignal given to executeInsert stops the job too", async () => {
    const e = env();
    const sink = new CollectionSink();
    e.createTemporaryTable("out", sink.descriptor(Schema.newBuilder().column("id", DataTypes.BIGINT()).build()));
    const controller = new AbortController();
    const r = e.from(TableDescriptor.forConnector("datagen").schema(Schema.newBuilder().column("id", DataTypes.BIGINT()).build())
      .option("rows-per-second", "200").option("fields.id.kind", "random").build())
      .executeInsert("out", { signal: controller.signal });
    await new Promise((res) => setTimeout(res, 60));
    controller.abort();
    await r.await();
    const n = sink.size;
    expect(n).toBeGreaterThan(3);
    await new Promise((res) => setTimeout(res, 60));
    expect(sink.size).toBe(n);
  });

  it("a failing insert rejects await() with the job's error", async () => {
    const e = env();
    const sink = new CollectionSink();
    e.createTemporaryTable("out", sink.descriptor(Schema.newBuilder().column("x", DataTypes.INT()).build()));
    const t = e.fromValues(DataTypes.ROW(DataTypes.FIELD("x", DataTypes.INT())), Row.of(1), Row.of(0)).select($("x").plus(0).dividedBy($("x")).as("x"));
    await expect(t.executeInsert("out").await()).rejects.toThrow(/Division by zero/);
    expect(sink.changelog()).toEqual(["+I[1]"]);
  });
});

describe("TableResult.await()", () => {
  it("runs a query to its end, and rejects with the job's error", async () => {
    const e = env();
    await expect(orders(e).execute().await()).resolves.toBeUndefined();
    const failing = e.fromValues(DataTypes.ROW(DataTypes.FIELD("x", DataTypes.INT())), Row.of(0)).select($("x").plus(1).dividedBy($("x")).as("y"));
    await expect(failing.execute().await()).rejects.toThrow(/Division by zero/);
  });
});

describe("connector tables", () => {
  it("are registered once per name; temporary ones shadow catalog ones", async () => {
    const e = env();
    const d = (n: string) => TableDescriptor.forConnector("datagen").schema(Schema.newBuilder().column("x", DataTypes.INT()).build())
      .option("number-of-rows", n).option("seed", "1").build();
    e.createTable("t", d("1"));
    expect(() => e.createTable("t", d("2"))).toThrow(new ValidationError("Could not execute CreateTable in path `t`: table 't' already exists"));
    e.createTable("t", d("2"), true);
    e.createTemporaryTable("t", d("3"));
    expect(() => e.createTemporaryTable("t", d("3"))).toThrow(new ValidationError("Temporary table 't' already exists"));
    expect(await e.from("t").execute().toArray()).toHaveLength(3);
    expect(e.dropTemporaryTable("t")).toBe(true);
    expect(await e.from("t").execute().toArray()).toHaveLength(1);
    expect(e.listTables()).toEqual(["t"]);
    expect(() => e.createTable("u", TableDescriptor.forConnector("kafka").build())).toThrow(new ValidationError(
      "Could not find any factory for identifier 'kafka' that implements a connector. Available factory identifiers are: [async-iterable, blackhole, collection, datagen, filesystem, jdbc, parquet, print]"));
    expect(() => e.from("nope")).toThrow(new ValidationError("table 'nope' is not registered; known: [t]"));
  });
});
