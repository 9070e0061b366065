import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  $, DataTypes, EnvironmentSettings, ExecutionError, Row, RowKind, type Table, TableEnvironment,
} from "../../src/index.js";
import { getExecutor, type JobSink } from "../../src/table/executor.js";
import { ColumnarValuesJob } from "../../src/exec/columnar/columnar-job.js";
import type { ColumnarBatch } from "../../src/exec/columnar/column-batch.js";

const streaming = () => TableEnvironment.create(EnvironmentSettings.inStreamingMode());
const KINDS = ["+I", "-U", "+U", "-D"];

type AnyTable = Table<object, "append" | "retract" | "upsert">;

/** Whether the executor runs `t` columnar for a sink that takes columns. */
function runsColumnar(t: AnyTable): boolean {
  const sink: JobSink = { record: () => {}, columns: (_b: ColumnarBatch) => {} };
  const env = t.env;
  const job = getExecutor().createJob(env.negotiate(t.node, true), { batch: env.isBatch(), config: env.getConfig().options, clock: Date.now }, sink);
  return job instanceof ColumnarValuesJob;
}

/** The rows of columnBatches() as `[kind, ...values]`, with the batch lengths. */
async function columnRows(t: AnyTable): Promise<{ rows: unknown[][]; lengths: number[]; batches: unknown[] }> {
  const rows: unknown[][] = [];
  const lengths: number[] = [];
  const batches: unknown[] = [];
  const names = t.node.schema.names;
  for await (const b of t.execute().columnBatches()) {
    batches.push(b);
    lengths.push(b.length);
    const cols = b.columns as Record<string, ArrayLike<unknown>>;
    for (const n of names) expect(cols[n]!.length).toBe(b.length);
    for (let i = 0; i < b.length; i++) rows.push([KINDS[b.kinds[i]!], ...names.map((n) => cols[n]![i])]);
  }
  return { rows, lengths, batches };
}

/** The rows of collect() as `[kind, ...values]`: collect() always runs the row job, the reference here. */
async function rowRows(t: AnyTable): Promise<unknown[][]> {
  const out: unknown[][] = [];
  for await (const r of t.execute().collect()) out.push([Row.kindOf(r), ...Object.values(r)]);
  return out;
}

/** The rows of batches() as `[kind, ...values]` (the row-object columnar path where the plan allows it). */
async function batchRows(t: AnyTable): Promise<unknown[][]> {
  const out: unknown[][] = [];
  for await (const b of t.execute().batches()) for (const r of b) out.push([Row.kindOf(r), ...Object.values(r)]);
  return out;
}

const BIDS = DataTypes.ROW(
  DataTypes.FIELD("auction", DataTypes.INT().notNull()), DataTypes.FIELD("bidder", DataTypes.INT().notNull()),
  DataTypes.FIELD("price", DataTypes.DOUBLE().notNull()), DataTypes.FIELD("channel", DataTypes.STRING().notNull()),
  DataTypes.FIELD("dateTime", DataTypes.TIMESTAMP_LTZ(3).notNull()));

const t0 = new Date(Date.UTC(2015, 6, 15));
const bids = (env: TableEnvironment, n: number) => env.fromValues(BIDS,
  ...Array.from({ length: n }, (_, i) => Row.of(1000 + (i % 250), i % 7, 100 + i, `channel-${i % 3}`, new Date(t0.getTime() + i))));

