import { BUILTIN_AGGREGATES } from "../expressions/aggregates.js";
import { type ExprNode, col, nodeToString } from "../expressions/node.js";
import { makeAggCall, typeOf } from "../plan/builders.js";
import type { PlanContext } from "../plan/builders.js";
import { type MatchNavigation, matchRecognizeNode } from "../plan/nodes/match-recognize.js";
import type { AfterMatch, PatternTerm } from "../plan/nodes/match-pattern.js";
import type { PlanNode } from "../plan/nodes.js";
import type { SortKey } from "../plan/nodes/sort.js";
import type { AggCall } from "../plan/nodes/agg-call.js";
import { compileNfa, endsGreedy } from "../exec/operators/match/nfa.js";
import { evaluateConstant } from "../ptf/constant.js";
import { didYouMean } from "../sql/closest-name.js";
import type { MatchRecognizeClause, PatternAst } from "../sql/match-recognize-ast.js";
import { ValidationError } from "../types/errors.js";
import { type Column, ResolvedSchema } from "../types/resolved-schema.js";

/** Runs `f` and re-raises its TableError at a statement position (the binder's `at`). */
export type At = <T>(pos: number, f: () => T) => T;

type Qualified = { kind: "Column"; name: string; qualifier?: string; pos?: number };

/**
 * Binds a MATCH_RECOGNIZE clause over `input` into a MatchRecognize plan node (docs/sql.md, "MATCH_RECOGNIZE").
 * Column references follow Flink: in DEFINE of `v`, `price` and `v.price` are the row being tested, `w.price` the
 * last row mapped to `w` so far; in MEASURES, `price` is the match's last row and `w.price` the last row mapped to
 * `w`. LAST / FIRST / PREV / aggregates over a variable and MATCH_ROWTIME() become navigations (plan node).
 */
