import { Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { describe, expect, it } from "vitest";
import {
  $, DataTypes, EnvironmentSettings, ExecutionError, Row, RowKind, Schema, TableEnvironment, Tumble, ValidationError, lit,
} from "../../src/index.js";

const env = () => TableEnvironment.create(EnvironmentSettings.inStreamingMode());
const schema = Schema.newBuilder().column("name", DataTypes.STRING().notNull()).column("n", DataTypes.INT()).build();

async function* gen<T>(rows: readonly T[]): AsyncGenerator<T> {
  for (const r of rows) {
    await Promise.resolve();
    yield r;
  }
}

/** An endless source counting how many rows were pulled and whether it was told to stop. */
function endless(asyncMode: boolean) {
  const probe = { pulled: 0, returned: false };
  function* sync() {
    try { for (;;) { probe.pulled++; yield { name: "x", n: probe.pulled }; } } finally { probe.returned = true; }
  }
  async function* asyncGen() {
    try { for (;;) { await Promise.resolve(); probe.pulled++; yield { name: "x", n: probe.pulled }; } } finally { probe.returned = true; }
  }
  return { probe, source: asyncMode ? asyncGen() : sync() };
}

describe("env.fromAsyncIterable", () => {
  it("reads an async generator of objects and Row.of(...) rows, checked against the schema", async () => {
    const e = env();
    const t = e.fromAsyncIterable(schema, gen([{ name: "a", n: 1 }, Row.of("b", 2), { name: "c" }]));
    expect(await t.execute().toChangelog()).toEqual(["+I[a, 1]", "+I[b, 2]", "+I[c, null]"]);
  });

  it("reads a sync Iterable and feeds an aggregation", async () => {
    const e = env();
    const rows = [{ name: "a", n: 1 }, { name: "b", n: 2 }, { name: "a", n: 3 }];
    const t = e.fromAsyncIterable(schema, rows).groupBy($("name")).select($("name"), $("n").sum().as("s"));
    expect(await t.execute().toChangelog()).toEqual(["+I[a, 1]", "+I[b, 2]", "-U[a, 1]", "+U[a, 4]"]);
  });

  it("a row of the wrong type fails the job naming the source, the row and the column, after the rows before it", async () => {
    const e = env();
    const t = e.fromAsyncIterable(schema, gen<unknown>([{ name: "a", n: 1 }, { name: "b", n: "two" }]) as AsyncIterable<never>, { name: "clicks" });
    const got: string[] = [];
    const err = await (async () => { try { for await (const r of t.execute().collect()) got.push(r.name); } catch (x) { return x; } })();
    expect(got).toEqual(["a"]);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as Error).message).toMatch(/^clicks row 2, column 'n'/);
  });

  it("unknown columns, NOT NULL violations and non-rows are errors naming the row", async () => {
    const e = env();
    await expect(e.fromAsyncIterable(schema, [{ name: "a", n: 1, x: 2 }] as never, { name: "s" }).execute().toArray())
      .rejects.toThrow("s row 1: column 'x' is not a physical column of [name, n]");
    await expect(e.fromAsyncIterable(schema, [{ name: "a" }, { n: 1 }] as never, { name: "s" }).execute().toArray())
      .rejects.toThrow(/s row 2, column 'name'.*null value for NOT NULL/);
    await expect(e.fromAsyncIterable(schema, [42] as never, { name: "s" }).execute().toArray())
      .rejects.toThrow("s row 1: expected Row.of(...) or an object with the columns [name, n], got 42");
    await expect(e.fromAsyncIterable(schema, [Row.of("a")] as never, { name: "s" }).execute().toArray())
      .rejects.toThrow("s row 1: has 1 values but the schema has 2 physical columns [name, n]");
    expect(() => e.fromAsyncIterable(schema, 5 as never)).toThrow(ValidationError);
  });

  it("an insert-only source rejects rows with other kinds", async () => {
    const e = env();
    await expect(e.fromAsyncIterable(schema, [Row.ofKind(RowKind.DELETE, "a", 1)], { name: "s" }).execute().toArray())
      .rejects.toThrow(/s row 1: kind -D in an insert-only source; use fromChangelogAsyncIterable/);
  });

  it("an iterator that throws fails the job with an ExecutionError naming the source", async () => {
    const e = env();
    async function* broken() { yield { name: "a", n: 1 }; throw new Error("socket closed"); }
    await expect(e.fromAsyncIterable(schema, broken(), { name: "feed" }).execute().toArray())
      .rejects.toThrow(new ExecutionError("feed failed after 1 rows: socket closed"));
    function* brokenSync() { yield { name: "a", n: 1 }; throw new Error("bad"); }
    await expect(e.fromAsyncIterable(schema, brokenSync(), { name: "feed2" }).execute().toArray())
      .rejects.toThrow("feed2 failed after 1 rows: bad");
  });

  it.each([false, true])("pulls only when the job polls and calls return() when the job is cancelled (async: %s)", async (asyncMode) => {
    const { probe, source } = endless(asyncMode);
    const e = env();
    const seen: number[] = [];
    for await (const r of e.fromAsyncIterable(schema, source).execute().collect()) {
      seen.push(r.n!);
      if (seen.length === 5) break;
    }
    expect(seen).toEqual([1, 2, 3, 4, 5]);
    // a sync iterator is drained one slice (4096 rows) per step, an async one a row per step
    expect(probe.pulled).toBeLessThanOrEqual(asyncMode ? 8 : 4096);
    await new Promise((r) => setImmediate(r));
    expect(probe.returned).toBe(true);
  });

  it("emits the watermarks the schema declares as rows arrive (a window fires before the source ends)", async () => {
    const ts = Schema.newBuilder().column("name", DataTypes.STRING()).column("ts", DataTypes.TIMESTAMP_LTZ(3)).build();
    async function* events() {
      yield { name: "a", ts: new Date(1000) };
      yield { name: "a", ts: new Date(2000) };
      yield { name: "a", ts: new Date(7000) };
      await new Promise(() => {}); // the source stays open
    }
    const e = env();
    const t = e.fromAsyncIterable(ts, events(), { watermark: { column: "ts", expression: "ts - INTERVAL '1' SECOND" } })
      .window(Tumble.over(lit(5).seconds()).on($("ts")).as("w"))
      .groupBy($("name"), $("w"))
      .select($("name"), $("w").start().as("s"), $("name").count().as("c"));
    const first: unknown[] = [];
    for await (const r of t.execute().collect()) {
      first.push(r);
      break;
    }
    expect(first).toEqual([{ name: "a", s: new Date(0), c: 2 }]);
  });

  it("reads a Node Readable in object mode and destroys it when the job is cancelled", async () => {
    const e = env();
    const done = Readable.from([{ name: "a", n: 1 }, { name: "b", n: 2 }], { objectMode: true });
    expect(await e.fromAsyncIterable(schema, done).execute().toChangelog()).toEqual(["+I[a, 1]", "+I[b, 2]"]);
    let i = 0;
    const open = new Readable({ objectMode: true, read() { this.push({ name: "r", n: ++i }); } });
    for await (const r of e.fromAsyncIterable(schema, open).execute().collect()) { if (r.n === 3) break; }
    await new Promise((r) => setImmediate(r));
    expect(open.destroyed).toBe(true);
  });
});

