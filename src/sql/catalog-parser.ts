import type { TokenStream } from "../types/sql-lexer.js";
import type { InsertStatement, Query } from "./ast.js";
import type {
  AlterTableStatement, CatalogStatement, CreateFunctionStatement, DropStatement, ExplainStatement, LikeClause, LikeOption, ShowStatement,
  StatementSetStatement,
} from "./catalog-ast.js";

/** What the catalog statements need from the statement parser: queries and INSERTs (for EXPLAIN and statement sets). */
export interface QueryParser {
  query(): Query;
  /** After the INSERT keyword. */
  insert(start: number): InsertStatement;
  objectName(what: string): { name: string; pos: number };
}

const NOT_SUPPORTED = "is not supported by tablestream's SQL (docs/sql.md lists what is)";

/**
 * Parses the statements around queries (docs/sql.md, "Catalog statements"): DROP, ALTER TABLE, SHOW,
 * DESCRIBE, SET, RESET, EXPLAIN, EXECUTE STATEMENT SET. Returns undefined when the statement starts with
 * none of their keywords, so the caller's own error names what it expected.
 */
export function parseCatalogStatement(ts: TokenStream, p: QueryParser): CatalogStatement | ExplainStatement | StatementSetStatement | InsertStatement | undefined {
  const t = ts.peek();
  if (ts.acceptKeyword("DROP")) return drop(ts, p, t.pos);
  if (ts.acceptKeyword("ALTER")) return alter(ts, p, t.pos);
  if (ts.acceptKeyword("SHOW")) return show(ts, p, t.pos);
  if (ts.acceptKeyword("DESCRIBE") || ts.acceptKeyword("DESC")) {
    ts.acceptKeyword("EXTENDED");
    const { name, pos } = p.objectName("a table or view name");
    return { kind: "Describe", name, pos };
  }
  if (ts.acceptKeyword("SET")) {
    if (ts.atEnd() || ts.isOp(";")) return { kind: "Set", key: undefined, value: undefined, pos: t.pos };
    const key = stringLiteral(ts, "the option key as a string, e.g. SET 'table.exec.state.ttl' = '1 h'");
    ts.expectOp("=");
    const value = stringLiteral(ts, `the value of '${key}' as a string`);
    return { kind: "Set", key, value, pos: t.pos };
  }
  if (ts.acceptKeyword("RESET")) {
    if (ts.atEnd() || ts.isOp(";")) return { kind: "Reset", key: undefined, pos: t.pos };
    return { kind: "Reset", key: stringLiteral(ts, "the option key as a string"), pos: t.pos };
  }
  if (ts.acceptKeyword("EXPLAIN")) return explain(ts, p, t.pos);
  if (ts.isKeyword("EXECUTE")) {
    ts.next();
    if (ts.acceptKeyword("INSERT")) return p.insert(t.pos);
    return statementSet(ts, p, t.pos);
  }
  return undefined;
}

/** After `CREATE [TEMPORARY [SYSTEM]] FUNCTION`. */
export function parseCreateFunction(ts: TokenStream, p: QueryParser, temporary: boolean): CreateFunctionStatement {
  const ifNotExists = ifClause(ts, true);
  const { name, pos } = p.objectName("a function name");
  ts.expectKeyword("AS");
  const at = ts.peek();
  const identifier = stringLiteral(ts, "the function's class name as a string, e.g. 'org.example.MyFunction'");
  if (ts.acceptKeyword("LANGUAGE")) {
    const lang = ts.peek();
    const language = ts.identifier("JAVA or SCALA").toUpperCase();
    if (language !== "JAVA" && language !== "SCALA") ts.raise(`LANGUAGE ${language} ${NOT_SUPPORTED}; functions are registered from TypeScript (LANGUAGE JAVA or SCALA name them)`, lang);
  }
  if (ts.isKeyword("USING")) ts.raise(`USING JAR ${NOT_SUPPORTED}; register the function's implementation with env.createTemporaryFunction`, ts.peek());
  return { kind: "CreateFunction", name, pos, temporary, ifNotExists, identifier, identifierPos: at.pos };
}

/** `LIKE source [(INCLUDING ALL | EXCLUDING OPTIONS | ...)]` after the WITH clause of CREATE TABLE. */
export function parseLike(ts: TokenStream, p: QueryParser): LikeClause {
  const { name, pos } = p.objectName("the name of the table to copy");
  const options: LikeOption[] = [];
  if (ts.acceptOp("(")) {
    do {
      const at = ts.peek();
      const mode = ts.identifier("INCLUDING, EXCLUDING or OVERWRITING").toUpperCase();
      if (mode !== "INCLUDING" && mode !== "EXCLUDING" && mode !== "OVERWRITING") ts.fail("expected INCLUDING, EXCLUDING or OVERWRITING", at);
      const f = ts.peek();
      const feature = ts.identifier("ALL, CONSTRAINTS, PARTITIONS, GENERATED, OPTIONS, WATERMARKS or METADATA").toUpperCase();
      if (!["ALL", "CONSTRAINTS", "PARTITIONS", "GENERATED", "OPTIONS", "WATERMARKS", "METADATA"].includes(feature)) {
        ts.fail("expected ALL, CONSTRAINTS, PARTITIONS, GENERATED, OPTIONS, WATERMARKS or METADATA", f);
      }
      // Flink: OVERWRITING applies to GENERATED, OPTIONS, WATERMARKS and METADATA only
      if (mode === "OVERWRITING" && (feature === "ALL" || feature === "CONSTRAINTS" || feature === "PARTITIONS")) {
        ts.raise(`Illegal merging strategy 'OVERWRITING' for '${feature}' option.`, at);
      }
      options.push({ mode: mode as LikeOption["mode"], feature: feature as LikeOption["feature"], pos: at.pos });
    } while (ts.acceptOp(",") || (ts.peek().kind === "ident" && !ts.isOp(")")));
    ts.expectOp(")");
  }
  return { name, pos, options };
}

