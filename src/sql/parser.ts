import { parseSqlExpressionAt as parseSqlExpressionUnchecked, parseWindowSpecAt } from "../expressions/sql-expression.js";
import { checkExpressionDepth } from "../expressions/depth.js";

/**
 * Every SQL expression is checked for its depth as soon as it is parsed: the binder walks expressions
 * recursively, so a flat `a + a + ...` chain thousands long (a left-deep tree) must fail here with the
 * depth limit's ValidationError, not with a stack overflow deeper down.
 */
const parseSqlExpressionAt: typeof parseSqlExpressionUnchecked = (ts, options) => {
  const e = parseSqlExpressionUnchecked(ts, options);
  checkExpressionDepth(e);
  return e;
};
import { type Token, TokenStream } from "../types/sql-lexer.js";
import type { OrderItem } from "../ptf/order-by.js";
import { parseTypeAt } from "../types/parse-type.js";
import type {
  ArgValue, CallArg, ColumnDef, CreateTableStatement, DistributionClause, CreateViewStatement, FromItem, InsertColumn, InsertStatement, StaticPartitionValue, JoinKind, OrderedQuery, Query, QueryHint, SelectItem, SelectQuery, Statement, ValuesQuery,
} from "./ast.js";
import { type NamedWindow, substituteNamedWindows } from "./named-windows.js";
import { PATTERN_OPERATORS, parseMatchRecognize } from "./match-recognize.js";
import { optionList, parseCatalogStatement, parseCreateFunction, parseLike, type QueryParser } from "./catalog-parser.js";

/** What SqlParseErrors of a statement say they were parsing: `cannot parse SQL statement '...' at line 1, column 8: ...`. */
const WHAT = "SQL statement";

/**
 * Statement keywords and clauses outside the supported subset: named in a "not supported" error
 * instead of a generic "unexpected input", so the user knows it is a limit, not a typo.
 */
const UNSUPPORTED_STATEMENTS = ["USE", "BEGIN", "LOAD", "UNLOAD", "TRUNCATE", "DELETE", "UPDATE", "ANALYZE", "CALL"];
const UNSUPPORTED_CLAUSES = ["QUALIFY"];
/** Words that end a select item or a FROM item: never read as an alias. */
const CLAUSE_WORDS = new Set(["FROM", "WHERE", "GROUP", "HAVING", "ORDER", "LIMIT", "OFFSET", "FETCH", "UNION", "INTERSECT", "EXCEPT", "MINUS",
  "JOIN", "LEFT", "RIGHT", "FULL", "INNER", "CROSS", "ON", "WINDOW", "QUALIFY", "MATCH_RECOGNIZE", "LATERAL", "FOR", "OUTER", "USING", "NATURAL",
  // a statement set's END (reserved in Flink SQL)
  "END"]);
/** SELECT items and HAVING may call aggregates; every clause may name `t.col`. */
const ITEM = { aggregates: true, qualified: true } as const;
const PLAIN = { qualified: true } as const;
const NOT_SUPPORTED = "is not supported by tablestream's SQL (docs/sql.md lists what is)";

/**
 * Parses one statement of the SQL subset in docs/sql.md into an AST. Uses the same tokens and
 * expression parser as computed columns and watermarks (src/expressions), so expressions mean the
 * same here as there. A trailing `;` is allowed.
 */
export function parseStatement(src: string): Statement {
  if (typeof src !== "string") throw new TypeError(`executeSql expects a string, got ${String(src)}`);
  const ts = TokenStream.of(src, WHAT, PATTERN_OPERATORS);
  const p = new StatementParser(ts);
  const stmt = p.statement();
  ts.acceptOp(";");
  p.expectEnd();
  return stmt;
}

class StatementParser implements QueryParser {
  constructor(private readonly ts: TokenStream) {}

