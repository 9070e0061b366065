import { Decimal } from "decimal.js";
import { DataType } from "../types/data-type.js";
import { parseTypeAt } from "../types/parse-type.js";
import { formatTimeOfDay, parseDateText, parseTimeText, parseTimestampText } from "../types/datetime-text.js";
import { type ExprNode, callNode, col, literal } from "./node.js";
import { TokenStream } from "../types/sql-lexer.js";
import { SQL_BUILTINS } from "./builtins.js";

/**
 * Parses a scalar SQL expression — a computed column (`IF(random % 2 = 0, 'Bob', 'Alice')`,
 * `TO_TIMESTAMP(ts)`) or a watermark (`ts - INTERVAL '1' SECOND`) — onto the same expression nodes
 * the fluent API builds, so it is typed, validated and compiled exactly like `$("random").mod(2)...`.
 *
 * The subset: literals (numbers, strings, TRUE/FALSE/NULL, DATE/TIME/TIMESTAMP '...', INTERVAL 'n' UNIT
 * [TO UNIT]), column references (plain or back-quoted), arithmetic, `||`, comparison, AND/OR/NOT,
 * IS [NOT] NULL/TRUE/FALSE, [NOT] BETWEEN, [NOT] IN, [NOT] LIKE, CASE, CAST/TRY_CAST, EXTRACT,
 * FLOOR/CEIL(x TO unit), POSITION(a IN b), TRIM(... FROM x), SUBSTRING(x FROM a FOR b), and
 * function calls: built-ins by their SQL names (see SQL_FUNCTIONS), any other name is kept as a call
 * of a registered (user-defined) function and resolved when the expression is typed.
 * Hand-written recursive descent: the grammar is small, and errors name the line and column.
 */
export function parseSqlExpression(src: string, what = "SQL expression"): ExprNode {
  const p = new Parser(TokenStream.of(src, what));
  const e = p.expression();
  p.ts.expectEnd();
  return e;
}

/**
 * Parses one expression at the stream's position and leaves the stream after it (a SELECT item, a
 * WHERE condition, a PTF argument): used by the statement parser (src/sql) so that errors name the
 * line and column in the whole statement.
 */
export function parseSqlExpressionAt(ts: TokenStream, options: SqlExpressionOptions = {}): ExprNode {
  return new Parser(ts, options).expression();
}

/**
 * The `(PARTITION BY ... ORDER BY ... [ROWS|RANGE frame])` of a named window (`WINDOW w AS (...)`), read as an
 * `agg OVER (...)` is: the nodes `[$partitionBy(...), $orderBy(...), $frame(mode, preceding)]` that `OVER w`
 * stands for. The statement parser substitutes them for `$window('w')` (see `over`).
 */
export function parseWindowSpecAt(ts: TokenStream, options: SqlExpressionOptions = {}): readonly ExprNode[] {
  ts.expectOp("(");
  return new Parser(ts, options).windowSpec(true);
}

/** Where an expression sits: a SELECT item, HAVING or ORDER BY of a query may call aggregates; `a.b` may name a column of a FROM item. */
export interface SqlExpressionOptions {
  /** Accept `COUNT(*)`, `COUNT([DISTINCT] x)`, `SUM(x)`, ... as aggregate calls (else they are an error). */
  readonly aggregates?: boolean;
  /** Accept `t.col`: the column node's `qualifier` is `t` (the statement binder resolves it). */
  readonly qualified?: boolean;
  /**
   * Parses a query after `IN (` or `EXISTS (` (the statement parser's): with it, `x [NOT] IN (SELECT ...)` and
   * `[NOT] EXISTS (SELECT ...)` become a `$subquery` call node carrying the parsed query (see SubqueryCall).
   */
  readonly subquery?: (ts: TokenStream) => unknown;
}

/**
 * `x IN (SELECT ...)` (`mode` "IN", args [x]), `EXISTS (SELECT ...)` (`mode` "EXISTS", no args) or a scalar
 * `(SELECT ...)` (`mode` "SCALAR"), as the expression parser leaves it for the statement binder, which plans an
 * AND-ed IN / EXISTS of WHERE as a semi join (NOT ...: an anti join) and any other as a left join (sql-subqueries.ts).
 */
export interface SubqueryCall {
  readonly kind: "Call";
  readonly fn: "$subquery";
  readonly args: readonly ExprNode[];
  /** SCALAR: `(SELECT ...)` as a value (one column, at most one row). */
  readonly mode: "IN" | "EXISTS" | "SCALAR";
  readonly query: unknown;
  readonly pos: number;
}