function drop(ts: TokenStream, p: QueryParser, start: number): DropStatement {
  const temporary = ts.acceptKeyword("TEMPORARY");
  if (temporary) ts.acceptKeyword("SYSTEM");
  const w = ts.peek();
  const object = ts.acceptKeyword("TABLE") ? "TABLE" : ts.acceptKeyword("VIEW") ? "VIEW" : ts.acceptKeyword("FUNCTION") ? "FUNCTION" : undefined;
  if (object === undefined) {
    if (w.kind === "ident") ts.raise(`DROP ${w.text.toUpperCase()} ${NOT_SUPPORTED}`, w);
    return ts.fail("expected TABLE, VIEW or FUNCTION");
  }
  const ifExists = ifClause(ts, false);
  const { name, pos } = p.objectName(`a ${object.toLowerCase()} name`);
  return { kind: "Drop", object, name, pos: pos > 0 ? pos : start, temporary, ifExists };
}

function alter(ts: TokenStream, p: QueryParser, _start: number): AlterTableStatement {
  const w = ts.peek();
  if (!ts.acceptKeyword("TABLE")) {
    if (w.kind === "ident") ts.raise(`ALTER ${w.text.toUpperCase()} ${NOT_SUPPORTED}`, w);
    return ts.fail("expected TABLE");
  }
  const ifExists = ifClause(ts, false);
  const { name, pos } = p.objectName("a table name");
  const a = ts.peek();
  if (ts.acceptKeyword("RENAME")) {
    if (!ts.isKeyword("TO")) ts.raise(`ALTER TABLE ... RENAME of a column ${NOT_SUPPORTED}; rename the table with RENAME TO`, ts.peek());
    ts.next();
    const to = p.objectName("the new table name");
    return { kind: "AlterTable", name, pos, ifExists, action: { kind: "rename", to: to.name, pos: to.pos } };
  }
  if (ts.acceptKeyword("SET")) return { kind: "AlterTable", name, pos, ifExists, action: { kind: "set", options: optionList(ts) } };
  if (ts.acceptKeyword("RESET")) {
    ts.expectOp("(");
    const keys: [string, number][] = [];
    do {
      const at = ts.peek();
      keys.push([stringLiteral(ts, "an option key as a string"), at.pos]);
    } while (ts.acceptOp(","));
    ts.expectOp(")");
    return { kind: "AlterTable", name, pos, ifExists, action: { kind: "reset", keys } };
  }
  if (a.kind === "ident") ts.raise(`ALTER TABLE ... ${a.text.toUpperCase()} ${NOT_SUPPORTED}; RENAME TO, SET (...) and RESET (...) are`, a);
  return ts.fail("expected RENAME TO, SET or RESET");
}

function show(ts: TokenStream, p: QueryParser, start: number): ShowStatement {
  const t = ts.peek();
  const word = t.kind === "ident" ? t.text.toUpperCase() : "";
  const like = (): ShowStatement["like"] => {
    const not = ts.acceptKeyword("NOT");
    const ilike = ts.isKeyword("ILIKE");
    if (ilike) ts.next();
    else if (!ts.acceptKeyword("LIKE")) {
      if (not) ts.fail("expected LIKE after NOT");
      return undefined;
    }
    return { pattern: stringLiteral(ts, "a LIKE pattern as a string"), not, ilike };
  };
  const plain = (what: ShowStatement["what"]): ShowStatement => {
    if (ts.isKeyword("FROM") || ts.isKeyword("IN")) ts.raise(`SHOW ${what} FROM a catalog or database ${NOT_SUPPORTED} (there is one of each)`, ts.peek());
    const l = like();
    return { kind: "Show", what, pos: start, ...(l ? { like: l } : {}) };
  };
  switch (word) {
    case "TABLES": ts.next(); return plain("TABLES");
    case "VIEWS": ts.next(); return plain("VIEWS");
    case "FUNCTIONS": ts.next(); return plain("FUNCTIONS");
    case "USER":
      ts.next();
      ts.expectKeyword("FUNCTIONS");
      return plain("USER FUNCTIONS");
    case "CATALOGS": ts.next(); return { kind: "Show", what: "CATALOGS", pos: start };
    case "DATABASES": ts.next(); return { kind: "Show", what: "DATABASES", pos: start };
    case "CURRENT": {
      ts.next();
      if (ts.acceptKeyword("CATALOG")) return { kind: "Show", what: "CURRENT CATALOG", pos: start };
      ts.expectKeyword("DATABASE");
      return { kind: "Show", what: "CURRENT DATABASE", pos: start };
    }
    case "COLUMNS": {
      ts.next();
      if (!ts.acceptKeyword("FROM")) ts.expectKeyword("IN");
      const table = p.objectName("a table or view name");
      const l = like();
      return { kind: "Show", what: "COLUMNS", pos: start, table, ...(l ? { like: l } : {}) };
    }
    case "CREATE": {
      ts.next();
      const what = ts.acceptKeyword("TABLE") ? "CREATE TABLE" : (ts.expectKeyword("VIEW"), "CREATE VIEW");
      return { kind: "Show", what, pos: start, table: p.objectName("a table or view name") };
    }
    default:
      if (t.kind === "ident") ts.raise(`SHOW ${word} ${NOT_SUPPORTED}`, t);
      return ts.fail("expected TABLES, VIEWS, FUNCTIONS, USER FUNCTIONS, COLUMNS or CREATE TABLE");
  }
}

