// Flink's changelog test PTFs (Flink's test catalogue §2.2 ChangelogBase, §2.4 "Changelog") declared in
// TypeScript, and the updating test tables of §1 and §3.5–3.6.
import {
  $, ArgumentTrait, ChangelogMode, type ChangelogModeInfo, DataTypes, ProcessTableFunction, Row, type RowKind, Schema, type TableEnvironment, tableArg,
  valueView,
} from "../../src/index.js";
import { OUT, emitObjects } from "./support.js";

const { ROW_SEMANTIC_TABLE: ROW, SET_SEMANTIC_TABLE: SET, OPTIONAL_PARTITION_BY: OPT_PB, SUPPORT_UPDATES: UPD } = ArgumentTrait;
const { REQUIRE_UPDATE_BEFORE: REQ_UB, REQUIRE_FULL_DELETE: REQ_FD } = ArgumentTrait;

/** Flink's modeSummary: the label of a changelog mode. */
export function modeSummary(m: ChangelogModeInfo): string {
  switch (String(m)) {
    case "[INSERT, UPDATE_BEFORE, UPDATE_AFTER]": return "retract-no-delete";
    case "[INSERT, UPDATE_AFTER]": return "upsert-no-delete";
    case "[INSERT, UPDATE_BEFORE, UPDATE_AFTER, DELETE]": return "retract";
    case "[INSERT, UPDATE_AFTER, DELETE]": return "upsert-full-delete";
    case "[INSERT, UPDATE_AFTER, ~DELETE]": return "upsert-partial-delete";
    default: return String(m);
  }
}

/** ChangelogBase's output: `ROW<name STRING, count BIGINT, mode STRING>`. */
const CHANGELOG_OUT = DataTypes.ROW(
  DataTypes.FIELD("name", DataTypes.STRING()), DataTypes.FIELD("count", DataTypes.BIGINT()), DataTypes.FIELD("mode", DataTypes.STRING()),
);

export const SetSemanticTableUpdatingArgFunction = ProcessTableFunction.define({
  args: { r: tableArg(SET, OPT_PB, UPD) },
  output: OUT,
  eval(ctx, _s, { r }) {
    emitObjects(ctx, r, modeSummary(ctx.tableSemanticsFor("r").changelogMode()));
  },
});

export const SetSemanticTableRetractArgFunction = ProcessTableFunction.define({
  args: { r: tableArg(SET, UPD, REQ_UB) },
  output: OUT,
  eval(ctx, _s, { r }) { emitObjects(ctx, r); },
});

export const SetSemanticTableFullDeletesArgFunction = ProcessTableFunction.define({
  args: { r: tableArg(SET, UPD, REQ_FD) },
  output: OUT,
  eval(ctx, _s, { r }) { emitObjects(ctx, r); },
});

/** P-040's function: updates without REQUIRE_FULL_DELETE. */
export const SetSemanticTableUpdatingKeyedArgFunction = ProcessTableFunction.define({
  args: { r: tableArg(SET, UPD) },
  output: OUT,
  eval(ctx, _s, { r }) { emitObjects(ctx, r); },
});

/** ChangelogBase.collectUpdate: the input row's kind, its first two fields, the function's output mode. */
function collectUpdate(ctx: { collect(v: unknown): void; changelogMode(): ChangelogModeInfo }, r: object): void {
  const v = Object.values(r);
  ctx.collect(Row.ofKind(Row.kindOf(r), v[0], v[1], modeSummary(ctx.changelogMode())));
}

export const UpdatingRetractFunction = ProcessTableFunction.define({
  args: { r: tableArg(SET, UPD, REQ_UB) },
  output: CHANGELOG_OUT,
  changelogMode: () => ChangelogMode.all(),
  eval(ctx, _s, { r }) { collectUpdate(ctx, r); },
});

/** Upsert output; key-only deletes iff the consumer asks for them (tablestream's consumers ask for full deletes). */
export const UpdatingUpsertFunction = ProcessTableFunction.define({
  args: { r: tableArg(SET, UPD) },
  output: CHANGELOG_OUT,
  changelogMode: (ctx) => ChangelogMode.upsert(ctx.getRequiredChangelogMode().keyOnlyDeletes),
  eval(ctx, _s, { r }) { collectUpdate(ctx, r); },
});

/** UpdatingUpsertFunction as Flink plans it before a sink that supports delete-by-key (P-045). */
export const UpdatingPartialDeleteFunction = ProcessTableFunction.define({
  args: { r: tableArg(SET, UPD) },
  output: CHANGELOG_OUT,
  changelogMode: ChangelogMode.upsert(true),
  eval(ctx, _s, { r }) { collectUpdate(ctx, r); },
});

