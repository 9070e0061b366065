import { Expression } from "../expressions/expression.js";
import { type ExprNode, nodeToString } from "../expressions/node.js";
import { parseSqlExpression } from "../expressions/sql-expression.js";
import type { Resolve, TErr, TableTypeError } from "../expressions/type-level.js";
import { ValidationError } from "../types/errors.js";
import { DataType } from "../types/data-type.js";
import { type SqlTypeValue, toDataType } from "../types/parse-type.js";
import type { Flatten, NodeOfExpr } from "./typing.js";

/**
 * The declared (unresolved) schema of a table, as Flink's `Schema`: physical columns, computed columns,
 * a watermark declaration and a primary key. `S` is the TypeScript row type; columns given a DataType
 * (or a scalar SQL type string) are typed exactly, computed columns given as SQL text are `unknown`.
 *
 * ```ts
 * const schema = Schema.newBuilder()
 *   .column("ts", "TIMESTAMP_LTZ(3)")
 *   .column("random", DataTypes.INT())
 *   .columnByExpression("name", "IF(random % 2 = 0, 'Bob', 'Alice')")
 *   .watermark("ts", "ts - INTERVAL '1' SECOND")
 *   .build();
 * // Schema<{ ts: Date | null; random: number | null; name: unknown }>
 * ```
 * Types and expressions are resolved where the schema is used (`env.fromValues(schema, ...)`,
 * `env.createTable(...)`), against the environment's functions, as in Flink.
 */
export class Schema<S extends object = Record<string, unknown>> {
  /** Phantom: the row type. */
  declare readonly __schema: S;

  /** @internal use Schema.newBuilder() */
  constructor(
    readonly columns: readonly SchemaColumn[],
    readonly watermarkSpec: SchemaWatermark | undefined,
    readonly primaryKeySpec: SchemaPrimaryKey | undefined,
  ) {
    Object.freeze(this);
  }

  static newBuilder(): SchemaBuilder<{}> {
    return new SchemaBuilder<{}>([], undefined, undefined);
  }

  /** Column names in declared order. */
  get columnNames(): string[] {
    return this.columns.map((c) => c.name);
  }

