import { checkExpressionDepth } from "../expressions/depth.js";
import type { ExprNode } from "../expressions/node.js";
import { parseSqlExpressionAt } from "../expressions/sql-expression.js";
import type { TokenStream } from "../types/sql-lexer.js";
import type { MatchRecognizeClause, PatternAst } from "./match-recognize-ast.js";

/** The characters a PATTERN clause needs beyond the expression grammar's (the statement lexer reads them). */
export const PATTERN_OPERATORS = ["{", "}", "?", "|"] as const;

const NOT_SUPPORTED = "is not supported by tablestream's SQL (docs/sql.md lists what is)";

/**
 * Parses `MATCH_RECOGNIZE ( [PARTITION BY e, ...] ORDER BY e [ASC|DESC], ... [MEASURES e [AS] name, ...]
 * [ONE ROW PER MATCH] [AFTER MATCH SKIP {PAST LAST ROW | TO NEXT ROW | TO FIRST v | TO LAST v}]
 * PATTERN ( pattern ) [WITHIN interval] DEFINE v AS condition, ... )`, the current token being MATCH_RECOGNIZE.
 * Pattern grammar: alternation `|` of concatenations of primaries (a variable or a parenthesized pattern),
 * each with an optional quantifier `* + ? {n} {n,} {,m} {n,m}` and a reluctant `?` after it.
 */
export function parseMatchRecognize(ts: TokenStream): MatchRecognizeClause {
  const at = ts.next(); // MATCH_RECOGNIZE
  ts.expectOp("(");
  const expr = (): ExprNode => {
    const e = parseSqlExpressionAt(ts, { aggregates: true, qualified: true });
    checkExpressionDepth(e);
    return e;
  };
  const partitionBy: { expr: ExprNode; pos: number }[] = [];
  if (ts.isKeyword("PARTITION")) {
    ts.next();
    ts.expectKeyword("BY");
    do partitionBy.push({ pos: ts.peek().pos, expr: expr() }); while (ts.acceptOp(","));
  }
  const orderBy: MatchRecognizeClause["orderBy"][number][] = [];
  let orderPos: number | undefined;
  if (ts.isKeyword("ORDER")) {
    orderPos = ts.next().pos;
    ts.expectKeyword("BY");
    do {
      const pos = ts.peek().pos;
      const e = expr();
      let ascending = true;
      if (ts.acceptKeyword("DESC")) ascending = false;
      else ts.acceptKeyword("ASC");
      let nullsFirst: boolean | undefined;
      if (ts.acceptKeyword("NULLS")) {
        if (ts.acceptKeyword("FIRST")) nullsFirst = true;
        else { ts.expectKeyword("LAST"); nullsFirst = false; }
      }
      orderBy.push({ expr: e, ascending, nullsFirst, pos });
    } while (ts.acceptOp(","));
  }
  const measures: MatchRecognizeClause["measures"][number][] = [];
  if (ts.acceptKeyword("MEASURES")) {
    do {
      const pos = ts.peek().pos;
      const e = expr();
      let alias: string | undefined;
      if (ts.acceptKeyword("AS")) alias = ts.identifier("a measure name");
      else if (ts.peek().kind === "quoted" || (ts.peek().kind === "ident" && !CLAUSE_KEYWORDS.has(ts.peek().text.toUpperCase()))) alias = ts.identifier("a measure name");
      measures.push({ expr: e, alias, pos });
    } while (ts.acceptOp(","));
  }
  if (ts.isKeyword("ALL") && ts.isKeyword("ROWS", 1)) ts.raise(`ALL ROWS PER MATCH ${NOT_SUPPORTED}; write ONE ROW PER MATCH`, ts.peek());
  if (ts.acceptKeyword("ONE")) {
    ts.expectKeyword("ROW");
    ts.expectKeyword("PER");
    ts.expectKeyword("MATCH");
  }
  let after: MatchRecognizeClause["after"] = { kind: "PAST_LAST_ROW", pos: ts.peek().pos };
  if (ts.isKeyword("AFTER")) {
    const pos = ts.next().pos;
    ts.expectKeyword("MATCH");
    ts.expectKeyword("SKIP");
    if (ts.acceptKeyword("PAST")) {
      ts.expectKeyword("LAST");
      ts.expectKeyword("ROW");
      after = { kind: "PAST_LAST_ROW", pos };
    } else {
      ts.expectKeyword("TO");
      if (ts.acceptKeyword("NEXT")) { ts.expectKeyword("ROW"); after = { kind: "TO_NEXT_ROW", pos }; }
      else if (ts.acceptKeyword("FIRST")) after = { kind: "TO_FIRST", variable: ts.identifier("a pattern variable"), pos };
      else if (ts.acceptKeyword("LAST")) after = { kind: "TO_LAST", variable: ts.identifier("a pattern variable"), pos };
      else ts.fail("expected NEXT ROW, FIRST variable or LAST variable after SKIP TO");
    }
  }
  if (!ts.isKeyword("PATTERN")) ts.fail("expected PATTERN (the clauses of MATCH_RECOGNIZE go PARTITION BY, ORDER BY, MEASURES, ONE ROW PER MATCH, AFTER MATCH SKIP, PATTERN, WITHIN, DEFINE)");
  const patternPos = ts.next().pos;
  ts.expectOp("(");
  const pattern = alternation(ts);
  ts.expectOp(")");
  let within: MatchRecognizeClause["within"];
  if (ts.isKeyword("WITHIN")) {
    ts.next();
    within = { pos: ts.peek().pos, expr: expr() };
  }
  if (ts.isKeyword("SUBSET")) ts.raise(`SUBSET ${NOT_SUPPORTED}`, ts.peek());
  ts.expectKeyword("DEFINE");
  const define: { variable: string; expr: ExprNode; pos: number }[] = [];
  do {
    const pos = ts.peek().pos;
    const variable = ts.identifier("a pattern variable");
    ts.expectKeyword("AS");
    define.push({ variable, expr: expr(), pos });
  } while (ts.acceptOp(","));
  ts.expectOp(")");
  return { pos: at.pos, partitionBy, orderBy, orderPos, measures, after, pattern, patternPos, within, define };
}