const startsQuery = (ts: TokenStream): boolean => ts.isKeyword("SELECT") || ts.isKeyword("WITH") || ts.isKeyword("VALUES");

/** SQL function names mapped onto built-in expression functions (same argument order): the entries' SQL spellings. */
const SQL_FUNCTIONS = SQL_BUILTINS;

const AGGREGATES = new Set(["COUNT", "SUM", "SUM0", "AVG", "MIN", "MAX", "COLLECT"]);

/** The function names SQL text may call as built-ins (for "did you mean" hints of an unknown function). */
export const SQL_FUNCTION_NAMES: readonly string[] = [...SQL_FUNCTIONS.keys(), ...AGGREGATES,
  "CAST", "TRY_CAST", "EXTRACT", "FLOOR", "CEIL", "CEILING", "POSITION", "TRIM", "SUBSTRING", "ROUND", "TO_TIMESTAMP", "ROW_NUMBER"];

/** Interval units and their size in milliseconds (day-time) or months (year-month). */
const INTERVAL_UNITS: Readonly<Record<string, { factor: number; yearMonth: boolean }>> = {
  YEAR: { factor: 12, yearMonth: true },
  MONTH: { factor: 1, yearMonth: true },
  DAY: { factor: 86400000, yearMonth: false },
  HOUR: { factor: 3600000, yearMonth: false },
  MINUTE: { factor: 60000, yearMonth: false },
  SECOND: { factor: 1000, yearMonth: false },
  MILLISECOND: { factor: 1, yearMonth: false },
};
const TIME_UNITS = ["YEAR", "QUARTER", "MONTH", "WEEK", "DAY", "HOUR", "MINUTE", "SECOND", "MILLISECOND"];

const CMP: Readonly<Record<string, string>> = {
  "=": "equals", "<>": "notEquals", "!=": "notEquals", "<": "lessThan", "<=": "lessThanOrEqual", ">": "greaterThan", ">=": "greaterThanOrEqual",
};

/**
 * How deeply SQL expressions may nest — parentheses, function arguments, CASE parts, NOT / unary minus
 * chains. The parser recurses per level (about ten frames each); beyond this a statement fails with a
 * parse error at the position where the limit was crossed instead of overflowing the stack. Flat chains
 * (`a + b + c ...`, `s || 'x' || ...`, long CASE WHEN lists) are not nested and are not limited by it.
 */
export const MAX_SQL_NESTING = 200;

class Parser {
  private depth = 0;

  constructor(readonly ts: TokenStream, private readonly options: SqlExpressionOptions = {}) {}

  expression(): ExprNode {
    this.enter();
    try {
      return this.or();
    } finally {
      this.depth--;
    }
  }

  private enter(): void {
    if (++this.depth > MAX_SQL_NESTING) {
      this.depth = 0;
      this.ts.fail(`expression nested more than ${MAX_SQL_NESTING} levels deep (parentheses, function calls, NOT or unary minus); the limit is ${MAX_SQL_NESTING}`);
    }
  }

  private or(): ExprNode {
    const args = [this.and()];
    while (this.ts.acceptKeyword("OR")) args.push(this.and());
    return args.length === 1 ? args[0]! : callNode("or", args);
  }

  private and(): ExprNode {
    const args = [this.not()];
    while (this.ts.acceptKeyword("AND")) args.push(this.not());
    return args.length === 1 ? args[0]! : callNode("and", args);
  }

  private not(): ExprNode {
    if (this.ts.acceptKeyword("NOT")) {
      this.enter();
      try {
        return callNode("not", [this.not()]);
      } finally {
        this.depth--;
      }
    }
    return this.predicate();
  }

