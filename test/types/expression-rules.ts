// Type tests of expression rules that must agree with the run time (src/expressions/compile-*.ts):
// common types of conditionals, MOD, interval and timestamp arithmetic, the nullability of
// substring / lpad / rpad, and SUM0. test/expressions/type-agreement.test.ts runs the same
// expressions and checks the run-time types and values behind each expectation here.
import { expectTypeOf } from "vitest";
import {
  $, DataTypes, type DayTimeInterval, type Decimal, Row, type YearMonthInterval, call, coalesce, fromUnixtime, ifThenElse, lit, unixTimestamp,
} from "../../src/index.js";
import { env } from "./fixtures.js";
import type { ModeOf, SchemaOf } from "./helpers.js";

const t = env.fromValues(
  DataTypes.ROW(
    DataTypes.FIELD("amount", DataTypes.INT().notNull()),
    DataTypes.FIELD("qty", DataTypes.INT()),
    DataTypes.FIELD("price", DataTypes.DECIMAL(10, 2)),
    DataTypes.FIELD("ratio", DataTypes.DOUBLE().notNull()),
    DataTypes.FIELD("product", DataTypes.STRING().notNull()),
    DataTypes.FIELD("name", DataTypes.STRING()),
    DataTypes.FIELD("paid", DataTypes.BOOLEAN().notNull()),
    DataTypes.FIELD("ts", DataTypes.TIMESTAMP(3)),
    DataTypes.FIELD("dt", DataTypes.INTERVAL("DAY TO SECOND")),
    DataTypes.FIELD("ym", DataTypes.INTERVAL("YEAR TO MONTH").notNull()),
  ),
  Row.of(3, null, "9.99", 0.5, "widget", null, true, "2024-01-31 10:00:00", 3600000, 1),
);

// ---- ifThenElse / coalesce / ifNull: DECIMAL with an integer is DECIMAL -----------------------------
const common = t.select(
  coalesce($("price"), $("amount")).as("c1"),
  coalesce($("price"), 0).as("c2"),
  coalesce($("price"), $("qty")).as("c3"),
  coalesce($("qty"), $("amount")).as("c4"),
  ifThenElse($("paid"), $("price"), $("amount")).as("i1"),
  ifThenElse($("paid"), $("amount"), 1).as("i2"),
  $("price").ifNull($("amount")).as("n1"),
  $("qty").ifNull($("price")).as("n2"),
  // Flink's IfNullTypeStrategy: a NOT NULL input keeps its own type (and is returned as it is)
  $("amount").ifNull($("price")).as("n3"),
  ifThenElse($("paid"), $("dt"), lit(1).hours()).as("i3"),
);
expectTypeOf<SchemaOf<typeof common>>().toEqualTypeOf<{
  c1: Decimal; c2: Decimal; c3: Decimal | null; c4: number; i1: Decimal | null; i2: number;
  n1: Decimal; n2: Decimal | null; n3: number; i3: DayTimeInterval | null;
}>();

// @ts-expect-error "coalesce arguments have no common type: STRING and NUMERIC"
t.select(coalesce($("product"), $("amount")).as("x"));
// @ts-expect-error "coalesce arguments have no common type: INTERVAL DAY TO SECOND and INTERVAL YEAR TO MONTH"
t.select(coalesce($("dt"), null, $("ym")).as("x"));
// @ts-expect-error "ifThenElse branches have no common type: INTERVAL DAY TO SECOND and INTERVAL YEAR TO MONTH"
t.select(ifThenElse($("paid"), $("dt"), $("ym")).as("x"));
// @ts-expect-error "ifNull arguments have no common type: NUMERIC and STRING"
t.select($("price").ifNull("none").as("x"));

// IN compares across the numeric family too
const ins = t.select($("price").in(1, 2.5).as("in1"), $("amount").in(lit(1), $("qty"), $("price")).as("in2"));
expectTypeOf<SchemaOf<typeof ins>>().toEqualTypeOf<{ in1: boolean | null; in2: boolean | null }>();
// @ts-expect-error "IN list values must have the same type as NUMERIC"
t.select($("amount").in(1, "2").as("x"));

// ---- mod: exact numbers only ----------------------------------------------------------------------------
const mods = t.select($("amount").mod(3).as("m1"), $("price").mod(2).as("m2"), $("qty").mod($("amount")).as("m3"));
expectTypeOf<SchemaOf<typeof mods>>().toEqualTypeOf<{ m1: number; m2: Decimal | null; m3: number | null }>();

