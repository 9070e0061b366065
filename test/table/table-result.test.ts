import { describe, expect, it } from "vitest";
import {
  $, DataTypes, EnvironmentSettings, ExecutionError, ResolvedSchema, Row, RowKind, TableEnvironment, TableResult,
} from "../../src/index.js";
import type { Job, JobSink } from "../../src/table/executor.js";
import { rowConverter } from "../../src/table/row-converter.js";

const streaming = () => TableEnvironment.create(EnvironmentSettings.inStreamingMode());
const batch = () => TableEnvironment.create(EnvironmentSettings.inBatchMode());

async function printLines(r: TableResult<object>): Promise<string[]> {
  const lines: string[] = [];
  await r.print((l) => lines.push(l));
  return lines;
}

/** print() output and the error it rejected with. */
async function printFailing(r: TableResult<object>): Promise<{ lines: string[]; error: unknown }> {
  const lines: string[] = [];
  const error = await r.print((l) => lines.push(l)).then(() => undefined, (e: unknown) => e);
  return { lines, error };
}

const ALL_TYPES = DataTypes.ROW(
  DataTypes.FIELD("s", DataTypes.STRING()), DataTypes.FIELD("i", DataTypes.INT()), DataTypes.FIELD("b", DataTypes.BIGINT()),
  DataTypes.FIELD("f", DataTypes.BOOLEAN()), DataTypes.FIELD("d", DataTypes.DECIMAL(10, 2)), DataTypes.FIELD("ts", DataTypes.TIMESTAMP(3)),
  DataTypes.FIELD("dt", DataTypes.DATE()), DataTypes.FIELD("tm", DataTypes.TIME()), DataTypes.FIELD("ti", DataTypes.TINYINT()),
  DataTypes.FIELD("si", DataTypes.SMALLINT()), DataTypes.FIELD("x", DataTypes.DOUBLE()));

describe("print(): streaming tableau with type-derived widths", () => {
  it("widths per type (STRING 30, INT 11, BIGINT 20, BOOLEAN 5 -> 6 for <NULL>, DECIMAL p+2, TIMESTAMP(3) 23 ...), NULL as <NULL>", async () => {
    const t = streaming().fromValues(ALL_TYPES,
      Row.of("hello", 1, -2, true, "3.14", "2024-01-02 03:04:05.678", "2024-01-02", "03:04:05", 1, -2, 0.5),
      Row.of(null, null, null, null, null, null, null, null, null, null, null));
    expect(await printLines(t.execute())).toEqual([
      "+----+--------------------------------+-------------+----------------------+--------+--------------+-------------------------+------------+----------+--------+--------+--------------------------------+",
      "| op |                              s |           i |                    b |      f |            d |                      ts |         dt |       tm |     ti |     si |                              x |",
      "+----+--------------------------------+-------------+----------------------+--------+--------------+-------------------------+------------+----------+--------+--------+--------------------------------+",
      "| +I |                          hello |           1 |                   -2 |   TRUE |         3.14 | 2024-01-02 03:04:05.678 | 2024-01-02 | 03:04:05 |      1 |     -2 |                            0.5 |",
      "| +I |                         <NULL> |      <NULL> |               <NULL> | <NULL> |       <NULL> |                  <NULL> |     <NULL> |   <NULL> | <NULL> | <NULL> |                         <NULL> |",
      "+----+--------------------------------+-------------+----------------------+--------+--------------+-------------------------+------------+----------+--------+--------+--------------------------------+",
      "2 rows in set",
    ]);
  });

  it("a long column name widens its column; values wider than 30 are cut with ...", async () => {
    const t = streaming().fromValues(
      DataTypes.ROW(DataTypes.FIELD("a_column_name_longer_than_eleven", DataTypes.INT()), DataTypes.FIELD("s", DataTypes.STRING())),
      Row.of(7, "abcdefghijklmnopqrstuvwxyz0123456789"), Row.of(8, "这是一段中文这是一段中文这是一段中文"));
    expect(await printLines(t.execute())).toEqual([
      "+----+----------------------------------+--------------------------------+",
      "| op | a_column_name_longer_than_eleven |                              s |",
      "+----+----------------------------------+--------------------------------+",
      "| +I |                                7 | abcdefghijklmnopqrstuvwxyz0... |",
      // wide characters count 2: 13 of them fill 26 of the 27 places left before the dots
      "| +I |                                8 |  这是一段中文这是一段中文这... |",
      "+----+----------------------------------+--------------------------------+",
      "2 rows in set",
    ]);
  });

  it("the op column shows each row's kind; one row says '1 row in set'", async () => {
    const t = streaming().fromValues("a", "a").as("w").groupBy($("w")).select($("w"), $("w").count().as("n"));
    expect(await printLines(t.execute())).toEqual([
      "+----+--------------------------------+----------------------+",
      "| op |                              w |                    n |",
      "+----+--------------------------------+----------------------+",
      "| +I |                              a |                    1 |",
      "| -U |                              a |                    1 |",
      "| +U |                              a |                    2 |",
      "+----+--------------------------------+----------------------+",
      "3 rows in set",
    ]);
    expect((await printLines(streaming().fromValues(1).execute())).at(-1)).toBe("1 row in set");
  });

  it("no rows print 'Empty set'", async () => {
    const t = streaming().fromValues(1, 2).filter($("f0").isGreater(5));
    expect(await printLines(t.execute())).toEqual(["Empty set"]);
  });
});