  /** Comparison and the postfix predicates (IS, BETWEEN, IN, LIKE); one per operand, as in SQL. */
  private predicate(): ExprNode {
    const left = this.additive();
    const ts = this.ts;
    const t = ts.peek();
    if (t.kind === "op" && CMP[t.text]) {
      ts.next();
      return callNode(CMP[t.text]!, [left, this.additive()]);
    }
    if (ts.acceptKeyword("IS")) {
      const negated = ts.acceptKeyword("NOT");
      const what = ts.identifier("NULL, TRUE or FALSE").toUpperCase();
      const fn = what === "NULL" ? (negated ? "isNotNull" : "isNull")
        : what === "TRUE" ? (negated ? "isNotTrue" : "isTrue")
        : what === "FALSE" ? (negated ? "isNotFalse" : "isFalse")
        : ts.fail("expected NULL, TRUE or FALSE after IS", t);
      return callNode(fn, [left]);
    }
    const negated = ts.isKeyword("NOT") && (ts.isKeyword("BETWEEN", 1) || ts.isKeyword("IN", 1) || ts.isKeyword("LIKE", 1));
    if (negated) ts.next();
    if (ts.acceptKeyword("BETWEEN")) {
      ts.acceptKeyword("ASYMMETRIC");
      const low = this.additive();
      ts.expectKeyword("AND");
      const high = this.additive();
      return callNode(negated ? "notBetween" : "between", [left, low, high]);
    }
    if (ts.acceptKeyword("IN")) {
      ts.expectOp("(");
      if (this.options.subquery !== undefined && startsQuery(ts)) {
        const query = this.options.subquery(ts);
        ts.expectOp(")");
        const e = { kind: "Call", fn: "$subquery", args: [left], mode: "IN", query, pos: t.pos } as SubqueryCall as ExprNode;
        return negated ? callNode("not", [e]) : e;
      }
      const list = this.list();
      const e = callNode("in", [left, ...list]);
      return negated ? callNode("not", [e]) : e;
    }
    if (ts.acceptKeyword("LIKE")) {
      const e = callNode("like", [left, this.additive()]);
      return negated ? callNode("not", [e]) : e;
    }
    return left;
  }

  private additive(): ExprNode {
    let left = this.multiplicative();
    for (;;) {
      const ts = this.ts;
      if (ts.acceptOp("+")) left = callNode("plus", [left, this.multiplicative()]);
      else if (ts.acceptOp("-")) left = callNode("minus", [left, this.multiplicative()]);
      else if (ts.acceptOp("||")) left = callNode("concat", [left, this.multiplicative()]);
      else return left;
    }
  }

  private multiplicative(): ExprNode {
    let left = this.unary();
    for (;;) {
      const ts = this.ts;
      if (ts.acceptOp("*")) left = callNode("times", [left, this.unary()]);
      else if (ts.acceptOp("/")) left = callNode("dividedBy", [left, this.unary()]);
      else if (ts.acceptOp("%")) left = callNode("mod", [left, this.unary()]);
      else return left;
    }
  }

  private unary(): ExprNode {
    const ts = this.ts;
    if (ts.acceptOp("+") || ts.isOp("-")) {
      this.enter();
      try {
        return this.signed();
      } finally {
        this.depth--;
      }
    }
    return this.postfix(this.primary());
  }

  /** `e[key]` / `e[index]` after a primary (VARIANT access, Flink's ITEM operator). */
  private postfix(e: ExprNode): ExprNode {
    while (this.ts.acceptOp("[")) {
      const key = this.expression();
      this.ts.expectOp("]");
      e = callNode("at", [e, key]);
    }
    return e;
  }

  /** After a unary `+` (consumed) or before a unary `-`. */
  private signed(): ExprNode {
    const ts = this.ts;
    if (ts.acceptOp("-")) {
      const e = this.unary();
      // fold `-1` into a literal so that it types as a literal (INT, not an expression over one)
      if (e.kind === "Literal" && typeof e.value === "number") return literal(-e.value, e.type);
      if (e.kind === "Literal" && Decimal.isDecimal(e.value)) return literal((e.value as Decimal).neg(), e.type);
      return callNode("negate", [e]);
    }
    return this.unary();
  }

  /** Arguments up to and including the closing parenthesis. */
  private list(): ExprNode[] {
    const args: ExprNode[] = [];
    if (this.ts.acceptOp(")")) return args;
    do args.push(this.expression()); while (this.ts.acceptOp(","));
    this.ts.expectOp(")");
    return args;
  }

