import type { PatternTerm } from "../../../plan/nodes/match-pattern.js";

/**
 * The NFA a row pattern compiles to (Thompson's construction, as Flink's NFACompiler builds CEP states):
 * - `take` consumes the row into `variable` when its DEFINE holds, then goes on at `next` (Flink's TAKE edge);
 * - `split` goes on at `first` and `second` without consuming (PROCEED edges), in preference order. The split of a
 *   greedy quantifier prefers its body; its exit is `blocked` on a row its body takes (Flink adds NOT(take
 *   condition) to a greedy loop's proceed edge), so a greedy loop only ends on a row it cannot take. A reluctant
 *   split prefers the exit and both branches stay alive; the first branch that completes a match wins;
 * - `final` is the accepting state.
 * MATCH_RECOGNIZE is strictly contiguous (Flink's `consecutive()`), so there are no IGNORE edges. Bounded
 * quantifiers are unrolled: `T{2,4}` is `T T (T T?)?`, `T{2,}` is `T T+`.
 */
export type NfaState =
  | { readonly kind: "take"; readonly variable: number; next: number }
  | { readonly kind: "split"; first: number; second: number; readonly blocked: boolean }
  | { readonly kind: "final" };

export interface Nfa {
  readonly states: readonly NfaState[];
  readonly start: number;
  /** Per state: whether it reaches `final` without consuming a row (a match is complete there). */
  readonly completes: readonly boolean[];
}

/** A fragment under construction: its entry state and the dangling exits to patch. */
interface Fragment {
  readonly entry: number;
  readonly exits: ((target: number) => void)[];
}

export function compileNfa(pattern: PatternTerm): Nfa {
  const states: NfaState[] = [];
  const add = (s: NfaState): number => states.push(s) - 1;

  const build = (t: PatternTerm): Fragment => {
    switch (t.kind) {
      case "var": {
        const s = { kind: "take" as const, variable: t.variable, next: -1 };
        const i = add(s);
        return { entry: i, exits: [(x) => { s.next = x; }] };
      }
      case "seq": {
        const parts = t.terms.map(build);
        for (let i = 0; i + 1 < parts.length; i++) for (const e of parts[i]!.exits) e(parts[i + 1]!.entry);
        return { entry: parts[0]!.entry, exits: parts[parts.length - 1]!.exits };
      }
      case "alt": {
        let f = build(t.terms[t.terms.length - 1]!);
        for (let i = t.terms.length - 2; i >= 0; i--) {
          const left = build(t.terms[i]!);
          const entry = add({ kind: "split", first: left.entry, second: f.entry, blocked: false });
          f = { entry, exits: [...left.exits, ...f.exits] };
        }
        return f;
      }
      case "quant": return quantified(t.term, t.min, t.max, t.greedy);
    }
  };

  /** `T?` (greedy: prefer T, skip it only on a row T cannot take), `T*`, and their reluctant forms. */
  const optional = (body: Fragment, greedy: boolean, loop: boolean): Fragment => {
    const s = { kind: "split" as const, first: -1, second: -1, blocked: greedy };
    const i = add(s);
    const exits: ((x: number) => void)[] = [];
    if (greedy) { s.first = body.entry; exits.push((x) => { s.second = x; }); }
    else { s.second = body.entry; exits.push((x) => { s.first = x; }); }
    if (loop) for (const e of body.exits) e(i);
    else exits.push(...body.exits);
    return { entry: i, exits };
  };

  const quantified = (term: PatternTerm, min: number, max: number | undefined, greedy: boolean): Fragment => {
    const parts: Fragment[] = [];
    const required = max === undefined ? Math.max(min - 1, 0) : min;
    for (let i = 0; i < required; i++) parts.push(build(term));
    if (max === undefined) {
      if (min === 0) parts.push(optional(build(term), greedy, true));
      else {
        // T+: T then T*
        const once = build(term);
        const more = optional(build(term), greedy, true);
        for (const e of once.exits) e(more.entry);
        parts.push({ entry: once.entry, exits: more.exits });
      }
    } else {
      // (T (T ...)?)? nested, innermost first
      let tail: Fragment | undefined;
      for (let i = 0; i < max - min; i++) {
        const body = build(term);
        if (tail !== undefined) {
          for (const e of body.exits) e(tail.entry);
          tail = optional({ entry: body.entry, exits: tail.exits }, greedy, false);
        } else tail = optional(body, greedy, false);
      }
      if (tail !== undefined) parts.push(tail);
    }
    for (let i = 0; i + 1 < parts.length; i++) for (const e of parts[i]!.exits) e(parts[i + 1]!.entry);
    return { entry: parts[0]!.entry, exits: parts[parts.length - 1]!.exits };
  };

  const root = build(pattern);
  const fin = add({ kind: "final" });
  for (const e of root.exits) e(fin);
  const completes = states.map((_, i) => reachesFinal(states, i));
  return { states, start: root.entry, completes };
}

/** Whether `from` reaches `final` through splits only (no row consumed). */
function reachesFinal(states: readonly NfaState[], from: number): boolean {
  const seen = new Set<number>();
  const stack = [from];
  while (stack.length > 0) {
    const i = stack.pop()!;
    if (seen.has(i)) continue;
    seen.add(i);
    const s = states[i]!;
    if (s.kind === "final") return true;
    if (s.kind === "split") stack.push(s.first, s.second);
  }
  return false;
}

/**
 * Whether a greedy split's exit lies on a path to `final` that consumes no further row: a pattern ending in a
 * greedy quantifier (`A B*`, `A B?`, `A B{1,3}`), which Flink rejects ("Greedy quantifiers are not allowed as the
 * last element of a Pattern yet"): the match could only be decided by a row that never belongs to it.
 */
export function endsGreedy(nfa: Nfa): boolean {
  return nfa.states.some((s) => s.kind === "split" && s.blocked && nfa.completes[s.second] === true);
}
