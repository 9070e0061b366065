// Type tests of event time (issue 3): Schema builders type their rows; group windows are typestate
// builders (an incomplete window does not compile); `$("w").start()` is a Date; window and over selects
// are checked against the table. Checked by `tsc --noEmit` (every @ts-expect-error line must be an error).
import { expectTypeOf } from "vitest";
import {
  $, CURRENT_ROW, Cumulate, DataTypes, lit, Over, Row, rowInterval, Schema, Session, Slide, TableEnvironment, Tumble, UNBOUNDED_RANGE,
} from "../../src/index.js";
import type { Decimal } from "../../src/index.js";
import type { ModeOf, SchemaOf } from "./helpers.js";

const env = TableEnvironment.create();

// ---- Schema: DataTypes and SQL type strings give the row type ----------------------------------------
const schema = Schema.newBuilder()
  .column("ts", "TIMESTAMP_LTZ(3)")
  .column("k", DataTypes.STRING())
  .column("v", "INT NOT NULL")
  .column("price", "DECIMAL(10, 2)")
  .column("tags", "ARRAY<STRING>")
  .column("attrs", "MAP<STRING, INT>")
  .columnByExpression("doubled", $("v").times(2))
  .columnByExpression("label", "IF(v % 2 = 0, 'even', 'odd')")
  .watermark("ts", "ts - INTERVAL '1' SECOND")
  .primaryKey("k")
  .build();
expectTypeOf(schema).toEqualTypeOf<Schema<{
  ts: Date | null; v: number; price: Decimal | null; tags: (string | null)[] | null; attrs: unknown; doubled: number; label: unknown; k: string;
}>>();

// @ts-expect-error a column declared twice
Schema.newBuilder().column("a", "INT").column("a", "STRING");
// @ts-expect-error the watermark column must exist
Schema.newBuilder().column("a", "INT").watermark("b", "b");
// @ts-expect-error the watermark column must be a timestamp
Schema.newBuilder().column("a", "INT").watermark("a", "a");
// @ts-expect-error a computed expression over an unknown column
Schema.newBuilder().column("a", "INT").columnByExpression("b", $("c").plus(1));
// @ts-expect-error a primary key over an unknown column
Schema.newBuilder().column("a", "INT").primaryKey("b");

const t = env.fromValues(schema, Row.of(new Date(0), "a", 1, "1.00", [], null));
expectTypeOf<SchemaOf<typeof t>>().toEqualTypeOf<{
  ts: Date | null; v: number; price: Decimal | null; tags: (string | null)[] | null; attrs: unknown; doubled: number; label: unknown; k: string;
}>();
expectTypeOf<ModeOf<typeof t>>().toEqualTypeOf<"append">();

// ---- group windows: typestate builders ------------------------------------------------------------------
const tumble = Tumble.over(lit(1).hours()).on($("ts")).as("w");
const w1 = t.window(tumble).groupBy($("k"), $("w"))
  .select($("k"), $("w").start().as("window_start"), $("w").end().as("window_end"), $("w").rowtime().as("rt"), $("v").sum().as("total"));
expectTypeOf<SchemaOf<typeof w1>>().toEqualTypeOf<{ k: string; window_start: Date; window_end: Date; rt: Date; total: number | null }>();
expectTypeOf<ModeOf<typeof w1>>().toEqualTypeOf<"append">();

const slide = Slide.over(lit(10).minutes()).every(lit(5).minutes()).on($("ts")).as("s");
const session = Session.withGap(lit(30).seconds()).on($("ts")).as("s");
const cumulate = Cumulate.over(lit(1).days()).step(lit(1).hours()).on($("ts")).as("s");
for (const w of [slide, session, cumulate]) {
  const r = t.window(w).groupBy($("s")).select($("s").end().as("e"), $("v").count().as("n"));
  expectTypeOf<SchemaOf<typeof r>>().toEqualTypeOf<{ e: Date; n: number }>();
}

// @ts-expect-error an incomplete window (no alias) is not a window
t.window(Tumble.over(lit(1).hours()).on($("ts")));
// @ts-expect-error no time attribute
t.window(Slide.over(lit(10).minutes()).every(lit(5).minutes()));
// @ts-expect-error every() comes before on() for a sliding window
Slide.over(lit(10).minutes()).on($("ts"));
// @ts-expect-error a window size must be an interval, not a number of rows
Tumble.over(lit(10));
// @ts-expect-error the time attribute must be a column of the table
t.window(Tumble.over(lit(1).hours()).on($("when")).as("w"));
// @ts-expect-error the time attribute must be a timestamp
t.window(Tumble.over(lit(1).hours()).on($("v")).as("w"));
// @ts-expect-error the alias must not be a column
t.window(Tumble.over(lit(1).hours()).on($("ts")).as("k"));
// @ts-expect-error groupBy must include the window alias
t.window(tumble).groupBy($("k"));
// a misspelled key is one error, on groupBy; the select that follows adds none (issue 9)
t.window(tumble)
  // @ts-expect-error "column 'kk' is not in [attrs, doubled, k, label, price, tags, ts, v, w]"
  .groupBy($("kk"), $("w"))
  .select($("k"), $("w").end().as("e"), $("v").sum().as("s"));
// so does a groupBy without the alias
t.window(tumble)
  // @ts-expect-error "groupBy must contain the window alias"
  .groupBy($("k"))
  .select($("k"), $("v").sum().as("s"));
// @ts-expect-error a non-key column outside an aggregate
t.window(tumble).groupBy($("w")).select($("k"));
// @ts-expect-error the window alias itself is not a value
t.window(tumble).groupBy($("w")).select($("w"));
// @ts-expect-error start() applies to the window alias only
t.window(tumble).groupBy($("w"), $("k")).select($("k").start());

// ---- over windows -------------------------------------------------------------------------------------------
const o1 = t.window(Over.partitionBy($("k")).orderBy($("ts")).preceding(UNBOUNDED_RANGE).as("o"))
  .select($("k"), $("v"), $("v").sum().over($("o")).as("running"));
expectTypeOf<SchemaOf<typeof o1>>().toEqualTypeOf<{ k: string; v: number; running: number | null }>();
expectTypeOf<ModeOf<typeof o1>>().toEqualTypeOf<"append">();
const o2 = t.window(Over.orderBy($("v")).as("o")).select($("v"), $("v").count().over($("o")).as("n"));
expectTypeOf<ModeOf<typeof o2>>().toEqualTypeOf<"retract">();
t.window(Over.partitionBy($("k")).orderBy($("ts")).preceding(rowInterval(5)).following(CURRENT_ROW).as("o"));
t.window(Over.orderBy($("ts")).preceding(lit(10).seconds()).as("o"));

// @ts-expect-error an aggregate without .over()
t.window(Over.orderBy($("ts")).as("o")).select($("v").sum());
// @ts-expect-error an unknown column in an over select
t.window(Over.orderBy($("ts")).as("o")).select($("nope"), $("v").sum().over($("o")));
// @ts-expect-error orderBy must be a column of the table
t.window(Over.orderBy($("nope")).as("o"));
// @ts-expect-error an incomplete over window (no alias)
t.window(Over.partitionBy($("k")).orderBy($("ts")));
