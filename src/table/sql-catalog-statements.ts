import type { TableEnvironment } from "./table-environment.js";
import type { TableResult } from "./table-result.js";
import type { ChangelogKind } from "./table.js";
import { TableDescriptor, type TableDescriptorBuilder } from "./table-descriptor.js";
import { DataTypes } from "../types/data-types.js";
import { resolveSchema } from "./schema-resolve.js";
import { ValidationError } from "../types/errors.js";
import { SQL_FUNCTION_NAMES } from "../expressions/sql-expression.js";
import type { AlterTableStatement, CatalogStatement, CreateFunctionStatement, DropStatement, ShowStatement } from "../sql/catalog-ast.js";
import { closestName } from "../sql/closest-name.js";

/** ` Did you mean 'x'?` after a message that ends with a period, or nothing. */
const didYouMean = (name: string, known: readonly string[]): string => {
  const c = closestName(name, known);
  return c === undefined ? "" : ` Did you mean '${c}'?`;
};
import { okResult, rowsResult, TextResult } from "./sql-results.js";

/** The one catalog and database: Flink's default names, used in identifiers of messages and results. */
const PATH = "default_catalog.default_database";
const quoted = (name: string) => `\`default_catalog\`.\`default_database\`.\`${name}\``;

/**
 * Runs the catalog statements (docs/sql.md, "Catalog statements") against the environment, each with
 * Flink's result shape and messages. `fail(pos, message)` raises a ValidationError at a statement position.
 */
export function executeCatalogStatement(env: TableEnvironment, s: CatalogStatement, fail: (pos: number, message: string) => never): TableResult<Record<string, unknown>> {
  switch (s.kind) {
    case "CreateFunction": createFunction(env, s, fail); return okResult();
    case "Drop": drop(env, s, fail); return okResult();
    case "AlterTable": alter(env, s, fail); return okResult();
    case "Show": return show(env, s, fail);
    case "Describe": return describe(env, s.name, s.pos, fail);
    case "Set": {
      const config = env.getConfig();
      if (s.key === undefined) {
        const rows = [...config.options].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
        return rowsResult([["key", DataTypes.STRING()], ["value", DataTypes.STRING()]], rows);
      }
      config.set(s.key, s.value!);
      return okResult();
    }
    case "Reset": {
      const options = env.getConfig().options;
      if (s.key === undefined) options.clear();
      else options.delete(s.key);
      return okResult();
    }
  }
}

/**
 * `CREATE FUNCTION name AS 'org.example.Impl'`: tablestream cannot load classes, so the identifier's last
 * dotted segment (`Impl`) names a function already registered in the environment (createFunction /
 * createTemporaryFunction, case-insensitive); `name` is registered for that same function object.
 */
function createFunction(env: TableEnvironment, s: CreateFunctionStatement, fail: (pos: number, message: string) => never): void {
  const simple = s.identifier.slice(s.identifier.lastIndexOf(".") + 1);
  const impl = env.functions.lookup(simple);
  if (impl === undefined) {
    const known = env.listUserDefinedFunctions();
    fail(s.identifierPos, `Could not find the implementation '${s.identifier}' of function '${s.name}': CREATE FUNCTION resolves the class name's last segment ('${simple}') against the functions registered in the environment (env.createTemporaryFunction('${simple}', ...)); registered: [${known.join(", ")}]${didYouMean(simple, known)}`);
  }
  const existing = env.functions.lookup(s.name);
  // the name is already registered for this very implementation: the declaration matches what is there
  if (existing !== undefined && existing.fn === impl.fn && existing.temporary === s.temporary) return;
  try {
    if (s.temporary) {
      if (existing?.temporary && s.ifNotExists) return;
      env.createTemporaryFunction(s.name, impl.fn as never);
    } else {
      env.createFunction(s.name, impl.fn as never, s.ifNotExists);
    }
  } catch (e) {
    if (!(e instanceof ValidationError)) throw e;
    fail(s.pos, e.message.includes("already exist")
      ? `Could not execute CREATE ${s.temporary ? "TEMPORARY " : ""}FUNCTION: Function ${PATH}.${s.name} already exists.`
      : e.message);
  }
}

