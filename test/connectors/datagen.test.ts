import { describe, expect, it } from "vitest";
import {
  $, DataTypes, EnvironmentSettings, ExecutionError, lit, Row, Schema, TableDescriptor, TableEnvironment, Tumble, ValidationError,
} from "../../src/index.js";

const T0 = Date.UTC(2025, 2, 27, 7, 38, 31, 134);
const env = (batch = false) => TableEnvironment.create(batch ? EnvironmentSettings.inBatchMode() : EnvironmentSettings.inStreamingMode()).setClock(() => T0);

/** The seed's Names table (GreetingWithFollowUp), bounded and seeded for the tests. */
function names(e: TableEnvironment, options: Record<string, string> = {}) {
  let d = TableDescriptor.forConnector("datagen")
    .schema(Schema.newBuilder()
      .column("ts", "TIMESTAMP_LTZ(3)")
      .column("random", "INT")
      .columnByExpression("name", "IF(random % 2 = 0, 'Bob', 'Alice')")
      .watermark("ts", "ts - INTERVAL '1' SECOND")
      .build())
    .option("rows-per-second", "100000");
  for (const [k, v] of Object.entries(options)) d = d.option(k, v);
  e.createTemporaryTable("Names", d.build());
  return e.from<{ ts: Date | null; random: number | null; name: string }>("Names");
}