  statement(): Statement {
    const ts = this.ts;
    const t = ts.peek();
    if (ts.isKeyword("SELECT") || ts.isKeyword("VALUES") || ts.isKeyword("WITH") || ts.isOp("(")) return { kind: "Query", query: this.query() };
    if (ts.acceptKeyword("INSERT")) return this.insert(t.pos);
    if (ts.acceptKeyword("CREATE")) {
      const temporary = ts.acceptKeyword("TEMPORARY");
      if (temporary) ts.acceptKeyword("SYSTEM");
      if (ts.acceptKeyword("VIEW")) return this.createView(temporary);
      if (ts.acceptKeyword("TABLE")) return this.createTable(temporary);
      if (ts.acceptKeyword("FUNCTION")) return parseCreateFunction(ts, this, temporary);
      const what = ts.peek();
      if (what.kind === "ident") ts.raise(`CREATE ${what.text.toUpperCase()} ${NOT_SUPPORTED}`, what);
      return ts.fail("expected VIEW, TABLE or FUNCTION");
    }
    const other = parseCatalogStatement(ts, this);
    if (other !== undefined) return other;
    if (t.kind === "ident" && UNSUPPORTED_STATEMENTS.includes(t.text.toUpperCase())) ts.raise(`${t.text.toUpperCase()} ${NOT_SUPPORTED}`, t);
    return ts.fail("expected SELECT, VALUES, WITH, INSERT, CREATE, DROP, ALTER, SHOW, DESCRIBE, EXPLAIN, SET, RESET or EXECUTE STATEMENT SET");
  }

  /** After INSERT: `INTO | OVERWRITE sink <query>`. */
  insert(start: number): InsertStatement {
    const ts = this.ts;
    const overwrite = ts.acceptKeyword("OVERWRITE");
    if (!overwrite) ts.expectKeyword("INTO");
    const { name, pos } = this.objectName("a sink table name");
    const partition = ts.acceptKeyword("PARTITION") ? this.staticPartition() : undefined;
    const columns = ts.isOp("(") ? this.targetColumns() : undefined;
    return {
      kind: "Insert", table: name, pos: pos > 0 ? pos : start, query: this.query(),
      ...(overwrite ? { overwrite } : {}), ...(columns ? { columns } : {}), ...(partition ? { partition } : {}),
    };
  }

  /** After PARTITION: `(k = literal, ...)`, Flink's static partition spec. */
  private staticPartition(): StaticPartitionValue[] {
    const ts = this.ts;
    ts.expectOp("(");
    const values: StaticPartitionValue[] = [];
    do {
      const pos = ts.peek().pos;
      const column = ts.identifier("a partition column name");
      ts.expectOp("=");
      const at = ts.peek();
      const value = parseSqlExpressionAt(ts);
      if (value.kind !== "Literal") return ts.raise(`the value of static partition column '${column}' must be a literal`, at);
      values.push({ name: column, value, pos });
    } while (ts.acceptOp(","));
    ts.expectOp(")");
    return values;
  }

  /** `(a, c)` after an INSERT's sink: the sink columns the query fills, each with its position for errors. */
  private targetColumns(): InsertColumn[] {
    const ts = this.ts;
    ts.expectOp("(");
    const columns: InsertColumn[] = [];
    do {
      const pos = ts.peek().pos;
      columns.push({ name: ts.identifier("a sink column name"), pos });
    } while (ts.acceptOp(","));
    ts.expectOp(")");
    return columns;
  }

  expectEnd(): void {
    const t = this.ts.peek();
    if (t.kind === "ident" && UNSUPPORTED_CLAUSES.includes(t.text.toUpperCase())) this.ts.raise(`${t.text.toUpperCase()} ${NOT_SUPPORTED}`, t);
    this.ts.expectEnd();
  }

  private ifNotExists(): boolean {
    if (!this.ts.isKeyword("IF")) return false;
    this.ts.next();
    this.ts.expectKeyword("NOT");
    this.ts.expectKeyword("EXISTS");
    return true;
  }

  /** A name, possibly qualified (`cat.db.t`): qualified names are not supported (one catalog, one database). */
  objectName(what: string): { name: string; pos: number } {
    const t = this.ts.peek();
    const name = this.ts.identifier(what);
    if (this.ts.isOp(".")) this.ts.raise(`qualified names (catalog.database.object) ${NOT_SUPPORTED}`, this.ts.peek());
    return { name, pos: t.pos };
  }

  private createView(temporary: boolean): CreateViewStatement {
    const ts = this.ts;
    const ifNotExists = this.ifNotExists();
    const { name, pos } = this.objectName("a view name");
    let columns: string[] | undefined;
    if (ts.acceptOp("(")) {
      columns = [];
      do columns.push(ts.identifier("a column name")); while (ts.acceptOp(","));
      ts.expectOp(")");
    }
    if (ts.isKeyword("COMMENT")) ts.raise(`COMMENT on a view ${NOT_SUPPORTED}`, ts.peek());
    ts.expectKeyword("AS");
    return { kind: "CreateView", name, pos, temporary, ifNotExists, columns, query: this.query() };
  }

