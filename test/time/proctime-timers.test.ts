// Processing-time timers: an operator on processing time registers a timer with the job, which fires it when
// the job clock reaches it — also while every source is idle (the job wakes at the earliest timer through its
// clock: manualClock here, so nothing depends on real time) — and timers come back with a restored savepoint.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import {
  CollectionSink, DataTypes, EnvironmentSettings, PositionalRow, Row, Schema, TableEnvironment, ValidationError, manualClock,
} from "../../src/index.js";
import { ProcessingTimeService } from "../../src/exec/time/processing-time-service.js";

const dirs: string[] = [];
afterEach(() => { for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true }); });
const at = (hms: string) => Date.parse(`2020-04-15T${hms}Z`);
const settle = () => new Promise<void>((r) => setTimeout(r, 5));
/** Waits (bounded) until the sink holds `n` rows; the exact rows are asserted after. */
async function rowsIn(sink: CollectionSink, n: number): Promise<string[]> {
  for (let waited = 0; sink.size < n && waited < 2000; waited += 5) await settle();
  return sink.changelog();
}

/** A source that does not end: rows are pushed by the test, and it waits (idle) in between. */
function pushable(): { rows: AsyncIterable<PositionalRow>; push(...values: unknown[]): void } {
  const queue: PositionalRow[] = [];
  let wake: (() => void) | undefined;
  async function* gen(): AsyncGenerator<PositionalRow> {
    for (;;) {
      while (queue.length > 0) yield queue.shift()!;
      await new Promise<void>((r) => { wake = r; });
    }
  }
  return { rows: gen(), push: (...values) => { queue.push(Row.of(...values)); wake?.(); } };
}

const BIDS = Schema.newBuilder().column("price", DataTypes.INT()).column("item", DataTypes.STRING())
  .columnByExpression("proc_time", "PROCTIME()").build();
const WINDOW_SINK = Schema.newBuilder().column("window_start", DataTypes.TIMESTAMP(3)).column("window_end", DataTypes.TIMESTAMP(3))
  .column("total", DataTypes.INT()).build();
const TUMBLE_SQL = "SELECT window_start, window_end, SUM(price) AS total FROM TABLE(TUMBLE(TABLE bids, DESCRIPTOR(proc_time), INTERVAL '10' SECOND)) GROUP BY window_start, window_end";

function windowJob(env: TableEnvironment, source: ReturnType<typeof pushable>, sink: CollectionSink) {
  env.createTemporaryView("bids", env.fromAsyncIterable(BIDS, source.rows as never, { name: "bids" }) as never);
  env.createTemporaryTable("out", sink.descriptor(WINDOW_SINK));
  return env.sqlQuery(TUMBLE_SQL).executeInsert("out");
}

describe("processing-time windows fire on the job clock", () => {
  it("while the source is idle: not before the clock reaches the window's end, then at once", async () => {
    const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    const clock = manualClock(at("08:00:01"));
    env.setClock(clock);
    const source = pushable();
    const sink = new CollectionSink();
    const job = windowJob(env, source, sink);
    source.push(4, "C"); source.push(2, "A");
    await settle();
    clock.advanceTo(at("08:00:05"));
    source.push(5, "D");
    await settle();
    clock.advanceTo(at("08:00:09.999"));
    await settle();
    expect(sink.changelog()).toEqual([]);
    clock.advanceTo(at("08:00:10"));
    expect(await rowsIn(sink, 1)).toEqual(["+I[2020-04-15T08:00, 2020-04-15T08:00:10, 11]"]);
    // the next window opens with the next row and fires on its own timer
    source.push(3, "B");
    await settle();
    clock.advanceTo(at("08:00:25"));
    expect(await rowsIn(sink, 2)).toEqual(["+I[2020-04-15T08:00, 2020-04-15T08:00:10, 11]", "+I[2020-04-15T08:00:10, 2020-04-15T08:00:20, 3]"]);
    await job.getJobClient().cancel();
  });

  it("a plain function clock is read at every step but cannot wake an idle job: the window fires with the next row", async () => {
    const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    let now = at("08:00:01");
    env.setClock(() => now);
    const source = pushable();
    const sink = new CollectionSink();
    const job = windowJob(env, source, sink);
    source.push(4, "C");
    await settle();
    now = at("08:00:12");
    await settle();
    expect(sink.changelog()).toEqual([]);
    source.push(2, "A");
    expect(await rowsIn(sink, 1)).toEqual(["+I[2020-04-15T08:00, 2020-04-15T08:00:10, 4]"]);
    await job.getJobClient().cancel();
  });

  it("a window open at a savepoint keeps its timer: the restored job fires it when the clock passes, with no new row", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ts-proc-timers-"));
    dirs.push(dir);
    const sink = new CollectionSink();
    const first = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    first.setClock(manualClock(at("08:00:01")));
    const source1 = pushable();
    const job1 = windowJob(first, source1, sink);
    source1.push(4, "C"); source1.push(2, "A");
    await settle();
    const path = await job1.getJobClient().stopWithSavepoint(dir);
    expect(sink.changelog()).toEqual([]);

    const second = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    second.getConfig().set("execution.savepoint.path", path);
    const clock = manualClock(at("08:00:08"));
    second.setClock(clock);
    const job2 = windowJob(second, pushable(), sink);
    await settle();
    expect(sink.changelog()).toEqual([]);
    clock.advanceTo(at("08:00:10"));
    expect(await rowsIn(sink, 1)).toEqual(["+I[2020-04-15T08:00, 2020-04-15T08:00:10, 6]"]);
    await job2.getJobClient().cancel();
  });
});

