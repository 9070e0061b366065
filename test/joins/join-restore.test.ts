import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { $, DataTypes, Schema, call, lit } from "../../src/index.js";
import { IntervalJoinOperator } from "../../src/exec/operators/join/interval-join.js";
import { RegularJoinOperator } from "../../src/exec/operators/join/regular-join.js";
import { TemporalJoinOperator } from "../../src/exec/operators/join/temporal-join.js";
import type { BaseOperator } from "../../src/exec/operator.js";
import type { IntervalJoinNode, JoinNode, TemporalJoinNode } from "../../src/plan/nodes.js";
import { streaming } from "./fixtures.js";
import type { JobSettings } from "../../src/exec/job-contract.js";
import { DiskStateBackend } from "../../src/exec/state/disk-backend.js";

/**
 * Snapshot / restore of the join operators (as for the group aggregate): an operator restored from a snapshot
 * taken after any prefix of the input continues with exactly the output of one that never stopped, and the
 * snapshot is a copy (the operator it came from running on does not change it).
 */
type Step = readonly [input: 0 | 1, kind: number, row: unknown[]] | readonly ["wm", number];

function checkRestore(make: () => BaseOperator, steps: readonly Step[], cut: number, exactOrder = true): void {
  const run = (op: BaseOperator, part: readonly Step[]) => {
    for (const s of part) {
      if (s[0] === "wm") { op.processWatermark(0, s[1]); op.processWatermark(1, s[1]); } else op.processElement(s[0], s[1], s[2] as unknown[]);
    }
  };
  const build = (sink: { out: string[] }) => {
    const op = make();
    op.out = { record: (k, r) => sink.out.push(`${k}${JSON.stringify(r)}`), watermark: () => {}, endInput: () => sink.out.push("end") };
    op.open();
    return op;
  };
  const whole = { out: [] as string[] };
  const a = build(whole);
  run(a, steps);
  a.endInput(0); a.endInput(1);

  const split = { out: [] as string[] };
  const b = build(split);
  run(b, steps.slice(0, cut));
  const snapshot = b.snapshotState();
  const before = split.out;
  split.out = [];
  run(b, steps.slice(cut)); // the old operator runs on: the snapshot must not change
  split.out = before;
  const c = build(split);
  c.restoreState(snapshot);
  run(c, steps.slice(cut));
  c.endInput(0); c.endInput(1);
  // a restored job starts without a watermark (as in Flink): event-time operators may emit a late row's
  // padding later than the uninterrupted run, so for them the rows are compared as a multiset
  if (exactOrder) expect(split.out).toEqual(whole.out);
  else expect([...split.out].sort()).toEqual([...whole.out].sort());
}

const settings = (ttl?: string) => ({ batch: false, config: new Map(ttl ? [["table.exec.state.ttl", ttl]] : []), clock: () => 0 });

/** Disk backends made by `onDisk`, removed after each property run. */
const disks: DiskStateBackend[] = [];
/** `settings` on a disk backend of its own whose cache holds one bucket: every other bucket goes through the database. */
const onDisk = (ttl?: string) => {
  const stateBackend = new DiskStateBackend({ localDir: undefined, cacheSize: 1, incremental: false });
  disks.push(stateBackend);
  return { ...settings(ttl), stateBackend };
};
const disposeDisks = () => { for (const d of disks.splice(0)) d.dispose(); };

