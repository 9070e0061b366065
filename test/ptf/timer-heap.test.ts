import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TimerService } from "../../src/exec/operators/ptf/timers.js";

/**
 * The indexed timer heap against a reference that keeps every live timer in a list and sorts it on each
 * poll: same firing order (time, unnamed before named, registration order), same replacement rules.
 */
interface Ref { key: number; name: string | null; time: number; seq: number }

class Reference {
  timers: Ref[] = [];
  seq = 0;
  register(key: number, name: string | null, time: number): void {
    if (name === null) {
      if (this.timers.some((t) => t.key === key && t.name === null && t.time === time)) return;
    } else {
      this.timers = this.timers.filter((t) => !(t.key === key && t.name === name));
    }
    this.timers.push({ key, name, time, seq: this.seq++ });
  }
  clearNamed(key: number, name: string): void { this.timers = this.timers.filter((t) => !(t.key === key && t.name === name)); }
  clearUnnamed(key: number, time: number): void { this.timers = this.timers.filter((t) => !(t.key === key && t.name === null && t.time === time)); }
  clearAll(key: number): void { this.timers = this.timers.filter((t) => t.key !== key); }
  sorted(): Ref[] {
    return [...this.timers].sort((a, b) => a.time - b.time || (a.name === null ? 0 : 1) - (b.name === null ? 0 : 1) || a.seq - b.seq);
  }
  pollDue(wm: number): Ref | undefined {
    const first = this.sorted()[0];
    if (first === undefined || first.time > wm) return undefined;
    this.timers.splice(this.timers.indexOf(first), 1);
    return first;
  }
}

type Op =
  | { op: "register"; key: number; name: string | null; time: number }
  | { op: "clearNamed"; key: number; name: string }
  | { op: "clearUnnamed"; key: number; time: number }
  | { op: "clearAll"; key: number }
  | { op: "fire"; wm: number }
  | { op: "restore" };

const key = fc.integer({ min: 0, max: 4 });
const name = fc.constantFrom("a", "b", "c");
const time = fc.integer({ min: 0, max: 20 });
const ops = fc.array(fc.oneof(
  { weight: 6, arbitrary: fc.record({ op: fc.constant("register" as const), key, name: fc.option(name, { nil: null }), time }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("clearNamed" as const), key, name }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("clearUnnamed" as const), key, time }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("clearAll" as const), key }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("fire" as const), wm: time }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("restore" as const) }) },
), { maxLength: 120 });

const view = (t: { key: unknown; name: string | null; time: number }) => `${String(t.key)}/${t.name ?? "-"}@${t.time}`;