  private primary(): ExprNode {
    const ts = this.ts;
    const t = ts.peek();
    switch (t.kind) {
      case "number": {
        ts.next();
        const e = numberLiteral(t.text);
        // an approximate literal beyond DOUBLE's range is an error, not Infinity
        if (e.kind === "Literal" && typeof e.value === "number" && !Number.isFinite(e.value)) ts.raise(`numeric literal ${t.text} is out of the range of DOUBLE (±1.7976931348623157E308)`, t);
        return e;
      }
      case "string": ts.next(); return literal(t.text);
      case "quoted": ts.next(); return this.noFieldAccess(col(t.text), t.pos);
      case "op":
        if (ts.acceptOp("(")) {
          // `(SELECT ...)`: a scalar subquery (the statement binder joins it in)
          if (this.options.subquery !== undefined && startsQuery(ts)) {
            const query = this.options.subquery(ts);
            ts.expectOp(")");
            return { kind: "Call", fn: "$subquery", args: [], mode: "SCALAR", query, pos: t.pos } as SubqueryCall as ExprNode;
          }
          const e = this.expression();
          ts.expectOp(")");
          return e;
        }
        return ts.fail("expected an expression");
      case "eof":
        return ts.fail("expected an expression");
      default:
    }
    const word = t.text.toUpperCase();
    switch (word) {
      case "TRUE": ts.next(); return literal(true);
      case "FALSE": ts.next(); return literal(false);
      case "NULL": ts.next(); return literal(null);
      case "CASE": ts.next(); return this.caseExpr();
      case "EXISTS":
        if (this.options.subquery !== undefined && ts.isOp("(", 1)) {
          ts.next(); ts.next();
          if (!startsQuery(ts)) ts.fail("expected a query (SELECT ...) after EXISTS (");
          const query = this.options.subquery(ts);
          ts.expectOp(")");
          return { kind: "Call", fn: "$subquery", args: [], mode: "EXISTS", query, pos: t.pos } as SubqueryCall as ExprNode;
        }
        break;
      case "INTERVAL": ts.next(); return this.interval();
      case "DATE": case "TIME": case "TIMESTAMP":
        if (ts.peek(1).kind === "string") { ts.next(); return this.typedLiteral(word); }
        break;
      default:
    }
    if (!ts.isOp("(", 1)) {
      ts.next();
      return this.noFieldAccess(col(t.text), t.pos);
    }
    if (this.options.aggregates && word === "ROW_NUMBER") {
      ts.next();
      ts.next(); // (
      return this.rowNumber();
    }
    if (this.options.aggregates && AGGREGATES.has(word)) {
      ts.next();
      ts.next(); // (
      return this.aggregate(word, t);
    }
    ts.next();
    ts.next(); // (
    return this.call(word, t);
  }

  private noFieldAccess(e: ExprNode, pos: number): ExprNode {
    if (this.ts.isOp(".")) {
      if (this.options.qualified && e.kind === "Column") {
        // `t.col`: a column of the FROM item named (or aliased) t
        this.ts.next();
        const name = this.ts.identifier("a column name after '.'");
        let out: ExprNode = { kind: "Column", name, qualifier: e.name, pos } as ExprNode;
        // `t.col.field...`: fields of a ROW column, one `$field` access each (Flink's nested field access)
        while (this.ts.isOp(".")) {
          this.ts.next();
          out = { kind: "Call", fn: "$field", args: [out, literal(this.ts.identifier("a field name after '.'"))] };
        }
        return out;
      }
      this.ts.fail("field access (a.b) is not supported in SQL expressions; use a column name");
    }
    return e;
  }

  /**
   * `ROW_NUMBER() OVER ([PARTITION BY a, ...] ORDER BY b [ASC|DESC], ...)`: kept as the call `$ROW_NUMBER(
   * $partitionBy(...), $orderBy(...))` for the statement binder, which turns the top-N and deduplication
   * patterns into Rank and Deduplicate plan nodes (docs/sql.md); anywhere else it is an error there.
   */
  private rowNumber(): ExprNode {
    const ts = this.ts;
    ts.expectOp(")");
    ts.expectKeyword("OVER");
    // `ROW_NUMBER() OVER w`: a named window of the SELECT's WINDOW clause, substituted by the statement parser
    if (ts.peek().kind === "ident" || ts.peek().kind === "quoted") return callNode("$ROW_NUMBER", [this.namedWindow()]);
    ts.expectOp("(");
    const { partition, order } = this.partitionAndOrder(true);
    ts.expectOp(")");
    return callNode("$ROW_NUMBER", [callNode("$partitionBy", partition), callNode("$orderBy", order)]);
  }

