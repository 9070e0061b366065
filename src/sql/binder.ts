import { Expression } from "../expressions/expression.js";
import type { ExprNode } from "../expressions/node.js";
import { sqlParseError } from "../types/sql-parse-error.js";
import { evaluateConstant } from "../ptf/constant.js";
import { TableArgument } from "../ptf/table-arguments.js";
import { SqlParseError, TableError, ValidationError } from "../types/errors.js";
import { Row } from "../types/row.js";
import { Schema } from "../table/schema.js";
import type { Table } from "../table/table.js";
import { TableDescriptor } from "../table/table-descriptor.js";
import type { TableEnvironment } from "../table/table-environment.js";
import type { DataType } from "../types/data-type.js";
import { DataTypes } from "../types/data-types.js";
import { commonType } from "../types/values.js";
import type { CallArg, CreateTableStatement, CreateViewStatement, FromItem, Query, SelectQuery, ValuesQuery } from "./ast.js";

type AnyTable = Table<object>;
/** The fluent API's runtime surface, without its compile-time schema checks (SQL is checked when bound). */
type Untyped = {
  select(...fields: Expression<unknown>[]): AnyTable;
  filter(predicate: Expression<unknown>): AnyTable;
  as(...names: string[]): AnyTable;
};
const untyped = (t: AnyTable): Untyped => t as unknown as Untyped;

/**
 * Binds parsed statements onto the Table API: a SELECT becomes `from(...)`/`fromCall(...)` +
 * `filter` + `select`, VALUES becomes `fromValues`, CREATE TABLE a TableDescriptor. SQL therefore
 * shares every check, plan node and operator with the fluent API; there is no second execution path.
 * A validation error is re-raised with the line and column of the construct it concerns.
 */
export class Binder {
  constructor(private readonly env: TableEnvironment, private readonly src: string) {}

  /** Runs `f`; a TableError it raises gets the statement position (Flink: "SQL validation failed. From line 1, column 15 ..."). */
  private at<T>(pos: number, f: () => T): T {
    try {
      return f();
    } catch (e) {
      if (e instanceof SqlParseError || !(e instanceof TableError)) throw e;
      throw new ValidationError(`SQL validation failed. ${location(this.src, pos)}: ${e.message}`, { cause: e });
    }
  }

  query(q: Query): AnyTable {
    return q.kind === "Values" ? this.values(q, undefined) : this.select(q);
  }

  /** `VALUES (...), (...)`: each value a constant; the column types are the common types over the rows (Flink's VALUES). */
  private values(q: ValuesQuery, names: readonly string[] | undefined): AnyTable {
    const env = this.env;
    const arity = q.rows[0]!.values.length;
    const evaluated = q.rows.map((r, i) => {
      if (r.values.length !== arity) {
        throw sqlParseError(`VALUES row ${i + 1} has ${r.values.length} values but row 1 has ${arity}`, this.src, r.pos, "SQL statement");
      }
      return this.at(r.pos, () => r.values.map((v) => evaluateConstant(v, `VALUES row ${i + 1}`, env.planContext().resolveFunction)));
    });
    if (names !== undefined && names.length !== arity) {
      throw new ValidationError(`SQL validation failed. ${location(this.src, q.pos)}: the view declares ${names.length} column names [${names.join(", ")}] but VALUES has ${arity} columns`);
    }
    const types: DataType[] = [];
    for (let j = 0; j < arity; j++) {
      let t = evaluated[0]![j]!.type;
      for (let i = 1; i < evaluated.length; i++) {
        const next = evaluated[i]![j]!.type;
        t = this.at(q.rows[i]!.pos, () => commonType(t, next, () => `VALUES row ${i + 1}, column ${j + 1}`));
      }
      types.push(t);
    }
    // Flink names VALUES columns EXPR$0, EXPR$1, ...; a view's column list renames them
    const fields = types.map((t, j) => DataTypes.FIELD(names?.[j] ?? `EXPR$${j}`, t));
    const rows = evaluated.map((r) => Row.of(...r.map((c) => c.value)));
    return this.at(q.pos, () => env.fromValues(DataTypes.ROW(...fields) as DataType<object | null>, rows) as AnyTable);
  }

  private select(q: SelectQuery): AnyTable {
    let t = this.from(q.from);
    const where = q.where;
    if (where !== undefined) t = this.at(where.pos, () => untyped(t).filter(new Expression(where.expr)));
    const items = q.items;
    if (items === undefined) return t;
    const exprs = items.map((it, i) => new Expression(selectExpr(it.expr, it.alias, i)));
    const input = t;
    try {
      return untyped(input).select(...exprs);
    } catch (e) {
      // name the select item at fault: the first that fails on its own (else the whole list, e.g. duplicate names)
      const bad = items.findIndex((_, i) => { try { untyped(input).select(exprs[i]!); return false; } catch { return true; } });
      return this.at(bad >= 0 ? items[bad]!.pos : q.pos, () => { throw e; });
    }
  }