  private createTable(temporary: boolean): CreateTableStatement {
    const ts = this.ts;
    const ifNotExists = this.ifNotExists();
    const { name, pos } = this.objectName("a table name");
    const columns: ColumnDef[] = [];
    let watermark: CreateTableStatement["watermark"];
    let primaryKey: string[] | undefined;
    // `CREATE TABLE t WITH (...) LIKE s`: a table copied from another may leave out the column list
    const hasColumns = ts.isOp("(");
    if (hasColumns) ts.next();
    else if (!ts.isKeyword("WITH") && !ts.isKeyword("LIKE")) ts.expectOp("(");
    if (hasColumns) do {
      const t = ts.peek();
      if (ts.isKeyword("WATERMARK")) {
        ts.next();
        if (watermark) ts.raise("a table has at most one WATERMARK declaration", t);
        ts.expectKeyword("FOR");
        const column = ts.identifier("the rowtime column");
        ts.expectKeyword("AS");
        watermark = { column, ...this.exprText(), pos: t.pos };
      } else if (ts.isKeyword("PRIMARY") || ts.isKeyword("CONSTRAINT")) {
        if (ts.acceptKeyword("CONSTRAINT")) ts.identifier("a constraint name");
        ts.expectKeyword("PRIMARY");
        ts.expectKeyword("KEY");
        if (primaryKey) ts.raise("a table has at most one PRIMARY KEY", t);
        ts.expectOp("(");
        primaryKey = [];
        do primaryKey.push(ts.identifier("a column name")); while (ts.acceptOp(","));
        ts.expectOp(")");
        // Flink requires NOT ENFORCED: it does not check primary keys
        ts.expectKeyword("NOT");
        ts.expectKeyword("ENFORCED");
      } else if (ts.isKeyword("LIKE")) {
        ts.raise("LIKE goes after the column list and the WITH clause: CREATE TABLE t (...) WITH (...) LIKE source", t);
      } else {
        const column = ts.identifier("a column name");
        if (ts.acceptKeyword("AS")) {
          columns.push({ kind: "computed", name: column, ...this.exprText(), pos: t.pos });
        } else {
          const type = parseTypeAt(ts, { sql: true });
          if (ts.acceptKeyword("METADATA")) {
            let key: string | undefined;
            if (ts.acceptKeyword("FROM")) key = this.stringLiteral("the metadata key as a string, e.g. 'file.path'");
            const virtual = ts.acceptKeyword("VIRTUAL");
            columns.push({ kind: "metadata", name: column, type, key, virtual, pos: t.pos });
          } else {
            columns.push({ kind: "physical", name: column, type, pos: t.pos });
            // `c INT PRIMARY KEY NOT ENFORCED`: the column alone is the table's primary key (Flink's inline form)
            const pk = ts.peek();
            if (ts.acceptKeyword("PRIMARY")) {
              ts.expectKeyword("KEY");
              if (primaryKey) ts.raise("a table has at most one PRIMARY KEY", pk);
              primaryKey = [column];
              ts.expectKeyword("NOT");
              ts.expectKeyword("ENFORCED");
            }
          }
          if (ts.isKeyword("COMMENT")) ts.raise(`column comments ${NOT_SUPPORTED}`, ts.peek());
        }
      }
    } while (ts.acceptOp(","));
    if (hasColumns) ts.expectOp(")");
    let comment: string | undefined;
    if (ts.acceptKeyword("COMMENT")) comment = this.stringLiteral("the comment as a string");
    const distribution = ts.isKeyword("DISTRIBUTED") ? this.distribution() : undefined;
    const partitionAt = ts.peek();
    let partitionedBy: CreateTableStatement["partitionedBy"];
    if (ts.acceptKeyword("PARTITIONED")) {
      ts.expectKeyword("BY");
      partitionedBy = { columns: this.nameList(), pos: partitionAt.pos };
    }
    if (ts.isKeyword("DISTRIBUTED")) ts.raise("DISTRIBUTED goes before PARTITIONED BY: CREATE TABLE t (...) DISTRIBUTED BY ... PARTITIONED BY (...) WITH (...)", ts.peek());
    const options = ts.acceptKeyword("WITH") ? optionList(ts) : [];
    const like = ts.acceptKeyword("LIKE") ? parseLike(ts, this) : undefined;
    return {
      kind: "CreateTable", name, pos, temporary, ifNotExists, columns, watermark, primaryKey, comment, options,
      ...(like ? { like } : {}), ...(distribution ? { distribution } : {}), ...(partitionedBy ? { partitionedBy } : {}),
    };
  }