  /**
   * The `PARTITION BY ... ORDER BY ...` of an OVER clause (ROW_NUMBER's and an aggregate's). `NULLS FIRST |
   * LAST` is read only where the binder honours it (ROW_NUMBER); an aggregate's OVER fails on it as before.
   */
  private partitionAndOrder(nulls: boolean): { partition: ExprNode[]; order: ExprNode[] } {
    const ts = this.ts;
    const partition: ExprNode[] = [];
    if (ts.acceptKeyword("PARTITION")) {
      ts.expectKeyword("BY");
      do partition.push(this.expression()); while (ts.acceptOp(","));
    }
    const order: ExprNode[] = [];
    if (ts.acceptKeyword("ORDER")) {
      ts.expectKeyword("BY");
      do {
        const expr = this.expression();
        let ascending = true;
        if (ts.acceptKeyword("DESC")) ascending = false;
        else ts.acceptKeyword("ASC");
        let nullsFirst: boolean | undefined;
        if (nulls && ts.acceptKeyword("NULLS")) {
          if (ts.acceptKeyword("FIRST")) nullsFirst = true;
          else { ts.expectKeyword("LAST"); nullsFirst = false; }
        }
        order.push({ kind: "Sort", ascending, nullsFirst, expr });
      } while (ts.acceptOp(","));
    }
    return { partition, order };
  }

  /** `COUNT(*)`, `COUNT(DISTINCT x)`, `SUM([ALL] x)`, ...: an aggregate call node (the grouped select types it). */
  private aggregate(name: string, at: ReturnType<TokenStream["peek"]>): ExprNode {
    const ts = this.ts;
    if (name === "COUNT" && ts.acceptOp("*")) {
      ts.expectOp(")");
      const filter = this.aggregateFilter();
      // COUNT(*) FILTER (WHERE c) counts the rows where c is TRUE: COUNT(CASE WHEN c THEN 1 END)
      if (filter !== undefined) return this.over({ kind: "Agg", fn: "COUNT", args: [callNode("if", [filter, literal(1), literal(null)])], distinct: false });
      return this.over({ kind: "Agg", fn: "COUNT", args: [], distinct: false });
    }
    // `COUNT(v.*)`: the rows of one FROM item or pattern variable, as a column `*` qualified by v (MATCH_RECOGNIZE
    // binds it to the rows mapped to v; elsewhere no column is called `*`, which the binder reports)
    const starAt = ts.peek();
    if (this.options.qualified && (starAt.kind === "ident" || starAt.kind === "quoted") && ts.isOp(".", 1) && ts.isOp("*", 2)) {
      if (name !== "COUNT") ts.fail(`${starAt.text}.* can only be the argument of COUNT, not of ${name}`, starAt);
      ts.next(); ts.next(); ts.next();
      ts.expectOp(")");
      return this.over({ kind: "Agg", fn: "COUNT", args: [{ kind: "Column", name: "*", qualifier: starAt.text, pos: starAt.pos } as ExprNode], distinct: false });
    }
    const distinct = ts.acceptKeyword("DISTINCT");
    if (!distinct) ts.acceptKeyword("ALL");
    let args = this.list();
    if (args.length !== 1) ts.fail(`${name} expects 1 argument, got ${args.length}`, at);
    const filter = this.aggregateFilter();
    // every built-in aggregate skips NULL arguments, so `AGG(x) FILTER (WHERE c)` is `AGG(CASE WHEN c THEN x END)`
    if (filter !== undefined) args = [callNode("if", [filter, args[0]!, literal(null)])];
    return this.over({ kind: "Agg", fn: name, args, distinct });
  }

  /**
   * `agg OVER ([PARTITION BY a, ...] ORDER BY o [ASC|DESC] [ROWS|RANGE frame])` after an aggregate call: kept as
   * `$OVER(agg, $partitionBy(...), $orderBy(...), $frame(mode, preceding))` for the statement binder, which plans
   * it as the Table API's over window. `preceding` is `$unbounded`, a row count or an interval; the frame ends at
   * the current row (the only end Flink supports in streaming). Without a frame: RANGE UNBOUNDED PRECEDING.
   */
  private over(agg: ExprNode): ExprNode {
    const ts = this.ts;
    if (!ts.isKeyword("OVER")) return agg;
    const at = ts.next();
    if (ts.peek().kind === "ident" || ts.peek().kind === "quoted") {
      return { kind: "Call", fn: "$OVER", args: [agg, this.namedWindow()], pos: at.pos } as ExprNode;
    }
    if (!ts.isOp("(")) ts.fail("expected ( or a window name after OVER");
    ts.next();
    return { kind: "Call", fn: "$OVER", args: [agg, ...this.windowSpec(false)], pos: at.pos } as ExprNode;
  }

