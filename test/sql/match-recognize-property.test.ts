// Property: the MATCH_RECOGNIZE operator (an NFA) against a brute-force oracle over one partition. Random patterns are
// concatenations of quantified elements — a variable or a group of two — each variable used once, conditions are sets
// of letters. The oracle enumerates every labelling of the rows from each start, keeps those the pattern parses with
// Flink's greedy rule (a greedy loop ends only on a row its body cannot take), takes the earliest complete one as the
// start's match, and replays Flink's emission: matches in start order, a match waiting while an earlier start is alive,
// then AFTER MATCH SKIP discarding starts.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DataTypes, EnvironmentSettings, Row, Schema, TableEnvironment } from "../../src/index.js";

interface Element { readonly vars: readonly number[]; readonly min: number; readonly max: number | undefined; readonly greedy: boolean }
interface Case { readonly elements: readonly Element[]; readonly conds: readonly (readonly string[])[]; readonly word: string; readonly skip: "PAST LAST ROW" | "TO NEXT ROW" }

const NAMES = ["A", "B", "C", "D", "E", "F", "G", "H"];
const LETTERS = ["a", "b", "c"];

const element = fc.record({
  group: fc.boolean(), q: fc.constantFrom("1", "?", "*", "+", "{2}", "{1,2}", "{2,}", "{,2}"), greedy: fc.boolean(),
});
const caseArb: fc.Arbitrary<Case> = fc.record({
  raw: fc.array(element, { minLength: 1, maxLength: 3 }),
  last: fc.record({ q: fc.constantFrom("1", "{2}", "+?", "{1,2}?"), group: fc.boolean() }),
  conds: fc.array(fc.constantFrom(["a"], ["b"], ["a", "b"], ["b", "c"], ["a", "c"], LETTERS), { minLength: 8, maxLength: 8 }),
  word: fc.stringMatching(/^[abc]{3,10}$/),
  skip: fc.constantFrom("PAST LAST ROW" as const, "TO NEXT ROW" as const),
}).map(({ raw, last, conds, word, skip }) => {
  let v = 0;
  const bounds = (q: string): [number, number | undefined] => {
    switch (q.replace("?", "") === "" ? q : q.endsWith("?") && q !== "?" ? q.slice(0, -1) : q) {
      case "1": return [1, 1];
      case "?": return [0, 1];
      case "*": return [0, undefined];
      case "+": return [1, undefined];
      case "{2}": return [2, 2];
      case "{1,2}": return [1, 2];
      case "{2,}": return [2, undefined];
      default: return [0, 2]; // {,2}
    }
  };
  const elements: Element[] = [];
  for (const r of raw) {
    if (v + 2 > 5) break;
    const [min, max] = bounds(r.q);
    elements.push({ vars: r.group ? [v++, v++] : [v++], min, max, greedy: r.greedy || min === max });
  }
  const [min, max] = bounds(last.q);
  elements.push({ vars: last.group ? [v++, v++] : [v++], min, max, greedy: !last.q.endsWith("?") });
  return { elements, conds, word, skip };
});

function quantifier(e: Element): string {
  const q = e.min === 1 && e.max === 1 ? "" : e.min === 0 && e.max === 1 ? "?" : e.min === 0 && e.max === undefined ? "*" : e.min === 1 && e.max === undefined ? "+"
    : e.max === undefined ? `{${e.min},}` : e.min === e.max ? `{${e.min}}` : `{${e.min},${e.max}}`;
  return q === "" ? "" : e.greedy ? q : `${q}?`;
}
const patternText = (c: Case) => c.elements.map((e) => (e.vars.length === 1 ? NAMES[e.vars[0]!]! : `(${e.vars.map((x) => NAMES[x]).join(" ")})`) + quantifier(e)).join(" ");