/**
 * UpdatingJoinFunction: joins two updating tables co-partitioned by their key into an upsert output. Per
 * row: a delete of a matched key retracts the result (`-D` with a null `out`); the row sets (+I/+U) or
 * clears (-U/-D) its side; a match then emits `+I` (new) or `+U` (it matched before).
 */
export const UpdatingJoinFunction = ProcessTableFunction.define({
  args: { scoreTable: tableArg(SET, UPD), cityTable: tableArg(SET, UPD) },
  state: { score: valueView(DataTypes.BIGINT()), city: valueView(DataTypes.STRING()) },
  output: DataTypes.ROW(DataTypes.FIELD("out", DataTypes.STRING())),
  changelogMode: ChangelogMode.upsert(),
  eval(ctx, { score, city }, { scoreTable, cityTable }) {
    const wasMatch = score.getValue() !== null && city.getValue() !== null;
    const row = (scoreTable ?? cityTable)!;
    const kind = Row.kindOf(row);
    if (kind === "-D" && wasMatch) ctx.collect(Row.ofKind("-D", null));
    const set = kind === "+I" || kind === "+U";
    if (scoreTable !== null) {
      if (set) score.setValue(scoreTable.score as number); else score.clear();
    } else {
      if (set) city.setValue(cityTable!.city as string); else city.clear();
    }
    if (score.getValue() !== null && city.getValue() !== null) {
      ctx.collect(Row.ofKind(wasMatch ? "+U" : "+I", `score ${score.getValue()} in city ${city.getValue()}`));
    }
  },
});

/** V-67: retract output from a row-semantics table. */
export const UpdatingRetractRowSemanticFunction = ProcessTableFunction.define({
  args: { r: tableArg(ROW, UPD, REQ_UB) },
  output: CHANGELOG_OUT,
  changelogMode: ChangelogMode.all(),
  eval(ctx, _s, { r }) { collectUpdate(ctx, r); },
});

/** V-36: upsert output from a row-semantics table. */
export const UpdatingUpsertRowSemanticFunction = ProcessTableFunction.define({
  args: { r: tableArg(ROW, UPD) },
  output: CHANGELOG_OUT,
  changelogMode: ChangelogMode.upsert(),
  eval(ctx, _s, { r }) { collectUpdate(ctx, r); },
});

/**
 * UPDATING_VALUES: `SELECT name, COUNT(*) FROM (VALUES ('Bob', 12), ('Alice', 42), ('Bob', 14)) GROUP BY name`,
 * a retract changelog with upsert key `name`.
 */
export function updatingValues(env: TableEnvironment) {
  return env.fromValues(Row.of("Bob", 12), Row.of("Alice", 42), Row.of("Bob", 14)).as("name", "score")
    .groupBy($("name")).select($("name"), $("score").count().as("EXPR$1"));
}

/**
 * Replays a changelog given as rows `(name, score, op)` as an upsert table `(name, score)` keyed by name
 * with key-only deletes: the source of P-040/P-041 and P-045 (Flink: `changelog-mode = I,UA,D`,
 * `source.produces-delete-by-key = true`, primary key `name`).
 */
export const UpsertReplay = ProcessTableFunction.define({
  name: "UpsertReplay",
  args: { input: tableArg(SET) },
  output: DataTypes.ROW(DataTypes.FIELD("score", DataTypes.BIGINT())),
  changelogMode: ChangelogMode.upsert(true),
  eval(ctx, _s, { input }) {
    ctx.collect(Row.ofKind(input.op as RowKind, input.score as number | null));
  },
});

export function upsertSource(env: TableEnvironment, rows: readonly (readonly [RowKind, string, number | null])[]) {
  return env.fromValues(
    DataTypes.ROW(DataTypes.FIELD("name", DataTypes.STRING()), DataTypes.FIELD("score", DataTypes.BIGINT()), DataTypes.FIELD("op", DataTypes.STRING())),
    ...rows.map(([op, name, score]) => Row.of(name, score, op)),
  ).partitionBy($("name")).process(UpsertReplay);
}

/**
 * A keyed source `(name STRING PRIMARY KEY, score BIGINT)` whose rows are upserts (Flink: a `values` source
 * with `changelog-mode = I,UA,D` and a primary key; deletes carry the whole row, as given).
 */
export function keyedUpsertValues(env: TableEnvironment, rows: readonly (readonly [RowKind, string, number | null])[]) {
  const schema = Schema.newBuilder().column("name", DataTypes.STRING().notNull()).column("score", DataTypes.BIGINT()).primaryKey("name").build();
  return env.fromValues(schema, ...rows.map(([op, name, score]) => Row.ofKind(op, name, score)));
}
