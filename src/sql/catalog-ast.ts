import type { InsertStatement, Query } from "./ast.js";

/**
 * The statements around queries: catalog changes (CREATE FUNCTION, DROP, ALTER), catalog reads (SHOW,
 * DESCRIBE), configuration (SET, RESET), statement sets and EXPLAIN. Like the query AST, every node keeps
 * the source offset (`pos`) of the token a validation error points at.
 */
export type CatalogStatement =
  | CreateFunctionStatement | DropStatement | AlterTableStatement | ShowStatement | DescribeStatement | SetStatement | ResetStatement;

/** `CREATE [TEMPORARY [SYSTEM]] FUNCTION [IF NOT EXISTS] name AS 'identifier' [LANGUAGE JAVA|SCALA]`. */
export interface CreateFunctionStatement {
  readonly kind: "CreateFunction";
  readonly name: string;
  readonly pos: number;
  readonly temporary: boolean;
  readonly ifNotExists: boolean;
  /** The class name as written; its last dotted segment names a function registered in the environment. */
  readonly identifier: string;
  readonly identifierPos: number;
}

/** `DROP [TEMPORARY] TABLE|VIEW|FUNCTION [IF EXISTS] name`. */
export interface DropStatement {
  readonly kind: "Drop";
  readonly object: "TABLE" | "VIEW" | "FUNCTION";
  readonly name: string;
  readonly pos: number;
  readonly temporary: boolean;
  readonly ifExists: boolean;
}

/** `ALTER TABLE [IF EXISTS] name RENAME TO new` or `ALTER TABLE [IF EXISTS] name SET ('k' = 'v', ...)`. */
export interface AlterTableStatement {
  readonly kind: "AlterTable";
  readonly name: string;
  readonly pos: number;
  readonly ifExists: boolean;
  readonly action:
    | { readonly kind: "rename"; readonly to: string; readonly pos: number }
    | { readonly kind: "set"; readonly options: readonly (readonly [key: string, value: string, pos: number])[] }
    | { readonly kind: "reset"; readonly keys: readonly (readonly [key: string, pos: number])[] };
}

/**
 * `SHOW TABLES | VIEWS | [USER] FUNCTIONS [[NOT] LIKE 'pattern']`, `SHOW COLUMNS FROM|IN t [[NOT] LIKE 'pattern']`,
 * `SHOW CREATE TABLE|VIEW t`, `SHOW CURRENT CATALOG|DATABASE`, `SHOW CATALOGS|DATABASES`.
 */
export interface ShowStatement {
  readonly kind: "Show";
  readonly what: "TABLES" | "VIEWS" | "FUNCTIONS" | "USER FUNCTIONS" | "COLUMNS" | "CREATE TABLE" | "CREATE VIEW"
    | "CURRENT CATALOG" | "CURRENT DATABASE" | "CATALOGS" | "DATABASES";
  readonly pos: number;
  /** The table of SHOW COLUMNS / SHOW CREATE. */
  readonly table?: { readonly name: string; readonly pos: number };
  readonly like?: { readonly pattern: string; readonly not: boolean; readonly ilike: boolean };
}

/** `DESCRIBE t` / `DESC t`. */
export interface DescribeStatement {
  readonly kind: "Describe";
  readonly name: string;
  readonly pos: number;
}

/** `SET` (lists the options) or `SET 'key' = 'value'`. */
export interface SetStatement {
  readonly kind: "Set";
  readonly key: string | undefined;
  readonly value: string | undefined;
  readonly pos: number;
}

/** `RESET` (every option) or `RESET 'key'`. */
export interface ResetStatement {
  readonly kind: "Reset";
  readonly key: string | undefined;
  readonly pos: number;
}

/** `EXECUTE STATEMENT SET BEGIN INSERT ...; INSERT ...; END`: the inserts run as one job. */
export interface StatementSetStatement {
  readonly kind: "StatementSet";
  readonly pos: number;
  readonly inserts: readonly InsertStatement[];
}

/** `EXPLAIN [PLAN FOR | CHANGELOG_MODE | ESTIMATED_COST ...] <query | INSERT | STATEMENT SET>`. */
export interface ExplainStatement {
  readonly kind: "Explain";
  readonly pos: number;
  readonly details: readonly string[];
  readonly target:
    | { readonly kind: "Query"; readonly query: Query }
    | InsertStatement
    | StatementSetStatement;
}

/** One `LIKE` option: `INCLUDING ALL`, `EXCLUDING OPTIONS`, `OVERWRITING WATERMARKS`, ... */
export interface LikeOption {
  readonly mode: "INCLUDING" | "EXCLUDING" | "OVERWRITING";
  readonly feature: "ALL" | "CONSTRAINTS" | "PARTITIONS" | "GENERATED" | "OPTIONS" | "WATERMARKS" | "METADATA";
  readonly pos: number;
}

/** `CREATE TABLE t (...) WITH (...) LIKE source (options)`. */
export interface LikeClause {
  readonly name: string;
  readonly pos: number;
  readonly options: readonly LikeOption[];
}
