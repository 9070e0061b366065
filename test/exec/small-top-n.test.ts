// The small top-N (rank/small-top-n.ts: an insert-only ROW_NUMBER top-N with a small rankEnd keeps fixed slots
// per partition on the hashmap backend) against the general path of the same operator: seeded random inserts
// (few prices, so many ties; several keys), rankEnd 1..5 and ranges not starting at 1, the occasional
// retraction, and snapshots taken on one path restored on the other (and on the disk backend), each must give
// the exact same output sequence (kind, row, row number, order).
import { describe, expect, it } from "vitest";
import { RankOperator, type RankSpec } from "../../src/exec/operators/rank/rank-operator.js";
import { stateBackendFor } from "../../src/exec/state/backend-options.js";
import type { StateBackend } from "../../src/exec/state/keyed-store.js";
import { DataTypes, EnvironmentSettings, Row, Schema, TableEnvironment } from "../../src/index.js";

/** A seeded generator (xorshift), so a failure repeats. */
function random(seed: number): () => number {
  let x = seed;
  return () => { x ^= x << 13; x ^= x >>> 17; x ^= x << 5; return (x >>> 0) / 4294967296; };
}

const schema = TableEnvironment.create(EnvironmentSettings.inStreamingMode())
  .fromValues(Schema.newBuilder().column("k", DataTypes.INT()).column("price", DataTypes.INT()).column("id", DataTypes.INT()).build(), [Row.of(1, 1, 1)])
  .getResolvedSchema();

const spec = (rankStart: number, rankEnd: number): RankSpec => ({
  input: schema, partitionKeys: [0], orderKeys: [{ column: 1, ascending: false, nullsFirst: false }],
  rankStart, rankEnd, rankNumber: true, appendOnly: true,
});

type Path = "small" | "general" | "disk";

function make(s: RankSpec, path: Path, out: string[], backends: StateBackend[]): RankOperator {
  const backend = stateBackendFor(new Map(Object.entries(path === "disk" ? { "state.backend.type": "disk", "state.backend.cache-size": "2" } : {})));
  backends.push(backend);
  const op = new RankOperator(s, undefined, backend);
  const internals = op as unknown as { small: unknown };
  if (path === "small") expect(internals.small).toBeDefined();
  else internals.small = undefined; // the general path
  op.out = { record: (k, r) => { out.push(`${k}${JSON.stringify(r)}`); }, watermark: () => {}, endInput: () => {} };
  op.open();
  return op;
}

function changes(seed: number, retractions: boolean): [number, number[]][] {
  const next = random(seed);
  const kept: number[][] = [];
  const out: [number, number[]][] = [];
  for (let i = 0; i < 3000; i++) {
    if (retractions && kept.length > 0 && next() < 0.1) {
      out.push([3, kept.splice(Math.floor(next() * kept.length), 1)[0]!]);
      continue;
    }
    if (retractions && next() < 0.02) { out.push([3, [Math.floor(next() * 7), 1, -1 - i]]); continue; } // never seen
    const r = [Math.floor(next() * 7), Math.floor(next() * 5), i];
    kept.push(r);
    out.push([0, r]);
  }
  return out;
}

function run(s: RankSpec, input: [number, number[]][], first: Path, restoreAt = -1, then: Path = first): string[] {
  const out: string[] = [];
  const backends: StateBackend[] = [];
  try {
    let op = make(s, first, out, backends);
    input.forEach(([kind, r], i) => {
      if (i === restoreAt) {
        const snapshot = JSON.parse(JSON.stringify(op.snapshotState())) as unknown;
        op = make(s, then, out, backends);
        op.restoreState(snapshot);
      }
      op.processElement(0, kind, r.slice());
    });
    const parts = (op.snapshotState() as { parts: [unknown[], unknown[][]][] }).parts;
    out.push(JSON.stringify([...parts].sort((a, b) => (a[0][0] as number) - (b[0][0] as number))));
    out.push(`partitions ${op.partitionCount()}`);
  } finally {
    for (const b of backends) b.dispose();
  }
  return out;
}

describe("small top-N: the general top-N's exact output", () => {
  for (const [start, end] of [[1, 1], [1, 2], [1, 3], [1, 4], [1, 5], [2, 3], [3, 5]] as const) {
    it(`ROW_NUMBER ${start}..${end}: random inserts with many ties over 7 keys`, () => {
      for (const seed of [1, 77, 4242]) {
        const input = changes(seed, false);
        const general = run(spec(start, end), input, "general");
        expect(general.length).toBeGreaterThan(20);
        expect(run(spec(start, end), input, "small")).toEqual(general);
      }
    });
    it(`ROW_NUMBER ${start}..${end}: with retractions (emptied partitions and reused ids)`, () => {
      const input = changes(99 + end, true);
      expect(run(spec(start, end), input, "small")).toEqual(run(spec(start, end), input, "general"));
    });
    it(`ROW_NUMBER ${start}..${end}: a snapshot restores across the small, general and disk paths`, () => {
      const input = changes(7 + start, false);
      const whole = run(spec(start, end), input, "general");
      for (const [a, b] of [["small", "small"], ["small", "general"], ["general", "small"], ["small", "disk"], ["disk", "small"]] as const) {
        expect(run(spec(start, end), input, a, 1500, b), `${a} -> ${b}`).toEqual(whole);
      }
    });
  }

  it("a restored partition longer than rankEnd falls back to the general path", () => {
    const s = spec(1, 2);
    const out: string[] = [];
    const backends: StateBackend[] = [];
    const op = make(s, "small", out, backends);
    op.restoreState({ parts: [[[1], [[1, 9, 0], [1, 8, 1], [1, 7, 2]]]] });
    expect((op as unknown as { small: unknown }).small).toBeUndefined();
    op.processElement(0, 0, [1, 9, 3]);
    expect(out).toEqual(["1[1,8,1,2]", "2[1,9,3,2]"]);
    for (const b of backends) b.dispose();
  });
});