  /** `OVER w`: `$window('w')` at the name's position, replaced by the window's spec when the SELECT is read. */
  private namedWindow(): ExprNode {
    const t = this.ts.peek();
    const name = this.ts.identifier("a window name");
    return { kind: "Call", fn: "$window", args: [literal(name)], pos: t.pos } as ExprNode;
  }

  /** After `(`: `[PARTITION BY ...] [ORDER BY ...] [ROWS|RANGE frame] )` as `[$partitionBy, $orderBy, $frame]`. */
  windowSpec(nulls: boolean): readonly ExprNode[] {
    const ts = this.ts;
    const { partition, order } = this.partitionAndOrder(nulls);
    let mode = "RANGE";
    let preceding: ExprNode = callNode("$unbounded", []);
    if (ts.isKeyword("ROWS") || ts.isKeyword("RANGE")) {
      mode = ts.next().text.toUpperCase();
      const between = ts.acceptKeyword("BETWEEN");
      if (ts.acceptKeyword("CURRENT")) {
        ts.expectKeyword("ROW");
        preceding = callNode("$current", []);
      } else {
        preceding = ts.acceptKeyword("UNBOUNDED") ? callNode("$unbounded", []) : this.additive();
        ts.expectKeyword("PRECEDING");
      }
      if (between) {
        ts.expectKeyword("AND");
        if (!ts.acceptKeyword("CURRENT")) ts.fail("expected CURRENT ROW: an OVER frame ends at the current row (FOLLOWING bounds are not supported in streaming)");
        ts.expectKeyword("ROW");
      }
    }
    ts.expectOp(")");
    return [callNode("$partitionBy", partition), callNode("$orderBy", order), callNode("$frame", [literal(mode), preceding])];
  }

  /** `FILTER (WHERE condition)` after an aggregate call: the condition (which may not call aggregates), or undefined. */
  private aggregateFilter(): ExprNode | undefined {
    const ts = this.ts;
    if (!(ts.isKeyword("FILTER") && ts.isOp("(", 1))) return undefined;
    ts.next();
    ts.next();
    ts.expectKeyword("WHERE");
    const cond = new Parser(ts, { qualified: this.options.qualified }).expression();
    ts.expectOp(")");
    return cond;
  }

  private call(name: string, at: ReturnType<TokenStream["peek"]>): ExprNode {
    const ts = this.ts;
    switch (name) {
      case "CAST":
      case "TRY_CAST": {
        const e = this.expression();
        ts.expectKeyword("AS");
        const type = parseTypeAt(ts, { sql: true });
        ts.expectOp(")");
        return callNode(name === "CAST" ? "cast" : "tryCast", [e, literal(null, type)]);
      }
      case "EXTRACT": {
        const unit = this.timeUnit();
        ts.expectKeyword("FROM");
        const e = this.expression();
        ts.expectOp(")");
        return callNode("extract", [e, literal(unit)]);
      }
      case "FLOOR":
      case "CEIL":
      case "CEILING": {
        const e = this.expression();
        const fn = name === "FLOOR" ? "floor" : "ceil";
        if (ts.acceptKeyword("TO")) {
          const unit = this.timeUnit();
          ts.expectOp(")");
          return callNode(`${fn}Time`, [e, literal(unit)]);
        }
        ts.expectOp(")");
        return callNode(fn, [e]);
      }
      case "POSITION": {
        const needle = this.additive();
        ts.expectKeyword("IN");
        const hay = this.expression();
        ts.expectOp(")");
        return callNode("position", [needle, hay]);
      }
      case "TRIM": {
        let fn = "trim";
        if (ts.acceptKeyword("BOTH")) fn = "trim";
        else if (ts.acceptKeyword("LEADING")) fn = "trimLeading";
        else if (ts.acceptKeyword("TRAILING")) fn = "trimTrailing";
        let chars: ExprNode = literal(" ");
        if (!ts.acceptKeyword("FROM")) {
          const first = this.expression();
          if (!ts.acceptKeyword("FROM")) {
            ts.expectOp(")");
            return callNode(fn, [first, chars]);
          }
          chars = first;
        }
        const e = this.expression();
        ts.expectOp(")");
        return callNode(fn, [e, chars]);
      }
      case "SUBSTRING": {
        const e = this.expression();
        if (ts.acceptKeyword("FROM")) {
          const start = this.expression();
          const args = [e, start];
          if (ts.acceptKeyword("FOR")) args.push(this.expression());
          ts.expectOp(")");
          return callNode("substring", args);
        }
        ts.expectOp(",");
        const rest = this.list();
        return this.checked(name, [e, ...rest], at);
      }
      case "ROUND": {
        const args = this.list();
        if (args.length < 1 || args.length > 2) ts.fail(`ROUND expects 1 or 2 arguments`, at);
        return callNode("round", [args[0]!, args[1] ?? literal(0)]);
      }
      case "TO_TIMESTAMP": {
        // Flink: TO_TIMESTAMP(string) parses 'yyyy-MM-dd HH:mm:ss[.SSS]' into TIMESTAMP(3), NULL when malformed
        const args = this.list();
        if (args.length !== 1) ts.fail(`TO_TIMESTAMP expects 1 argument (a format argument is not supported), got ${args.length}`, at);
        return callNode("tryCast", [args[0]!, literal(null, new DataType("TIMESTAMP", true, { precision: 3 }))]);
      }
      default: {
        if (AGGREGATES.has(name)) ts.fail(`aggregate function ${name} is not allowed here`, at);
        return this.checked(name, this.list(), at);
      }
    }
  }