describe("PTF timer service (indexed heap)", () => {
  it("fires, replaces and deletes exactly like a sorted list of live timers", () => {
    fc.assert(fc.property(ops, (program) => {
      const svc = new TimerService();
      const ref = new Reference();
      for (const o of program) {
        switch (o.op) {
          case "register": svc.register(o.key, [o.key], o.name, o.time); ref.register(o.key, o.name, o.time); break;
          case "clearNamed": svc.clearNamed(o.key, o.name); ref.clearNamed(o.key, o.name); break;
          case "clearUnnamed": svc.clearUnnamed(o.key, o.time); ref.clearUnnamed(o.key, o.time); break;
          case "clearAll": svc.clearAll(o.key); ref.clearAll(o.key); break;
          case "fire": {
            const fired: string[] = [];
            const expected: string[] = [];
            for (let t = svc.pollDue(o.wm); t !== undefined; t = svc.pollDue(o.wm)) fired.push(view(t));
            for (let t = ref.pollDue(o.wm); t !== undefined; t = ref.pollDue(o.wm)) expected.push(view(t));
            expect(fired).toEqual(expected);
            break;
          }
          case "restore": {
            const snap = svc.snapshot();
            expect(snap.map(([k, n, t]) => view({ key: k, name: n, time: t }))).toEqual(ref.sorted().map(view));
            svc.restore(snap);
            // a restored checkpoint registers in firing order: the reference's order numbers follow it
            ref.timers = ref.sorted().map((t, i) => ({ ...t, seq: i }));
            break;
          }
        }
        expect(svc.size()).toBe(ref.timers.length);
      }
      expect(svc.snapshot().map(([k, n, t]) => view({ key: k, name: n, time: t }))).toEqual(ref.sorted().map(view));
    }), { numRuns: 300 });
  });

  it("moves a re-registered named timer in place: the heap holds one entry per live timer", () => {
    const svc = new TimerService();
    for (let i = 0; i < 10_000; i++) svc.register(i % 7, [i % 7], "t", 1_000 + i);
    expect(svc.size()).toBe(7);
    const fired: string[] = [];
    for (let t = svc.pollDue(Infinity); t !== undefined; t = svc.pollDue(Infinity)) fired.push(`${String(t.key)}@${t.time}`);
    expect(fired).toEqual(["4@10993", "5@10994", "6@10995", "0@10996", "1@10997", "2@10998", "3@10999"]);
    expect(svc.size()).toBe(0);
  });

  it("the record and input of the last registration are the ones a firing timer carries", () => {
    const svc = new TimerService();
    svc.register("k", ["first"], "t", 50, 0);
    svc.register("k", ["second"], "t", 10, 1);
    const t = svc.pollDue(10)!;
    expect([t.record, t.input, t.time]).toEqual([["second"], 1, 10]);
    expect(svc.pollDue(100)).toBeUndefined();
  });

  it("with the key columns known, a re-registration keeps the record it has while the key values are identical", () => {
    const svc = new TimerService([[0], [1]]);
    const first = ["k", "a", 1];
    svc.register("k", first, "t", 50, 0);
    svc.register("k", ["k", "b", 2], "t", 60, 0);
    const kept = svc.pollDue(60)!;
    // the older record is the same object: a firing timer reads only its key columns, which are identical
    expect(kept.record).toBe(first);
    expect([kept.input, kept.time]).toEqual([0, 60]);
    // another input, or key values that are equal but not identical (-0 and 0), take the new record
    svc.register(0, [0, "x"], "t", 10, 0);
    svc.register(0, [-0, "y"], "t", 11, 0);
    expect(svc.pollDue(11)!.record).toEqual([-0, "y"]);
    svc.register("j", ["j", "x"], "t", 10, 0);
    svc.register("j", ["?", "j"], "t", 12, 1);
    const other = svc.pollDue(12)!;
    expect([other.record, other.input]).toEqual([["?", "j"], 1]);
    expect(svc.pollDue(Infinity)).toBeUndefined();
  });

  it("a re-registration compares its key values with the record kept last, for one and for several key columns", () => {
    const one = new TimerService([[0]]);
    const zero = [0, "a"];
    one.register(0, zero, "t", 10, 0);
    one.register(0, [-0, "b"], "t", 11, 0); // -0 is not identical to 0: the new record
    const back = [0, "c"];
    one.register(0, back, "t", 12, 0); // 0 against the kept -0: the new record again
    one.register(0, [0, "d"], "t", 13, 0); // 0 against the kept 0: kept
    expect(one.pollDue(13)!.record).toBe(back);
    const two = new TimerService([[0, 2]]);
    const firstAb = ["a", 1, "b"];
    two.register("a|b", firstAb, "t", 10, 0);
    two.register("a|b", ["a", 2, "b"], "t", 11, 0);
    expect(two.pollDue(11)!.record).toBe(firstAb);
    const d1 = new Date(5);
    two.register("a|d", ["a", 1, d1], "t", 10, 0);
    const d2 = ["a", 2, new Date(5)];
    two.register("a|d", d2, "t", 11, 0); // an equal Date is another object: the new record
    expect(two.pollDue(11)!.record).toBe(d2);
  });
});
