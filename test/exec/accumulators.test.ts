import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { RowCounter } from "../../src/exec/aggregates/accumulator.js";
import { createAccumulator } from "../../src/exec/aggregates/builtin.js";
import { DataTypes } from "../../src/index.js";

/**
 * Accumulators that share the operator's row count must not care whether the operator updates it before or
 * after calling accumulate/retract (the group aggregate does it before, the window AggregateSet after).
 */
describe("built-in accumulators with a shared row count", () => {
  const INT = DataTypes.INT().notNull();
  const cases: [string, boolean][] = [["COUNT", false], ["SUM", false], ["SUM0", false], ["AVG", false], ["MIN", false], ["MAX", false],
    ["MIN", true], ["MAX", true], ["COUNT", true], ["SUM", true]];

  for (const [fn, distinct] of cases) {
    it(`${fn}${distinct ? " DISTINCT" : ""} gives the same values either way`, () => {
      fc.assert(fc.property(fc.array(fc.tuple(fc.boolean(), fc.integer({ min: -3, max: 3 })), { maxLength: 30 }), (ops) => {
        const run = (countFirst: boolean) => {
          const rows: RowCounter = { counts: new Float64Array(16) };
          const acc = createAccumulator(fn, INT, fn.startsWith("COUNT") ? DataTypes.BIGINT().notNull() : DataTypes.INT(), distinct, true, rows);
          acc.grow(16);
          acc.reset(0);
          const present: number[] = [];
          const values: unknown[] = [];
          for (const [add, v] of ops) {
            const x = add || present.length === 0 ? v : present[0]!;
            const delta = add || present.length === 0 ? 1 : -1;
            if (delta > 0) present.push(x); else present.shift();
            if (countFirst) rows.counts[0]! += delta;
            if (delta > 0) acc.accumulate(0, x); else acc.retract(0, x);
            if (!countFirst) rows.counts[0]! += delta;
            values.push(rows.counts[0] === 0 ? "empty" : acc.value(0));
          }
          return values;
        };
        expect(run(false)).toEqual(run(true));
      }), { numRuns: 200 });
    });
  }
});
