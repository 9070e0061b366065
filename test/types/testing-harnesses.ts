// Type tests of the testing kit's harnesses and oracles: input names and row types of PipelineHarness come
// from its input declarations, output rows from the program; restore-oracle steps are typed per input;
// PtfTestHarness's orderBy names columns of the input; execute({ progress }) takes true or options.
import { expectTypeOf } from "vitest";
import {
  $, ArgumentTrait, DataTypes, type KeyedRow, ProcessTableFunction, type ResolvedSchema, Row, Schema, type Table, tableArg, terminalProgress,
} from "../../src/index.js";
import { type HarnessStep, PipelineHarness, PtfTestHarness, checkRestoreAtAnyRecord } from "../../src/testing/index.js";
import { notebookProgress } from "../../src/notebook/index.js";

const Clicks = DataTypes.ROW(DataTypes.FIELD("user", DataTypes.STRING().notNull()), DataTypes.FIELD("n", DataTypes.INT()));
const Events = Schema.newBuilder()
  .column("k", DataTypes.STRING().notNull()).column("ts", DataTypes.TIMESTAMP_LTZ(3).notNull())
  .watermark("ts", "ts - INTERVAL '1' SECOND")
  .build();

// ---- PipelineHarness -------------------------------------------------------------------------------------
function pipeline(): void {
  const h = PipelineHarness.of({
    inputs: { clicks: Clicks, events: Events, changes: { schema: Clicks, changelog: true } },
    program: ({ clicks, events, changes }) => {
      expectTypeOf(clicks).toEqualTypeOf<Table<{ user: string; n: number | null }, "append">>();
      expectTypeOf(events).toEqualTypeOf<Table<{ k: string; ts: Date }, "append">>();
      expectTypeOf(changes).toEqualTypeOf<Table<{ user: string; n: number | null }, "retract">>();
      return clicks.groupBy($("user")).select($("user"), $("n").sum().as("total"));
    },
  });
  h.send("clicks", { user: "Ann", n: 1 });
  h.send("clicks", { user: "Ann" }); // a nullable column may be left out
  h.send("clicks", Row.of("Ann", 1));
  h.send("events", { k: "a", ts: new Date(0) });
  // @ts-expect-error "orders" is not an input
  h.send("orders", { user: "Ann", n: 1 });
  // @ts-expect-error user is a STRING NOT NULL
  h.send("clicks", { user: 1, n: 1 });
  // @ts-expect-error 'page' is not a column of clicks
  h.send("clicks", { user: "Ann", n: 1, page: "x" });
  // @ts-expect-error ts is required
  h.send("events", { k: "a" });
  h.watermark("events", new Date(0)).watermark("events", 1000);
  // @ts-expect-error not an input
  h.watermark("other", 1);
  h.endInput("clicks");
  expectTypeOf(h.output()).toEqualTypeOf<KeyedRow<{ user: string; total: number | null }>[]>();
  expectTypeOf(h.drain()[0]!.total).toEqualTypeOf<number | null>();
  expectTypeOf(h.stateSizes()).toEqualTypeOf<Readonly<Record<string, number>>>();
  expectTypeOf(h.timers()[0]!.time).toEqualTypeOf<number>();
  expectTypeOf(h.getResolvedSchema()).toEqualTypeOf<ResolvedSchema>();
  const snapshot = h.snapshot();
  PipelineHarness.of({ inputs: { clicks: Clicks }, program: ({ clicks }) => clicks }).restore(snapshot);
  // @ts-expect-error the program must return a Table
  PipelineHarness.of({ inputs: { clicks: Clicks }, program: () => 1 });
}
void pipeline;

// ---- the restore oracle ----------------------------------------------------------------------------------
function restore(): void {
  const steps: HarnessStep<{ clicks: typeof Clicks; events: typeof Events }>[] = [
    { input: "clicks", row: { user: "Ann", n: 1 } },
    { input: "events", watermark: 1000 },
    // @ts-expect-error a row of clicks does not fit events
    { input: "events", row: { user: "Ann", n: 1 } },
  ];
  void steps;
  checkRestoreAtAnyRecord({
    inputs: { clicks: Clicks },
    program: ({ clicks }) => clicks.groupBy($("user")).select($("user"), $("n").sum().as("total")),
    steps: [{ input: "clicks", row: { user: "Ann", n: 1 } }],
  });
  checkRestoreAtAnyRecord({
    inputs: { clicks: Clicks },
    program: ({ clicks }) => clicks,
    // @ts-expect-error no input 'orders'
    steps: [{ input: "orders", row: { user: "Ann", n: 1 } }],
  });
}
void restore;

// ---- PtfTestHarness: orderBy, watermarks, output types -----------------------------------------------------
const Latest = ProcessTableFunction.define({
  name: "Latest",
  args: { input: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE) },
  output: DataTypes.ROW(DataTypes.FIELD("at", DataTypes.BIGINT().notNull())),
  eval(ctx, _state, { input }) {
    ctx.collect({ at: (input.ts as Date).getTime() });
  },
});
function ptf(): void {
  const h = PtfTestHarness.of(Latest, { input: Events, partitionBy: ["k"], orderBy: ["ts"], watermarks: "schema" });
  expectTypeOf(h.output()).toEqualTypeOf<KeyedRow<{ k: string; at: number }>[]>();
  expectTypeOf(h.getResolvedSchema()).toEqualTypeOf<ResolvedSchema>();
  const p = PipelineHarness.of({ inputs: { events: Events }, program: ({ events }) => events.partitionBy($("k")).process(Latest) });
  expectTypeOf(p.output()).toEqualTypeOf<KeyedRow<{ k: string; at: number }>[]>();
  expectTypeOf(p.state(Latest, "a")).toEqualTypeOf<{}>();
  PtfTestHarness.of(Latest, { input: Events, partitionBy: ["k"], orderBy: [$("ts").desc()] });
  // @ts-expect-error 'time' is not a column of the input
  PtfTestHarness.of(Latest, { input: Events, partitionBy: ["k"], orderBy: ["time"] });
  // @ts-expect-error watermarks is "manual" or "schema"
  PtfTestHarness.of(Latest, { input: Events, partitionBy: ["k"], watermarks: "auto" });
}
void ptf;

// ---- progress --------------------------------------------------------------------------------------------
function progress(t: Table<{ a: number }>): void {
  t.execute({ progress: true });
  t.execute({ progress: { renderer: terminalProgress((s) => void s), intervalMs: 1000, clock: () => 0 } });
  t.execute({ progress: { renderer: notebookProgress() } });
  // @ts-expect-error intervalMs is a number
  t.execute({ progress: { intervalMs: "1s" } });
}
void progress;
