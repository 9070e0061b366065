import { ValidationError } from "../../types/errors.js";

/**
 * The row pattern of a MATCH_RECOGNIZE (its PATTERN clause) as a tree: pattern variables (by their index in
 * the node's `variables`), concatenation, alternation and quantified terms. `{n}`, `?`, `*`, `+` are all
 * quantifiers with bounds (`max` undefined = unbounded); `greedy` false is the reluctant form (`A+?`).
 */
export type PatternTerm =
  | { readonly kind: "var"; readonly variable: number }
  | { readonly kind: "seq"; readonly terms: readonly PatternTerm[] }
  | { readonly kind: "alt"; readonly terms: readonly PatternTerm[] }
  | { readonly kind: "quant"; readonly term: PatternTerm; readonly min: number; readonly max: number | undefined; readonly greedy: boolean };

/** `AFTER MATCH SKIP ...`: where the next match may start (Flink's AfterMatchSkipStrategy). */
export type AfterMatch =
  | { readonly kind: "PAST_LAST_ROW" }
  | { readonly kind: "TO_NEXT_ROW" }
  | { readonly kind: "TO_FIRST"; readonly variable: number }
  | { readonly kind: "TO_LAST"; readonly variable: number };

/** The pattern in Flink's SQL spelling (explain, toSql): `A B+? (C | D){2,}`. */
export function patternToString(t: PatternTerm, names: readonly string[]): string {
  switch (t.kind) {
    case "var": return quoteIfNeeded(names[t.variable]!);
    case "seq": return t.terms.map((x) => (x.kind === "alt" ? `(${patternToString(x, names)})` : patternToString(x, names))).join(" ");
    case "alt": return t.terms.map((x) => patternToString(x, names)).join(" | ");
    case "quant": {
      const inner = t.term.kind === "var" ? patternToString(t.term, names) : `(${patternToString(t.term, names)})`;
      const q = t.min === 0 && t.max === undefined ? "*" : t.min === 1 && t.max === undefined ? "+" : t.min === 0 && t.max === 1 ? "?"
        : t.max === undefined ? `{${t.min},}` : t.min === t.max ? `{${t.min}}` : `{${t.min},${t.max}}`;
      return `${inner}${q}${t.greedy ? "" : "?"}`;
    }
  }
}

function quoteIfNeeded(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : `\`${name.replace(/`/g, "``")}\``;
}

/** Checks a pattern's shape (bounds, variable indices) against `variableCount`; returns it frozen. */
export function checkPattern(t: PatternTerm, variableCount: number): PatternTerm {
  switch (t.kind) {
    case "var":
      if (!Number.isInteger(t.variable) || t.variable < 0 || t.variable >= variableCount) throw new ValidationError(`MATCH_RECOGNIZE: pattern variable #${t.variable} is not declared`);
      return Object.freeze({ ...t });
    case "seq": case "alt":
      if (t.terms.length === 0) throw new ValidationError(`MATCH_RECOGNIZE: an empty ${t.kind === "seq" ? "concatenation" : "alternation"} in PATTERN`);
      return Object.freeze({ kind: t.kind, terms: Object.freeze(t.terms.map((x) => checkPattern(x, variableCount))) });
    case "quant":
      if (!Number.isInteger(t.min) || t.min < 0 || (t.max !== undefined && (!Number.isInteger(t.max) || t.max < t.min || t.max === 0))) {
        throw new ValidationError(`MATCH_RECOGNIZE: invalid quantifier bounds {${t.min},${t.max ?? ""}} in PATTERN`);
      }
      return Object.freeze({ ...t, term: checkPattern(t.term, variableCount) });
  }
}