  /** `DISTRIBUTED BY [HASH | RANGE] (k, ...) [INTO n BUCKETS]` or `DISTRIBUTED INTO n BUCKETS` (Flink's grammar). */
  private distribution(): DistributionClause {
    const ts = this.ts;
    const at = ts.next();
    let kind: DistributionClause["kind"] = "unknown";
    let keys: string[] = [];
    if (ts.acceptKeyword("BY")) {
      if (ts.acceptKeyword("HASH")) kind = "hash";
      else if (ts.acceptKeyword("RANGE")) kind = "range";
      keys = this.nameList();
    } else if (!ts.isKeyword("INTO")) {
      ts.fail("expected BY or INTO after DISTRIBUTED");
    }
    let buckets: number | undefined;
    if (ts.acceptKeyword("INTO")) {
      const n = ts.peek();
      buckets = ts.integer("the number of buckets");
      if (buckets <= 0) ts.raise("the number of buckets must be greater than zero", n);
      ts.expectKeyword("BUCKETS");
    }
    return { kind, keys, buckets, pos: at.pos };
  }

  private stringLiteral(what: string): string {
    const t = this.ts.peek();
    if (t.kind !== "string") this.ts.fail(`expected ${what}`);
    this.ts.next();
    return t.text;
  }

  /** An expression, validated here (errors at the statement's line and column), returned as its source text. */
  private exprText(): { sql: string } {
    const start = this.ts.peek();
    parseSqlExpressionAt(this.ts);
    const end = this.ts.peek();
    return { sql: this.ts.src.slice(start.pos, end.pos).trim() };
  }

  /** `[WITH ...] <set expression> [ORDER BY ...] [LIMIT n] [OFFSET n [ROWS]] [FETCH FIRST|NEXT n ROWS ONLY]`. */
  query(): Query {
    const ts = this.ts;
    const t = ts.peek();
    if (ts.acceptKeyword("WITH")) {
      const ctes: { name: string; columns: string[] | undefined; query: Query; pos: number }[] = [];
      do {
        const at = ts.peek();
        const name = ts.identifier("a WITH query name");
        const columns = ts.isOp("(") ? this.nameList() : undefined;
        ts.expectKeyword("AS");
        ts.expectOp("(");
        const query = this.query();
        ts.expectOp(")");
        ctes.push({ name, columns, query, pos: at.pos });
      } while (ts.acceptOp(","));
      return { kind: "With", pos: t.pos, ctes, body: this.query() };
    }
    const q = this.unionLevel();
    return this.ordered(q, t.pos);
  }

  private ordered(query: Query, pos: number): Query {
    const ts = this.ts;
    let orderBy: OrderedQuery["orderBy"] = [];
    if (ts.acceptKeyword("ORDER")) {
      ts.expectKeyword("BY");
      const items: { expr: ReturnType<typeof parseSqlExpressionAt>; ascending: boolean; nullsFirst: boolean | undefined; pos: number }[] = [];
      do {
        const at = ts.peek();
        const expr = parseSqlExpressionAt(ts, ITEM);
        const { ascending, nullsFirst } = this.direction();
        items.push({ expr, ascending, nullsFirst, pos: at.pos });
      } while (ts.acceptOp(","));
      orderBy = items;
    }
    let offset: number | undefined;
    let fetch: number | undefined;
    if (ts.acceptKeyword("LIMIT")) fetch = ts.integer("the LIMIT row count");
    if (ts.acceptKeyword("OFFSET")) {
      offset = ts.integer("the OFFSET row count");
      if (!ts.acceptKeyword("ROWS")) ts.acceptKeyword("ROW");
    }
    if (fetch === undefined && ts.acceptKeyword("FETCH")) {
      if (!ts.acceptKeyword("FIRST")) ts.expectKeyword("NEXT");
      fetch = ts.integer("the FETCH row count");
      if (!ts.acceptKeyword("ROWS")) ts.expectKeyword("ROW");
      ts.expectKeyword("ONLY");
    }
    if (orderBy.length === 0 && offset === undefined && fetch === undefined) return query;
    return { kind: "Ordered", pos, query, orderBy, offset, fetch };
  }

  /** UNION and EXCEPT (MINUS) bind looser than INTERSECT, as in standard SQL; all are left-associative. */
  private unionLevel(): Query {
    const ts = this.ts;
    let left = this.intersectLevel();
    for (;;) {
      const t = ts.peek();
      const op = ts.acceptKeyword("UNION") ? "UNION" : ts.acceptKeyword("EXCEPT") || ts.acceptKeyword("MINUS") ? "EXCEPT" : undefined;
      if (op === undefined) return left;
      const all = ts.acceptKeyword("ALL");
      if (!all) ts.acceptKeyword("DISTINCT");
      left = { kind: "SetOp", pos: t.pos, op, all, left, right: this.intersectLevel() };
    }
  }

