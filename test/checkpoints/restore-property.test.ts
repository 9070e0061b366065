// Property: a stateful job checkpointed after any record and restarted from that checkpoint (a new job of
// the same query, execution.savepoint.path) continues exactly as the uninterrupted job: the collection sink,
// cut back to the checkpoint, ends with the same changelog, row for row and in order. Pipelines: group
// aggregation, a tumbling window, a regular join of two sources, top-N, and a PTF with value state, timers
// and ORDER BY (the PTF also prints the watermark it sees, so event-time progress must continue exactly).
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  $, ArgumentTrait, CollectionSink, DataTypes, EnvironmentSettings, ProcessTableFunction, Row, Schema, TableEnvironment, Tumble,
  descriptor, lit, tableArg, valueState,
} from "../../src/index.js";
import type { Table } from "../../src/index.js";

type Event = readonly [key: string, value: number, ts: number];

const EVENTS = Schema.newBuilder().column("k", DataTypes.STRING()).column("v", DataTypes.INT()).column("ts", DataTypes.TIMESTAMP_LTZ(3))
  .watermark("ts", "ts - INTERVAL '0.005' SECOND").build();

/** Counts rows per key; a timer 3 ms after each row reports the count with the watermark it fires at. */
const CountWithTimers = ProcessTableFunction.define({
  name: "CountWithTimers",
  args: { r: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE, ArgumentTrait.REQUIRE_ON_TIME) },
  state: { count: valueState<{ n: number | null; sum: number | null }>({ n: null, sum: null }) },
  output: DataTypes.ROW(DataTypes.FIELD("out", DataTypes.STRING())),
  eval(ctx, { count }, { r }) {
    const row = r as unknown as { v: number };
    count.n = (count.n ?? 0) + 1;
    count.sum = (count.sum ?? 0) + row.v;
    const tc = ctx.timeContext("millis");
    ctx.collect({ out: `row ${row.v} n=${count.n} wm=${tc.currentWatermark()}` });
    tc.registerOnTime(tc.time()! + 3);
  },
  onTimer(ctx) {
    const tc = ctx.timeContext("millis");
    ctx.collect({ out: `timer ${tc.time()} wm=${tc.currentWatermark()}` });
  },
});

const PIPELINES: Record<string, (e: TableEnvironment, a: Table<{ k: string; v: number; ts: Date }>, b: Table<{ k: string; v: number; ts: Date }>) => Table<object>> = {
  "group aggregation": (_e, a) => a.groupBy($("k")).select($("k"), $("v").sum().as("s"), $("v").count().as("n"), $("v").max().as("m")),
  "tumbling window": (_e, a) => a.window(Tumble.over(lit(10).millis()).on($("ts")).as("w")).groupBy($("k"), $("w"))
    .select($("k"), $("w").start().as("st"), $("v").sum().as("s"), $("v").count().as("n")),
  "regular join": (_e, a, b) => a.join(b.select($("k").as("k2"), $("v").as("v2")), $("k").isEqual($("k2"))).select($("k"), $("v"), $("v2")),
  "top-2 per key": (e, a) => {
    e.createTemporaryView("events", a as never);
    return e.sqlQuery("SELECT k, v, rn FROM (SELECT k, v, ROW_NUMBER() OVER (PARTITION BY k ORDER BY v DESC) AS rn FROM events) WHERE rn <= 2") as Table<object>;
  },
  "PTF with state, timers and ORDER BY": (e, a) => e.fromCall(CountWithTimers,
    a.partitionBy($("k")).orderBy($("ts").asc()).asArgument("r"), descriptor("ts").asArgument("on_time")),
};

function env(config: Record<string, string>): TableEnvironment {
  const e = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
  for (const [k, v] of Object.entries(config)) e.getConfig().set(k, v);
  return e;
}

