import { describe, expect, it } from "vitest";
import { CollectSinkOperator } from "../../src/exec/operators/collect-sink.js";
import { $, DataTypes, EnvironmentSettings, ResolvedSchema, Row, RowKind, TableEnvironment } from "../../src/index.js";

const I = 0, UB = 1, UA = 2, D = 3;
const schema = new ResolvedSchema([{ name: "k", type: DataTypes.STRING() }, { name: "v", type: DataTypes.INT() }]);

function run(mode: { kinds: number[]; upsertKeys?: string[] }, records: [number, unknown[]][]): [number, unknown[]][] {
  const out: [number, unknown[]][] = [];
  const op = new CollectSinkOperator({ record: (k, v) => { out.push([k, [...v]]); } }, { schema, mode: mode as never });
  for (const [k, r] of records) op.processElement(0, k, r);
  op.endInput(0);
  return out;
}

describe("batch results are materialized at the sink", () => {
  it("a retract changelog becomes the multiset of rows present at the end, in order of first appearance", () => {
    expect(run({ kinds: [I, UB, UA, D] }, [
      [I, ["a", 1]], [I, ["b", 2]], [I, ["a", 1]], [UB, ["a", 1]], [UA, ["a", 5]], [D, ["b", 2]], [D, ["zzz", 0]], [I, ["b", 3]],
    ])).toEqual([[I, ["a", 1]], [I, ["a", 5]], [I, ["b", 3]]]);
  });

  it("an upsert changelog keeps the last row per key; a key-only delete removes it", () => {
    expect(run({ kinds: [I, UA, D], upsertKeys: ["k"] }, [
      [I, ["a", 1]], [I, ["b", 2]], [UA, ["a", 7]], [D, ["b", null]], [UA, ["c", 9]],
    ])).toEqual([[I, ["a", 7]], [I, ["c", 9]]]);
  });

  it("through the API: a projection of a changelog in batch mode gives only the final rows", async () => {
    const env = TableEnvironment.create(EnvironmentSettings.inBatchMode());
    const t = env.fromValues(DataTypes.ROW(DataTypes.FIELD("k", DataTypes.STRING()), DataTypes.FIELD("v", DataTypes.INT())),
      Row.of("a", 1), Row.of("b", 2), Row.ofKind(RowKind.DELETE, "a", 1), Row.ofKind(RowKind.UPDATE_BEFORE, "b", 2), Row.ofKind(RowKind.UPDATE_AFTER, "b", 3));
    expect(await t.select($("k"), $("v").times(10).as("v10")).execute().toChangelog()).toEqual(["+I[b, 30]"]);
  });
});