  private intersectLevel(): Query {
    const ts = this.ts;
    let left = this.queryTerm();
    for (;;) {
      const t = ts.peek();
      if (!ts.acceptKeyword("INTERSECT")) return left;
      const all = ts.acceptKeyword("ALL");
      if (!all) ts.acceptKeyword("DISTINCT");
      left = { kind: "SetOp", pos: t.pos, op: "INTERSECT", all, left, right: this.queryTerm() };
    }
  }

  private queryTerm(): Query {
    const ts = this.ts;
    const t = ts.peek();
    if (ts.acceptOp("(")) {
      const q = this.query();
      ts.expectOp(")");
      return q;
    }
    if (ts.acceptKeyword("VALUES")) return this.values(t);
    if (!ts.acceptKeyword("SELECT")) return ts.fail("expected SELECT, VALUES or a query in parentheses");
    return this.select(t);
  }

  private values(start: Token): ValuesQuery {
    const ts = this.ts;
    const rows: { values: ReturnType<typeof parseSqlExpressionAt>[]; pos: number }[] = [];
    do {
      const at = ts.peek();
      if (ts.acceptOp("(")) {
        const values = [parseSqlExpressionAt(ts)];
        while (ts.acceptOp(",")) values.push(parseSqlExpressionAt(ts));
        ts.expectOp(")");
        rows.push({ values, pos: at.pos });
      } else {
        // `VALUES 1, 2, 3`: one-column rows
        rows.push({ values: [parseSqlExpressionAt(ts)], pos: at.pos });
      }
    } while (ts.acceptOp(","));
    return { kind: "Values", pos: start.pos, rows };
  }

  private select(start: Token): SelectQuery {
    const ts = this.ts;
    const hints = ts.isOp("/*+") ? this.hints() : undefined;
    const distinct = ts.acceptKeyword("DISTINCT");
    if (!distinct) ts.acceptKeyword("ALL");
    let items: SelectItem[] | undefined;
    if (ts.isOp("*") && (ts.isKeyword("FROM", 1))) {
      ts.next();
    } else {
      items = [];
      do items.push(this.selectItem()); while (ts.acceptOp(","));
    }
    ts.expectKeyword("FROM");
    const from = this.fromList();
    let where: SelectQuery["where"];
    const w = ts.peek();
    if (ts.acceptKeyword("WHERE")) where = { expr: parseSqlExpressionAt(ts, { ...PLAIN, subquery: () => this.query() }), pos: w.pos };
    let groupBy: SelectQuery["groupBy"];
    const g = ts.peek();
    if (ts.acceptKeyword("GROUP")) {
      ts.expectKeyword("BY");
      groupBy = { ...this.groupingElements(), pos: g.pos };
    }
    let having: SelectQuery["having"];
    const h = ts.peek();
    if (ts.acceptKeyword("HAVING")) having = { expr: parseSqlExpressionAt(ts, ITEM), pos: h.pos };
    const windows = this.windowClause();
    if (items !== undefined) items = substituteNamedWindows(items, windows, (message, pos) => ts.raise(message, { pos } as Token));
    return { kind: "Select", pos: start.pos, distinct, items, from, where, groupBy, having, ...(hints === undefined ? {} : { hints }) };
  }

  /** A hint comment `/*+ NAME('k'='v', ...), NAME2(a, b)` (closed as any comment): Flink's query hints. */
  private hints(): QueryHint[] {
    const ts = this.ts;
    ts.expectOp("/*+");
    const out: QueryHint[] = [];
    do {
      const at = ts.peek();
      const name = ts.identifier("a hint name").toUpperCase();
      const options: [string, string][] = [];
      if (ts.acceptOp("(")) {
        if (!ts.isOp(")")) {
          do {
            const key = ts.peek().kind === "string" ? ts.next().text : ts.identifier("a hint option");
            if (ts.acceptOp("=")) {
              if (ts.peek().kind !== "string") ts.fail("expected a string literal (the hint option's value)");
              options.push([key, ts.next().text]);
            } else {
              options.push([key, ""]);
            }
          } while (ts.acceptOp(","));
        }
        ts.expectOp(")");
      }
      out.push({ name, options, pos: at.pos });
    } while (ts.acceptOp(","));
    ts.expectOp("*/");
    return out;
  }

