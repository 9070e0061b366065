import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { relationalOperator, type RelationalNode } from "../../src/exec/operators/relational-operators.js";
import { $, DataTypes, EnvironmentSettings, Row, RowKind, Schema, type Table, TableEnvironment } from "../../src/index.js";
import { deriveChangelogMode } from "../../src/plan/changelog-mode.js";
import { DiskStateBackend } from "../../src/exec/state/disk-backend.js";
import { decodeSnapshotInPlace, encodeSnapshotJson } from "../../src/exec/snapshot-codec.js";

/**
 * The restore property of the ordering, top-N, deduplication and set-operation operators: an operator
 * snapshotted at any point and restored into a new instance continues with exactly the output of one that
 * never stopped (as the group aggregate's property does) — on either state backend (the disk one with a
 * cache of one entry), restored on either one through the checkpoint encoding.
 */
describe("snapshot / restore of Sort, Rank, Deduplicate, SetOp operators", () => {
  const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
  env.getConfig().set("table.exec.non-temporal-sort.enabled", "true");
  const type = DataTypes.ROW(DataTypes.FIELD("k", DataTypes.STRING()), DataTypes.FIELD("v", DataTypes.INT()));
  const appendOnly = env.fromValues(type, Row.of("a", 1));
  const updating = env.fromValues(type, Row.of("a", 1), Row.ofKind(RowKind.DELETE, "a", 1));
  const timed = env.fromValues(Schema.newBuilder().column("k", DataTypes.STRING()).column("v", DataTypes.INT())
    .columnByExpression("ts", "TO_TIMESTAMP('2020-01-01 00:00:00')").watermark("ts", "`ts`").build(), Row.of("a", 1));
  const plans: Record<string, [Table<object>, boolean]> = {
    "top-N with row number, insert-only": [appendOnly.topN(2, { partitionBy: [$("k")], orderBy: [$("v").desc()], rowNumber: "rn" }), false],
    "top-N with row number, updating": [updating.topN(2, { partitionBy: [$("k")], orderBy: [$("v").desc()], rowNumber: "rn" }), true],
    "global top-N with offset, updating": [updating.orderBy($("v")).limit(1, 2), true],
    "limit": [appendOnly.limit(1, 5), false],
    "non-temporal sort": [appendOnly.orderBy($("v")), false],
    "temporal sort": [timed.orderBy($("ts"), $("v")), false],
    "dedup keep first": [appendOnly.deduplicate({ keys: [$("k")], keep: "first" }), false],
    "dedup keep last": [appendOnly.deduplicate({ keys: [$("k")], keep: "last" }), false],
    "dedup by event time, keep first": [timed.deduplicate({ keys: [$("k")], keep: "first", orderBy: $("ts") }), false],
    "intersect all": [updating.intersectAll(updating), true],
    "minus": [updating.minus(updating), true],
  };
  const record = fc.tuple(fc.constantFrom(0, 0, 3), fc.constantFrom("a", "b", null), fc.option(fc.integer({ min: 0, max: 3 })), fc.nat(1));
  const settings = { batch: false, config: env.getConfig().options, clock: () => 0 };

  for (const [name, [q, retracts]] of Object.entries(plans)) {
    it(name, () => {
      const node = q.node as RelationalNode;
      const inputs = node.kind === "SetOp" ? 2 : 1;
      fc.assert(fc.property(fc.array(record, { maxLength: 40 }), fc.nat(), fc.boolean(), fc.boolean(), (records, at, diskBefore, diskAfter) => {
        const rows = records.map(([kind, k, v, input]): [number, number, unknown[]] => [
          Math.min(input, inputs - 1), retracts ? kind : 0,
          node.kind !== "SetOp" && node.input.schema.size === 3 ? [k, v, new Date(1000 * (v ?? 0))] : [k, v]]);
        const cut = rows.length === 0 ? 0 : at % (rows.length + 1);
        const disks: DiskStateBackend[] = [];
        const make = (out: string[], disk = false) => {
          const stateBackend = disk ? new DiskStateBackend({ localDir: undefined, cacheSize: 1, incremental: false }) : undefined;
          if (stateBackend !== undefined) disks.push(stateBackend);
          const { op } = relationalOperator(node, { ...settings, stateBackend }, (n) => deriveChangelogMode(n, false));
          op.out = { record: (k, r) => out.push(`${k}${JSON.stringify(r)}`), watermark: (w) => out.push(`wm${w}`), endInput: () => out.push("end") };
          op.open();
          return op;
        };
        const feed = (op: ReturnType<typeof make>, part: typeof rows) => {
          for (const [input, kind, r] of part) {
            op.processElement(input, kind, r);
            for (let i = 0; i < inputs; i++) op.processWatermark(i, 1000 * ((r[1] as number | null) ?? 0) - 2000);
          }
        };
        const whole: string[] = [];
        const a = make(whole);
        feed(a, rows);
        for (let i = 0; i < inputs; i++) a.endInput(i);
        const split: string[] = [];
        try {
          const b = make(split, diskBefore);
          feed(b, rows.slice(0, cut));
          const c = make(split, diskAfter);
          c.restoreState(decodeSnapshotInPlace(JSON.parse(encodeSnapshotJson(b.snapshotState()))));
          // a restored operator starts without a watermark (as in Flink); it gets the current one again before the rest
          const wm = Math.max(...rows.slice(0, cut).map((r) => 1000 * ((r[2][1] as number | null) ?? 0) - 2000));
          if (cut > 0) for (let i = 0; i < inputs; i++) c.processWatermark(i, wm);
          feed(c, rows.slice(cut));
          for (let i = 0; i < inputs; i++) c.endInput(i);
          const changes = (log: string[]) => log.filter((l) => !l.startsWith("wm") && l !== "end");
          expect(changes(split)).toEqual(changes(whole));
        } finally {
          for (const d of disks) d.dispose();
        }
      }), { numRuns: 100 });
    });
  }
});