describe("columnar execution of Values → Filter/Project (columnBatches())", () => {
  it("projects column at a time into typed arrays: INT NOT NULL → Int32Array, DOUBLE NOT NULL → Float64Array, others arrays", async () => {
    const t = bids(streaming(), 3).select($("auction"), $("bidder"), $("price").times(0.5).as("price"), $("dateTime"), $("channel").upperCase().as("ch"));
    expect(runsColumnar(t)).toBe(true);
    const { rows, batches } = await columnRows(t);
    expect(rows).toEqual([
      ["+I", 1000, 0, 50, new Date(t0.getTime()), "CHANNEL-0"],
      ["+I", 1001, 1, 50.5, new Date(t0.getTime() + 1), "CHANNEL-1"],
      ["+I", 1002, 2, 51, new Date(t0.getTime() + 2), "CHANNEL-2"],
    ]);
    const c = (batches[0] as { columns: Record<string, unknown> }).columns;
    expect(c.auction).toBeInstanceOf(Int32Array);
    expect(c.bidder).toBeInstanceOf(Int32Array);
    expect(c.price).toBeInstanceOf(Float64Array);
    expect(Array.isArray(c.dateTime)).toBe(true);
    expect(Array.isArray(c.ch)).toBe(true);
    expect((batches[0] as { kinds: Uint8Array }).kinds).toEqual(new Uint8Array([0, 0, 0]));
  });

  it("a slice of the job is a batch: 10,000 rows come as 4096 + 4096 + 1808, in order, equal to the row path", async () => {
    const env = streaming();
    const t = bids(env, 10_000).select($("auction"), $("price").times(0.908).as("price"));
    const { rows, lengths } = await columnRows(t);
    expect(lengths).toEqual([4096, 4096, 1808]);
    expect(rows).toEqual(await rowRows(t));
  });

  it("filters as a selection vector: none selected gives no batch, all selected gives every row", async () => {
    const env = streaming();
    const none = bids(env, 5000).filter($("auction").isLess(0)).select($("auction"));
    expect(runsColumnar(none)).toBe(true);
    expect((await columnRows(none)).lengths).toEqual([]);
    const all = bids(env, 5000).filter($("auction").isGreaterOrEqual(0)).select($("auction"), $("bidder"));
    const r = await columnRows(all);
    expect(r.lengths).toEqual([4096, 904]);
    expect(r.rows).toEqual(await rowRows(all));
    const some = bids(env, 5000).filter($("auction").mod(123).isEqual(0)).filter($("bidder").isGreater(2));
    expect(runsColumnar(some)).toBe(true);
    const s = await columnRows(some);
    expect(s.rows.length).toBeGreaterThan(0);
    expect(s.rows.every((x) => (x[1] as number) % 123 === 0 && (x[2] as number) > 2)).toBe(true);
    expect(s.rows).toEqual(await rowRows(some));
  });

  it("nullable columns are plain arrays holding null; expressions over null give null", async () => {
    const env = streaming();
    const t = env.fromValues(DataTypes.ROW(DataTypes.FIELD("a", DataTypes.INT()), DataTypes.FIELD("s", DataTypes.STRING())),
      Row.of(1, "x"), Row.of(null, null), Row.of(3, "z"))
      .select($("a"), $("a").plus(1).as("b"), $("s").upperCase().as("t"));
    expect(runsColumnar(t)).toBe(true);
    const { rows, batches } = await columnRows(t);
    expect(rows).toEqual([["+I", 1, 2, "X"], ["+I", null, null, null], ["+I", 3, 4, "Z"]]);
    const c = (batches[0] as { columns: Record<string, unknown> }).columns;
    expect(Array.isArray(c.a) && Array.isArray(c.b)).toBe(true);
  });

  it("DECIMAL columns hold the same decimal values as the row path", async () => {
    const env = streaming();
    const t = env.fromValues(DataTypes.ROW(DataTypes.FIELD("d", DataTypes.DECIMAL(10, 2).notNull())), Row.of("1.25"), Row.of("-3.10"))
      .select($("d"), $("d").times(2).as("twice"));
    expect(runsColumnar(t)).toBe(true);
    const { rows } = await columnRows(t);
    expect(rows.map((r) => r.map(String))).toEqual([["+I", "1.25", "2.5"], ["+I", "-3.1", "-6.2"]]);
    expect(rows).toEqual(await rowRows(t));
  });

  it("a column named like an Object.prototype member is an own property of `columns`", async () => {
    const t = streaming().fromValues(DataTypes.ROW(DataTypes.FIELD("constructor", DataTypes.INT().notNull())), Row.of(7));
    const { batches } = await columnRows(t);
    const c = (batches[0] as { columns: Record<string, unknown> }).columns;
    expect(Object.keys(c)).toEqual(["constructor"]);
    expect(c.constructor).toEqual(new Int32Array([7]));
  });

  it("an expression failing on a row: the rows before it arrive, then the job fails naming the row, as on the row path", async () => {
    const env = streaming();
    const t = env.fromValues(DataTypes.ROW(DataTypes.FIELD("a", DataTypes.INT().notNull()), DataTypes.FIELD("b", DataTypes.INT().notNull())),
      Row.of(6, 3), Row.of(7, 0), Row.of(8, 2), Row.of(9, 0))
      .filter($("a").isGreater(6)).select($("a"), $("a").dividedBy($("b")).cast(DataTypes.INT()).as("q"));
    const seen: unknown[] = [];
    const consume = async (it: AsyncIterable<{ length: number }>) => {
      try { for await (const b of it) seen.push(b.length); } catch (e) { return e; }
      return undefined;
    };
    const res = t.execute();
    const colErr = await consume(res.columnBatches());
    const rowSeen: unknown[] = [];
    let rowErr: unknown;
    try { for await (const r of t.execute().collect()) rowSeen.push(Object.values(r)); } catch (e) { rowErr = e; }
    expect(String(colErr)).toBe(String(rowErr));
    expect(String(colErr)).toContain("(row +I[7, 0])");
    expect(seen).toEqual([]); // nothing passed the filter before the failing row
    expect(res.getMetrics()).toEqual({ "Values.numRecordsOut": 2, "Collect.numRecordsIn": 0 });

    const later = env.fromValues(DataTypes.ROW(DataTypes.FIELD("a", DataTypes.INT().notNull())), Row.of(1), Row.of(2), Row.of(0), Row.of(4))
      .select($("a"), $("a").mod($("a")).as("m"));
    const out: unknown[][] = [];
    let err: unknown;
    try { for await (const b of later.execute().columnBatches()) for (let i = 0; i < b.length; i++) out.push([b.columns.a[i], b.columns.m[i]]); } catch (e) { err = e; }
    expect(out).toEqual([[1, 0], [2, 0]]);
    expect(err).toBeInstanceOf(ExecutionError);
    expect(String(err)).toContain("Division by zero");
  });

  it("metrics are those of the row job", async () => {
    const env = streaming();
    const t = bids(env, 5000).filter($("auction").mod(10).isEqual(0)).select($("auction"));
    const a = t.execute();
    await columnRows(t);
    for await (const _ of a.columnBatches()) { /* drain */ }
    const b = t.execute();
    for await (const _ of b.collect()) { /* drain */ }
    const c = t.execute();
    for await (const _ of c.batches()) { /* drain */ }
    expect(a.getMetrics()).toEqual(b.getMetrics());
    expect(c.getMetrics()).toEqual(b.getMetrics());
  });

  it("retractions, watermarks, other operators and project-then-filter run as row jobs, gathered into columns", async () => {
    const env = streaming();
    const schema = DataTypes.ROW(DataTypes.FIELD("k", DataTypes.STRING().notNull()), DataTypes.FIELD("v", DataTypes.INT().notNull()));
    const changelog = env.fromValues(schema, Row.of("a", 1), Row.ofKind(RowKind.UPDATE_BEFORE, "a", 1), Row.ofKind(RowKind.UPDATE_AFTER, "a", 2),
      Row.ofKind(RowKind.DELETE, "a", 2)).select($("k"), $("v").times(10).as("v10"));
    expect(runsColumnar(changelog)).toBe(false);
    const c = await columnRows(changelog);
    expect(c.rows).toEqual([["+I", "a", 10], ["-U", "a", 10], ["+U", "a", 20], ["-D", "a", 20]]);
    expect((c.batches[0] as { columns: { v10: unknown } }).columns.v10).toBeInstanceOf(Int32Array);

    const grouped = bids(env, 20).groupBy($("bidder")).select($("bidder"), $("auction").count().as("n"));
    expect(runsColumnar(grouped)).toBe(false);
    expect((await columnRows(grouped)).rows).toEqual(await rowRows(grouped));

    const projectThenFilter = bids(env, 50).select($("auction"), $("price").times(2).as("p")).filter($("p").isGreater(150));
    expect(runsColumnar(projectThenFilter)).toBe(false);
    expect((await columnRows(projectThenFilter)).rows).toEqual(await rowRows(projectThenFilter));
  });

  it("with checkpointing configured the row job runs", () => {
    const env = streaming();
    env.getConfig().set("execution.checkpointing.interval-records", "100");
    env.getConfig().set("execution.checkpointing.dir", "/tmp/never-written");
    expect(runsColumnar(bids(env, 5).select($("auction")))).toBe(false);
  });

  it("property: columnBatches() equals batches() row for row, for random data, filters and projections", async () => {
    const schema = DataTypes.ROW(DataTypes.FIELD("a", DataTypes.INT()), DataTypes.FIELD("b", DataTypes.DOUBLE().notNull()), DataTypes.FIELD("s", DataTypes.STRING()));
    await fc.assert(fc.asyncProperty(
      fc.array(fc.tuple(fc.option(fc.integer({ min: -1000, max: 1000 }), { nil: null }), fc.double({ noNaN: true }), fc.option(fc.string({ maxLength: 4 }), { nil: null })), { maxLength: 60 }),
      fc.integer({ min: -1000, max: 1000 }),
      fc.boolean(),
      async (data, threshold, project) => {
        const env = streaming();
        let t: AnyTable = env.fromValues(schema, ...data.map((r) => Row.of(...r))).filter($("a").isGreater(threshold));
        if (project) t = (t as Table<{ a: number | null; b: number; s: string | null }, "append">).select($("b").plus(1).as("b1"), $("a"), $("s").charLength().as("len"));
        expect(runsColumnar(t)).toBe(true);
        const reference = await rowRows(t);
        expect((await columnRows(t)).rows).toEqual(reference);
        expect(await batchRows(t)).toEqual(reference);
      }), { numRuns: 60 });
  });
});