// an operand the compiler can see is DOUBLE (a fraction literal, sqrt/power/exp/ln/log10, arithmetic on them)
// @ts-expect-error "mod needs exact numeric operands (TINYINT, SMALLINT, INT, BIGINT, DECIMAL), got DOUBLE; cast DOUBLE/FLOAT operands first"
t.select($("amount").mod(2.5).as("x"));
// @ts-expect-error "mod needs exact numeric operands (TINYINT, SMALLINT, INT, BIGINT, DECIMAL), got DOUBLE"
t.select($("amount").mod(lit(0.5)).as("x"));
// @ts-expect-error "mod needs exact numeric operands (TINYINT, SMALLINT, INT, BIGINT, DECIMAL), got DOUBLE"
t.select(lit(7.5).mod($("amount")).as("x"));
// @ts-expect-error "mod needs exact numeric operands (TINYINT, SMALLINT, INT, BIGINT, DECIMAL), got DOUBLE"
t.select($("amount").sqrt().mod(2).as("x"));
// @ts-expect-error "mod needs exact numeric operands (TINYINT, SMALLINT, INT, BIGINT, DECIMAL), got DOUBLE"
t.select($("amount").plus(0.5).round().mod(2).as("x"));
// @ts-expect-error "mod needs exact numeric operands (TINYINT, SMALLINT, INT, BIGINT, DECIMAL), got DOUBLE"
t.select($("amount").mod(ifThenElse($("paid"), 2, 0.5)).as("x"));
// an error in an operand is reported first
// @ts-expect-error "column 'amout' is not in"
t.select($("amout").mod(2.5).as("x"));
// @ts-expect-error "mod is not defined for INTERVAL DAY TO SECOND and NUMERIC"
t.select($("dt").mod(2).as("x"));

// ---- interval and timestamp arithmetic (what compile-numeric.ts / compile-temporal.ts accept) ---------------
const intervals = t.select(
  $("dt").times(2).as("a"),
  lit(2).times($("ym")).as("b"),
  $("amount").times(lit(1).hours()).as("c"),
  $("dt").dividedBy($("qty")).as("d"),
  $("dt").plus($("dt")).as("e"),
  $("ym").minus($("ym")).as("f"),
  lit(90).minutes().negate().abs().as("g"),
  $("ts").plus(lit(1).hours()).as("h"),
  $("ts").minus($("ym")).as("i"),
  lit(1).days().plus($("ts")).as("j"),
  $("dt").plus(null).as("k"),
  $("dt").isLess(lit(2).hours()).as("l"),
);
expectTypeOf<SchemaOf<typeof intervals>>().toEqualTypeOf<{
  a: DayTimeInterval | null; b: YearMonthInterval; c: DayTimeInterval; d: DayTimeInterval | null;
  e: DayTimeInterval | null; f: YearMonthInterval; g: DayTimeInterval; h: Date | null; i: Date | null;
  j: Date | null; k: DayTimeInterval | null; l: boolean | null;
}>();

// @ts-expect-error "plus is not defined for INTERVAL DAY TO SECOND and INTERVAL YEAR TO MONTH"
t.select($("dt").plus($("ym")).as("x"));
// @ts-expect-error "times is not defined for INTERVAL DAY TO SECOND and INTERVAL DAY TO SECOND"
t.select($("dt").times($("dt")).as("x"));
// @ts-expect-error "dividedBy is not defined for NUMERIC and INTERVAL DAY TO SECOND"
t.select(lit(2).dividedBy($("dt")).as("x"));
// @ts-expect-error "plus is not defined for INTERVAL YEAR TO MONTH and NUMERIC"
t.select($("ym").plus(1).as("x"));
// @ts-expect-error "minus is not defined for INTERVAL DAY TO SECOND and TIMESTAMP"
t.select(lit(1).hours().minus($("ts")).as("x"));
// @ts-expect-error "times is not defined for NULL and INTERVAL DAY TO SECOND"
t.select(lit(null).times($("dt")).as("x"));
// @ts-expect-error "a TIMESTAMP can only be shifted by an INTERVAL, got NUMERIC"
t.select($("ts").plus(1).as("x"));
// @ts-expect-error "a TIMESTAMP can only be shifted by an INTERVAL, got TIMESTAMP"
t.select($("ts").minus($("ts")).as("x"));
// @ts-expect-error "times is not defined for TIMESTAMP and INTERVAL DAY TO SECOND"
t.select($("ts").times(lit(1).hours()).as("x"));
// @ts-expect-error "cannot compare INTERVAL DAY TO SECOND with INTERVAL YEAR TO MONTH"
t.select($("dt").isLess($("ym")).as("x"));
// @ts-expect-error "EXTRACT needs a temporal argument, got INTERVAL"
t.select($("dt").extract("HOUR").as("x"));