function explain(ts: TokenStream, p: QueryParser, start: number): ExplainStatement {
  const details: string[] = [];
  if (ts.acceptKeyword("PLAN")) {
    ts.expectKeyword("FOR");
  } else {
    const DETAILS = ["CHANGELOG_MODE", "ESTIMATED_COST", "PLAN_ADVICE", "JSON_EXECUTION_PLAN"];
    while (ts.peek().kind === "ident" && DETAILS.includes(ts.peek().text.toUpperCase())) {
      const d = ts.next();
      const name = d.text.toUpperCase();
      if (name !== "CHANGELOG_MODE") ts.raise(`EXPLAIN ${name} ${NOT_SUPPORTED}; EXPLAIN [CHANGELOG_MODE] is`, d);
      if (details.includes(name)) ts.raise(`Duplicate EXPLAIN DETAIL is not allowed: ${name}`, d);
      details.push(name);
      if (!ts.acceptOp(",")) break;
    }
  }
  const t = ts.peek();
  if (ts.acceptKeyword("INSERT")) return { kind: "Explain", pos: start, details, target: p.insert(t.pos) };
  if (ts.isKeyword("EXECUTE") || ts.isKeyword("STATEMENT")) {
    ts.acceptKeyword("EXECUTE");
    return { kind: "Explain", pos: start, details, target: statementSet(ts, p, t.pos) };
  }
  if (ts.isKeyword("SELECT") || ts.isKeyword("VALUES") || ts.isKeyword("WITH") || ts.isOp("(")) {
    return { kind: "Explain", pos: start, details, target: { kind: "Query", query: p.query() } };
  }
  return ts.fail("expected a query, INSERT or STATEMENT SET after EXPLAIN");
}

/** After EXECUTE: `STATEMENT SET BEGIN INSERT ...; {INSERT ...;} END`. */
function statementSet(ts: TokenStream, p: QueryParser, start: number): StatementSetStatement {
  ts.expectKeyword("STATEMENT");
  ts.expectKeyword("SET");
  ts.expectKeyword("BEGIN");
  const inserts: InsertStatement[] = [];
  let end = ts.peek();
  for (;;) {
    const t = ts.peek();
    end = t;
    if (ts.acceptKeyword("END")) break;
    if (!ts.acceptKeyword("INSERT")) {
      if (inserts.length > 0) ts.fail("expected INSERT or END");
      ts.fail("expected INSERT: a statement set holds INSERT statements only");
    }
    inserts.push(p.insert(t.pos));
    ts.expectOp(";");
  }
  if (inserts.length === 0) ts.raise("a STATEMENT SET needs at least one INSERT", end);
  return { kind: "StatementSet", pos: start, inserts };
}

/** `IF EXISTS` (exists = false) or `IF NOT EXISTS` (exists = true). */
function ifClause(ts: TokenStream, notExists: boolean): boolean {
  if (!ts.isKeyword("IF")) return false;
  ts.next();
  if (notExists) ts.expectKeyword("NOT");
  ts.expectKeyword("EXISTS");
  return true;
}

/** `('k' = 'v', ...)`. */
export function optionList(ts: TokenStream): [string, string, number][] {
  ts.expectOp("(");
  const options: [string, string, number][] = [];
  do {
    const at = ts.peek();
    const key = stringLiteral(ts, "an option key as a string, e.g. 'connector'");
    ts.expectOp("=");
    const value = stringLiteral(ts, `the value of option '${key}' as a string`);
    options.push([key, value, at.pos]);
  } while (ts.acceptOp(","));
  ts.expectOp(")");
  return options;
}

function stringLiteral(ts: TokenStream, what: string): string {
  const t = ts.peek();
  if (t.kind !== "string") ts.fail(`expected ${what}`);
  ts.next();
  return t.text;
}
