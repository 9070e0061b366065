import { describe, expect, it } from "vitest";
import { $, DataTypes, TableEnvironment } from "../../src/index.js";
import { buildJobGraph } from "../../src/exec/job-graph.js";
import { OPERATORS } from "../../src/table/wiring.js";
import { RegularJoinOperator } from "../../src/exec/operators/join/regular-join.js";
import { RowsOnlySideState } from "../../src/exec/operators/join/rows-only-state.js";
import { JoinSideState } from "../../src/exec/operators/join/join-state.js";
import { DiskStateBackend } from "../../src/exec/state/disk-backend.js";
import type { JoinNode, PlanNode } from "../../src/plan/nodes.js";
import type { JobSettings } from "../../src/exec/job-contract.js";

/**
 * An inner join of two insert-only inputs keeps per key only its rows (rows-only-state.ts): chosen from the
 * inputs' changelog modes when the job is built, with the rows, kinds and order of the general path, and a
 * snapshot that restores into either kind of side.
 */
const env = TableEnvironment.create();
const L = DataTypes.ROW(DataTypes.FIELD("k", DataTypes.INT()), DataTypes.FIELD("lv", DataTypes.STRING()));
const R = DataTypes.ROW(DataTypes.FIELD("rk", DataTypes.INT()), DataTypes.FIELD("rv", DataTypes.STRING()));
const l = env.fromValues(L, []);
const r = env.fromValues(R, []);
const inner = l.join(r, $("k").isEqual($("rk")));

function joinOf(node: PlanNode): RegularJoinOperator {
  const g = buildJobGraph(node, { batch: false, config: new Map(), clock: () => 0 }, { record: () => {} }, OPERATORS);
  const op = g.operators.find((o) => o instanceof RegularJoinOperator);
  expect(op).toBeDefined();
  return op as RegularJoinOperator;
}

type Step = readonly [0 | 1, unknown[]];
// several rows per key on both sides, a NULL key on each side, a key only one side has
const STEPS: Step[] = [
  [0, [1, "a"]], [1, [1, "x"]], [0, [1, "b"]], [1, [2, "y"]], [0, [null, "n"]], [1, [null, "m"]],
  [1, [1, "z"]], [0, [2, "c"]], [0, [3, "d"]], [1, [1, "x"]], [0, [2, "e"]], [1, [2, "w"]],
];
const EXPECTED = [
  '0[1,"a",1,"x"]', '0[1,"b",1,"x"]', '0[1,"a",1,"z"]', '0[1,"b",1,"z"]', '0[2,"c",2,"y"]', '0[1,"a",1,"x"]', '0[1,"b",1,"x"]',
  '0[2,"e",2,"y"]', '0[2,"c",2,"w"]', '0[2,"e",2,"w"]',
];

const disks: DiskStateBackend[] = [];
const settingsOn = (backend: string): JobSettings => {
  if (backend === "hashmap") return { batch: false, config: new Map(), clock: () => 0 };
  const stateBackend = new DiskStateBackend({ localDir: undefined, cacheSize: 1, incremental: false });
  disks.push(stateBackend);
  return { batch: false, config: new Map(), clock: () => 0, stateBackend };
};

function make(rowsOnly: boolean, backend: string, out: string[]): RegularJoinOperator {
  const op = new RegularJoinOperator(inner.node as JoinNode, settingsOn(backend), undefined, undefined, rowsOnly);
  op.out = { record: (k, row) => out.push(`${k}${JSON.stringify(row)}`), watermark: () => {}, endInput: () => {} };
  op.open();
  return op;
}

describe("regular inner join of insert-only inputs: rows-only state", () => {
  it("is chosen when both inputs are insert-only, and not when one has updates or the join is outer", () => {
    const j = joinOf(inner.node);
    expect(j.rowsOnly).toBe(true);
    expect(j.left).toBeInstanceOf(RowsOnlySideState);
    expect(j.right).toBeInstanceOf(RowsOnlySideState);
    // the same join with a select fused into it
    expect(joinOf(inner.select($("lv"), $("rv")).node).rowsOnly).toBe(true);
    const counts = r.groupBy($("rk")).select($("rk"), $("rv").count().as("rv"));
    const updating = joinOf(l.join(counts, $("k").isEqual($("rk"))).node);
    expect(updating.rowsOnly).toBe(false);
    expect(updating.right).toBeInstanceOf(JoinSideState);
    expect(joinOf(l.leftOuterJoin(r, $("k").isEqual($("rk"))).node).rowsOnly).toBe(false);
    expect(joinOf(l.join(r, $("k").isEqual($("rk")).and($("lv").isLess($("rv")))).node).rowsOnly).toBe(false);
  });

  it("is not chosen with state TTL", () => {
    const op = new RegularJoinOperator(inner.node as JoinNode, { batch: false, config: new Map([["table.exec.state.ttl", "1 h"]]), clock: () => 0 }, undefined, undefined, true);
    expect(op.rowsOnly).toBe(false);
  });

  for (const backend of ["hashmap", "disk"]) {
    it(`emits exactly the general path's rows, kinds and order (${backend})`, () => {
      try {
        const fast: string[] = [];
        const general: string[] = [];
        const a = make(true, backend, fast);
        const b = make(false, backend, general);
        expect(a.rowsOnly).toBe(true);
        expect(b.rowsOnly).toBe(false);
        for (const [side, row] of STEPS) { a.processElement(side, 0, row); b.processElement(side, 0, row); }
        expect(fast).toEqual(EXPECTED);
        expect(general).toEqual(EXPECTED);
        expect(a.stateRowCount()).toBe(10); // the NULL-keyed rows are not stored
      } finally {
        for (const d of disks.splice(0)) d.dispose();
      }
    });

    it(`restores mid-stream into either kind of side with the output of an uninterrupted run (${backend})`, () => {
      try {
        for (let cut = 0; cut <= STEPS.length; cut++) {
          for (const [from, to] of [[true, true], [true, false], [false, true]] as const) {
            const out: string[] = [];
            const first = make(from, backend, out);
            for (const [side, row] of STEPS.slice(0, cut)) first.processElement(side, 0, row);
            const snapshot = first.snapshotState();
            const before = out.slice();
            // the old operator runs on: the snapshot must be a copy
            for (const [side, row] of STEPS.slice(cut)) first.processElement(side, 0, row);
            const second = make(to, backend, before);
            second.restoreState(snapshot);
            for (const [side, row] of STEPS.slice(cut)) second.processElement(side, 0, row);
            expect(before).toEqual(EXPECTED);
            expect(second.stateRowCount()).toBe(10);
          }
        }
      } finally {
        for (const d of disks.splice(0)) d.dispose();
      }
    });
  }

  it("rejects a retraction (the planner never sends one to an insert-only join)", () => {
    const op = make(true, "hashmap", []);
    expect(() => op.processElement(0, 3, [1, "a"])).toThrow(/insert-only/);
  });
});