describe("batches() over Values → Filter/Project: row objects built by the columnar loop", () => {
  it("the rows are the row job's rows: same values, same key order, kind +I, Flink's toString", async () => {
    const env = streaming();
    const t = bids(env, 9000).filter($("bidder").isLess(3)).select($("auction"), $("price").times(0.908).as("price"), $("channel"));
    const rows: object[] = [];
    const lengths: number[] = [];
    for await (const b of t.execute().batches()) { lengths.push(b.length); rows.push(...b); }
    expect(lengths.length).toBe(3); // a batch per slice of 4096 source rows
    const reference: object[] = [];
    for await (const r of t.execute().collect()) reference.push(r);
    expect(rows).toEqual(reference);
    expect(rows.map((r) => Object.keys(r).join())).toEqual(reference.map(() => "auction,price,channel"));
    expect(rows.every((r) => Row.kindOf(r) === "+I")).toBe(true);
    expect(String(rows[0])).toBe(String(reference[0]));
    expect(String(rows[0])).toBe("+I[1000, 90.8, channel-0]");
    expect(await t.execute().toArray()).toEqual(reference);
    let n = 0;
    await t.execute().forEachBatch((b) => { n += b.length; });
    expect(n).toBe(reference.length);
  });

  it("without a filter a batch is allocated at the slice's size: every index holds a row, in order, equal to the row job's changelog", async () => {
    const env = streaming();
    const t = bids(env, 10_000).select($("auction"), $("price").times(0.908).as("price"), $("dateTime"));
    const batches: object[][] = [];
    for await (const b of t.execute().batches()) batches.push(b);
    expect(batches.map((b) => b.length)).toEqual([4096, 4096, 1808]);
    // no holes: a preallocated array filled by index has an own element at every index
    for (const b of batches) expect(Object.keys(b).length).toBe(b.length);
    const changelog = batches.flat().map((r) => `${Row.kindOf(r)}[${Object.values(r).map((v) => v instanceof Date ? v.toISOString() : String(v)).join(", ")}]`);
    const reference = (await rowRows(t)).map(([k, ...v]) => `${String(k)}[${v.map((x) => x instanceof Date ? x.toISOString() : String(x)).join(", ")}]`);
    expect(changelog).toEqual(reference);
    expect(changelog[4096]).toBe(`+I[${1000 + (4096 % 250)}, ${(100 + 4096) * 0.908}, ${new Date(t0.getTime() + 4096).toISOString()}]`);
  });

  it("without a filter, failing in the middle of a later slice: that slice's batch holds exactly the rows before the failing one", async () => {
    const env = streaming();
    const values = Array.from({ length: 5000 }, (_, i) => Row.of(i === 4100 ? 0 : i + 1));
    const t = env.fromValues(DataTypes.ROW(DataTypes.FIELD("a", DataTypes.INT().notNull())), ...values)
      .select($("a"), $("a").mod($("a")).as("m"));
    const batches: object[][] = [];
    let err: unknown;
    try { for await (const b of t.execute().batches()) batches.push(b); } catch (e) { err = e; }
    expect(batches.map((b) => b.length)).toEqual([4096, 4]);
    expect(Object.keys(batches[1]!).length).toBe(4);
    expect(batches[1]!.map((r) => Object.values(r))).toEqual([[4097, 0], [4098, 0], [4099, 0], [4100, 0]]);
    expect(String(err)).toContain("(row +I[0])");
  });

  it("a failing expression: the rows before it arrive, then the job fails naming the row", async () => {
    const env = streaming();
    const t = env.fromValues(DataTypes.ROW(DataTypes.FIELD("a", DataTypes.INT().notNull())), Row.of(1), Row.of(2), Row.of(0), Row.of(4))
      .select($("a"), $("a").mod($("a")).as("m"));
    const seen: unknown[] = [];
    let err: unknown;
    const res = t.execute();
    try { for await (const b of res.batches()) for (const r of b) seen.push(Object.values(r)); } catch (e) { err = e; }
    let rowErr: unknown;
    try { for await (const _ of t.execute().collect()) { /* drain */ } } catch (e) { rowErr = e; }
    expect(seen).toEqual([[1, 0], [2, 0]]);
    expect(String(err)).toBe(String(rowErr));
    expect(String(err)).toContain("(row +I[0])");
    expect(res.getMetrics()).toEqual({ "Values.numRecordsOut": 3, "Collect.numRecordsIn": 2 });
  });
});