describe("print(): batch tableau with data-derived widths", () => {
  it("no op column; widths from names and values, wide characters count 2, capped at 30", async () => {
    const t = batch().fromValues(DataTypes.ROW(DataTypes.FIELD("s", DataTypes.STRING()), DataTypes.FIELD("number", DataTypes.INT())),
      Row.of("hello", 1), Row.of(null, 12345), Row.of("这是一段中文", 1), Row.of("x".repeat(40), 2));
    expect(await printLines(t.execute())).toEqual([
      "+--------------------------------+--------+",
      "|                              s | number |",
      "+--------------------------------+--------+",
      "|                          hello |      1 |",
      "|                         <NULL> |  12345 |",
      "|                   这是一段中文 |      1 |",
      `| ${"x".repeat(27)}... |      2 |`,
      "+--------------------------------+--------+",
      "4 rows in set",
    ]);
  });

  it("the final result of an aggregate; 'Empty set' without rows", async () => {
    const q = batch().fromValues("a", "b", "a").as("w").groupBy($("w")).select($("w"), $("w").count().as("n"));
    expect(await printLines(q.execute())).toEqual(["+---+---+", "| w | n |", "+---+---+", "| a | 2 |", "| b | 1 |", "+---+---+", "2 rows in set"]);
    expect(await printLines(batch().fromValues(1).filter($("f0").isGreater(1)).execute())).toEqual(["Empty set"]);
  });
});

describe("a failing job", () => {
  const failing = (env: TableEnvironment) => env.fromValues(DataTypes.ROW(DataTypes.FIELD("a", DataTypes.INT()), DataTypes.FIELD("b", DataTypes.INT())),
    Row.of(6, 2), Row.of(7, 7), Row.of(1, 0), Row.of(2, 1)).select($("a"), $("a").dividedBy($("b")).as("q"));
  const message = "Division by zero in `dividedBy(a, b)` (row +I[1, 0])";

  it("print() closes the rows printed so far and says the job failed, then rejects", async () => {
    const { lines, error } = await printFailing(failing(streaming()).execute());
    expect(error).toBeInstanceOf(ExecutionError);
    expect((error as Error).message).toBe(message);
    expect(lines).toEqual([
      "+----+-------------+-------------+",
      "| op |           a |           q |",
      "+----+-------------+-------------+",
      "| +I |           6 |           3 |",
      "| +I |           7 |           1 |",
      "+----+-------------+-------------+",
      `Job failed after 2 rows: ${message}`,
    ]);
  });

  it("print() in batch mode prints no partial table, only the failure", async () => {
    const { lines, error } = await printFailing(failing(batch()).execute());
    expect((error as Error).message).toBe(message);
    expect(lines).toEqual([`Job failed: ${message}`]);
  });

  it("toArray() and toChangelog() reject; collect() yields the rows before the failure, then throws", async () => {
    await expect(failing(streaming()).execute().toArray()).rejects.toThrow(message);
    await expect(failing(streaming()).execute().toChangelog()).rejects.toThrow(message);
    const seen: unknown[] = [];
    const consume = async () => { for await (const r of failing(streaming()).execute().collect()) seen.push({ ...r }); };
    await expect(consume()).rejects.toThrow(new ExecutionError(message));
    expect(seen).toEqual([{ a: 6, q: 3 }, { a: 7, q: 1 }]);
  });
});

