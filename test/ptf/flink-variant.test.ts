// Flink's VARIANT programs of the PTF catalogue: P-007 (VARIANT scalar arguments: nullable, optional, NOT NULL),
// P-033 (VARIANT columns in a table argument), both in their Table API and SQL forms, and VARIANT fields in
// PTF state (VariantScore{v VARIANT}) across a savepoint (snapshot encoded to JSON text and back).
import { describe, expect, it } from "vitest";
import {
  $, ArgumentTrait, DataTypes, parseJsonVariant, ProcessTableFunction, Row, lit, nullOf, scalarArg, structuredType, tableArg, valueState, type Variant,
} from "../../src/index.js";
import { ptfInspection } from "../../src/exec/operators/ptf/inspect.js";
import type { PtfOperator } from "../../src/exec/operators/ptf/ptf-operator.js";
import { decodeSnapshot, encodeSnapshot } from "../../src/exec/snapshot-codec.js";
import { getExecutor } from "../../src/table/executor.js";
import { KIND_SHORT } from "../../src/types/row.js";
import { toJavaString } from "../../src/types/format.js";
import type { Table, TableEnvironment } from "../../src/index.js";
import { OUT, emitObjects, streamingEnv } from "./support.js";

/** Flink's VariantFunction: `eval(variant1 VARIANT, variant2 VARIANT optional, variant3 VARIANT NOT NULL)`. */
const VariantFunction = ProcessTableFunction.define({
  args: {
    variant1: scalarArg(DataTypes.VARIANT()),
    variant2: scalarArg(DataTypes.VARIANT(), { optional: true }),
    variant3: scalarArg(DataTypes.VARIANT().notNull()),
  },
  output: OUT,
  eval(ctx, _s, a) { emitObjects(ctx, a.variant1, a.variant2, a.variant3); },
});

/** Flink's VariantTableArgFunction: `eval(r [SET])` emits `{<row>}`. */
const VariantTableArgFunction = ProcessTableFunction.define({
  args: { r: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE) },
  output: OUT,
  eval(ctx, _s, { r }) { emitObjects(ctx, r); },
});

/** Flink's VariantScore POJO. */
class VariantScore {
  v: Variant | null = null;
  toString(): string { return `VariantScore(v=${this.v})`; }
}
const VariantScoreType = structuredType(VariantScore, DataTypes.ROW(DataTypes.FIELD("v", DataTypes.VARIANT())));

/** State `s: VariantScore`: emits the state and the row, then keeps the row's variant. */
const VariantStateFunction = ProcessTableFunction.define({
  args: { r: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE) },
  state: { s: valueState(VariantScoreType) },
  output: OUT,
  eval(ctx, { s }, { r }) {
    emitObjects(ctx, s, r);
    s.v = (r as { v: Variant | null }).v;
  },
});

describe("P-007 process-variant", () => {
  const expected = ['+I[{null, null, {"a":[1,"b"]}}]'];

  it("Table API: f(variant1 => NULL, variant3 => parseJson(...))", async () => {
    const env = streamingEnv();
    env.createTemporaryFunction("f", VariantFunction);
    const result = env.fromCall("f", nullOf(DataTypes.VARIANT()).asArgument("variant1"), lit('{"a":[1,"b"]}').parseJson().asArgument("variant3"));
    expect(await result.execute().toChangelog()).toEqual(expected);
  });

  it("SQL: SELECT * FROM f(variant1 => NULL, variant3 => PARSE_JSON('{\"a\":[1,\"b\"]}'))", async () => {
    const env = streamingEnv();
    env.createTemporaryFunction("f", VariantFunction);
    expect(await env.executeSql(`SELECT * FROM f(variant1 => NULL, variant3 => PARSE_JSON('{"a":[1,"b"]}'))`).toChangelog()).toEqual(expected);
  });

  it("a NULL for the NOT NULL VARIANT argument is refused naming it", () => {
    const env = streamingEnv();
    env.createTemporaryFunction("f", VariantFunction);
    expect(() => env.executeSql("SELECT * FROM f(variant1 => NULL, variant3 => NULL)"))
      .toThrow("Invalid argument type at position 2. Data type VARIANT NOT NULL expected but NULL passed (argument 'variant3').");
  });
});