/** Words that end a measure: never read as its alias. */
const CLAUSE_KEYWORDS = new Set(["ONE", "ALL", "AFTER", "PATTERN", "DEFINE", "WITHIN", "SUBSET"]);

function alternation(ts: TokenStream): PatternAst {
  const terms = [concatenation(ts)];
  while (ts.acceptOp("|")) terms.push(concatenation(ts));
  return terms.length === 1 ? terms[0]! : { kind: "alt", terms };
}

function concatenation(ts: TokenStream): PatternAst {
  const terms: PatternAst[] = [];
  while (!ts.isOp(")") && !ts.isOp("|") && !ts.atEnd()) terms.push(quantified(ts));
  if (terms.length === 0) ts.fail("expected a pattern variable");
  return terms.length === 1 ? terms[0]! : { kind: "seq", terms };
}

function quantified(ts: TokenStream): PatternAst {
  let term = primary(ts);
  for (;;) {
    const t = ts.peek();
    let min: number;
    let max: number | undefined;
    if (ts.acceptOp("*")) { min = 0; max = undefined; }
    else if (ts.acceptOp("+")) { min = 1; max = undefined; }
    else if (ts.acceptOp("?")) { min = 0; max = 1; }
    else if (ts.acceptOp("{")) {
      if (ts.isOp("-")) ts.raise(`{- ... -} (exclusion) ${NOT_SUPPORTED}`, t);
      min = ts.isOp(",") ? 0 : ts.integer("a repetition count");
      max = min;
      if (ts.acceptOp(",")) max = ts.isOp("}") ? undefined : ts.integer("a maximum repetition count");
      ts.expectOp("}");
      if (max !== undefined && max < min) ts.raise(`the quantifier {${min},${max}} has a maximum below its minimum`, t);
      if (max === 0) ts.raise("the quantifier {0} matches nothing; a quantifier's maximum must be at least 1", t);
    } else return term;
    const greedy = !ts.acceptOp("?");
    if (term.kind === "quant") ts.raise("a quantifier cannot follow another quantifier; put the quantified term in parentheses", t);
    term = { kind: "quant", term, min, max, greedy, pos: t.pos };
  }
}

function primary(ts: TokenStream): PatternAst {
  const t = ts.peek();
  if (ts.acceptOp("(")) {
    const p = alternation(ts);
    ts.expectOp(")");
    return p;
  }
  if (ts.isKeyword("PERMUTE") && ts.isOp("(", 1)) ts.raise(`PERMUTE ${NOT_SUPPORTED}; write the orders as an alternation (A B | B A)`, t);
  if (ts.isOp("^") || ts.isOp("$")) ts.raise(`anchors (^, $) ${NOT_SUPPORTED}`, t);
  if (t.kind !== "ident" && t.kind !== "quoted") ts.fail("expected a pattern variable");
  ts.next();
  return { kind: "var", name: t.text, pos: t.pos };
}