// ---- substring / lpad / rpad: NULL for a negative length (or an empty pad) ----------------------------------
declare const n: number;
const strings = t.select(
  $("product").substring(1, 3).as("s1"),
  $("product").substring(2).as("s2"),
  $("product").substring(1, lit(3)).as("s3"),
  $("product").substring(1, $("amount")).as("s4"),
  $("product").substring(1, -1).as("s5"),
  $("product").substr(1, n).as("s6"),
  $("name").substring(1, 3).as("s7"),
  $("product").lpad(5, "*").as("p1"),
  $("product").rpad(lit(4), lit("-")).as("p2"),
  $("product").lpad($("amount"), "*").as("p3"),
  $("product").rpad(5, "").as("p4"),
  $("product").lpad(-1, "*").as("p5"),
  $("product").lpad(5, $("product")).as("p6"),
);
expectTypeOf<SchemaOf<typeof strings>>().toEqualTypeOf<{
  s1: string; s2: string; s3: string; s4: string | null; s5: string | null; s6: string | null; s7: string | null;
  p1: string; p2: string; p3: string | null; p4: string | null; p5: string | null; p6: string | null;
}>();

// ---- SUM0: the argument's type, NOT NULL -----------------------------------------------------------------------
const sums = t.groupBy($("product")).select(
  $("product"), $("amount").sum0().as("a"), $("qty").sum0().as("q"), $("price").sum0().as("p"), $("qty").sum().as("s"),
);
expectTypeOf<SchemaOf<typeof sums>>().toEqualTypeOf<{ product: string; a: number; q: number; p: Decimal; s: number | null }>();
// @ts-expect-error "SUM0 needs a NUMERIC argument, got STRING"
t.groupBy($("amount")).select($("amount"), $("product").sum0().as("x"));

// ---- limit: an aggregate function called by name ---------------------------------------------------------------
// The compiler cannot tell a registered aggregate from a scalar function by its name, so a global aggregate
// through `call("name", ...)` keeps the input's changelog kind in its type, although the planner makes it an
// updating table (docs/typing.md, Limits). `call(functionObject, ...)` is typed "retract".
const byName = t.select(call("my_sum", $("amount")).as("s"));
expectTypeOf<ModeOf<typeof byName>>().toEqualTypeOf<"append">();

// ---- reverse: a string of the same nullability; not for numbers ---------------------------------------
const reversed = t.select($("product").reverse().as("r1"), $("name").reverse().as("r2"));
expectTypeOf<SchemaOf<typeof reversed>>().toEqualTypeOf<{ r1: string; r2: string | null }>();
// @ts-expect-error reverse takes a STRING
t.select($("amount").reverse().as("bad"));

// ---- fromUnixtime: a string, nullable when an argument is; seconds are a number, the format a string ---
const unix = t.select(fromUnixtime($("amount")).as("u1"), fromUnixtime($("qty"), "yyyy").as("u2"), fromUnixtime($("amount"), $("name")).as("u3"));
expectTypeOf<SchemaOf<typeof unix>>().toEqualTypeOf<{ u1: string; u2: string | null; u3: string | null }>();
// @ts-expect-error the seconds must be a number
t.select(fromUnixtime($("product")).as("bad"));
// @ts-expect-error the format must be a string
t.select(fromUnixtime($("amount"), $("amount")).as("bad"));

// ---- unixTimestamp: a number (BIGINT); NOT NULL without arguments, else nullable when an argument is ---
const epoch = t.select(unixTimestamp().as("e0"), unixTimestamp($("product")).as("e1"), unixTimestamp($("product"), "yyyy").as("e2"),
  unixTimestamp($("name")).as("e3"), unixTimestamp($("product"), $("name")).as("e4"));
expectTypeOf<SchemaOf<typeof epoch>>().toEqualTypeOf<{ e0: number; e1: number; e2: number; e3: number | null; e4: number | null }>();
// @ts-expect-error the text must be a string
t.select(unixTimestamp($("amount")).as("bad"));
// @ts-expect-error the format must be a string
t.select(unixTimestamp($("product"), $("amount")).as("bad"));
