import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ChangelogNormalizeOperator } from "../../src/exec/operators/changelog-normalize.js";
import { TableAggregateOperator } from "../../src/exec/udf/table-aggregate-operator.js";
import { $, DataTypes, EnvironmentSettings, Row, RowKind, Schema, TableEnvironment, call } from "../../src/index.js";
import { Kind } from "../../src/types/row.js";
import type { BaseOperator } from "../../src/exec/operator.js";
import type { ChangelogNormalizeNode, PlanNode, TableAggregateNode } from "../../src/plan/nodes.js";
import { Top2, Top2Incremental } from "../../examples/table-api/row-based.js";

/** A restored operator continues with exactly the output of one that never stopped (table aggregate, ChangelogNormalize). */
function findNode<K extends PlanNode["kind"]>(n: PlanNode, kind: K): PlanNode & { kind: K } {
  if (n.kind === kind) return n as PlanNode & { kind: K };
  const input = (n as { input?: PlanNode }).input;
  if (!input) throw new Error(`no ${kind} node`);
  return findNode(input, kind);
}

function checkRestore(make: () => BaseOperator, rows: readonly [number, unknown[]][], cut: number): void {
  const run = (out: string[]) => {
    const op = make();
    op.out = { record: (k, r) => out.push(`${k}${JSON.stringify(r)}`), watermark: () => {}, endInput: () => {} };
    op.open();
    return op;
  };
  const whole: string[] = [];
  const a = run(whole);
  for (const [k, r] of rows) a.processElement(0, k, r);
  const split: string[] = [];
  const b = run(split);
  for (const [k, r] of rows.slice(0, cut)) b.processElement(0, k, r);
  const c = run(split);
  c.restoreState(b.snapshotState());
  for (const [k, r] of rows.slice(cut)) c.processElement(0, k, r);
  expect(split).toEqual(whole);
}

describe("snapshot / restore of the row-based and normalizing operators", () => {
  const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
  const kv = env.fromValues(DataTypes.ROW(DataTypes.FIELD("k", DataTypes.STRING()), DataTypes.FIELD("v", DataTypes.INT().notNull())), Row.of("a", 1));
  const record = fc.tuple(fc.constantFrom("a", "b", null), fc.integer({ min: 0, max: 9 }));

  for (const [name, fn] of [["emitValue", Top2], ["emitUpdateWithRetract", Top2Incremental]] as const) {
    it(`TableAggregateOperator (${name})`, () => {
      const node = findNode(kv.groupBy($("k")).flatAggregate(call(fn as typeof Top2, $("v"))).select($("k"), $("score")).node, "TableAggregate") as TableAggregateNode;
      fc.assert(fc.property(fc.array(record, { maxLength: 30 }), fc.nat(), (records, at) => {
        const rows = records.map(([k, v]): [number, unknown[]] => [Kind.INSERT, [k, v]]);
        checkRestore(() => new TableAggregateOperator(node, false), rows, rows.length === 0 ? 0 : at % (rows.length + 1));
      }), { numRuns: 100 });
    });
  }

  it("ChangelogNormalizeOperator", () => {
    const schema = Schema.newBuilder().column("k", DataTypes.STRING().notNull()).column("v", DataTypes.INT()).primaryKey("k").build();
    const upserts = env.fromValues(schema, Row.ofKind(RowKind.UPDATE_AFTER, "a", 1));
    const node = findNode(env.negotiate(upserts.node, true), "ChangelogNormalize") as ChangelogNormalizeNode;
    const upsert = fc.tuple(fc.constantFrom(Kind.INSERT, Kind.UPDATE_AFTER, Kind.DELETE, Kind.UPDATE_BEFORE), fc.constantFrom("a", "b", "c"), fc.option(fc.integer({ min: 0, max: 2 })));
    fc.assert(fc.property(fc.array(upsert, { maxLength: 30 }), fc.nat(), (records, at) => {
      const rows = records.map(([kind, k, v]): [number, unknown[]] => [kind, [k, v]]);
      checkRestore(() => new ChangelogNormalizeOperator(node), rows, rows.length === 0 ? 0 : at % (rows.length + 1));
    }), { numRuns: 100 });
  });
});