  /** `WINDOW w AS (PARTITION BY ... ORDER BY ... [frame]) {, w2 AS (...)}` after HAVING: the named windows of `OVER w`. */
  private windowClause(): Map<string, NamedWindow> {
    const ts = this.ts;
    const windows = new Map<string, NamedWindow>();
    if (!ts.acceptKeyword("WINDOW")) return windows;
    do {
      const at = ts.peek();
      const name = ts.identifier("a window name");
      if (windows.has(name)) ts.raise(`Duplicate window names not allowed: '${name}'`, at);
      ts.expectKeyword("AS");
      windows.set(name, { spec: parseWindowSpecAt(ts, PLAIN), pos: at.pos });
    } while (ts.acceptOp(","));
    return windows;
  }

  /**
   * `GROUP BY` elements: expressions, `GROUPING SETS ((a, b), (a), ())`, `ROLLUP(a, b)`, `CUBE(a, b)`; several
   * elements combine as the cross product of their sets (SQL's rule). Plain expressions only: `sets` undefined.
   */
  private groupingElements(): { exprs: ReturnType<typeof parseSqlExpressionAt>[]; sets?: number[][] } {
    const ts = this.ts;
    const exprs: ReturnType<typeof parseSqlExpressionAt>[] = [];
    const indexOf = (e: ReturnType<typeof parseSqlExpressionAt>): number => {
      const key = JSON.stringify(e, (k, v) => (k === "pos" ? undefined : v));
      const at = exprs.findIndex((x) => JSON.stringify(x, (k, v) => (k === "pos" ? undefined : v)) === key);
      if (at >= 0) return at;
      exprs.push(e);
      return exprs.length - 1;
    };
    const list = (): number[] => {
      ts.expectOp("(");
      const out: number[] = [];
      if (ts.acceptOp(")")) return out;
      do out.push(indexOf(parseSqlExpressionAt(ts, PLAIN))); while (ts.acceptOp(","));
      ts.expectOp(")");
      return out;
    };
    let sets: number[][] = [[]];
    let grouping = false;
    do {
      let element: number[][];
      if (ts.isKeyword("GROUPING") && ts.isKeyword("SETS", 1)) {
        ts.next(); ts.next();
        grouping = true;
        ts.expectOp("(");
        element = [];
        do element.push(ts.isOp("(") ? list() : [indexOf(parseSqlExpressionAt(ts, PLAIN))]); while (ts.acceptOp(","));
        ts.expectOp(")");
      } else if ((ts.isKeyword("ROLLUP") || ts.isKeyword("CUBE")) && ts.isOp("(", 1)) {
        const cube = ts.next().text.toUpperCase() === "CUBE";
        grouping = true;
        const keys = list();
        element = cube
          ? Array.from({ length: 1 << keys.length }, (_, m) => keys.filter((_, i) => (m & (1 << (keys.length - 1 - i))) === 0))
          : keys.map((_, i) => keys.slice(0, keys.length - i)).concat([[]]);
      } else if (ts.isOp("(") && ts.isOp(")", 1)) {
        ts.next(); ts.next();
        element = [[]];
        grouping = true;
      } else {
        element = [[indexOf(parseSqlExpressionAt(ts, PLAIN))]];
      }
      sets = sets.flatMap((s) => element.map((e) => [...s, ...e.filter((i) => !s.includes(i))]));
    } while (ts.acceptOp(","));
    return grouping ? { exprs, sets } : { exprs };
  }

  private selectItem(): SelectItem {
    const ts = this.ts;
    const at = ts.peek();
    if (ts.acceptOp("*")) return { expr: { kind: "Literal", value: null }, alias: undefined, pos: at.pos, star: "" };
    if ((at.kind === "ident" || at.kind === "quoted") && ts.isOp(".", 1) && ts.isOp("*", 2)) {
      ts.next(); ts.next(); ts.next();
      return { expr: { kind: "Literal", value: null }, alias: undefined, pos: at.pos, star: at.text };
    }
    const expr = parseSqlExpressionAt(ts, { ...ITEM, subquery: () => this.query() });
    return { expr, alias: this.alias(), pos: at.pos };
  }

  /** `AS name`, or a bare name that is not a clause keyword. */
  private alias(): string | undefined {
    const ts = this.ts;
    if (ts.acceptKeyword("AS")) return ts.identifier("an alias");
    const t = ts.peek();
    if ((t.kind === "ident" && !CLAUSE_WORDS.has(t.text.toUpperCase())) || t.kind === "quoted") return ts.identifier("an alias");
    return undefined;
  }

  private nameList(): string[] {
    const ts = this.ts;
    ts.expectOp("(");
    const names: string[] = [];
    do names.push(ts.identifier("a column name")); while (ts.acceptOp(","));
    ts.expectOp(")");
    return names;
  }

