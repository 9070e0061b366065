// Type tests of processing time: `proctime()` is a computed column typed `Date` (NOT NULL), usable as the
// time attribute of a group window and as an order key. Checked by `tsc --noEmit` (every @ts-expect-error
// line must be an error).
import { expectTypeOf } from "vitest";
import { $, DataTypes, type Expression, type ManualClock, Over, lit, manualClock, proctime, Row, Schema, TableEnvironment, Tumble, rowInterval } from "../../src/index.js";
import type { SchemaOf } from "./helpers.js";

const env = TableEnvironment.create();

expectTypeOf(proctime()).toEqualTypeOf<Expression<import("../../src/expressions/type-level.js").TLit<Date>>>();

const schema = Schema.newBuilder().column("k", DataTypes.STRING()).column("v", "INT NOT NULL").columnByExpression("proc", proctime()).build();
expectTypeOf(schema).toEqualTypeOf<Schema<{ k: string | null; v: number; proc: Date }>>();

const t = env.fromValues(schema, Row.of("a", 1));
expectTypeOf<SchemaOf<typeof t>>().toEqualTypeOf<{ k: string | null; v: number; proc: Date }>();

const w = t.window(Tumble.over(lit(10).seconds()).on($("proc")).as("w")).groupBy($("w")).select($("w").start().as("s"), $("v").sum().as("total"));
expectTypeOf<SchemaOf<typeof w>>().toEqualTypeOf<{ s: Date; total: number | null }>();

// an over window ordered by the processing-time attribute: the aggregate's type as for any other order key
const o = t.window(Over.partitionBy($("k")).orderBy($("proc")).preceding(rowInterval(2)).as("o"))
  .select($("k"), $("v").sum().over($("o")).as("s"), $("proc"));
expectTypeOf<SchemaOf<typeof o>>().toEqualTypeOf<{ k: string | null; s: number | null; proc: Date }>();
// interval join bounds on two processing-time attributes: the joined row has both
const other = env.fromValues(Schema.newBuilder().column("k2", DataTypes.STRING()).columnByExpression("proc2", proctime()).build(), Row.of("a"));
const j = t.join(other).where($("k").isEqual($("k2")).and($("proc").between($("proc2").minus(lit(1).seconds()), $("proc2"))));
expectTypeOf<SchemaOf<typeof j>>().toEqualTypeOf<{ k: string | null; v: number; proc: Date; k2: string | null; proc2: Date }>();

// @ts-expect-error PROCTIME() takes no argument
proctime(1);

// manualClock: a clock function that a test advances by hand; `env.setClock` takes it as any `() => number`
const clock = manualClock(0);
expectTypeOf(clock).toEqualTypeOf<ManualClock>();
expectTypeOf(clock()).toEqualTypeOf<number>();
expectTypeOf(env.setClock(clock)).toEqualTypeOf<TableEnvironment>();
expectTypeOf(clock.advanceTo).parameters.toEqualTypeOf<[time: number]>();
// @ts-expect-error the start is epoch milliseconds, not a Date
manualClock(new Date());
// @ts-expect-error advanceBy takes milliseconds, not an interval string
clock.advanceBy("1 s");
