// Flink's test PTFs (Flink's test catalogue §2.4, ProcessTableFunctionTestUtils), declared in tablestream's form.
// Each emits `{...}` like Flink's AppendProcessTableFunctionBase.
import {
  ArgumentTrait, DataTypes, ProcessTableFunction, Row, RowKind, ScalarFunction, listView, mapView, scalarArg, structuredType, tableArg,
  valueState, valueView,
} from "../../src/index.js";
import { formatDuration, formatPeriod } from "../../src/types/format.js";
import { OUT, emitObjects, javaString } from "./support.js";

const { ROW_SEMANTIC_TABLE: ROW, SET_SEMANTIC_TABLE: SET, OPTIONAL_PARTITION_BY: OPT_PB, PASS_COLUMNS_THROUGH: PASS } = ArgumentTrait;

// ---- POJOs (§2.3) ----------------------------------------------------------------------------------
export class User {
  s: string | null = null;
  i: number | null = null;
  toString(): string { return `User(s='${this.s}', i=${this.i})`; }
}
export const UserType = structuredType(User, DataTypes.ROW(DataTypes.FIELD("s", DataTypes.STRING()), DataTypes.FIELD("i", DataTypes.INT())));

export class Score {
  s: string | null = null;
  i: number | null = null;
  toString(): string { return `Score(s='${this.s}', i=${this.i})`; }
}

export class ScoreWithDefaults {
  s: string | null = null;
  i = 99;
  toString(): string { return `ScoreWithDefaults(s='${this.s}', i=${this.i})`; }
}

export class CastingPojo {
  s: string | null = null;
  b = 0;
  r: { b: number | null; t: Date | null } | null = null;
  toString(): string { return `CastingPojo(s='${this.s}', b=${this.b}, r=${javaString(this.r)})`; }
}
/** Flink's Tuple2, rendered `(f0,f1)` (no space). */
export class Tuple2 {
  f0: Date | null = null;
  f1: (number | null)[] | null = null;
  toString(): string { return `(${javaString(this.f0)},${javaString(this.f1)})`; }
}
export const Tuple2Type = structuredType(Tuple2, DataTypes.ROW(
  DataTypes.FIELD("f0", DataTypes.TIMESTAMP_LTZ(3)),
  DataTypes.FIELD("f1", DataTypes.ARRAY(DataTypes.INT())),
));

export const CastingPojoType = structuredType(CastingPojo, DataTypes.ROW(
  DataTypes.FIELD("s", DataTypes.STRING()),
  DataTypes.FIELD("b", DataTypes.BIGINT().notNull()),
  DataTypes.FIELD("r", DataTypes.ROW(DataTypes.FIELD("b", DataTypes.BIGINT()), DataTypes.FIELD("t", DataTypes.TIMESTAMP(6)))),
));

// ---- stateless / argument handling -------------------------------------------------------------------
export const ScalarArgsFunction = ProcessTableFunction.define({
  args: { i: scalarArg(DataTypes.INT()), b: scalarArg(DataTypes.BOOLEAN()) },
  output: OUT,
  eval(ctx, _s, { i, b }) { emitObjects(ctx, i, b); },
});

export const EmptyArgFunction = ProcessTableFunction.define({
  output: OUT,
  eval(ctx) { emitObjects(ctx, "empty"); },
});

export const IntervalDayArgFunction = ProcessTableFunction.define({
  args: { d: scalarArg(DataTypes.INTERVAL("DAY TO SECOND")) },
  output: OUT,
  // Java's Duration.toString
  eval(ctx, _s, { d }) { emitObjects(ctx, d === null ? null : formatDuration(d)); },
});

export const IntervalYearArgFunction = ProcessTableFunction.define({
  args: { p: scalarArg(DataTypes.INTERVAL("YEAR TO MONTH")) },
  output: OUT,
  // Java's Period.toString
  eval(ctx, _s, { p }) { emitObjects(ctx, p === null ? null : formatPeriod(p)); },
});