describe("collect(), toArray(), toChangelog()", () => {
  it("collect() is an async iterable of typed rows with their kinds", async () => {
    const t = streaming().fromValues("x", "y", "x").as("w").groupBy($("w")).select($("w"), $("w").count().as("n"));
    const out: [string, string, number][] = [];
    for await (const r of t.execute().collect()) out.push([Row.kindOf(r), r.w as string, r.n]);
    expect(out).toEqual([["+I", "x", 1], ["+I", "y", 1], ["-U", "x", 1], ["+U", "x", 2]]);
  });

  it("rows are plain objects: the kind is not an own property, a column named __proto__ is kept", async () => {
    const t = streaming().fromValues(DataTypes.ROW(DataTypes.FIELD("__proto__", DataTypes.INT()), DataTypes.FIELD("b", DataTypes.INT())), Row.of(1, 2));
    const [r] = await t.execute().toArray();
    expect(Object.keys(r!)).toEqual(["__proto__", "b"]);
    expect(Object.getOwnPropertyDescriptor(r, "__proto__")?.value).toBe(1);
    expect(Row.kindOf(r!)).toBe(RowKind.INSERT);
  });

  it("toArray() and toChangelog()", async () => {
    const t = streaming().fromValues(DataTypes.ROW(DataTypes.FIELD("name", DataTypes.STRING()), DataTypes.FIELD("ts", DataTypes.TIMESTAMP_LTZ(3))),
      Row.of("a", 1), Row.of(null, 0));
    expect(await t.execute().toChangelog()).toEqual(["+I[a, 1970-01-01T00:00:00.001Z]", "+I[null, 1970-01-01T00:00:00Z]"]);
    expect(await t.execute().toArray()).toEqual([{ name: "a", ts: new Date(1) }, { name: null, ts: new Date(0) }]);
  });

  it("a result is consumed once", async () => {
    const r = streaming().fromValues(1).execute();
    await r.toArray();
    await expect(r.toArray()).rejects.toThrow("this TableResult has already been consumed; call execute() again for a new job");
  });
});