describe("env.fromChangelogAsyncIterable", () => {
  it("takes rows with kinds and is an updating table downstream", async () => {
    const e = env();
    const t = e.fromChangelogAsyncIterable(schema, gen([
      Row.of("a", 1), Row.of("b", 2), Row.ofKind(RowKind.UPDATE_BEFORE, "a", 1), Row.ofKind(RowKind.UPDATE_AFTER, "a", 5),
      Row.withKind(RowKind.DELETE, { name: "b", n: 2 }),
    ]));
    expect(await t.execute().toChangelog()).toEqual(["+I[a, 1]", "+I[b, 2]", "-U[a, 1]", "+U[a, 5]", "-D[b, 2]"]);
    const sums = e.fromChangelogAsyncIterable(schema, [Row.of("a", 1), Row.of("a", 2), Row.ofKind(RowKind.DELETE, "a", 1)])
      .groupBy($("name")).select($("name"), $("n").sum().as("s"));
    expect(await sums.execute().toChangelog()).toEqual(["+I[a, 1]", "-U[a, 1]", "+U[a, 3]", "-U[a, 3]", "+U[a, 2]"]);
  });
});

describe("TableResult.toReadable", () => {
  it("streams typed rows with their kinds into a Writable", async () => {
    const e = env();
    const t = e.fromAsyncIterable(schema, [{ name: "a", n: 1 }, { name: "a", n: 2 }]).groupBy($("name")).select($("name"), $("n").sum().as("s"));
    const got: string[] = [];
    await pipeline(t.execute().toReadable(), new Writable({
      objectMode: true,
      write(row: { name: string; s: number }, _enc, cb) { got.push(`${Row.kindOf(row)} ${row.name} ${row.s}`); cb(); },
    }));
    expect(got).toEqual(["+I a 1", "-U a 1", "+U a 3"]);
  });

  it("advances the job only while the stream wants data; destroy() cancels the job", async () => {
    const { probe, source } = endless(true);
    const e = env();
    const stream = e.fromAsyncIterable(schema, source).execute().toReadable({ highWaterMark: 2 });
    const first: number[] = [];
    for (let k = 0; k < 3; k++) {
      await new Promise<void>((r) => stream.once("readable", () => r()));
      let row: { n: number | null } | null;
      while (first.length < 3 && (row = stream.read()) !== null) first.push(row.n!);
    }
    expect(first).toEqual([1, 2, 3]);
    // nobody reads now: the job stops once the buffer is full
    await new Promise((r) => setTimeout(r, 20));
    const pulled = probe.pulled;
    await new Promise((r) => setTimeout(r, 20));
    expect(probe.pulled).toBe(pulled);
    expect(pulled).toBeLessThan(12);
    stream.destroy();
    await new Promise((r) => setTimeout(r, 5));
    expect(probe.returned).toBe(true);
  });

  it("a failing job errors the stream", async () => {
    const e = env();
    async function* broken() { yield { name: "a", n: 1 }; throw new Error("boom"); }
    const rows: unknown[] = [];
    await expect(pipeline(e.fromAsyncIterable(schema, broken(), { name: "f" }).execute().toReadable(),
      new Writable({ objectMode: true, write(r, _e, cb) { rows.push(r); cb(); } }))).rejects.toThrow("f failed after 1 rows: boom");
    expect(rows).toEqual([{ name: "a", n: 1 }]);
  });
});