async function run(pipeline: string, left: readonly Event[], right: readonly Event[], sink: CollectionSink, config: Record<string, string>): Promise<void> {
  const e = env(config);
  const rows = (xs: readonly Event[]) => xs.map(([k, v, ts]) => Row.of(k, v, new Date(ts)));
  const a = e.fromValues(EVENTS, ...rows(left)) as unknown as Table<{ k: string; v: number; ts: Date }>;
  const b = e.fromValues(EVENTS, ...rows(right)) as unknown as Table<{ k: string; v: number; ts: Date }>;
  const t = PIPELINES[pipeline]!(e, a, b);
  const rs = t.getResolvedSchema();
  e.createTemporaryTable("out", sink.descriptor(Schema.newBuilder().fromRowDataType(DataTypes.ROW(...rs.columns.map((c) => DataTypes.FIELD(c.name, c.type)))).build(), { "sink.changelog-mode": "all" }));
  await t.executeInsert("out").await();
}

const event = fc.tuple(fc.constantFrom("a", "b", "c"), fc.integer({ min: -5, max: 20 }), fc.integer({ min: 0, max: 40 }));

describe("restoring after any record continues as the uninterrupted job", () => {
  for (const pipeline of Object.keys(PIPELINES)) {
    it(pipeline, async () => {
      await fc.assert(fc.asyncProperty(
        fc.array(event, { minLength: 1, maxLength: 14 }), fc.array(event, { maxLength: 8 }), fc.integer({ min: 1, max: 20 }),
        async (left, right, every) => {
          const whole = new CollectionSink();
          await run(pipeline, left, right, whole, {});
          const dir = mkdtempSync(join(tmpdir(), "ts-prop-"));
          try {
            const sink = new CollectionSink();
            // checkpoints after every `every` records, all retained; the job runs on to its end
            await run(pipeline, left, right, sink, {
              "execution.checkpointing.interval-records": String(every), "execution.checkpointing.dir": dir, "execution.checkpointing.num-retained": "100",
            });
            expect(sink.changelog()).toEqual(whole.changelog());
            // restart from the first checkpoint (the job may have ended before one was due: then nothing to check)
            const first = join(dir, "chk-1");
            if (!(await import("node:fs")).existsSync(first)) return;
            await run(pipeline, left, right, sink, { "execution.savepoint.path": first });
            expect(sink.changelog()).toEqual(whole.changelog());
          } finally {
            rmSync(dir, { recursive: true, force: true });
          }
        },
      ), { numRuns: 40 });
    });
  }
});

// The same property on the disk backend with incremental checkpoints (each checkpoint after the first
// writes only the keys that changed and lists the earlier files it builds on): restoring any checkpoint of
// the chain continues exactly as the uninterrupted in-memory job — on the disk backend, and on the hashmap
// backend, which reads the disk backend's files too. The write-back cache holds two values, so state goes
// through the database all the time.
const DISK_INCREMENTAL = { "state.backend.type": "disk", "state.backend.cache-size": "2", "execution.checkpointing.incremental": "true" };

describe("restoring any checkpoint of an incremental chain of the disk backend continues as the uninterrupted job", () => {
  it.each(["PTF with state, timers and ORDER BY", "tumbling window"])("%s", async (pipeline) => {
    await fc.assert(fc.asyncProperty(
      fc.array(event, { minLength: 1, maxLength: 14 }), fc.array(event, { maxLength: 8 }), fc.integer({ min: 1, max: 6 }), fc.nat(), fc.boolean(),
      async (left, right, every, pick, onHashmap) => {
        const whole = new CollectionSink();
        await run(pipeline, left, right, whole, {});
        const dir = mkdtempSync(join(tmpdir(), "ts-prop-inc-"));
        try {
          const sink = new CollectionSink();
          await run(pipeline, left, right, sink, {
            ...DISK_INCREMENTAL,
            "execution.checkpointing.interval-records": String(every), "execution.checkpointing.dir": dir, "execution.checkpointing.num-retained": "100",
          });
          expect(sink.changelog()).toEqual(whole.changelog());
          const ids = readdirSync(dir).filter((e) => e.startsWith("chk-")).map((e) => Number(e.slice(4))).sort((a, b) => a - b);
          if (ids.length === 0) return;
          const id = ids[pick % ids.length]!;
          await run(pipeline, left, right, sink, { ...(onHashmap ? {} : DISK_INCREMENTAL), "execution.savepoint.path": join(dir, `chk-${id}`) });
          expect(sink.changelog()).toEqual(whole.changelog());
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      },
    ), { numRuns: 40 });
  });
});
