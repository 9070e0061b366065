import type { Decimal } from "decimal.js";

/**
 * Flink's logical type roots. CHAR/VARCHAR/STRING share the TypeScript value `string`; STRING is VARCHAR(MAX).
 */
export type TypeRoot =
  | "CHAR" | "VARCHAR" | "BOOLEAN" | "TINYINT" | "SMALLINT" | "INT" | "BIGINT" | "FLOAT" | "DOUBLE"
  | "DECIMAL" | "DATE" | "TIME" | "TIMESTAMP" | "TIMESTAMP_LTZ" | "INTERVAL_DAY_TIME" | "INTERVAL_YEAR_MONTH"
  | "ARRAY" | "MAP" | "ROW" | "NULL" | "DESCRIPTOR" | "RAW" | "VARIANT"
  // a bag of elements (`elementType`), each with its count: Flink's MULTISET<T>
  | "MULTISET";

/** Longest VARCHAR; `STRING` is `VARCHAR(2147483647)` as in Flink. */
export const MAX_LENGTH = 2147483647;

declare const intervalBrand: unique symbol;
/** A day-time interval value: a number of milliseconds, branded so that it cannot be mixed up with a plain number. */
export type DayTimeInterval = number & { readonly [intervalBrand]: "DAY_TIME" };
/** A year-month interval value: a number of months. */
export type YearMonthInterval = number & { readonly [intervalBrand]: "YEAR_MONTH" };

/** A column list given to a PTF with `descriptor("a", "b")`. */
export interface ColumnList {
  readonly kind: "ColumnList";
  readonly names: readonly string[];
}

export interface RowFieldDef<N extends string = string, T = unknown> {
  readonly name: N;
  readonly type: DataType<T>;
  readonly description?: string;
}

/** Marks a column as event-time attribute (declared with a watermark); printed as `*ROWTIME*` like Flink. */
export type TimeAttribute = "ROWTIME" | "PROCTIME" | undefined;

interface TypeParams {
  readonly length?: number;
  readonly precision?: number;
  readonly scale?: number;
  readonly fields?: readonly RowFieldDef[];
  readonly element?: DataType;
  readonly keyType?: DataType;
  readonly valueType?: DataType;
  readonly timeAttribute?: TimeAttribute;
  readonly intervalUnits?: string;
  /** A structured type (a ROW whose values are instances of a class made with `new C()`): the class. */
  readonly structuredClass?: new () => object;
}

/**
 * A Flink data type that also carries its TypeScript value type `T` (including `null` when nullable).
 * Instances are immutable; `notNull()` / `nullable()` return new types.
 *
 * ```ts
 * DataTypes.INT()            // DataType<number | null>, prints "INT"
 * DataTypes.INT().notNull()  // DataType<number>, prints "INT NOT NULL"
 * ```
 */
export class DataType<T = unknown> {
  /** Phantom: the TypeScript type of this type's values. Never set at run time. */
  declare readonly __value: T;

  constructor(
    readonly root: TypeRoot,
    readonly isNullable: boolean,
    readonly params: TypeParams = {},
  ) {
    Object.freeze(this);
  }

  notNull(): DataType<Exclude<T, null>> {
    return new DataType(this.root, false, this.params) as DataType<Exclude<T, null>>;
  }

  nullable(): DataType<T | null> {
    return new DataType(this.root, true, this.params) as DataType<T | null>;
  }

  /** Same type with a different nullability, untyped (internal). */
  withNullability(nullable: boolean): DataType<unknown> {
    return nullable === this.isNullable ? this : new DataType(this.root, nullable, this.params);
  }

  withTimeAttribute(attr: TimeAttribute): DataType<T> {
    return new DataType(this.root, this.isNullable, { ...this.params, timeAttribute: attr }) as DataType<T>;
  }

  get length(): number | undefined { return this.params.length; }
  get precision(): number | undefined { return this.params.precision; }
  get scale(): number | undefined { return this.params.scale; }
  get fields(): readonly RowFieldDef[] { return this.params.fields ?? []; }
  get elementType(): DataType | undefined { return this.params.element; }
  get keyType(): DataType | undefined { return this.params.keyType; }
  get valueType(): DataType | undefined { return this.params.valueType; }
  get timeAttribute(): TimeAttribute { return this.params.timeAttribute; }
  /** The class of a structured type (`structuredType(C, ...)`), else undefined. */
  get structuredClass(): (new () => object) | undefined { return this.params.structuredClass; }

  /** Structural equality (a structured type equals its ROW type). */
  equals(other: DataType): boolean {
    return structuralString(this) === structuralString(other);
  }

  /**
   * Flink's summary string, e.g. `INT NOT NULL`, `ROW<\`name\` STRING, \`age\` INT>`; a structured type
   * prints its class as Flink's unregistered structured types do: `*User*`.
   */
  toString(): string {
    const cls = this.params.structuredClass;
    if (cls !== undefined && cls.name !== "") return `*${cls.name}*`;
    const base = typeBaseString(this);
    const attr = this.params.timeAttribute ? ` *${this.params.timeAttribute}*` : "";
    return this.isNullable ? base + attr : `${base} NOT NULL${attr}`;
  }
}

/** The type's string with structured types as their ROW type (what equality compares). */
function structuralString(t: DataType): string {
  const p = t.params;
  let base: string;
  switch (t.root) {
    case "ARRAY": base = `ARRAY<${structuralString(p.element!)}>`; break;
    case "MULTISET": base = `MULTISET<${structuralString(p.element!)}>`; break;
    case "MAP": base = `MAP<${structuralString(p.keyType!)}, ${structuralString(p.valueType!)}>`; break;
    case "ROW": base = `ROW<${(p.fields ?? []).map((f) => `\`${f.name}\` ${structuralString(f.type)}`).join(", ")}>`; break;
    default: base = typeBaseString(t);
  }
  const attr = p.timeAttribute ? ` *${p.timeAttribute}*` : "";
  return t.isNullable ? base + attr : `${base} NOT NULL${attr}`;
}

function typeBaseString(t: DataType): string {
  const p = t.params;
  switch (t.root) {
    case "CHAR": return `CHAR(${p.length})`;
    case "VARCHAR": return p.length === MAX_LENGTH ? "STRING" : `VARCHAR(${p.length})`;
    case "DECIMAL": return `DECIMAL(${p.precision}, ${p.scale})`;
    case "TIME": return `TIME(${p.precision})`;
    case "TIMESTAMP": return `TIMESTAMP(${p.precision})`;
    case "TIMESTAMP_LTZ": return `TIMESTAMP_LTZ(${p.precision})`;
    case "INTERVAL_DAY_TIME": return `INTERVAL ${p.intervalUnits ?? "DAY(2) TO SECOND(3)"}`;
    case "INTERVAL_YEAR_MONTH": return `INTERVAL ${p.intervalUnits ?? "YEAR(2) TO MONTH"}`;
    case "ARRAY": return `ARRAY<${p.element}>`;
    case "MULTISET": return `MULTISET<${p.element}>`;
    case "MAP": return `MAP<${p.keyType}, ${p.valueType}>`;
    case "ROW": return `ROW<${(p.fields ?? []).map((f) => `\`${f.name}\` ${f.type}`).join(", ")}>`;
    default: return t.root;
  }
}

/** The TypeScript value of a data type. */
export type ValueOf<D> = D extends DataType<infer T> ? T : never;

export type { Decimal };