function drop(env: TableEnvironment, s: DropStatement, fail: (pos: number, message: string) => never): void {
  const id = `${PATH}.${s.name}`;
  switch (s.object) {
    case "TABLE": {
      const t = env.tables.get(s.name);
      if (t === undefined) {
        if (s.ifExists) return;
        fail(s.pos, `${s.temporary ? "Temporary table" : "Table"} with identifier '${id}' does not exist.${didYouMean(s.name, env.tables.names())}`);
      }
      if (t.temporary !== s.temporary) {
        if (t.temporary) fail(s.pos, `Temporary table with identifier '${id}' exists. Drop it first before removing the permanent table.`);
        if (s.ifExists) return;
        fail(s.pos, `Temporary table with identifier '${id}' does not exist.`);
      }
      env.tables.drop(s.name, s.temporary);
      return;
    }
    case "VIEW": {
      // every view is temporary here (CREATE VIEW registers a temporary view), so both forms drop it
      if (!env.dropTemporaryView(s.name) && !s.ifExists) {
        fail(s.pos, `${s.temporary ? "Temporary view" : "View"} with identifier '${id}' does not exist.${didYouMean(s.name, env.listViews())}`);
      }
      return;
    }
    case "FUNCTION": {
      const dropped = s.temporary ? env.dropTemporaryFunction(s.name) : env.dropFunction(s.name);
      if (!dropped && !s.ifExists) {
        fail(s.pos, `${s.temporary ? "Temporary catalog function" : "Function"} ${id} doesn't exist.${didYouMean(s.name, env.listUserDefinedFunctions())}`);
      }
    }
  }
}

function alter(env: TableEnvironment, s: AlterTableStatement, fail: (pos: number, message: string) => never): void {
  const t = env.tables.get(s.name);
  if (t === undefined || t.temporary) {
    if (s.ifExists) return;
    fail(s.pos, `Table ${quoted(s.name)} doesn't exist or is a temporary table.`);
  }
  const a = s.action;
  if (a.kind === "rename") {
    if (env.listTables().includes(a.to)) fail(a.pos, `Could not execute ALTER TABLE ${PATH}.${s.name} RENAME TO ${PATH}.${a.to}: a table or view '${a.to}' already exists`);
    env.tables.drop(s.name, false);
    env.createTable(a.to, t.descriptor);
    return;
  }
  let b = t.descriptor.toBuilder();
  if (a.kind === "set") {
    if (a.options.some(([k]) => k === "connector")) {
      // the connector is part of the descriptor's identity: rebuild it with the new one
      const connector = a.options.find(([k]) => k === "connector")![1];
      b = rebuild(t.descriptor, connector);
    }
    for (const [k, v, pos] of a.options) {
      if (k === "connector") continue;
      try { b = b.option(k, v); } catch (e) { fail(pos, (e as Error).message); }
    }
  } else {
    const keys = new Set(a.keys.map(([k]) => k));
    const missing = a.keys.find(([k]) => k === "connector");
    if (missing) fail(missing[1], "ALTER TABLE RESET does not support changing 'connector'");
    b = rebuild(t.descriptor, t.descriptor.connector, keys);
  }
  const descriptor = b.build();
  env.tables.drop(s.name, false);
  try {
    env.createTable(s.name, descriptor);
  } catch (e) {
    env.createTable(s.name, t.descriptor);
    throw e;
  }
}

/** A descriptor with another connector and without some options (the connector is fixed by forConnector). */
function rebuild(d: TableDescriptor<object>, connector: string, without: ReadonlySet<string> = new Set()): TableDescriptorBuilder<object, ChangelogKind> {
  let b: TableDescriptorBuilder<object, ChangelogKind> = TableDescriptor.forConnector(connector) as TableDescriptorBuilder<object, ChangelogKind>;
  if (d.schemaSpec) b = b.schema(d.schemaSpec);
  for (const [k, v] of d.options) if (!without.has(k)) b = b.option(k, v);
  if (d.comment !== undefined) b = b.comment(d.comment);
  if (d.attachment !== undefined) b = b.attach(d.attachment);
  return b;
}

/** SQL LIKE: `%` any run, `_` one character; ILIKE ignores case. */
function likeFilter(like: ShowStatement["like"]): (name: string) => boolean {
  if (like === undefined) return () => true;
  const re = new RegExp(`^${[...like.pattern].map((c) => (c === "%" ? ".*" : c === "_" ? "." : c.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))).join("")}$`, like.ilike ? "is" : "s");
  return (name) => re.test(name) !== like.not;
}

