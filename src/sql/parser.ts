import { parseSqlExpressionAt } from "../expressions/sql-expression.js";
import { type Token, TokenStream } from "../types/sql-lexer.js";
import type { OrderItem } from "../ptf/order-by.js";
import { parseTypeAt } from "../types/parse-type.js";
import type {
  ArgValue, CallArg, ColumnDef, CreateTableStatement, CreateViewStatement, FromItem, Query, SelectItem, SelectQuery, Statement, ValuesQuery,
} from "./ast.js";

/** What SqlParseErrors of a statement say they were parsing: `cannot parse SQL statement '...' at line 1, column 8: ...`. */
const WHAT = "SQL statement";

/**
 * Statement keywords and clauses outside the supported subset: named in a "not supported" error
 * instead of a generic "unexpected input", so the user knows it is a limit, not a typo.
 */
const UNSUPPORTED_STATEMENTS = ["INSERT", "DROP", "ALTER", "WITH", "EXPLAIN", "SHOW", "DESCRIBE", "DESC", "USE", "SET", "RESET", "EXECUTE", "BEGIN", "LOAD", "UNLOAD", "TRUNCATE", "DELETE", "UPDATE", "ANALYZE", "CALL"];
const UNSUPPORTED_CLAUSES = ["JOIN", "LEFT", "RIGHT", "FULL", "INNER", "CROSS", "GROUP", "HAVING", "ORDER", "LIMIT", "OFFSET", "FETCH", "UNION", "INTERSECT", "EXCEPT", "MINUS", "WINDOW", "QUALIFY", "MATCH_RECOGNIZE", "LATERAL"];
const NOT_SUPPORTED = "is not supported by tablestream's SQL (docs/sql.md lists what is)";

/**
 * Parses one statement of the SQL subset in docs/sql.md into an AST. Uses the same tokens and
 * expression parser as computed columns and watermarks (src/expressions), so expressions mean the
 * same here as there. A trailing `;` is allowed.
 */
export function parseStatement(src: string): Statement {
  if (typeof src !== "string") throw new TypeError(`executeSql expects a string, got ${String(src)}`);
  const ts = TokenStream.of(src, WHAT);
  const p = new StatementParser(ts);
  const stmt = p.statement();
  ts.acceptOp(";");
  p.expectEnd();
  return stmt;
}

class StatementParser {
  constructor(private readonly ts: TokenStream) {}

  statement(): Statement {
    const ts = this.ts;
    const t = ts.peek();
    if (ts.isKeyword("SELECT") || ts.isKeyword("VALUES")) return { kind: "Query", query: this.query() };
    if (ts.acceptKeyword("CREATE")) {
      const temporary = ts.acceptKeyword("TEMPORARY");
      if (ts.acceptKeyword("VIEW")) return this.createView(temporary);
      if (ts.acceptKeyword("TABLE")) return this.createTable(temporary);
      const what = ts.peek();
      if (what.kind === "ident") ts.raise(`CREATE ${what.text.toUpperCase()} ${NOT_SUPPORTED}`, what);
      return ts.fail("expected VIEW or TABLE");
    }
    if (t.kind === "ident" && UNSUPPORTED_STATEMENTS.includes(t.text.toUpperCase())) ts.raise(`${t.text.toUpperCase()} ${NOT_SUPPORTED}`, t);
    return ts.fail("expected SELECT, VALUES, CREATE VIEW or CREATE TABLE");
  }

