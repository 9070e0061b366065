import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { GroupAggregateOperator } from "../../src/exec/operators/group-aggregate.js";
import { $, DataTypes, Decimal, EnvironmentSettings, Row, TableEnvironment, lit } from "../../src/index.js";
import type { AggregateNode } from "../../src/plan/nodes.js";
import { decodeSnapshotInPlace, encodeSnapshotJson } from "../../src/exec/snapshot-codec.js";
import { DiskStateBackend } from "../../src/exec/state/disk-backend.js";
import { HASHMAP_BACKEND, type StateBackend } from "../../src/exec/state/keyed-store.js";

/**
 * A restored operator continues with exactly the output of one that never stopped — on either state
 * backend (the disk one with a cache of one group: every other group is written back and read again),
 * and restored on the other one.
 */
describe("GroupAggregateOperator snapshot / restore", () => {
  const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
  const t = env.fromValues(DataTypes.ROW(DataTypes.FIELD("k", DataTypes.STRING()), DataTypes.FIELD("v", DataTypes.INT()), DataTypes.FIELD("d", DataTypes.DECIMAL(10, 2))),
    Row.of("a", 1, "1.00"));
  const plans = {
    "string key, every aggregate": t.groupBy($("k")).select($("k"), lit(1).count().as("n"), $("v").sum().as("s"), $("v").min().as("mn"),
      $("v").max().as("mx"), $("v").countDistinct().as("cd"), $("d").sum().as("ds"), $("d").max().as("dmx"), $("v").avg().as("av")),
    "numeric key": t.groupBy($("v")).select($("v"), $("k").max().as("mk"), lit(1).count().as("n")),
    "composite key": t.groupBy($("k"), $("v")).select($("k"), $("v"), $("d").min().as("dm")),
    "global": t.select($("v").max().as("mx"), $("k").count().as("n")),
  };

  const record = fc.tuple(fc.constantFrom(0, 0, 1, 2, 3), fc.constantFrom("a", "b", null), fc.option(fc.integer({ min: 0, max: 3 })),
    fc.constantFrom("1.00", "2.50", null));

  for (const [name, q] of Object.entries(plans)) {
    it(name, () => {
      const node = q.node.kind === "Aggregate" ? q.node : (q.node as unknown as { input: AggregateNode }).input;
      fc.assert(fc.property(fc.array(record, { maxLength: 40 }), fc.nat(), fc.boolean(), fc.boolean(), (records, at, diskBefore, diskAfter) => {
        const rows = records.map(([kind, k, v, d]): [number, unknown[]] => [kind, [k, v, d === null ? null : new Decimal(d)]]);
        const cut = rows.length === 0 ? 0 : at % (rows.length + 1);
        const backends: StateBackend[] = [];
        const make = (out: string[], disk = false) => {
          const backend = disk ? new DiskStateBackend({ localDir: undefined, cacheSize: 1, incremental: false }) : HASHMAP_BACKEND;
          backends.push(backend);
          const op = new GroupAggregateOperator(node, false, true, undefined, {}, undefined, undefined, backend);
          op.out = { record: (k, r) => out.push(`${k}${JSON.stringify(r)}`), watermark: () => {}, endInput: () => {} };
          op.open();
          return op;
        };
        const whole: string[] = [];
        const a = make(whole);
        for (const [k, r] of rows) a.processElement(0, k, r);
        const split: string[] = [];
        const b = make(split, diskBefore);
        try {
          for (const [k, r] of rows.slice(0, cut)) b.processElement(0, k, r);
          const c = make(split, diskAfter);
          // through the checkpoint encoding, as a savepoint goes
          c.restoreState(decodeSnapshotInPlace(JSON.parse(encodeSnapshotJson(b.snapshotState()))));
          for (const [k, r] of rows.slice(cut)) c.processElement(0, k, r);
          expect(split).toEqual(whole);
          expect(c.groupCount()).toBe(a.groupCount());
        } finally {
          for (const x of backends) x.dispose();
        }
      }), { numRuns: 100 });
    });
  }
});