  /** FROM items joined by JOIN ... ON, CROSS JOIN or commas (a comma is a cross join; WHERE then holds the condition). */
  private fromList(): FromItem {
    const ts = this.ts;
    let left = this.fromItem();
    for (;;) {
      const t = ts.peek();
      let joinType: JoinKind | undefined;
      if (ts.acceptOp(",")) {
        left = { kind: "Join", joinType: "CROSS", left, right: this.fromItem(), on: undefined, pos: t.pos };
        continue;
      }
      if (ts.acceptKeyword("CROSS")) joinType = "CROSS";
      else if (ts.acceptKeyword("INNER")) joinType = "INNER";
      else if (ts.acceptKeyword("LEFT")) joinType = "LEFT";
      else if (ts.acceptKeyword("RIGHT")) joinType = "RIGHT";
      else if (ts.acceptKeyword("FULL")) joinType = "FULL";
      else if (ts.isKeyword("JOIN")) joinType = "INNER";
      else if (ts.isKeyword("NATURAL")) ts.raise(`NATURAL JOIN ${NOT_SUPPORTED}; write JOIN ... ON`, t);
      if (joinType === undefined) return left;
      if (joinType === "LEFT" || joinType === "RIGHT" || joinType === "FULL") ts.acceptKeyword("OUTER");
      ts.expectKeyword("JOIN");
      const right = this.fromItem();
      let on: ReturnType<typeof parseSqlExpressionAt> | undefined;
      if (joinType !== "CROSS") {
        if (ts.isKeyword("USING")) ts.raise(`JOIN ... USING ${NOT_SUPPORTED}; write JOIN ... ON`, ts.peek());
        ts.expectKeyword("ON");
        on = parseSqlExpressionAt(ts, PLAIN);
      }
      left = { kind: "Join", joinType, left, right, on, pos: t.pos };
    }
  }

  /** A FROM item, with `MATCH_RECOGNIZE (...) [AS] alias` after it when written (src/sql/match-recognize.ts). */
  private fromItem(): FromItem {
    const item = this.plainFromItem();
    if (!this.ts.isKeyword("MATCH_RECOGNIZE")) return item;
    const pos = this.ts.peek().pos;
    if ("alias" in item && item.alias !== undefined) this.ts.raise("the alias of a MATCH_RECOGNIZE goes after its closing parenthesis: FROM t MATCH_RECOGNIZE (...) AS m", this.ts.peek());
    const clause = parseMatchRecognize(this.ts);
    return { kind: "MatchRecognize", input: item, clause, pos, alias: this.alias() };
  }

  private plainFromItem(): FromItem {
    const ts = this.ts;
    const t = ts.peek();
    if (ts.acceptOp("(")) {
      const query = this.query();
      ts.expectOp(")");
      const alias = this.alias();
      const columns = alias !== undefined && ts.isOp("(") ? this.nameList() : undefined;
      return { kind: "Subquery", query, pos: t.pos, alias, columns };
    }
    if (ts.isKeyword("TABLE") && ts.isOp("(", 1)) {
      // `FROM TABLE(f(args))` is the standard spelling of `FROM f(args)` (window table functions are written so)
      ts.next(); ts.next();
      const call = this.fromItem();
      if (call.kind !== "Call") return ts.raise("expected a function call inside TABLE(...), e.g. TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '10' MINUTES))", t);
      if (call.alias !== undefined) ts.raise("an alias goes after TABLE(...)", t);
      ts.expectOp(")");
      return { ...call, alias: this.alias() };
    }
    if (ts.isKeyword("UNNEST") && ts.isOp("(", 1)) {
      ts.next(); ts.next();
      const expr = parseSqlExpressionAt(ts, PLAIN);
      ts.expectOp(")");
      const ordinality = ts.isKeyword("WITH") && ts.isKeyword("ORDINALITY", 1);
      if (ordinality) { ts.next(); ts.next(); }
      const alias = this.alias();
      const columns = alias !== undefined && ts.isOp("(") ? this.nameList() : undefined;
      return { kind: "Unnest", expr, pos: t.pos, alias, columns, ...(ordinality ? { ordinality } : {}) };
    }
    if (ts.acceptKeyword("LATERAL")) {
      ts.expectKeyword("TABLE");
      ts.expectOp("(");
      const at = ts.peek();
      const fn = ts.identifier("a table function name");
      ts.expectOp("(");
      const args: ReturnType<typeof parseSqlExpressionAt>[] = [];
      if (!ts.acceptOp(")")) {
        do args.push(parseSqlExpressionAt(ts, PLAIN)); while (ts.acceptOp(","));
        ts.expectOp(")");
      }
      ts.expectOp(")");
      const alias = this.alias();
      const columns = alias !== undefined && ts.isOp("(") ? this.nameList() : undefined;
      return { kind: "Lateral", fn, args, pos: at.pos, alias, columns };
    }
    const { name, pos } = this.objectName("a table name or a function call");
    if (ts.isKeyword("FOR") && ts.isKeyword("SYSTEM_TIME", 1)) {
      ts.next(); ts.next();
      ts.expectKeyword("AS");
      ts.expectKeyword("OF");
      const at = ts.peek();
      const expr = parseSqlExpressionAt(ts, PLAIN);
      return { kind: "Table", name, pos, asOf: { expr, pos: at.pos }, alias: this.alias() };
    }
    if (!ts.acceptOp("(")) return { kind: "Table", name, pos, alias: this.alias() };
    const args: CallArg[] = [];
    if (!ts.acceptOp(")")) {
      do args.push(this.callArg()); while (ts.acceptOp(","));
      ts.expectOp(")");
    }
    return { kind: "Call", name, pos, args, alias: this.alias() };
  }

