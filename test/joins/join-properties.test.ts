import fc from "fast-check";
import { expect, it } from "vitest";
import { backendSuite } from "../support/state-backends.js";
import { $, DataTypes, Row, RowKind, type Table } from "../../src/index.js";
import type { JoinType } from "../../src/plan/nodes/join.js";
import { batch, materialize, sorted, streaming } from "./fixtures.js";

/**
 * Properties of the regular joins over random changelogs: inserts and retractions of rows inserted before
 * (-D, or -U followed by +U). For every join type and with or without a residual:
 * - the streaming changelog is well-formed: every -U/-D retracts a row that was emitted before and is still there;
 * - its materialized result equals the batch result (a hash join over the final inputs).
 */
const L = DataTypes.ROW(DataTypes.FIELD("k", DataTypes.INT()), DataTypes.FIELD("lv", DataTypes.INT()));
const R = DataTypes.ROW(DataTypes.FIELD("rk", DataTypes.INT()), DataTypes.FIELD("rv", DataTypes.INT()));

type Rec = { kind: RowKind; values: [number | null, number] };

/** A valid changelog: each retraction removes a row that is present at that point. */
const changelog = fc.array(fc.tuple(fc.nat(9), fc.option(fc.integer({ min: 0, max: 2 }), { freq: 5 }), fc.integer({ min: 0, max: 3 })), { maxLength: 25 })
  .map((steps) => {
    const present: [number | null, number][] = [];
    const out: Rec[] = [];
    for (const [op, k, v] of steps) {
      if (op < 6 || present.length === 0) {
        present.push([k, v]);
        out.push({ kind: RowKind.INSERT, values: [k, v] });
      } else {
        const [row] = present.splice(op % present.length, 1);
        if (op === 9) {
          out.push({ kind: RowKind.UPDATE_BEFORE, values: row! });
          const next: [number | null, number] = [row![0], (row![1] + 1) % 4];
          present.push(next);
          out.push({ kind: RowKind.UPDATE_AFTER, values: next });
        } else out.push({ kind: RowKind.DELETE, values: row! });
      }
    }
    return out;
  });

const TYPES: JoinType[] = ["INNER", "LEFT", "RIGHT", "FULL"];

function query(env: ReturnType<typeof streaming>, type: JoinType, residual: boolean, left: Rec[], right: Rec[]): Table<object> {
  const l = env.fromValues(L, left.map((r) => Row.ofKind(r.kind, ...r.values)));
  const r = env.fromValues(R, right.map((x) => Row.ofKind(x.kind, ...x.values)));
  const key = $("k").isEqual($("rk"));
  const both = key.and($("lv").isLessOrEqual($("rv")));
  switch (type) {
    case "INNER": return residual ? l.join(r, both) : l.join(r, key);
    case "LEFT": return residual ? l.leftOuterJoin(r, both) : l.leftOuterJoin(r, key);
    case "RIGHT": return residual ? l.rightOuterJoin(r, both) : l.rightOuterJoin(r, key);
    case "FULL": return residual ? l.fullOuterJoin(r, both) : l.fullOuterJoin(r, key);
  }
}

// streaming on both state backends (the disk one with a cache of two buckets), batch as the reference
backendSuite("join properties", () => {
  for (const type of TYPES) {
    for (const residual of [false, true]) {
      it(`${type}${residual ? " with a residual" : ""}: streaming materialized = batch; the changelog is well-formed`, async () => {
        await fc.assert(fc.asyncProperty(changelog, changelog, async (left, right) => {
          const stream = await query(streaming(), type, residual, left, right).execute().toChangelog();
          const final = materialize(stream); // throws on a retraction of a row that is not there
          const bat = await query(batch(), type, residual, left, right).execute().toChangelog();
          expect(bat.every((r) => r.startsWith("+I"))).toBe(true);
          expect(final).toEqual(sorted(bat));
        }), { numRuns: 60 });
      });
    }
  }

  it("a cross join (no keys) of random changelogs: streaming materialized = batch", async () => {
    await fc.assert(fc.asyncProperty(changelog, changelog, async (left, right) => {
      const run = async (env: ReturnType<typeof streaming>) => {
        const l = env.fromValues(L, left.map((r) => Row.ofKind(r.kind, ...r.values)));
        const r = env.fromValues(R, right.map((x) => Row.ofKind(x.kind, ...x.values)));
        return l.join(r).execute().toChangelog();
      };
      expect(materialize(await run(streaming()))).toEqual(sorted(await run(batch())));
    }), { numRuns: 40 });
  });
});