/** Parses a labelling (variables of rows s..): undefined if it is no prefix of the pattern, else whether it is complete. */
function parse(c: Case, labels: readonly number[], rows: string): { complete: boolean } | undefined {
  const holds = (v: number, at: number) => c.conds[v]!.includes(rows[at]!);
  let i = 0;
  for (let k = 0; k < c.elements.length; k++) {
    const e = c.elements[k]!;
    let count = 0;
    // consume whole iterations of the body while the labels are its variables
    for (;;) {
      if (e.max !== undefined && count === e.max) break;
      if (i >= labels.length) {
        // the labels end at an iteration boundary: complete if this element and every later one may stop here
        return { complete: count >= e.min && c.elements.slice(k + 1).every((x) => x.min === 0) };
      }
      if (labels[i] !== e.vars[0]) break;
      let j = 1;
      while (j < e.vars.length && i + j < labels.length && labels[i + j] === e.vars[j]) j++;
      if (j < e.vars.length) return i + j >= labels.length ? { complete: false } : undefined; // a partial iteration
      i += e.vars.length;
      count++;
    }
    if (count < e.min) return i >= labels.length ? { complete: false } : undefined;
    if (i >= labels.length) {
      // stopped at the end of the labels: complete when the later elements may be empty
      return { complete: c.elements.slice(k + 1).every((x) => x.min === 0) };
    }
    // the element ends before row i: a greedy element that could go on must not be able to take that row
    if (e.greedy && (e.max === undefined || count < e.max) && holds(e.vars[0]!, i)) return undefined;
  }
  return i >= labels.length ? { complete: true } : undefined;
}

/** The oracle's output: [first id, last id] per match. */
function oracle(c: Case): string[] {
  const w = c.word;
  const n = w.length;
  const end: (number | undefined)[] = [];
  const death: number[] = [];
  for (let s = 0; s < n; s++) {
    let prefixes: number[][] = [[]];
    death[s] = n;
    for (let r = s; r < n; r++) {
      const next: number[][] = [];
      let done = false;
      for (const p of prefixes) {
        for (let v = 0; v < c.conds.length; v++) {
          if (!c.conds[v]!.includes(w[r]!)) continue;
          const l = [...p, v];
          const res = parse(c, l, w.slice(s));
          if (res === undefined) continue;
          if (res.complete) done = true;
          else next.push(l);
        }
      }
      if (done) { end[s] = r; break; }
      if (next.length === 0) { death[s] = r; break; }
      prefixes = next;
    }
  }
  const out: string[] = [];
  const pruned = new Set<number>();
  const emitted = new Set<number>();
  for (let r = 0; r < n; r++) {
    for (;;) {
      const pending = [...Array(r + 1).keys()].filter((s) => !pruned.has(s) && !emitted.has(s) && end[s] !== undefined && end[s]! <= r);
      if (pending.length === 0) break;
      const m = pending[0]!;
      const blocked = [...Array(m).keys()].some((s) => !pruned.has(s) && !emitted.has(s) && (end[s] === undefined ? death[s]! > r : end[s]! > r));
      if (blocked) break;
      emitted.add(m);
      out.push(`+I[${m + 1}, ${end[m]! + 1}]`);
      const through = c.skip === "PAST LAST ROW" ? end[m]! : m;
      for (let s = 0; s <= through; s++) pruned.add(s);
    }
  }
  return out;
}

describe("MATCH_RECOGNIZE: NFA = brute-force oracle (property)", () => {
  it("random quantified concatenations, conditions and words give the oracle's matches", async () => {
    await fc.assert(fc.asyncProperty(caseArb, async (c) => {
      const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
      const schema = Schema.newBuilder().column("id", DataTypes.INT()).column("v", DataTypes.STRING()).column("ts", DataTypes.TIMESTAMP(3)).watermark("ts", "ts").build();
      env.createTemporaryView("T", env.fromValues(schema, ...[...c.word].map((ch, i) => Row.of(i + 1, ch, new Date(i * 1000)))) as never);
      const used = c.elements.flatMap((e) => e.vars);
      const define = used.map((v) => `${NAMES[v]} AS v IN (${c.conds[v]!.map((l) => `'${l}'`).join(", ")})`).join(", ");
      const sql = `SELECT * FROM T MATCH_RECOGNIZE (ORDER BY ts MEASURES FIRST(id) AS s, LAST(id) AS e AFTER MATCH SKIP ${c.skip}
        PATTERN (${patternText(c)}) DEFINE ${define}) AS M`;
      const got = await env.executeSql(sql).toChangelog();
      expect({ pattern: patternText(c), got }).toEqual({ pattern: patternText(c), got: oracle({ ...c, conds: c.conds.map((x, v) => (used.includes(v) ? x : [])) }) });
    }), { numRuns: 150 });
  });
});