describe("temporal sort on processing time", () => {
  it("rows of one time leave, sorted by the other keys, once the clock has passed that time", async () => {
    const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    const clock = manualClock(at("08:00:01"));
    env.setClock(clock);
    const source = pushable();
    const sink = new CollectionSink();
    env.createTemporaryView("bids", env.fromAsyncIterable(BIDS, source.rows as never, { name: "bids" }) as never);
    env.createTemporaryTable("out", sink.descriptor(Schema.newBuilder().column("price", DataTypes.INT()).build()));
    const job = env.sqlQuery("SELECT price FROM bids ORDER BY proc_time, price").executeInsert("out");
    source.push(5, "D"); source.push(4, "C");
    await settle();
    expect(sink.changelog()).toEqual([]);
    clock.advanceTo(at("08:00:01.001"));
    expect(await rowsIn(sink, 2)).toEqual(["+I[4]", "+I[5]"]);
    source.push(1, "A");
    await settle();
    clock.advanceBy(1);
    expect(await rowsIn(sink, 3)).toEqual(["+I[4]", "+I[5]", "+I[1]"]);
    await job.getJobClient().cancel();
  });
});

describe("manualClock", () => {
  it("never goes back, and says so", () => {
    const clock = manualClock(1000);
    clock.advanceBy(5);
    expect(clock()).toBe(1005);
    expect(() => clock.advanceTo(1000)).toThrow(ValidationError);
    expect(() => clock.advanceTo(1000)).toThrow("advanceTo(time): processing time never goes back (the clock reads 1005, asked for 1000)");
    expect(() => clock.advanceBy(-1)).toThrow(/advanceBy\(ms\)/);
    expect(() => manualClock(Number.NaN)).toThrow(/manualClock\(start\)/);
  });

  it("wakes at once for a time already reached, and not after a cancel", () => {
    const clock = manualClock(1000);
    const woke: number[] = [];
    clock.wakeAt(900, () => woke.push(900));
    const cancel = clock.wakeAt(1010, () => woke.push(1010));
    clock.wakeAt(1020, () => woke.push(1020));
    cancel();
    clock.advanceTo(1030);
    expect(woke).toEqual([900, 1020]);
  });
});

describe("ProcessingTimeService", () => {
  it("fires exactly the due timers, earliest first, each once (property)", () => {
    fc.assert(fc.property(
      fc.array(fc.oneof(fc.record({ register: fc.integer({ min: 0, max: 100 }) }), fc.record({ fire: fc.integer({ min: 0, max: 100 }) })), { maxLength: 60 }),
      (ops) => {
        const service = new ProcessingTimeService();
        const pending: number[] = [];
        let fired: number[] = [];
        for (const op of ops) {
          if ("register" in op) {
            const time = op.register;
            service.register({ onProcessingTime: () => { fired.push(time); } }, time);
            pending.push(time);
            continue;
          }
          fired = [];
          service.fireDue(op.fire);
          const due = pending.filter((t) => t <= op.fire).sort((a, b) => a - b);
          expect(fired).toEqual(due);
          for (const t of due) pending.splice(pending.indexOf(t), 1);
          expect(service.size).toBe(pending.length);
          expect(service.next()).toBe(pending.length === 0 ? Infinity : Math.min(...pending));
        }
      },
    ));
  });
});

describe("MATCH_RECOGNIZE on processing time takes no timers", () => {
  it("WITHIN drops a partial match when a row of its partition comes too late; event-time watermarks drop nothing", async () => {
    const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    // processing time of each row as it is read; the rows' event time (with a watermark) is years ahead of it
    const times = [0, 600, 1000, 2200];
    let read = 0;
    env.setClock(() => at("08:00:00") + times[Math.min(read++, times.length - 1)]!);
    const schema = Schema.newBuilder().column("id", DataTypes.INT()).column("name", DataTypes.STRING()).column("ts", DataTypes.TIMESTAMP(3))
      .columnByExpression("proctime", "PROCTIME()").watermark("ts", "ts").build();
    const later = new Date(Date.UTC(2030, 0, 1));
    env.createTemporaryView("T", env.fromValues(schema, Row.of(1, "a", later), Row.of(2, "b", later), Row.of(3, "a", later), Row.of(4, "b", later)) as never);
    const sql = "SELECT * FROM T MATCH_RECOGNIZE (ORDER BY proctime MEASURES A.id AS aid, B.id AS bid PATTERN (A B) WITHIN INTERVAL '1' SECOND DEFINE A AS name = 'a', B AS name = 'b') AS M";
    // 1 -> 2 took 600 ms; 3 -> 4 took 1200 ms, past WITHIN
    expect(await env.executeSql(sql).toChangelog()).toEqual(["+I[1, 2]"]);
  });
});