describe("P-033 process-variant-table-arg", () => {
  const expected = ['+I[Bob, {+I[Bob, {"a":1}]}]', '+I[Alice, {+I[Alice, [1,"b"]]}]'];

  it("SQL: a view with a VARIANT column, f(r => TABLE t PARTITION BY name)", async () => {
    const env = streamingEnv();
    env.executeSql(`CREATE VIEW t AS SELECT * FROM (VALUES ('Bob', PARSE_JSON('{"a":1}')), ('Alice', PARSE_JSON('[1,"b"]'))) AS T(name, v)`);
    env.createTemporaryFunction("f", VariantTableArgFunction);
    expect(await env.executeSql("SELECT * FROM f(r => TABLE t PARTITION BY name)").toChangelog()).toEqual(expected);
  });

  it("Table API: the same view, env.from('t').partitionBy($('name')).process(...)", async () => {
    const env = streamingEnv();
    env.executeSql(`CREATE VIEW t AS SELECT * FROM (VALUES ('Bob', PARSE_JSON('{"a":1}')), ('Alice', PARSE_JSON('[1,"b"]'))) AS T(name, v)`);
    expect(env.from("t").getResolvedSchema().toString()).toContain("`v` VARIANT NOT NULL");
    expect(await env.from("t").partitionBy($("name")).process(VariantTableArgFunction).execute().toChangelog()).toEqual(expected);
  });
});

type Source = Table<{ name: string | null; v: Variant | null }>;

/** Runs `f(r => TABLE t PARTITION BY name)` over rows of (name, JSON text), optionally restoring the PTF state first. */
function runJob(env: TableEnvironment, rows: readonly (readonly [string, string])[], restore?: unknown): { out: string[]; state: unknown } {
  const t = env.fromValues(DataTypes.ROW(DataTypes.FIELD("name", DataTypes.STRING()), DataTypes.FIELD("j", DataTypes.STRING())), ...rows.map((r) => Row.of(...r)))
    .select($("name"), $("j").parseJson().as("v")) as unknown as Source;
  const table = t.partitionBy($("name")).process("f");
  const out: string[] = [];
  const types = table.getResolvedSchema().types;
  ptfInspection.track = true;
  ptfInspection.operators.length = 0;
  const job = getExecutor().createJob(table.node, { batch: false, config: env.getConfig().options, clock: Date.now }, {
    record: (k, v) => out.push(`${KIND_SHORT[k]}[${v.map((x, i) => toJavaString(types[i], x)).join(", ")}]`),
  });
  ptfInspection.track = false;
  const op = ptfInspection.operators[0] as PtfOperator;
  if (restore !== undefined) op.restoreState(restore as never);
  while (job.step(1000) !== "done");
  return { out, state: op.snapshotState() };
}

describe("process-variant-state: VARIANT in PTF state and savepoints", () => {
  it("VariantScore(v=<v>) keeps the exact kinds across a savepoint written as JSON text", () => {
    const env = streamingEnv();
    env.createTemporaryFunction("f", VariantStateFunction);
    const before = runJob(env, [["Bob", '{"n":9007199254740993,"d":1.50,"x":1e2}'], ["Alice", "[true,null]"]]);
    expect(before.out).toEqual([
      "+I[Bob, {VariantScore(v=null), +I[Bob, {\"d\":1.50,\"n\":9007199254740993,\"x\":100.0}]}]",
      "+I[Alice, {VariantScore(v=null), +I[Alice, [true,null]]}]",
    ]);
    const savepoint = decodeSnapshot(JSON.parse(JSON.stringify(encodeSnapshot(before.state))));
    const after = runJob(env, [["Bob", '"b"'], ["Alice", "1"]], savepoint);
    expect(after.out).toEqual([
      "+I[Bob, {VariantScore(v={\"d\":1.50,\"n\":9007199254740993,\"x\":100.0}), +I[Bob, \"b\"]}]",
      "+I[Alice, {VariantScore(v=[true,null]), +I[Alice, 1]}]",
    ]);
  });

  it("the snapshot codec tags a Variant and restores its kinds (DOUBLE 100.0 stays DOUBLE, the big integer a BIGINT)", () => {
    const v = parseJsonVariant('{"x":1e2,"n":9007199254740993,"d":1.0}', false);
    const encoded = JSON.parse(JSON.stringify(encodeSnapshot({ v })));
    expect(encoded.v.$).toBe("variant");
    const back = (decodeSnapshot(encoded) as { v: Variant }).v;
    expect(back.equals(v)).toBe(true);
    expect(back.getField("x")!.kind).toBe("DOUBLE");
    expect(back.getField("n")!.kind).toBe("BIGINT");
    expect(back.getField("n")!.primitiveValue).toBe(9007199254740993n);
    expect(back.getField("d")!.kind).toBe("DECIMAL");
    expect(back.toJson()).toBe('{"d":1.0,"n":9007199254740993,"x":100.0}');
  });
});