describe("a savepoint of a columnar job", () => {
  it("turns it into the row job at the same position: the rows continue without a gap or a repeat, and a job restored from it reads the rest", async () => {
    const dir = mkdtempSync(join(tmpdir(), "columnar-savepoint-"));
    const query = (env: TableEnvironment) => bids(env, 10_000).filter($("bidder").isLess(5)).select($("auction"), $("bidder"));
    const reference: unknown[][] = [];
    for await (const r of query(streaming()).execute().collect()) reference.push(Object.values(r));

    for (const consumer of ["batches", "columnBatches"] as const) {
      const res = query(streaming()).execute();
      expect(runsColumnar(query(streaming()))).toBe(true);
      const seen: unknown[][] = [];
      let path: Promise<string> | undefined;
      let afterSavepoint = -1;
      if (consumer === "batches") {
        for await (const b of res.batches()) {
          for (const r of b) seen.push(Object.values(r));
          if (path === undefined) { path = res.getJobClient().triggerSavepoint(dir); afterSavepoint = seen.length; }
        }
      } else {
        for await (const b of res.columnBatches()) {
          for (let i = 0; i < b.length; i++) seen.push([b.columns.auction[i], b.columns.bidder[i]]);
          if (path === undefined) { path = res.getJobClient().triggerSavepoint(dir); afterSavepoint = seen.length; }
        }
      }
      expect(seen).toEqual(reference);
      expect(res.getMetrics()).toEqual({ "Values.numRecordsOut": 10_000, "Collect.numRecordsIn": reference.length });
      const env = streaming();
      env.getConfig().set("execution.savepoint.path", await path!);
      const rest: unknown[][] = [];
      for await (const b of query(env).execute().batches()) for (const r of b) rest.push(Object.values(r));
      expect(afterSavepoint).toBeGreaterThan(0);
      expect(rest).toEqual(reference.slice(afterSavepoint));
    }
    rmSync(dir, { recursive: true, force: true });
  });
});