  /** A built-in by its SQL name with its arity checked, or a call of a registered function. */
  private checked(name: string, args: ExprNode[], at: ReturnType<TokenStream["peek"]>): ExprNode {
    const f = SQL_FUNCTIONS.get(name);
    if (!f) return callNode(at.text, args);
    if (args.length < f.min || args.length > f.max) {
      const expected = f.min === f.max ? `${f.min}` : f.max === Infinity ? `at least ${f.min}` : `${f.min} to ${f.max}`;
      this.ts.fail(`${name} expects ${expected} argument${f.max === 1 ? "" : "s"}, got ${args.length}`, at);
    }
    return callNode(f.fn, args);
  }

  private timeUnit(): string {
    const t = this.ts.peek();
    const u = this.ts.identifier("a time unit").toUpperCase();
    if (!TIME_UNITS.includes(u)) this.ts.fail(`expected a time unit (${TIME_UNITS.join(", ")})`, t);
    return u;
  }

  private caseExpr(): ExprNode {
    const ts = this.ts;
    const subject = ts.isKeyword("WHEN") ? undefined : this.expression();
    const branches: [ExprNode, ExprNode][] = [];
    while (ts.acceptKeyword("WHEN")) {
      const w = this.expression();
      ts.expectKeyword("THEN");
      branches.push([subject ? callNode("equals", [subject, w]) : w, this.expression()]);
    }
    if (branches.length === 0) ts.fail("expected WHEN");
    const otherwise = ts.acceptKeyword("ELSE") ? this.expression() : literal(null);
    ts.expectKeyword("END");
    return branches.reduceRight<ExprNode>((acc, [c, v]) => callNode("if", [c, v, acc]), otherwise);
  }

  /** `DATE '2020-01-01'`, `TIME '10:00:00'`, `TIMESTAMP '2020-01-01 10:00:00.123'`. */
  private typedLiteral(word: string): ExprNode {
    const t = this.ts.next();
    switch (word) {
      case "DATE": {
        const d = parseDateText(t.text);
        if (!d.ok || t.text.trim().length > 10) this.ts.raise(`DATE '${t.text}' is not a date 'YYYY-MM-DD'${d.ok ? "" : `: ${d.reason}`}`, t);
        return literal(d.value, new DataType("DATE", false));
      }
      case "TIME": {
        const v = parseTimeText(t.text);
        if (!v.ok) this.ts.raise(`TIME '${t.text}' is not a time 'HH:mm:ss': ${v.reason}`, t);
        const digits = v.value.fraction.replace(/0+$/, "");
        if (digits.length > 3) this.ts.raise(`TIME '${t.text}' has sub-millisecond digits, which cannot be represented`, t);
        return literal(formatTimeOfDay(v.value, digits.length > 0 ? 3 : 0), new DataType("TIME", false, { precision: digits.length > 0 ? 3 : 0 }));
      }
      default: {
        const v = parseTimestampText(t.text, false);
        if (!v.ok) this.ts.raise(`TIMESTAMP '${t.text}' is not a timestamp 'YYYY-MM-DD HH:mm:ss[.SSS]': ${v.reason}`, t);
        if (/[1-9]/.test(v.value.fraction.slice(3))) this.ts.raise(`TIMESTAMP '${t.text}' has sub-millisecond digits, which cannot be represented`, t);
        const d = new Date(v.value.epochMillis);
        return literal(d, new DataType("TIMESTAMP", false, { precision: 3 }));
      }
    }
  }