export function bindMatchRecognize(input: PlanNode, c: MatchRecognizeClause, pc: PlanContext, at: At): PlanNode {
  const schema = input.schema;
  // pattern variables in order of appearance
  const variables: string[] = [];
  const collect = (p: PatternAst): void => {
    if (p.kind === "var") { if (!variables.includes(p.name)) variables.push(p.name); }
    else if (p.kind === "quant") collect(p.term);
    else p.terms.forEach(collect);
  };
  collect(c.pattern);
  const pattern = toTerm(c.pattern, variables);
  at(c.patternPos, () => {
    const nfa = compileNfa(pattern);
    if (nfa.completes[nfa.start]) throw new ValidationError(`the pattern (${patternText(c.pattern)}) matches an empty sequence of rows; a match must have at least one row`);
    if (endsGreedy(nfa)) throw new ValidationError("Greedy quantifiers are not allowed as the last element of a Pattern yet. Finish your pattern with either a simple variable or reluctant quantifier.");
  });
  const variableIndex = (name: string, pos: number, where: string): number => {
    const i = variables.indexOf(name);
    if (i < 0) at(pos, () => { throw new ValidationError(`unknown pattern variable '${name}' in ${where}; the pattern's variables are [${variables.join(", ")}]${didYouMean(name, variables)}`); });
    return i;
  };
  const column = (name: string, pos: number, where: string): number => {
    if (!schema.has(name)) at(pos, () => { throw new ValidationError(`unknown column '${name}' in ${where}; available columns: [${schema.names.join(", ")}]${didYouMean(name, schema.names)}`); });
    return schema.indexOf(name);
  };

  // PARTITION BY / ORDER BY: columns of the input; the first ORDER BY key an ascending time attribute
  const partitionKeys = c.partitionBy.map((p) => {
    if (p.expr.kind !== "Column" || (p.expr as Qualified).qualifier !== undefined) at(p.pos, () => { throw new ValidationError(`PARTITION BY of MATCH_RECOGNIZE takes columns of the input, got ${nodeToString(p.expr)}`); });
    return column((p.expr as Qualified).name, p.pos, "PARTITION BY");
  });
  if (c.orderBy.length === 0) at(c.pos, () => { throw new ValidationError("You must specify either rowtime or proctime for order by."); });
  const orderKeys: SortKey[] = c.orderBy.map((o) => {
    if (o.expr.kind !== "Column" || (o.expr as Qualified).qualifier !== undefined) at(o.pos, () => { throw new ValidationError(`ORDER BY of MATCH_RECOGNIZE takes columns of the input, got ${nodeToString(o.expr)}`); });
    const k = column((o.expr as Qualified).name, o.pos, "ORDER BY");
    return { column: k, ascending: o.ascending, nullsFirst: o.nullsFirst ?? o.ascending };
  });
  const first = c.orderBy[0]!;
  const time = schema.columns[orderKeys[0]!.column]!.type.timeAttribute;
  if (time === undefined) at(first.pos, () => { throw new ValidationError(`You must specify either rowtime or proctime for order by as the first one; '${schema.names[orderKeys[0]!.column]}' is ${schema.columns[orderKeys[0]!.column]!.type} (declare it with WATERMARK FOR to make it a rowtime attribute)`); });
  if (!first.ascending) at(first.pos, () => { throw new ValidationError("Primary sort order of a streaming table must be ascending on time."); });

  // navigations shared by DEFINE and MEASURES, one `$nav<i>` column each
  const navigations: MatchNavigation[] = [];
  const navTypes: Column[] = [];
  const navKeys: string[] = [];
  const nav = (n: MatchNavigation, type: Column["type"]): ExprNode => {
    // an aggregate is known by its function and arguments (its name and types follow from them)
    const key = JSON.stringify(n, (k, v) => (k === "call" ? { fn: (v as AggCall).fn, args: (v as AggCall).args } : v));
    let i = navKeys.indexOf(key);
    if (i < 0) {
      i = navigations.length;
      navigations.push(n);
      navKeys.push(key);
      navTypes.push({ name: `$nav${i}`, type });
    }
    return col(`$nav${i}`);
  };
  /** `v.col` or `col` as [variable (-1: none), column]. */
  const ref = (e: ExprNode, pos: number, where: string): [number, number] => {
    if (e.kind !== "Column") at(pos, () => { throw new ValidationError(`${where} expects a column reference such as A.price, got ${nodeToString(e)}`); });
    const q = e as Qualified;
    const v = q.qualifier === undefined ? -1 : variableIndex(q.qualifier, q.pos ?? pos, where);
    return [v, column(q.name, q.pos ?? pos, where)];
  };
  const offsetOf = (e: ExprNode | undefined, pos: number, where: string, dflt: number): number => {
    if (e === undefined) return dflt;
    if (e.kind !== "Literal" || typeof e.value !== "number" || !Number.isInteger(e.value) || e.value < 0) {
      return at(pos, () => { throw new ValidationError(`the offset of ${where} must be a non-negative integer literal, got ${nodeToString(e)}`); });
    }
    return e.value;
  };

  /**
   * The one pattern variable an aggregate's arguments read (-1: every row, for unqualified columns and COUNT(*));
   * Flink's error for columns of two variables.
   */
  const aggregatedVariable = (e: ExprNode & { kind: "Agg" }, pos: number, where: string): number => {
    let found: number | undefined;
    const walk = (n: ExprNode): void => {
      switch (n.kind) {
        case "Column": {
          const q = n as Qualified;
          const v = q.qualifier === undefined ? -1 : variableIndex(q.qualifier, q.pos ?? pos, where);
          if (found !== undefined && found !== v) at(pos, () => { throw new ValidationError(`Aggregation must be applied to a single pattern variable. Malformed expression: ${aggregateText(e)}`); });
          found = v;
          break;
        }
        case "Call": {
          const fn = n.udf === undefined ? n.fn.toUpperCase() : "";
          if (NAVIGATIONS.has(fn)) at(pos, () => { throw new ValidationError(`${where}: ${fn}(...) cannot be used inside an aggregate, got ${aggregateText(e)}`); });
          n.args.forEach(walk);
          break;
        }
        case "Agg": at(pos, () => { throw new ValidationError(`nested aggregates are not allowed: ${aggregateText(e)}`); }); break;
        case "Alias": case "Sort": case "Argument": walk(n.expr); break;
        default:
      }
    };
    e.args.forEach(walk);
    return found ?? -1;
  };
  /** An aggregate argument over the input's columns: `A.price * A.qty` -> `price * qty`. */
  const unqualify = (e: ExprNode, pos: number, where: string): ExprNode => {
    switch (e.kind) {
      case "Column": {
        const q = e as Qualified;
        column(q.name, q.pos ?? pos, where);
        return col(q.name);
      }
      case "Call": return { ...e, args: e.args.map((a) => unqualify(a, pos, where)) };
      case "Alias": case "Sort": case "Argument": return { ...e, expr: unqualify(e.expr, pos, where) };
      default: return e;
    }
  };

  /** DEFINE of `defining` (a variable index) or MEASURES (undefined). */
  const rewrite = (e: ExprNode, pos: number, defining: number | undefined): ExprNode => {
    const where = defining === undefined ? "MEASURES" : `DEFINE ${variables[defining]}`;
    switch (e.kind) {
      case "Column": {
        const q = e as Qualified;
        const k = column(q.name, q.pos ?? pos, where);
        if (q.qualifier === undefined) return col(q.name);
        const v = variableIndex(q.qualifier, q.pos ?? pos, where);
        if (v === defining) return col(q.name);
        return nav({ kind: "last", variable: v, column: k, offset: 0 }, schema.columns[k]!.type.nullable());
      }
      case "Alias": return { ...e, expr: rewrite(e.expr, pos, defining) };
      case "Agg": {
        // a user aggregate arrives resolved (pc.prepare below): its function object rides on the node, as in a SELECT
        const fn = e.udf === undefined ? e.fn.toUpperCase() : e.fn;
        if (e.udf === undefined && !(BUILTIN_AGGREGATES as readonly string[]).includes(fn)) return at(pos, () => { throw new ValidationError(`${where}: ${fn} is not an aggregate function; the built-in aggregates are ${BUILTIN_AGGREGATES.join(", ")}, or register an AggregateFunction`); });
        if (e.distinct) return at(pos, () => { throw new ValidationError(`${where}: DISTINCT aggregates are not supported in MATCH_RECOGNIZE, got ${nodeToString(e)}`); });
        // Flink's rule: the arguments may be any expression over the columns of one pattern variable (SUM(A.price *
        // A.qty)); unqualified columns and COUNT(*) are every row of the match
        // COUNT(A.*): the rows mapped to A, as COUNT(*) is every row of the match
        const star = e.args.length === 1 && e.args[0]!.kind === "Column" && (e.args[0] as Qualified).name === "*" ? e.args[0] as Qualified : undefined;
        const v = star !== undefined ? variableIndex(star.qualifier!, star.pos ?? pos, where) : aggregatedVariable(e, pos, where);
        const args = star !== undefined ? [] : e.args.map((a) => unqualify(a, pos, `${fn}(...) in ${where}`));
        const call = at(pos, () => makeAggCall({ kind: "Agg", fn, args, distinct: false, ...(e.udf === undefined ? {} : { udf: e.udf }) }, schema, pc, `$agg`));
        return nav({ kind: "agg", call, variable: v }, call.type);
      }
      case "Call": {
        const fn = e.udf === undefined ? e.fn.toUpperCase() : "";
        switch (fn) {
          case "LAST": case "FIRST": {
            if (e.args.length < 1 || e.args.length > 2) return at(pos, () => { throw new ValidationError(`${fn} expects 1 or 2 arguments (a column and an offset), got ${e.args.length}`); });
            const [v, k] = ref(e.args[0]!, pos, `${fn}(...) in ${where}`);
            return nav({ kind: fn === "LAST" ? "last" : "first", variable: v, column: k, offset: offsetOf(e.args[1], pos, fn, 0) }, schema.columns[k]!.type.nullable());
          }
          case "PREV": {
            if (e.args.length < 1 || e.args.length > 2) return at(pos, () => { throw new ValidationError(`PREV expects 1 or 2 arguments (a column and an offset), got ${e.args.length}`); });
            const [, k] = ref(e.args[0]!, pos, `PREV(...) in ${where}`);
            return nav({ kind: "prev", column: k, offset: offsetOf(e.args[1], pos, "PREV", 1) }, schema.columns[k]!.type.nullable());
          }
          case "NEXT":
            return at(pos, () => { throw new ValidationError(`${where}: NEXT is not supported: Flink's MATCH_RECOGNIZE navigates backwards only (PREV, LAST, FIRST)`); });
          case "MATCH_ROWTIME":
            if (defining !== undefined) return at(pos, () => { throw new ValidationError(`MATCH_ROWTIME() can only be used in MEASURES, not in ${where}`); });
            if (e.args.length !== 0) return at(pos, () => { throw new ValidationError(`MATCH_ROWTIME() takes no arguments, got ${e.args.length}`); });
            if (time !== "ROWTIME") return at(pos, () => { throw new ValidationError("MATCH_ROWTIME() needs a MATCH_RECOGNIZE ordered by a rowtime attribute"); });
            return nav({ kind: "matchRowtime" }, schema.columns[orderKeys[0]!.column]!.type.notNull());
          case "MATCH_PROCTIME":
            // processing time moves with the rows: the match's processing time is its last row's PROCTIME() value
            if (defining !== undefined) return at(pos, () => { throw new ValidationError(`MATCH_PROCTIME() can only be used in MEASURES, not in ${where}`); });
            if (e.args.length !== 0) return at(pos, () => { throw new ValidationError(`MATCH_PROCTIME() takes no arguments, got ${e.args.length}`); });
            if (time !== "PROCTIME") return at(pos, () => { throw new ValidationError("MATCH_PROCTIME() needs a processing-time attribute: tablestream supports it in a MATCH_RECOGNIZE ordered by a PROCTIME() column"); });
            return nav({ kind: "matchRowtime" }, schema.columns[orderKeys[0]!.column]!.type.notNull());
          case "CLASSIFIER": case "MATCH_NUMBER": case "RUNNING": case "FINAL":
            return at(pos, () => { throw new ValidationError(`${fn}() is not supported in MATCH_RECOGNIZE (Flink does not support it either)`); });
          default:
            return { ...e, args: e.args.map((a) => rewrite(a, pos, defining)) };
        }
      }
      default: return e;
    }
  };

  /** Calls of functions registered by name resolved, as in any SELECT (a user aggregate becomes an aggregate node). */
  const prepared = (e: ExprNode, pos: number): ExprNode => (pc.prepare === undefined ? e : at(pos, () => pc.prepare!(e, input, pc)));
  const defined = new Map<number, ExprNode>();
  for (const d of c.define) {
    const v = variableIndex(d.variable, d.pos, "DEFINE");
    if (defined.has(v)) at(d.pos, () => { throw new ValidationError(`pattern variable '${d.variable}' is defined twice in DEFINE`); });
    defined.set(v, rewrite(prepared(d.expr, d.pos), d.pos, v));
  }
  const measures = c.measures.map((m) => {
    const name = m.alias ?? (m.expr.kind === "Column" ? (m.expr as Qualified).name : undefined);
    if (name === undefined) return at(m.pos, () => { throw new ValidationError(`a measure needs a name: write ${nodeToString(m.expr)} AS name`); });
    return { name, expr: rewrite(prepared(m.expr, m.pos), m.pos, undefined), pos: m.pos };
  });
  const navigationSchema = new ResolvedSchema([...schema.columns, ...navTypes]);
  const defines = variables.map((v, i) => {
    const d = defined.get(i);
    if (d === undefined) return undefined;
    const pos = c.define.find((x) => x.variable === v)!.pos;
    const t = at(pos, () => typeOf(d, navigationSchema, pc));
    if (t.root !== "BOOLEAN") at(pos, () => { throw new ValidationError(`the condition of pattern variable '${v}' in DEFINE must be BOOLEAN, got ${t}`); });
    return d;
  });
  const out: Column[] = partitionKeys.map((k) => schema.columns[k]!);
  for (const m of measures) {
    if (out.some((o) => o.name === m.name)) at(m.pos, () => { throw new ValidationError(`the output of MATCH_RECOGNIZE has column '${m.name}' twice (partition columns come first, then the measures)`); });
    const type = at(m.pos, () => typeOf(m.expr, navigationSchema, pc));
    // only MATCH_ROWTIME() / MATCH_PROCTIME() are time attributes of the output (Flink): a time column read from
    // the match is a plain timestamp
    const isMatchRowtime = m.expr.kind === "Column" && navigations[Number(/^\$nav(\d+)$/.exec(m.expr.name)?.[1] ?? -1)]?.kind === "matchRowtime";
    out.push({ name: m.name, type: isMatchRowtime ? type : type.withTimeAttribute(undefined) });
  }
  let within: number | undefined;
  if (c.within !== undefined) {
    const w = c.within;
    within = at(w.pos, () => {
      const { type, value } = evaluateConstant(w.expr, "WITHIN", pc.resolveFunction);
      if (type.root !== "INTERVAL_DAY_TIME" || typeof value !== "number" || !(value > 0)) throw new ValidationError(`WITHIN expects a positive day-time interval such as INTERVAL '10' MINUTE, got ${nodeToString(w.expr)}`);
      return value;
    });
  }
  const a = c.after;
  const after: AfterMatch = a.kind === "TO_FIRST" || a.kind === "TO_LAST"
    ? { kind: a.kind, variable: variableIndex(a.variable!, a.pos, "AFTER MATCH SKIP") }
    : { kind: a.kind };
  return at(c.pos, () => matchRecognizeNode({
    input, schema: new ResolvedSchema(out), partitionKeys, orderKeys, timeAttribute: time!, variables, pattern, defines,
    measures: measures.map((m) => ({ name: m.name, expr: m.expr })), navigations, navigationSchema, after, ...(within === undefined ? {} : { within }),
  }));
}