  /** Flink's rendering: one line per column, computed columns with `AS`, then watermark and constraint. */
  toString(): string {
    const lines = this.columns.map((c) => (c.kind === "physical" ? `  \`${c.name}\` ${c.type}`
      : c.kind === "metadata" ? `  \`${c.name}\` ${c.type} METADATA${c.key === undefined ? "" : ` FROM '${c.key}'`}${c.virtual ? " VIRTUAL" : ""}`
      : `  \`${c.name}\` AS ${c.sql ?? nodeToString(c.expr)}`));
    if (this.watermarkSpec) lines.push(`  WATERMARK FOR \`${this.watermarkSpec.column}\` AS ${this.watermarkSpec.sql ?? nodeToString(this.watermarkSpec.expr)}`);
    if (this.primaryKeySpec) {
      lines.push(`  CONSTRAINT \`${this.primaryKeySpec.name}\` PRIMARY KEY (${this.primaryKeySpec.columns.map((c) => `\`${c}\``).join(", ")}) NOT ENFORCED`);
    }
    return `(\n${lines.join(",\n")}\n)`;
  }
}

export type SchemaColumn =
  | { readonly kind: "physical"; readonly name: string; readonly type: DataType }
  /** `sql` keeps the text a SQL-declared column was written as (for toString and error messages). */
  | { readonly kind: "computed"; readonly name: string; readonly expr: ExprNode; readonly sql?: string }
  /** Flink's metadata column: a value the source delivers next to the row under `key` (default: the column name). */
  | { readonly kind: "metadata"; readonly name: string; readonly type: DataType; readonly key?: string; readonly virtual: boolean };

export interface SchemaWatermark {
  readonly column: string;
  readonly expr: ExprNode;
  readonly sql?: string;
}

export interface SchemaPrimaryKey {
  readonly name: string;
  readonly columns: readonly string[];
}

/** TypeScript value of a column type given as a DataType or a SQL type string. */
export type ColumnValue<T> = T extends DataType<infer V> ? V : T extends string ? SqlTypeValue<T> : unknown;

type CheckNewColumn<S, N extends string> = N extends keyof S ? TableTypeError<`column '${N}' is declared twice`> : unknown;

/** A computed column expression must resolve against the columns declared before it. */
type CheckComputed<S, E> =
  E extends string ? unknown
  : Resolve<S, NodeOfExpr<E>> extends infer R ? (R extends TErr<infer M> ? TableTypeError<M> : unknown) : never;
type ComputedValue<S, E> = E extends string ? unknown : Resolve<S, NodeOfExpr<E>>;

/** The watermark column must be a timestamp (or of a type only known at run time). */
type CheckRowtime<S, C extends keyof S> =
  unknown extends S[C] ? unknown
  : [NonNullable<S[C]>] extends [Date] ? unknown
  : TableTypeError<`watermark column '${C & string}' must be a TIMESTAMP(p) or TIMESTAMP_LTZ(p) column`>;

/**
 * Builds a Schema one declaration at a time; each step's type records the columns so far, so later
 * steps (watermark, primaryKey, expressions) are checked against them.
 */
export class SchemaBuilder<S extends object> {
  declare readonly __schema: S;

  /** @internal */
  constructor(
    private readonly columns: readonly SchemaColumn[],
    private readonly wm: SchemaWatermark | undefined,
    private readonly pk: SchemaPrimaryKey | undefined,
  ) {}

  private checkName(name: string, what: string): void {
    if (typeof name !== "string" || name.length === 0) throw new ValidationError(`${what}: a column name must be a non-empty string`);
    if (this.columns.some((c) => c.name === name)) {
      throw new ValidationError(`${what}: column '${name}' is declared twice in [${this.columns.map((c) => c.name).join(", ")}]`);
    }
  }

  /** A physical column: `.column("age", DataTypes.INT())` or `.column("ts", "TIMESTAMP_LTZ(3)")`. */
  column<const N extends string, const T extends DataType<unknown> | string>(name: N & CheckNewColumn<S, N>, type: T):
    SchemaBuilder<S & { [K in N]: ColumnValue<T> }> {
    this.checkName(name, "column");
    const dt = toDataType(type as DataType | string, `column '${name}'`);
    return new SchemaBuilder([...this.columns, { kind: "physical", name, type: dt }], this.wm, this.pk);
  }

  /**
   * A computed column, from an expression over the physical columns or SQL text:
   * `.columnByExpression("name", "IF(random % 2 = 0, 'Bob', 'Alice')")`,
   * `.columnByExpression("cost", $("price").times($("amount")))`.
   */
  columnByExpression<const N extends string, const E extends Expression<unknown> | string>(
    name: N & CheckNewColumn<S, N>, expr: E & CheckComputed<S, E>,
  ): SchemaBuilder<S & { [K in N]: ComputedValue<S, E> }> {
    this.checkName(name, "columnByExpression");
    const col: SchemaColumn = typeof expr === "string"
      ? { kind: "computed", name, expr: parseSqlExpression(expr, `computed column '${name}'`), sql: expr }
      : { kind: "computed", name, expr: exprNode(expr, `columnByExpression('${name}')`) };
    return new SchemaBuilder([...this.columns, col], this.wm, this.pk);
  }

  /**
   * A metadata column (Flink's `columnByMetadata`): a value the connector provides per row next to the physical
   * columns, read under `metadataKey` (default: the column name), e.g. the filesystem source's
   * `.columnByMetadata("file", DataTypes.STRING().notNull(), "file.path")`. The connector must declare the key
   * (docs/connectors.md lists them); `isVirtual` marks it read-only (left out when the table is written).
   */
  columnByMetadata<const N extends string, const T extends DataType<unknown> | string>(
    name: N & CheckNewColumn<S, N>, type: T, metadataKey?: string, isVirtual = false,
  ): SchemaBuilder<S & { [K in N]: ColumnValue<T> }> {
    this.checkName(name, "columnByMetadata");
    const dt = toDataType(type as DataType | string, `metadata column '${name}'`);
    if (metadataKey !== undefined && (typeof metadataKey !== "string" || metadataKey === "")) {
      throw new ValidationError(`columnByMetadata('${name}'): the metadata key must be a non-empty string, got ${String(metadataKey)}`);
    }
    const col: SchemaColumn = { kind: "metadata", name, type: dt, ...(metadataKey === undefined ? {} : { key: metadataKey }), virtual: isVirtual === true };
    return new SchemaBuilder([...this.columns, col], this.wm, this.pk);
  }

  /**
   * Declares `column` the event-time attribute (rowtime) with a bounded-out-of-orderness watermark:
   * `.watermark("ts", "ts - INTERVAL '1' SECOND")` or `.watermark("ts", $("ts").minus(lit(1).seconds()))`.
   * The expression must be the column itself or the column minus a constant interval.
   */
  watermark<C extends keyof S & string>(column: C & CheckRowtime<S, C>, expr: Expression<unknown> | string): SchemaBuilder<S> {
    if (this.wm) throw new ValidationError(`watermark: a schema has at most one watermark declaration; '${this.wm.column}' is declared already`);
    if (!this.columns.some((c) => c.name === column)) {
      throw new ValidationError(`watermark: column '${String(column)}' is not in [${this.columns.map((c) => c.name).join(", ")}]`);
    }
    const wm: SchemaWatermark = typeof expr === "string"
      ? { column, expr: parseSqlExpression(expr, `watermark expression for '${column}'`), sql: expr }
      : { column, expr: exprNode(expr, `watermark('${column}')`) };
    return new SchemaBuilder(this.columns, wm, this.pk);
  }

  /** A primary key (NOT ENFORCED, as in Flink); its columns become NOT NULL. Named `PK_<columns>`. */
  primaryKey<const K extends readonly (keyof S & string)[]>(...columns: K):
    SchemaBuilder<Omit<S, K[number]> & { [P in K[number]]: NonNullable<S[P]> }> {
    return this.primaryKeyNamed(`PK_${columns.join("_")}`, ...columns);
  }

  /** A primary key with a constraint name. */
  primaryKeyNamed<const K extends readonly (keyof S & string)[]>(constraintName: string, ...columns: K):
    SchemaBuilder<Omit<S, K[number]> & { [P in K[number]]: NonNullable<S[P]> }> {
    if (this.pk) throw new ValidationError(`primaryKey: a schema has at most one primary key; (${this.pk.columns.join(", ")}) is declared already`);
    if (columns.length === 0) throw new ValidationError("primaryKey: give at least one column");
    const seen = new Set<string>();
    for (const c of columns) {
      const decl = this.columns.find((x) => x.name === c);
      if (!decl) throw new ValidationError(`primaryKey: column '${c}' is not in [${this.columns.map((x) => x.name).join(", ")}]`);
      if (decl.kind !== "physical") throw new ValidationError(`primaryKey: column '${c}' is a computed column; a primary key must be declared on physical columns`);
      if (seen.has(c)) throw new ValidationError(`primaryKey: column '${c}' is listed twice`);
      seen.add(c);
    }
    return new SchemaBuilder(this.columns, this.wm, { name: constraintName, columns: [...columns] }) as never;
  }

  /** Copies every declaration of another schema (Flink's `fromSchema`). */
  fromSchema<S2 extends object>(other: Schema<S2>): SchemaBuilder<S & S2> {
    let b: SchemaBuilder<object> = this;
    for (const c of other.columns) {
      b.checkName(c.name, "fromSchema");
      b = new SchemaBuilder([...b.columns, c], b.wm, b.pk);
    }
    if (other.watermarkSpec) {
      if (b.wm) throw new ValidationError("fromSchema: both schemas declare a watermark");
      b = new SchemaBuilder(b.columns, other.watermarkSpec, b.pk);
    }
    if (other.primaryKeySpec) {
      if (b.pk) throw new ValidationError("fromSchema: both schemas declare a primary key");
      b = new SchemaBuilder(b.columns, b.wm, other.primaryKeySpec);
    }
    return b as never;
  }

  /** Physical columns from the fields of a ROW type (Flink's `fromRowDataType`). */
  fromRowDataType<T extends object>(rowType: DataType<T | null>): SchemaBuilder<S & T> {
    if (!(rowType instanceof DataType) || rowType.root !== "ROW") {
      throw new ValidationError(`fromRowDataType: expected a ROW type, got ${String(rowType)}`);
    }
    let b: SchemaBuilder<object> = this;
    for (const f of rowType.fields) {
      b.checkName(f.name, "fromRowDataType");
      b = new SchemaBuilder([...b.columns, { kind: "physical", name: f.name, type: f.type }], b.wm, b.pk);
    }
    return b as never;
  }

  build(): Schema<Flatten<S>> {
    return new Schema(this.columns, this.wm, this.pk);
  }
}

function exprNode(e: unknown, what: string): ExprNode {
  if (!(e instanceof Expression)) throw new ValidationError(`${what}: expected an expression or SQL text, got ${String(e)}`);
  return e.node;
}