  /** `INTERVAL '1' SECOND`, `INTERVAL '0.001' SECOND`, `INTERVAL '1:30' MINUTE TO SECOND`, `INTERVAL '2' YEAR`. */
  private interval(): ExprNode {
    const ts = this.ts;
    const negative = ts.acceptOp("-");
    const t = ts.peek();
    let text: string;
    if (t.kind === "string" || t.kind === "number") text = ts.next().text;
    else return ts.fail("expected the interval value as a string, e.g. INTERVAL '1' SECOND");
    const unitTok = ts.peek();
    const from = ts.identifier("an interval unit").toUpperCase().replace(/S$/, "");
    if (!INTERVAL_UNITS[from]) ts.fail(`expected an interval unit (${Object.keys(INTERVAL_UNITS).join(", ")})`, unitTok);
    if (ts.acceptOp("(")) { ts.integer("a precision"); ts.expectOp(")"); }
    let to: string | undefined;
    if (ts.acceptKeyword("TO")) {
      const toTok = ts.peek();
      to = ts.identifier("an interval unit").toUpperCase();
      if (!INTERVAL_UNITS[to]) ts.fail(`expected an interval unit`, toTok);
      if (ts.acceptOp("(")) { ts.integer("a precision"); ts.expectOp(")"); }
    }
    const value = intervalValue(text, from, to);
    if (value === undefined) return ts.fail(`'${text}' is not a valid INTERVAL ${from}${to ? ` TO ${to}` : ""} value`, t);
    const yearMonth = INTERVAL_UNITS[from]!.yearMonth;
    const type = new DataType(yearMonth ? "INTERVAL_YEAR_MONTH" : "INTERVAL_DAY_TIME", false);
    return literal(negative ? -value : value, type);
  }
}

function numberLiteral(text: string): ExprNode {
  if (/[eE]/.test(text)) return literal(Number(text), new DataType("DOUBLE", false));
  if (text.includes(".")) {
    // exact numeric literal: DECIMAL(p, s) as in Flink
    const d = new Decimal(text);
    // the scale is the digits written after the point: 123.450 is DECIMAL(6, 3), as Calcite reads it
    const scale = text.length - text.indexOf(".") - 1;
    const intDigits = d.abs().truncated().isZero() ? 1 : d.abs().truncated().toFixed(0).length;
    return literal(d, new DataType("DECIMAL", false, { precision: Math.min(38, intDigits + scale), scale }));
  }
  const n = Number(text);
  if (!Number.isSafeInteger(n)) return literal(new Decimal(text), new DataType("DECIMAL", false, { precision: Math.min(38, text.length), scale: 0 }));
  return literal(n);
}

/** Milliseconds (day-time) or months (year-month) of an interval string, or undefined when malformed. */
function intervalValue(text: string, from: string, to: string | undefined): number | undefined {
  const s = text.trim();
  const sign = s.startsWith("-") ? -1 : 1;
  const body = s.replace(/^[+-]/, "");
  if (to === undefined) {
    if (!/^\d+(\.\d+)?$/.test(body)) return undefined;
    const v = new Decimal(body).times(INTERVAL_UNITS[from]!.factor);
    if (!v.isInteger()) return undefined;
    return sign * v.toNumber();
  }
  if (from === "YEAR" && to === "MONTH") {
    const m = /^(\d+)-(\d+)$/.exec(body);
    return m ? sign * (Number(m[1]) * 12 + Number(m[2])) : undefined;
  }
  // day-time ranges: 'd hh:mm:ss.fff' with the leading and trailing parts given by FROM / TO
  const order = ["DAY", "HOUR", "MINUTE", "SECOND"];
  const i = order.indexOf(from);
  const j = order.indexOf(to);
  if (i < 0 || j <= i) return undefined;
  const parts = body.split(/[ :]/);
  if (parts.length !== j - i + 1) return undefined;
  let ms = 0;
  for (let k = 0; k < parts.length; k++) {
    const unit = order[i + k]!;
    const p = parts[k]!;
    if (!(unit === "SECOND" ? /^\d+(\.\d{1,3})?$/ : /^\d+$/).test(p)) return undefined;
    ms += Number(p) * INTERVAL_UNITS[unit]!.factor;
  }
  return sign * Math.round(ms);
}