describe("cancellation", () => {
  /** A job that produces `slices` slices of 2 rows each and records whether it was cancelled. */
  function fakeJob(slices: number) {
    const state = { steps: 0, cancelled: false };
    const make = (sink: JobSink): Job => ({
      step: () => {
        if (state.cancelled) throw new Error("step after cancel");
        state.steps++;
        sink.record(0, [state.steps * 2 - 1]);
        sink.record(0, [state.steps * 2]);
        return state.steps === slices ? "done" : "more";
      },
      cancel: () => { state.cancelled = true; },
    });
    const schema = new ResolvedSchema([{ name: "n", type: DataTypes.INT() }]);
    return { state, result: new TableResult<{ n: number }>(schema, make, false) };
  }

  it("collect(): next() calls made without awaiting are served in order, across slices, then done", async () => {
    const { state, result } = fakeJob(2);
    const it = result.collect();
    const got = await Promise.all([it.next(), it.next(), it.next(), it.next(), it.next(), it.next()]);
    expect(got.map((r) => (r.done ? "done" : r.value.n))).toEqual([1, 2, 3, 4, "done", "done"]);
    expect(state.steps).toBe(2);
  });

  it("collect(): return() before the end cancels the job; later next() is done", async () => {
    const { state, result } = fakeJob(1000);
    const it = result.collect();
    expect((await it.next()).value).toMatchObject({ n: 1 });
    expect(await it.return()).toEqual({ done: true, value: undefined });
    expect(state.cancelled).toBe(true);
    expect(await it.next()).toEqual({ done: true, value: undefined });
  });

  it("breaking out of collect() cancels the job and stops stepping it", async () => {
    const { state, result } = fakeJob(1000);
    const seen: number[] = [];
    for await (const r of result.collect()) {
      seen.push(r.n);
      if (seen.length === 3) break;
    }
    expect(seen).toEqual([1, 2, 3]);
    expect(state.cancelled).toBe(true);
    expect(state.steps).toBe(2);
  });

  it("a job that runs to its end is released too", async () => {
    const { state, result } = fakeJob(3);
    expect((await result.toArray()).map((r) => r.n)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(state.cancelled).toBe(true);
  });

  it("getJobClient().cancel() during print() ends the table with a line saying so", async () => {
    const { state, result } = fakeJob(1000);
    const lines: string[] = [];
    await result.print((l) => {
      lines.push(l);
      if (l.includes("|           3 |")) void result.getJobClient().cancel();
    });
    expect(state.cancelled).toBe(true);
    expect(lines).toEqual([
      "+----+-------------+", "| op |           n |", "+----+-------------+",
      "| +I |           1 |", "| +I |           2 |", "| +I |           3 |", "| +I |           4 |",
      "+----+-------------+", "Job cancelled after 4 rows",
    ]);
  });

  it("an aborted signal stops a job started with execute({ signal })", async () => {
    const ac = new AbortController();
    const t = streaming().fromValues(DataTypes.ROW(DataTypes.FIELD("n", DataTypes.INT())), ...Array.from({ length: 20_000 }, (_, i) => Row.of(i)));
    const seen: number[] = [];
    for await (const r of t.execute({ signal: ac.signal }).collect()) {
      seen.push(r.n!);
      if (seen.length === 10) ac.abort();
    }
    // the slice in flight is delivered (4096 rows), nothing after it
    expect(seen.length).toBe(4096);
  });
});

describe("batches() and forEachBatch(): rows a batch at a time", () => {
  const counts = () => streaming().fromValues("x", "y", "x").as("w").groupBy($("w")).select($("w"), $("w").count().as("n"));

  it("batches() yields arrays of typed rows with their kinds, in changelog order", async () => {
    const out: [string, string, number][] = [];
    for await (const batch of counts().execute().batches()) {
      expect(batch.length).toBeGreaterThan(0);
      for (const r of batch) out.push([Row.kindOf(r), r.w as string, r.n]);
    }
    expect(out).toEqual([["+I", "x", 1], ["+I", "y", 1], ["-U", "x", 1], ["+U", "x", 2]]);
  });

  it("one batch per slice of the job: 10,000 rows come as 4096 + 4096 + 1808", async () => {
    const t = streaming().fromValues(DataTypes.ROW(DataTypes.FIELD("n", DataTypes.INT())), ...Array.from({ length: 10_000 }, (_, i) => Row.of(i)));
    const sizes: number[] = [];
    let last = -1;
    await t.execute().forEachBatch((rows) => {
      sizes.push(rows.length);
      for (const r of rows) { expect(r.n).toBe(last + 1); last = r.n!; }
    });
    expect(sizes).toEqual([4096, 4096, 1808]);
    expect(last).toBe(9999);
  });

  it("forEachBatch() waits for a returned promise before the next batch (backpressure)", async () => {
    const t = streaming().fromValues(DataTypes.ROW(DataTypes.FIELD("n", DataTypes.INT())), ...Array.from({ length: 9_000 }, (_, i) => Row.of(i)));
    const events: string[] = [];
    await t.execute().forEachBatch(async (rows) => {
      events.push(`start ${rows[0]!.n}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
      events.push(`end ${rows[0]!.n}`);
    });
    expect(events).toEqual(["start 0", "end 0", "start 4096", "end 4096", "start 8192", "end 8192"]);
  });

  it("a job failure rejects both after the rows produced before it", async () => {
    const { state, result } = fakeFailing(2);
    const seen: number[] = [];
    await expect(result.forEachBatch((rows) => { for (const r of rows) seen.push(r.n); })).rejects.toThrow("boom at step 3");
    expect(seen).toEqual([1, 2, 3, 4, 5]);
    expect(state.cancelled).toBe(true);
    const again = fakeFailing(2);
    const fromIterator: number[] = [];
    const consume = async () => { for await (const b of again.result.batches()) for (const r of b) fromIterator.push(r.n); };
    await expect(consume()).rejects.toThrow("boom at step 3");
    expect(fromIterator).toEqual([1, 2, 3, 4, 5]);
  });

  it("a throw in the callback cancels the job and rejects with that error; breaking out of batches() cancels too", async () => {
    const { state, result } = fakeFailing(1000);
    await expect(result.forEachBatch(() => { throw new Error("consumer says no"); })).rejects.toThrow("consumer says no");
    expect(state.cancelled).toBe(true);
    expect(state.steps).toBe(1);
    const other = fakeFailing(1000);
    for await (const b of other.result.batches()) { expect(b.map((r) => r.n)).toEqual([1, 2]); break; }
    expect(other.state.cancelled).toBe(true);
    expect(other.state.steps).toBe(1);
  });

  it("a result is consumed once, whichever consumer came first", async () => {
    const r = streaming().fromValues(1).execute();
    await r.forEachBatch(() => {});
    await expect(r.toArray()).rejects.toThrow("this TableResult has already been consumed; call execute() again for a new job");
  });

  /** A job of 2 rows per step that fails in step `failAt + 1` (after emitting one row there) unless it is cancelled first. */
  function fakeFailing(failAt: number) {
    const state = { steps: 0, cancelled: false };
    const make = (sink: JobSink): Job => ({
      step: () => {
        state.steps++;
        sink.record(0, [state.steps * 2 - 1]);
        if (state.steps > failAt) throw new ExecutionError(`boom at step ${state.steps}`);
        sink.record(0, [state.steps * 2]);
        return "more";
      },
      cancel: () => { state.cancelled = true; },
    });
    const schema = new ResolvedSchema([{ name: "n", type: DataTypes.INT() }]);
    return { state, result: new TableResult<{ n: number }>(schema, make, false) };
  }
});

describe("row objects", () => {
  it("one converter per column-name list, shared by every job (rows keep one shape across jobs)", async () => {
    const schema = (...names: string[]) => new ResolvedSchema(names.map((name) => ({ name, type: DataTypes.INT() })));
    expect(rowConverter(schema("n", "s"))).toBe(rowConverter(schema("n", "s")));
    expect(rowConverter(schema("s", "n"))).not.toBe(rowConverter(schema("n", "s")));
    const convert = rowConverter<{ n: number; s: number }>(schema("n", "s"));
    const rows = [0, 1, 2, 3].map((k) => convert(k, [k, 10 + k]));
    expect(rows.map((r) => [Row.kindOf(r), { ...r }])).toEqual([
      ["+I", { n: 0, s: 10 }], ["-U", { n: 1, s: 11 }], ["+U", { n: 2, s: 12 }], ["-D", { n: 3, s: 13 }],
    ]);
    expect(String(rows[2])).toBe("+U[2, 12]");
  });

  it("a column named toString is an own property (the kind prototypes are frozen)", async () => {
    const [r] = await streaming().fromValues(Row.of("x", 1)).as("toString", "n").execute().toArray();
    expect(Object.keys(r!)).toEqual(["toString", "n"]);
    expect(Object.getOwnPropertyDescriptor(r, "toString")?.value).toBe("x");
  });
});