  /** `name => value` or `value`; `=>` arrives as the tokens '=' and '>' side by side. */
  private callArg(): CallArg {
    const ts = this.ts;
    const at = ts.peek();
    let name: string | undefined;
    const eq = ts.peek(1);
    const gt = ts.peek(2);
    if ((at.kind === "ident" || at.kind === "quoted") && eq.kind === "op" && eq.text === "=" && gt.kind === "op" && gt.text === ">" && gt.pos === eq.pos + 1) {
      name = at.text;
      ts.next(); ts.next(); ts.next();
    }
    return { name, value: this.argValue(), pos: at.pos };
  }

  private argValue(): ArgValue {
    const ts = this.ts;
    const t = ts.peek();
    if (ts.isKeyword("TABLE") && !ts.isOp("(", 1)) {
      ts.next();
      const { name, pos } = this.objectName("a table name after TABLE");
      let partitionBy: string[] = [];
      let orderBy: OrderItem[] = [];
      if (ts.acceptKeyword("PARTITION")) {
        ts.expectKeyword("BY");
        partitionBy = this.columnList(() => ts.identifier("a PARTITION BY column"));
      }
      if (ts.acceptKeyword("ORDER")) {
        ts.expectKeyword("BY");
        orderBy = this.columnList(() => this.orderItem());
      }
      return { kind: "table", name, pos, partitionBy, orderBy };
    }
    if (ts.isKeyword("DESCRIPTOR") && ts.isOp("(", 1)) {
      ts.next();
      ts.next();
      const names: string[] = [];
      // DESCRIPTOR() is an empty column list (as in Flink)
      if (!ts.acceptOp(")")) {
        do names.push(ts.identifier("a column name")); while (ts.acceptOp(","));
        ts.expectOp(")");
      }
      return { kind: "descriptor", names };
    }
    if (ts.isKeyword("DEFAULT") && !ts.isOp("(", 1)) {
      ts.next();
      return { kind: "default" };
    }
    if (ts.isKeyword("SELECT")) ts.raise(`a subquery as a function argument ${NOT_SUPPORTED}; pass TABLE name`, t);
    return { kind: "expr", node: parseSqlExpressionAt(ts) };
  }

  /** `x` or `(x, y, ...)`. */
  private columnList<T>(item: () => T): T[] {
    const ts = this.ts;
    if (!ts.acceptOp("(")) return [item()];
    const out: T[] = [];
    do out.push(item()); while (ts.acceptOp(","));
    ts.expectOp(")");
    return out;
  }

  private orderItem(): OrderItem {
    const name = this.ts.identifier("an ORDER BY column");
    return { name, ...this.direction() };
  }

  /** `[ASC|DESC] [NULLS FIRST|LAST]`. */
  private direction(): { ascending: boolean; nullsFirst: boolean | undefined } {
    const ts = this.ts;
    let ascending = true;
    if (ts.acceptKeyword("DESC")) ascending = false;
    else ts.acceptKeyword("ASC");
    let nullsFirst: boolean | undefined;
    if (ts.acceptKeyword("NULLS")) {
      if (ts.acceptKeyword("FIRST")) nullsFirst = true;
      else if (ts.acceptKeyword("LAST")) nullsFirst = false;
      else ts.fail("expected FIRST or LAST after NULLS");
    }
    return { ascending, nullsFirst };
  }
}
