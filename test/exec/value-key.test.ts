import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { encodeKeyPart, valueKey } from "../../src/exec/aggregates/value-key.js";
import { Decimal } from "../../src/index.js";

const scalar = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom("", "#1;", "$1:a", "~", "T", ";"), fc.integer({ min: -3, max: 3 }),
  fc.double({ noNaN: true }), fc.boolean(), fc.constant(null));
const value = fc.oneof(scalar, fc.array(scalar, { maxLength: 3 }));

/** Same SQL value (arrays element-wise; numbers by ===, so -0 equals 0). */
const same = (a: unknown, b: unknown): boolean =>
  Array.isArray(a) && Array.isArray(b) ? a.length === b.length && a.every((x, i) => same(x, b[i])) : a === b;

describe("key encoding", () => {
  it("two tuples encode alike exactly when they are equal", () => {
    fc.assert(fc.property(fc.array(value, { maxLength: 3 }), fc.array(value, { maxLength: 3 }), (a, b) => {
      const ea = a.map(encodeKeyPart).join("");
      const eb = b.map(encodeKeyPart).join("");
      expect(ea === eb).toBe(a.length === b.length && a.every((x, i) => same(x, b[i])));
    }), { numRuns: 2000 });
  });

  it("values compare by SQL equality: decimals by value, maps regardless of order, dates by instant", () => {
    expect(valueKey(new Decimal("1.50"))).toBe(valueKey(new Decimal("1.5")));
    expect(valueKey(new Decimal("1.5"))).not.toBe(valueKey(new Decimal("1.51")));
    expect(valueKey(new Map([["a", 1], ["b", 2]]))).toBe(valueKey(new Map([["b", 2], ["a", 1]])));
    expect(valueKey(new Date(5))).toBe(valueKey(new Date(5)));
    expect(valueKey(["1", 1])).not.toBe(valueKey([1, "1"]));
    expect(valueKey([null])).not.toBe(valueKey([NaN]));
    expect(valueKey({ a: 1, b: null })).not.toBe(valueKey({ a: 1, b: "null" }));
  });
});