  private from(f: FromItem): AnyTable {
    if (f.kind === "Table") return this.table(f.name, f.pos);
    const args = f.args.map((a) => this.callArg(a));
    return this.at(f.pos, () => this.env.fromCall(f.name, ...(args as never[])) as unknown as AnyTable);
  }

  private table(name: string, pos: number): AnyTable {
    return this.at(pos, () => this.env.from(name) as AnyTable);
  }

  /** A SQL argument as the Table API argument it means, so that bindArguments sees the same call. */
  private callArg(a: CallArg): unknown {
    const v = a.value;
    let node: ExprNode;
    switch (v.kind) {
      case "table": {
        const table = this.table(v.name, v.pos);
        return new TableArgument(a.name, table, v.partitionBy, v.orderBy);
      }
      case "descriptor": node = { kind: "Descriptor", names: v.names }; break;
      case "default": node = { kind: "Default" }; break;
      default: node = v.node;
    }
    return new Expression(a.name === undefined ? node : { kind: "Argument", name: a.name, expr: node });
  }

  createView(s: CreateViewStatement): void {
    const env = this.env;
    if (s.ifNotExists && env.listTables().includes(s.name)) return;
    let t: AnyTable;
    if (s.query.kind === "Values") {
      t = this.values(s.query, s.columns);
    } else {
      t = this.select(s.query);
      const cols = s.columns;
      if (cols !== undefined) {
        const n = t.getResolvedSchema().size;
        if (cols.length !== n) {
          throw new ValidationError(`SQL validation failed. ${location(this.src, s.pos)}: the view declares ${cols.length} column names [${cols.join(", ")}] but its query has ${n} columns`);
        }
        const view = t;
        t = this.at(s.pos, () => untyped(view).as(...cols));
      }
    }
    const view = t;
    this.at(s.pos, () => env.createTemporaryView(s.name, view));
  }

  createTable(s: CreateTableStatement): void {
    const connector = s.options.find(([k]) => k === "connector");
    if (connector === undefined) {
      throw new ValidationError(`SQL validation failed. ${location(this.src, s.pos)}: table '${s.name}' needs the option 'connector', e.g. WITH ('connector' = 'datagen')`);
    }
    type Builder = {
      column(n: string, t: DataType): Builder; columnByExpression(n: string, e: string): Builder;
      watermark(c: string, e: string): Builder; primaryKey(...c: string[]): Builder; build(): Schema;
    };
    let schema = Schema.newBuilder() as unknown as Builder;
    for (const c of s.columns) {
      schema = this.at(c.pos, () => (c.kind === "physical" ? schema.column(c.name, c.type) : schema.columnByExpression(c.name, c.sql)));
    }
    const wm = s.watermark;
    if (wm !== undefined) schema = this.at(wm.pos, () => schema.watermark(wm.column, wm.sql));
    const pk = s.primaryKey;
    if (pk !== undefined) schema = this.at(s.pos, () => schema.primaryKey(...pk));
    const built = this.at(s.pos, () => schema.build());
    let builder = this.at(connector[2], () => TableDescriptor.forConnector(connector[1]).schema(built));
    for (const [key, value, pos] of s.options) {
      if (key !== "connector") builder = this.at(pos, () => builder.option(key, value));
    }
    if (s.comment !== undefined) builder = builder.comment(s.comment);
    const descriptor = builder.build();
    try {
      if (s.temporary) {
        if (s.ifNotExists && this.env.listTables().includes(s.name)) return;
        this.env.createTemporaryTable(s.name, descriptor);
      } else {
        this.env.createTable(s.name, descriptor, s.ifNotExists);
      }
    } catch (e) {
      // the schema is resolved at CREATE TABLE: point at the computed column or the watermark that fails
      const m = e instanceof ValidationError ? /^computed column '(.*?)' /.exec(e.message) : null;
      const column = m ? s.columns.find((c) => c.name === m[1]) : undefined;
      const pos = column?.pos ?? (e instanceof ValidationError && e.message.startsWith("watermark") && wm !== undefined ? wm.pos : s.pos);
      this.at(pos, () => { throw e; });
    }
  }
}

/**
 * A select item as a projection: a column keeps its name; any other expression is named EXPR$<i> by
 * its position in the select list, as Flink SQL does (the Table API would name it _c<i>).
 */
function selectExpr(e: ExprNode, alias: string | undefined, index: number): ExprNode {
  if (alias !== undefined) return { kind: "Alias", name: alias, extraNames: [], expr: e };
  if (e.kind === "Column") return e;
  return { kind: "Alias", name: `EXPR$${index}`, extraNames: [], expr: e };
}

/** `At line 1, column 15` for an offset into the statement. */
function location(src: string, pos: number): string {
  const before = src.slice(0, pos);
  const line = before.split("\n").length;
  return `At line ${line}, column ${pos - before.lastIndexOf("\n")}`;
}