  expectEnd(): void {
    const t = this.ts.peek();
    if (t.kind === "ident" && UNSUPPORTED_CLAUSES.includes(t.text.toUpperCase())) this.ts.raise(`${t.text.toUpperCase()} ${NOT_SUPPORTED}`, t);
    if (t.kind === "op" && t.text === ",") this.ts.raise(`a FROM clause with several tables (a join) ${NOT_SUPPORTED}`, t);
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
  private objectName(what: string): { name: string; pos: number } {
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
    ts.expectOp("(");
    const columns: ColumnDef[] = [];
    let watermark: CreateTableStatement["watermark"];
    let primaryKey: string[] | undefined;
    do {
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
        ts.raise(`LIKE in CREATE TABLE ${NOT_SUPPORTED}`, t);
      } else {
        const column = ts.identifier("a column name");
        if (ts.acceptKeyword("AS")) {
          columns.push({ kind: "computed", name: column, ...this.exprText(), pos: t.pos });
        } else {
          const type = parseTypeAt(ts);
          if (ts.isKeyword("METADATA")) ts.raise(`METADATA columns ${NOT_SUPPORTED}`, ts.peek());
          if (ts.isKeyword("PRIMARY")) ts.raise(`an inline PRIMARY KEY ${NOT_SUPPORTED}; declare PRIMARY KEY (${column}) NOT ENFORCED after the columns`, ts.peek());
          if (ts.isKeyword("COMMENT")) ts.raise(`column comments ${NOT_SUPPORTED}`, ts.peek());
          columns.push({ kind: "physical", name: column, type, pos: t.pos });
        }
      }
    } while (ts.acceptOp(","));
    ts.expectOp(")");
    let comment: string | undefined;
    if (ts.acceptKeyword("COMMENT")) comment = this.stringLiteral("the comment as a string");
    if (ts.isKeyword("PARTITIONED") || ts.isKeyword("DISTRIBUTED")) ts.raise(`${ts.peek().text.toUpperCase()} BY ${NOT_SUPPORTED}`, ts.peek());
    const options: [string, string, number][] = [];
    if (ts.acceptKeyword("WITH")) {
      ts.expectOp("(");
      do {
        const at = ts.peek();
        const key = this.stringLiteral("an option key as a string, e.g. 'connector'");
        ts.expectOp("=");
        const value = this.stringLiteral(`the value of option '${key}' as a string`);
        options.push([key, value, at.pos]);
      } while (ts.acceptOp(","));
      ts.expectOp(")");
    }
    return { kind: "CreateTable", name, pos, temporary, ifNotExists, columns, watermark, primaryKey, comment, options };
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

  query(): Query {
    const ts = this.ts;
    const t = ts.peek();
    if (ts.acceptKeyword("VALUES")) return this.values(t);
    ts.expectKeyword("SELECT");
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
    if (ts.isKeyword("DISTINCT") || ts.isKeyword("ALL")) ts.raise(`SELECT ${ts.peek().text.toUpperCase()} ${NOT_SUPPORTED}`, ts.peek());
    let items: SelectItem[] | undefined;
    if (!ts.acceptOp("*")) {
      items = [];
      do items.push(this.selectItem()); while (ts.acceptOp(","));
    }
    ts.expectKeyword("FROM");
    const from = this.fromItem();
    let where: SelectQuery["where"];
    const w = ts.peek();
    if (ts.acceptKeyword("WHERE")) where = { expr: parseSqlExpressionAt(ts), pos: w.pos };
    return { kind: "Select", pos: start.pos, items, from, where };
  }

  private selectItem(): SelectItem {
    const ts = this.ts;
    const at = ts.peek();
    if (ts.isOp("*")) ts.raise(`'*' together with other select items ${NOT_SUPPORTED}`, at);
    const expr = parseSqlExpressionAt(ts);
    let alias: string | undefined;
    if (ts.acceptKeyword("AS")) alias = ts.identifier("a column alias");
    else if ((ts.peek().kind === "ident" && !ts.isKeyword("FROM")) || ts.peek().kind === "quoted") alias = ts.identifier("a column alias");
    return { expr, alias, pos: at.pos };
  }

  private fromItem(): FromItem {
    const ts = this.ts;
    const t = ts.peek();
    if (ts.isOp("(")) ts.raise(`a subquery in FROM ${NOT_SUPPORTED}; register it with CREATE VIEW first`, t);
    if (ts.isKeyword("TABLE") && ts.isOp("(", 1)) ts.raise(`FROM TABLE(...) ${NOT_SUPPORTED}; call the function directly: FROM f(...)`, t);
    const { name, pos } = this.objectName("a table name or a function call");
    if (!ts.acceptOp("(")) {
      // `FROM t AS x` / `FROM t x`: aliases are not needed without joins
      if (ts.isKeyword("AS") || (ts.peek().kind === "ident" && !ts.isKeyword("WHERE") && !UNSUPPORTED_CLAUSES.includes(ts.peek().text.toUpperCase()))) {
        ts.raise(`table aliases ${NOT_SUPPORTED}`, ts.peek());
      }
      return { kind: "Table", name, pos };
    }
    const args: CallArg[] = [];
    if (!ts.acceptOp(")")) {
      do args.push(this.callArg()); while (ts.acceptOp(","));
      ts.expectOp(")");
    }
    return { kind: "Call", name, pos, args };
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
    const ts = this.ts;
    const name = ts.identifier("an ORDER BY column");
    let ascending = true;
    if (ts.acceptKeyword("DESC")) ascending = false;
    else ts.acceptKeyword("ASC");
    let nullsFirst: boolean | undefined;
    if (ts.acceptKeyword("NULLS")) {
      if (ts.acceptKeyword("FIRST")) nullsFirst = true;
      else if (ts.acceptKeyword("LAST")) nullsFirst = false;
      else ts.fail("expected FIRST or LAST after NULLS");
    }
    return { name, ascending, nullsFirst };
  }
}