function show(env: TableEnvironment, s: ShowStatement, fail: (pos: number, message: string) => never): TableResult<Record<string, unknown>> {
  const keep = likeFilter(s.like);
  const list = (column: string, names: readonly string[]) => rowsResult([[column, DataTypes.STRING()]], [...names].filter(keep).sort().map((n) => [n]));
  switch (s.what) {
    case "TABLES": return list("table name", env.listTables());
    case "VIEWS": return list("view name", env.listViews());
    case "USER FUNCTIONS": return list("function name", env.listUserDefinedFunctions());
    case "FUNCTIONS": return list("function name", [...new Set([...SQL_FUNCTION_NAMES, ...env.listUserDefinedFunctions()])]);
    case "CATALOGS": return list("catalog name", ["default_catalog"]);
    case "DATABASES": return list("database name", ["default_database"]);
    case "CURRENT CATALOG": return list("current catalog name", ["default_catalog"]);
    case "CURRENT DATABASE": return list("current database name", ["default_database"]);
    case "COLUMNS": return describe(env, s.table!.name, s.table!.pos, fail, keep);
    case "CREATE TABLE": case "CREATE VIEW": {
      const { name, pos } = s.table!;
      const t = env.tables.get(name);
      if (s.what === "CREATE VIEW" || t === undefined) {
        if (env.listViews().includes(name)) {
          if (s.what === "CREATE TABLE") fail(pos, `SHOW CREATE TABLE is only supported for tables, but ${quoted(name)} is a view. Please use SHOW CREATE VIEW instead.`);
          const sql = (env.from(name) as unknown as { toSql(): string }).toSql();
          return new TextResult(`CREATE TEMPORARY VIEW ${quoted(name)} AS\n${sql}\n`);
        }
        fail(pos, s.what === "CREATE VIEW" && t !== undefined
          ? `SHOW CREATE VIEW is only supported for views, but ${quoted(name)} is a table. Please use SHOW CREATE TABLE instead.`
          : `Could not execute SHOW ${s.what}. Table with identifier ${quoted(name)} does not exist.`);
      }
      return new TextResult(`CREATE ${t.temporary ? "TEMPORARY " : ""}TABLE ${quoted(name)} ${t.descriptor.toString()}\n`);
    }
  }
}

/**
 * DESCRIBE t / SHOW COLUMNS FROM t: Flink's columns `name`, `type` (nullable form), `null`, `key`
 * (`PRI(a, b)`), `extras` (`AS expr` of a computed column) and `watermark` (the watermark expression).
 */
function describe(env: TableEnvironment, name: string, pos: number, fail: (pos: number, message: string) => never, keep: (n: string) => boolean = () => true) {
  if (!env.listTables().includes(name)) {
    fail(pos, `Tables or views with the identifier '${PATH}.${name}' doesn't exist.${didYouMean(name, env.listTables())}`);
  }
  const spec = env.listViews().includes(name) ? undefined : env.tables.get(name)?.descriptor.schemaSpec;
  // a connector table's own schema (a sink-only table cannot be scanned)
  const resolved = spec !== undefined ? resolveSchema(spec, env.planContext()).schema : env.from(name).getResolvedSchema();
  const pk = spec?.primaryKeySpec?.columns;
  const rows = resolved.columns.filter((c) => keep(c.name)).map((c) => {
    const decl = spec?.columns.find((x) => x.name === c.name);
    const extras = decl?.kind === "computed" ? `AS ${decl.sql ?? "<expression>"}`
      : decl?.kind === "metadata" ? `METADATA${decl.key === undefined ? "" : ` FROM '${decl.key}'`}${decl.virtual ? " VIRTUAL" : ""}` : null;
    const wm = spec?.watermarkSpec?.column === c.name ? spec.watermarkSpec.sql ?? null : null;
    return [c.name, c.type.nullable().toString(), c.type.isNullable, pk?.includes(c.name) ? `PRI(${pk.join(", ")})` : null, extras, wm];
  });
  return rowsResult([
    ["name", DataTypes.STRING()], ["type", DataTypes.STRING()], ["null", DataTypes.BOOLEAN()], ["key", DataTypes.STRING()],
    ["extras", DataTypes.STRING()], ["watermark", DataTypes.STRING()],
  ], rows);
}