describe("join operators restore from their snapshots", () => {
  const env = streaming();
  const L = DataTypes.ROW(DataTypes.FIELD("k", DataTypes.INT()), DataTypes.FIELD("lv", DataTypes.INT()));
  const R = DataTypes.ROW(DataTypes.FIELD("rk", DataTypes.INT()), DataTypes.FIELD("rv", DataTypes.INT()));
  const l = env.fromValues(L, []);
  const r = env.fromValues(R, []);
  const p = $("k").isEqual($("rk")).and($("lv").isLessOrEqual($("rv")));
  const regular = { INNER: l.join(r, p), LEFT: l.leftOuterJoin(r, p), RIGHT: l.rightOuterJoin(r, p), FULL: l.fullOuterJoin(r, p) };

  // records of either side; a retraction is of a row inserted before on that side
  const steps = fc.array(fc.tuple(fc.constantFrom(0, 1) as fc.Arbitrary<0 | 1>, fc.boolean(), fc.option(fc.nat(2), { freq: 5 }), fc.nat(3)), { maxLength: 30 })
    .map((xs) => {
      const present: [unknown[][], unknown[][]] = [[], []];
      return xs.map(([side, retract, k, v]): Step => {
        const rows = present[side];
        if (retract && rows.length > 0) return [side, 3, rows.splice(v % rows.length, 1)[0]!];
        const row = [k, v];
        rows.push(row);
        return [side, 0, row];
      });
    });

  for (const [type, q] of Object.entries(regular)) {
    it(`regular ${type} join`, () => {
      fc.assert(fc.property(steps, fc.nat(), (s, at) => {
        checkRestore(() => new RegularJoinOperator(q.node as JoinNode, settings()), s, at % (s.length + 1));
      }), { numRuns: 80 });
    });
  }

  it("regular join with state TTL (write times survive the snapshot)", () => {
    fc.assert(fc.property(steps, fc.nat(), (s, at) => {
      checkRestore(() => new RegularJoinOperator(regular.FULL.node as JoinNode, settings("1 h")), s, at % (s.length + 1));
    }), { numRuns: 50 });
  });

  for (const [type, q] of Object.entries(regular)) {
    it(`regular ${type} join on the disk backend`, () => {
      fc.assert(fc.property(steps, fc.nat(), fc.boolean(), (s, at, ttl) => {
        try {
          checkRestore(() => new RegularJoinOperator(q.node as JoinNode, onDisk(ttl ? "1 h" : undefined)), s, at % (s.length + 1));
        } finally {
          disposeDisks();
        }
      }), { numRuns: 40 });
    });
  }

  const lt = env.fromValues(Schema.newBuilder()
    .column("k", DataTypes.INT()).column("lv", DataTypes.INT()).column("lt", DataTypes.TIMESTAMP(3)).watermark("lt", "`lt`").build(), []);
  const rt = env.fromValues(Schema.newBuilder()
    .column("rk", DataTypes.INT()).column("rv", DataTypes.INT()).column("rt", DataTypes.TIMESTAMP(3)).watermark("rt", "`rt`").build(), []);
  // rows at random times with watermarks between them
  const timedSteps = fc.array(fc.oneof(
    fc.tuple(fc.constantFrom(0, 1) as fc.Arbitrary<0 | 1>, fc.nat(2), fc.nat(3), fc.nat(20)).map(([side, k, v, t]): Step => [side, 0, [k, v, new Date(t * 1000)]]),
    fc.nat(20).map((t): Step => ["wm", t * 1000]),
  ), { maxLength: 30 }).map((xs) => {
    // watermarks only rise
    let w = -Infinity;
    return xs.filter((s) => s[0] !== "wm" || (s[1] > w && (w = s[1], true)));
  });

  // each event-time join on both backends: the disk backend's snapshot outside a checkpoint is its entries
  const timedOn: Record<string, () => JobSettings> = { hashmap: () => settings(), disk: () => onDisk() };
  for (const [backend, make] of Object.entries(timedOn)) {
    for (const outer of [false, true]) {
      it(`interval join${outer ? " (full outer)" : ""} on the ${backend} backend`, () => {
        const bounds = $("k").isEqual($("rk")).and($("lt").between($("rt").minus(lit(3).seconds()), $("rt").plus(lit(2).seconds())));
        const q = outer ? lt.fullOuterJoin(rt, bounds) : lt.join(rt, bounds);
        expect(q.node.kind).toBe("IntervalJoin");
        fc.assert(fc.property(timedSteps, fc.nat(), (s, at) => {
          try {
            checkRestore(() => new IntervalJoinOperator(q.node as IntervalJoinNode, make()), s, at % (s.length + 1), false);
          } finally {
            disposeDisks();
          }
        }), { numRuns: backend === "disk" ? 40 : 80 });
      });
    }

    it(`temporal join (left outer) on the ${backend} backend`, () => {
      const fn = rt.createTemporalTableFunction($("rt"), $("rk"));
      const q = lt.leftOuterJoinLateral(call(fn, $("lt")), $("k").isEqual($("rk")));
      fc.assert(fc.property(timedSteps, fc.nat(), (s, at) => {
        try {
          checkRestore(() => new TemporalJoinOperator(q.node as TemporalJoinNode, undefined, make().stateBackend), s, at % (s.length + 1), false);
        } finally {
          disposeDisks();
        }
      }), { numRuns: backend === "disk" ? 40 : 80 });
    });
  }
});