/** Calls that navigate the match: not allowed inside an aggregate's arguments. */
const NAVIGATIONS = new Set(["LAST", "FIRST", "PREV", "NEXT", "MATCH_ROWTIME", "MATCH_PROCTIME", "CLASSIFIER", "MATCH_NUMBER", "RUNNING", "FINAL"]);

/** An aggregate with its pattern variables, `SUM((A.price + B.tax))` (as nodeToString writes it, variables kept). */
function aggregateText(e: ExprNode & { kind: "Agg" }): string {
  const qualified = (n: ExprNode): ExprNode => {
    if (n.kind === "Column") { const q = n as Qualified; return q.qualifier === undefined ? col(q.name) : col(`${q.qualifier}.${q.name}`); }
    if (n.kind === "Call") return { ...n, args: n.args.map(qualified) };
    return n;
  };
  return nodeToString({ ...e, args: e.args.map(qualified) });
}

function toTerm(p: PatternAst, variables: readonly string[]): PatternTerm {
  switch (p.kind) {
    case "var": return { kind: "var", variable: variables.indexOf(p.name) };
    case "seq": case "alt": return { kind: p.kind, terms: p.terms.map((t) => toTerm(t, variables)) };
    case "quant": return { kind: "quant", term: toTerm(p.term, variables), min: p.min, max: p.max, greedy: p.greedy };
  }
}

function patternText(p: PatternAst): string {
  switch (p.kind) {
    case "var": return p.name;
    case "seq": return p.terms.map(patternText).join(" ");
    case "alt": return p.terms.map(patternText).join(" | ");
    case "quant": return `${p.term.kind === "var" ? patternText(p.term) : `(${patternText(p.term)})`}${p.min === 0 && p.max === undefined ? "*" : p.min === 1 && p.max === undefined ? "+" : p.min === 0 && p.max === 1 ? "?" : `{${p.min},${p.max ?? ""}}`}${p.greedy ? "" : "?"}`;
  }
}