export const DescriptorFunction = ProcessTableFunction.define({
  args: {
    columnList1: scalarArg(DataTypes.DESCRIPTOR()),
    columnList2: scalarArg(DataTypes.DESCRIPTOR(), { optional: true }),
    columnList3: scalarArg(DataTypes.DESCRIPTOR().notNull()),
  },
  output: OUT,
  eval(ctx, _s, a) {
    const render = (c: { names: readonly string[] } | null) => (c === null ? null : `(${c.names.map((n) => `\`${n}\``).join(", ")})`);
    emitObjects(ctx, render(a.columnList1), render(a.columnList2), render(a.columnList3));
  },
});

export const RowSemanticTableFunction = ProcessTableFunction.define({
  args: { r: tableArg(ROW), i: scalarArg(DataTypes.INT()) },
  output: OUT,
  eval(ctx, _s, { r, i }) { emitObjects(ctx, r, i); },
});

export const TypedRowSemanticTableFunction = ProcessTableFunction.define({
  args: { u: tableArg(ROW).typed(UserType), i: scalarArg(DataTypes.INT()) },
  output: OUT,
  eval(ctx, _s, { u, i }) { emitObjects(ctx, u, i); },
});

/** Flink's PojoArgsFunction: a typed table argument and a scalar argument of the same structured type. */
export const PojoArgsFunction = ProcessTableFunction.define({
  args: { input: tableArg(ROW).typed(UserType), scalar: scalarArg(UserType) },
  output: OUT,
  eval(ctx, _s, { input, scalar }) { emitObjects(ctx, input, scalar); },
});

/** Flink's PojoCreatingFunction: `pojoCreator(s, i)` returns `User(s, i)`. */
export const PojoCreatingFunction = ScalarFunction.define({
  name: "pojoCreator",
  args: [DataTypes.STRING(), DataTypes.INT()],
  result: UserType,
  eval(s, i) {
    const u = new User();
    u.s = s;
    u.i = i;
    return u;
  },
});

/**
 * Flink's RowDataRowSemanticTableFunction reads the first field of Flink's internal RowData by position.
 * tablestream has one row representation; the positional read is `Object.values(row)[0]`.
 */
export const RowDataRowSemanticTableFunction = ProcessTableFunction.define({
  args: { input: tableArg(ROW) },
  output: OUT,
  eval(ctx, _s, { input }) { emitObjects(ctx, `Hello ${String(Object.values(input)[0])}!`); },
});

export const SetSemanticTableFunction = ProcessTableFunction.define({
  args: { r: tableArg(SET), i: scalarArg(DataTypes.INT()) },
  output: OUT,
  eval(ctx, _s, { r, i }) { emitObjects(ctx, r, i); },
});

export const TypedSetSemanticTableFunction = ProcessTableFunction.define({
  args: { u: tableArg(SET).typed(UserType), i: scalarArg(DataTypes.INT()) },
  output: OUT,
  eval(ctx, _s, { u, i }) { emitObjects(ctx, u, i); },
});

export const RowSemanticTablePassThroughFunction = ProcessTableFunction.define({
  args: { r: tableArg(ROW, PASS), i: scalarArg(DataTypes.INT()) },
  output: OUT,
  eval(ctx, _s, { r, i }) { emitObjects(ctx, r, i); },
});

export const ScalarBeforeRowSemanticTablePassThroughFunction = ProcessTableFunction.define({
  args: { i: scalarArg(DataTypes.INT()), r: tableArg(ROW, PASS) },
  output: OUT,
  eval(ctx, _s, { r, i }) { emitObjects(ctx, r, i); },
});

export const SetSemanticTablePassThroughFunction = ProcessTableFunction.define({
  args: { r: tableArg(SET, PASS), i: scalarArg(DataTypes.INT()) },
  output: OUT,
  eval(ctx, _s, { r, i }) { emitObjects(ctx, r, i); },
});

export const SetSemanticTableOptionalPartitionFunction = ProcessTableFunction.define({
  args: { r: tableArg(SET, OPT_PB), i: scalarArg(DataTypes.INT()) },
  output: OUT,
  eval(ctx, _s, { r, i }) { emitObjects(ctx, r, i); },
});

export const AtomicTypeWrappingFunction = ProcessTableFunction.define({
  args: { r: tableArg(SET) },
  output: DataTypes.INT(),
  eval(ctx, _s, { r }) { ctx.collect(r.score as number); },
});

export const EmptyOutputFunction = ProcessTableFunction.define({
  args: { r: tableArg(SET) },
  output: DataTypes.ROW(),
  eval(ctx) { ctx.collect({}); },
});

export const EmptyOutputRowSemanticFunction = ProcessTableFunction.define({
  args: { r: tableArg(ROW) },
  output: DataTypes.ROW(),
  eval(ctx) { ctx.collect({}); },
});

export const ContextFunction = ProcessTableFunction.define({
  args: { r: tableArg(SET), s: scalarArg(DataTypes.STRING()) },
  output: OUT,
  eval(ctx, _state, { r, s }) {
    const semantics = ctx.tableSemanticsFor("r");
    emitObjects(ctx, r, s, semantics.partitionByColumns(), semantics.changelogMode(), semantics.dataType());
  },
});

export const ImplicitCastingFunction = ProcessTableFunction.define({
  args: { p: tableArg(ROW).typed(CastingPojoType), b: scalarArg(DataTypes.BIGINT().notNull()) },
  output: OUT,
  eval(ctx, _s, { p, b }) { emitObjects(ctx, p, b); },
});

export const InvalidRowKindFunction = ProcessTableFunction.define({
  args: { r: tableArg(ROW) },
  output: DataTypes.STRING(),
  eval(ctx) {
    ctx.collect(Row.ofKind(RowKind.DELETE, "invalidate"));
  },
});

// ---- state ----------------------------------------------------------------------------------------
export const PojoStateFunction = ProcessTableFunction.define({
  args: { r: tableArg(SET) },
  state: { s: valueState(Score) },
  output: OUT,
  eval(ctx, { s }, { r }) {
    emitObjects(ctx, s, r);
    if (r.name === "Bob") s.s = r.name;
    s.i = s.i === null ? 0 : s.i + 1;
  },
});

export const PojoWithDefaultStateFunction = ProcessTableFunction.define({
  args: { r: tableArg(SET) },
  state: { s: valueState(ScoreWithDefaults) },
  output: OUT,
  eval(ctx, { s }, { r }) {
    emitObjects(ctx, s, r);
    if (r.name === "Bob") s.s = r.name;
    s.i = s.i === 99 ? 0 : s.i + 1;
  },
});

export const MultiStateFunction = ProcessTableFunction.define({
  args: { r: tableArg(SET) },
  state: {
    s1: valueState(DataTypes.ROW(DataTypes.FIELD("i", DataTypes.INT()))),
    s2: valueState(DataTypes.ROW(DataTypes.FIELD("s", DataTypes.STRING()))),
  },
  output: OUT,
  eval(ctx, { s1, s2 }, { r }) {
    emitObjects(ctx, s1, s2, r);
    const i = s1.i ?? 0;
    s1.i = i + 1;
    s2.s = String(i);
  },
});

export const ClearStateFunction = ProcessTableFunction.define({
  args: { r: tableArg(SET) },
  state: { s: valueState(ScoreWithDefaults) },
  output: OUT,
  eval(ctx, { s }, { r }) {
    emitObjects(ctx, s, r);
    if (r.name === "Bob" && s.i === 100) ctx.clearState("s");
    else s.i++;
  },
});

export const ValueViewFunction = ProcessTableFunction.define({
  args: { r: tableArg(SET) },
  state: { s: valueView(DataTypes.INT()) },
  output: OUT,
  eval(ctx, { s }, { r }) {
    emitObjects(ctx, s.getValue(), s.constructor.name, r);
    const count = s.getValue() ?? 0;
    s.setValue(count + 1);
    if (count === 2) ctx.clearState("s");
  },
});

/** Flink's ComplexValueViewFunction: a ValueView of Tuple2<Instant, List<Integer>>. */
export const ComplexValueViewFunction = ProcessTableFunction.define({
  args: { r: tableArg(SET) },
  state: { s: valueView(Tuple2Type) },
  output: OUT,
  eval(ctx, { s }, { r }) {
    const current = s.getValue();
    emitObjects(ctx, current, s.constructor.name, r);
    const scores = [...(current?.f1 ?? []), r.score as number];
    const next = new Tuple2();
    next.f0 = new Date(scores.length);
    next.f1 = scores;
    s.setValue(next);
  },
});

/** Flink asserts the null errors inside eval; here eval records what the calls threw, for the test to check. */
export const nullErrors: string[] = [];

export const ListStateFunction = ProcessTableFunction.define({
  args: { r: tableArg(SET, OPT_PB) },
  state: { s: listView(DataTypes.STRING()) },
  output: OUT,
  eval(ctx, { s }, { r }) {
    emitObjects(ctx, s.getList(), s.constructor.name, r);
    const count = s.getList().length;
    s.add(String(count));
    for (const bad of [() => s.add(null as never), () => s.addAll(["item0", null as never])]) {
      try {
        bad();
        nullErrors.push("no error");
      } catch (e) {
        nullErrors.push(`${(e as Error).constructor.name}: ${(e as Error).message}`);
      }
    }
    if (count === 2) ctx.clearState("s");
  },
});

function mapToString(m: Map<string, number | null>): string {
  return `{${[...m].map(([k, v]) => `${k}=${v}`).sort().join(", ")}}`;
}

export const NonNullMapStateFunction = ProcessTableFunction.define({
  args: { r: tableArg(SET, OPT_PB) },
  state: { s: mapView(DataTypes.STRING(), DataTypes.INT()) },
  output: OUT,
  eval(ctx, { s }, { r }) {
    emitObjects(ctx, mapToString(s.getMap()), s.constructor.name, r);
    const name = r.name as string;
    let count = 1;
    if (s.contains(name)) count = s.get(name)!;
    s.put(`old${name}`, count);
    s.put(name, count + 1);
    if (count === 2) ctx.clearState("s");
  },
});

export const MapStateFunction = ProcessTableFunction.define({
  args: { r: tableArg(SET, OPT_PB) },
  state: { s: mapView(DataTypes.STRING(), DataTypes.INT()) },
  output: OUT,
  eval(ctx, { s }, { r }) {
    emitObjects(ctx, mapToString(s.getMap()), s.constructor.name, r);
    const name = r.name as string;
    let count = 1;
    if (s.contains(name)) count = s.get(name)!;
    s.put(`old${name}`, count);
    s.put(name, count + 1);
    for (const bad of [() => s.put(null as never, 42), () => s.putAll(new Map<string, number>([["key", 42], [null as never, 42]]))]) {
      try {
        bad();
        nullErrors.push("no error");
      } catch (e) {
        nullErrors.push(`${(e as Error).constructor.name}: ${(e as Error).message}`);
      }
    }
    s.put("nullValue", null);
    if (count === 2) ctx.clearState("s");
  },
});