describe("datagen", () => {
  it("with a seed gives the same rows on every run; another seed gives others", async () => {
    const run = async (seed: string) => names(env(), { "number-of-rows": "20", seed }).execute().toChangelog();
    const a = await run("42");
    expect(a).toHaveLength(20);
    expect(await run("42")).toEqual(a);
    expect(await run("43")).not.toEqual(a);
    // computed column from the generated one; timestamps from the job's clock
    for (const line of a) expect(line).toMatch(/^\+I\[2025-03-27T07:38:31\.134Z, -?\d+, (Bob|Alice)\]$/);
    const rows = await names(env(), { "number-of-rows": "20", seed: "42" }).execute().toArray();
    for (const r of rows) expect(r.name).toBe((r.random as number) % 2 === 0 ? "Bob" : "Alice");
  });

  it("declares the rowtime attribute and computed column in its schema, and plans a scan", () => {
    const t = names(env(), { "number-of-rows": "1" });
    expect(t.getResolvedSchema().toShortString()).toBe("[ts: TIMESTAMP_LTZ(3) *ROWTIME*, random: INT, name: VARCHAR(5) NOT NULL]");
    expect(t.explain()).toBe([
      "== Logical Plan ==",
      "SourceScan(table=[Names], connector=[datagen], changelogMode=[I]) -> [ts: TIMESTAMP_LTZ(3) *ROWTIME*, random: INT, name: VARCHAR(5) NOT NULL]",
    ].join("\n"));
  });

  it("honours min/max, length, var-len, null-rate, max-past and sequences", async () => {
    const schema = Schema.newBuilder()
      .column("id", DataTypes.BIGINT().notNull())
      .column("small", DataTypes.INT())
      .column("s", DataTypes.STRING())
      .column("v", DataTypes.VARCHAR(8))
      .column("x", DataTypes.DOUBLE())
      .column("ts", DataTypes.TIMESTAMP(3))
      .column("maybe", DataTypes.INT())
      .column("price", DataTypes.DECIMAL(5, 2))
      .column("seq", DataTypes.STRING())
      .build();
    const t = env().from(TableDescriptor.forConnector("datagen").schema(schema)
      .option("rows-per-second", "1000000").option("seed", "1")
      .option("fields.id.kind", "sequence").option("fields.id.start", "10").option("fields.id.end", "209")
      .option("fields.small.min", "-3").option("fields.small.max", "3")
      .option("fields.s.length", "5")
      .option("fields.v.var-len", "true")
      .option("fields.x.min", "0.5").option("fields.x.max", "1.5")
      .option("fields.ts.max-past", "10 s")
      .option("fields.maybe.null-rate", "0.5")
      .option("fields.price.min", "1").option("fields.price.max", "2")
      .option("fields.seq.kind", "sequence").option("fields.seq.start", "1").option("fields.seq.end", "1000")
      .build());
    const out = await t.execute().toArray();
    // the shortest sequence (id: 200 values) ends the table
    expect(out).toHaveLength(200);
    expect(out.map((r) => r.id)).toEqual(Array.from({ length: 200 }, (_, i) => 10 + i));
    expect(out.map((r) => r.seq)).toEqual(Array.from({ length: 200 }, (_, i) => String(1 + i)));
    for (const r of out) {
      expect(r.small).toBeGreaterThanOrEqual(-3);
      expect(r.small).toBeLessThanOrEqual(3);
      expect(r.s).toMatch(/^[0-9a-f]{5}$/);
      expect(r.v).toMatch(/^[0-9a-f]{1,8}$/);
      expect(r.x).toBeGreaterThanOrEqual(0.5);
      expect(r.x).toBeLessThan(1.5);
      const ts = (r.ts as Date).getTime();
      expect(ts).toBeLessThanOrEqual(T0);
      expect(ts).toBeGreaterThanOrEqual(T0 - 10_000);
      expect(Number(r.price)).toBeGreaterThanOrEqual(1);
      expect(Number(r.price)).toBeLessThanOrEqual(2);
    }
    const nulls = out.filter((r) => r.maybe === null).length;
    expect(nulls).toBeGreaterThan(60);
    expect(nulls).toBeLessThan(140);
    expect(new Set(out.map((r) => r.small)).size).toBe(7);
    expect(new Set(out.map((r) => (r.v as string).length)).size).toBeGreaterThan(4);
  });

  it("places computed columns where the schema declares them", async () => {
    const t = env().from(TableDescriptor.forConnector("datagen")
      .schema(Schema.newBuilder()
        .column("a", DataTypes.INT().notNull())
        .columnByExpression("twice", $("a").times(2))
        .column("c", DataTypes.STRING())
        .columnByExpression("label", "CONCAT(c, '!')")
        .build())
      .option("fields.a.kind", "sequence").option("fields.a.start", "1").option("fields.a.end", "3")
      .option("fields.c.kind", "sequence").option("fields.c.start", "7").option("fields.c.end", "9")
      .build());
    expect(t.getResolvedSchema().names).toEqual(["a", "twice", "c", "label"]);
    expect(await t.execute().toChangelog()).toEqual(["+I[1, 2, 7, 7!]", "+I[2, 4, 8, 8!]", "+I[3, 6, 9, 9!]"]);
  });

  it("reports wrong options naming the option and the table", () => {
    const schema = Schema.newBuilder().column("id", DataTypes.INT()).column("s", DataTypes.VARCHAR(4)).build();
    const d = (opts: Record<string, string>) => {
      let b = TableDescriptor.forConnector("datagen").schema(schema);
      for (const [k, v] of Object.entries(opts)) b = b.option(k, v);
      return b.build();
    };
    const e = env();
    expect(() => e.from(d({ "rows-per-sec": "1" }))).toThrow(/^Unsupported options found for 'datagen' \(table '\*anonymous_datagen\$\d+\*'\)\.\n\nUnsupported options:\n\nrows-per-sec\n/);
    expect(() => e.from(d({ "fields.nope.kind": "random" }))).toThrow(
      /option 'fields\.nope\.kind' names column 'nope', which is not a physical column of \[id, s\]/);
    expect(() => e.from(d({ "fields.id.kind": "sequence", "fields.id.end": "3" }))).toThrow(
      /option 'fields\.id\.start' is required for a sequence field/);
    expect(() => e.from(d({ "fields.id.min": "x" }))).toThrow(/option 'fields\.id\.min' must be a number, got 'x'/);
    expect(() => e.from(d({ "fields.id.min": "5", "fields.id.max": "1" }))).toThrow(/option 'fields\.id\.max' must not be less than min \(5\)/);
    expect(() => e.from(d({ "fields.s.length": "10" }))).toThrow(/option 'fields\.s\.length' must not exceed the length of VARCHAR\(4\), got '10'/);
    expect(() => e.from(d({ "fields.id.length": "10" }))).toThrow(/option 'fields\.id\.length' does not apply to column 'id' \(INT\)/);
    expect(() => e.from(d({ "rows-per-second": "0" }))).toThrow(/option 'rows-per-second' of table '.*' \(connector 'datagen'\) is invalid: expected int ≥ 1 \(must be a whole number ≥ 1, got '0'\)/);
    expect(() => e.from(d({ seed: "abc" }))).toThrow(/option 'seed' of table '.*' must be a whole number, got 'abc'/);
  });

  it("an unbounded table is refused in batch mode, a bounded one is fine", async () => {
    expect(() => names(env(true))).toThrow(new ValidationError(
      "Querying an unbounded table 'Names' in batch mode is not allowed. The table source is unbounded."));
    expect(await names(env(true), { "number-of-rows": "3", seed: "1" }).execute().toArray()).toHaveLength(3);
  });

  it("without number-of-rows streams rows through collect() as they are produced, paced, until cancelled", async () => {
    const t = names(env(), { "rows-per-second": "200", seed: "5" });
    const started = Date.now();
    const seen: unknown[] = [];
    for await (const r of t.execute().collect()) {
      seen.push(r);
      if (seen.length === 10) break; // leaving the loop cancels the job
    }
    const elapsed = Date.now() - started;
    expect(seen).toHaveLength(10);
    // 10 rows at 200/s: the first at once, the tenth after about 45 ms
    expect(elapsed).toBeGreaterThanOrEqual(40);
    expect(elapsed).toBeLessThan(2000);
  });

  it("an unbounded print() ends cleanly on getJobClient().cancel() and on an AbortSignal", async () => {
    const result = names(env(), { "rows-per-second": "100", seed: "5" }).execute();
    const lines: string[] = [];
    const printing = result.print((l) => lines.push(l));
    await new Promise((r) => setTimeout(r, 120));
    await result.getJobClient().cancel();
    await printing;
    const rows = lines.filter((l) => l.startsWith("| +I |"));
    expect(rows.length).toBeGreaterThanOrEqual(5);
    expect(lines[lines.length - 1]).toBe(`Job cancelled after ${rows.length} rows`);

    const controller = new AbortController();
    const aborted = names(env(), { "rows-per-second": "100", seed: "5" }).execute({ signal: controller.signal });
    setTimeout(() => controller.abort(), 80);
    const got: unknown[] = [];
    for await (const r of aborted.collect()) got.push(r);
    expect(got.length).toBeGreaterThanOrEqual(3);
  });

  it("feeds event-time windows: watermarks come from the declared rowtime", async () => {
    const e = env();
    let t = T0;
    e.setClock(() => (t += 1000)); // each generated timestamp is one second after the previous
    const w = names(e, { "number-of-rows": "6", seed: "3" })
      .window(Tumble.over(lit(3).seconds()).on($("ts")).as("w"))
      .groupBy($("w"))
      .select($("w").start().as("s"), $("random").count().as("n"));
    // ts = 07:38:32.134 ... 07:38:37.134: one row in [30, 33), three in [33, 36), two in [36, 39)
    expect(await w.execute().toChangelog()).toEqual([
      "+I[2025-03-27T07:38:30, 1]", "+I[2025-03-27T07:38:33, 3]", "+I[2025-03-27T07:38:36, 2]",
    ]);
  });

  it("cannot be written to", () => {
    const e = env();
    names(e, { "number-of-rows": "1" });
    const t = e.fromValues(DataTypes.ROW(DataTypes.FIELD("ts", DataTypes.TIMESTAMP_LTZ(3)), DataTypes.FIELD("random", DataTypes.INT())), Row.of(null, 1));
    expect(() => t.executeInsert("Names")).toThrow(new ValidationError(
      "Connector 'datagen' can only be used as a source. It cannot be used as a sink (table 'Names')."));
  });

  it("fails the job, not the process, when a computed column fails", async () => {
    const e = env();
    const t = e.from(TableDescriptor.forConnector("datagen")
      .schema(Schema.newBuilder().column("a", DataTypes.INT().notNull()).columnByExpression("b", $("a").dividedBy(0)).build())
      .option("number-of-rows", "1").option("seed", "1").build());
    await expect(t.execute().toArray()).rejects.toThrow(ExecutionError);
  });
});
