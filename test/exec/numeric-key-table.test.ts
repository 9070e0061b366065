import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { NumericKeyTable } from "../../src/exec/aggregates/numeric-key-table.js";

describe("NumericKeyTable", () => {
  it("finds, adds and deletes integer, fractional, null and NaN keys", () => {
    const t = new NumericKeyTable();
    expect(t.get(1)).toBe(-1);
    t.add(1, 10);
    t.add(-2.5, 11);
    t.add(null, 12);
    t.add(NaN, 13);
    t.add(2 ** 53 - 1, 14);
    expect([t.get(1), t.get(-2.5), t.get(null), t.get(NaN), t.get(2 ** 53 - 1), t.get(2)]).toEqual([10, 11, 12, 13, 14, -1]);
    expect(t.size).toBe(5);
    t.delete(null);
    t.delete(NaN);
    t.delete(1);
    expect([t.get(1), t.get(-2.5), t.get(null), t.get(NaN)]).toEqual([-1, 11, -1, -1]);
    expect(t.size).toBe(2);
  });

  it("treats -0 and 0 as one key (SQL equality)", () => {
    const t = new NumericKeyTable();
    t.add(-0, 3);
    expect(t.get(0)).toBe(3);
    t.delete(0);
    expect(t.get(-0)).toBe(-1);
  });

  it("grows past its initial capacity and shrinks back without losing keys", () => {
    const t = new NumericKeyTable();
    for (let i = 0; i < 10_000; i++) t.add(i * 7919, i);
    for (let i = 0; i < 10_000; i++) expect(t.get(i * 7919)).toBe(i);
    for (let i = 0; i < 9_990; i++) t.delete(i * 7919);
    expect(t.size).toBe(10);
    for (let i = 9_990; i < 10_000; i++) expect(t.get(i * 7919)).toBe(i);
    expect(t.byteLength).toBeLessThan(16 * 12 * 8);
  });

  it("behaves like a Map under random adds and deletes (deletion keeps probe chains intact)", () => {
    // few distinct keys over a small table force long collision chains and wrap-around
    const key = fc.oneof(fc.integer({ min: -40, max: 40 }), fc.constantFrom(0.5, -0.25, 1e300, null, NaN));
    const op = fc.tuple(fc.boolean(), key);
    fc.assert(fc.property(fc.array(op, { maxLength: 400 }), (ops) => {
      const t = new NumericKeyTable();
      const model = new Map<number | null, number>();
      let next = 0;
      for (const [add, k] of ops) {
        if (add) {
          if (t.get(k) === -1) { t.add(k, next); model.set(k, next); next++; }
        } else {
          t.delete(k);
          model.delete(k);
        }
        expect(t.size).toBe(model.size);
      }
      for (const [k, g] of model) expect(t.get(k)).toBe(g);
      const seen: [number | null, number][] = [];
      t.forEach((k, g) => seen.push([k, g]));
      expect(seen.length).toBe(model.size);
      for (const [k, g] of seen) expect(model.get(k)).toBe(g);
    }), { numRuns: 300 });
  });
});
