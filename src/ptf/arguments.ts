import { ValidationError } from "../types/errors.js";
import { DataType } from "../types/data-type.js";
import { ArgumentTrait, type TableTrait, isArgumentTrait } from "./traits.js";

/** The row a polymorphic table argument hands to `eval`: any columns, values not known to the compiler. */
export type PolymorphicRow = { readonly [column: string]: unknown };

/**
 * A declared table argument. `R` is the row type `eval` receives (`PolymorphicRow` unless a ROW or
 * structured type is declared with `.typed(...)`), `T` the union of its traits.
 */
export class TableArgDecl<R = PolymorphicRow, T extends TableTrait = TableTrait> {
  readonly kind = "table" as const;
  /** Phantom: the row type given to eval. */
  declare readonly __row: R;

  constructor(
    readonly traits: readonly T[],
    /** Declared ROW or structured type; undefined = polymorphic (any row). */
    readonly type: DataType | undefined = undefined,
    /** Table arguments must not be optional (Flink); kept only to report that. */
    readonly optional = false,
  ) {
    Object.freeze(this);
  }

  has(trait: TableTrait): boolean {
    return (this.traits as readonly TableTrait[]).includes(trait);
  }

  get setSemantics(): boolean {
    return this.has(ArgumentTrait.SET_SEMANTIC_TABLE);
  }

  /** A broadcast side input (BROADCAST_SEMANTIC_TABLE): no key context, delivered to every processor. */
  get broadcast(): boolean {
    return this.has(ArgumentTrait.BROADCAST_SEMANTIC_TABLE);
  }

  /**
   * Declares the row type of the table: columns are matched by position (names may differ), each must
   * be implicitly castable to the declared field type. `eval` then receives rows of that type.
   */
  typed<R2 extends object>(type: DataType<R2 | null>): TableArgDecl<R2, T> {
    if (!(type instanceof DataType) || type.root !== "ROW") {
      throw new ValidationError(`tableArg(...).typed(): a table argument's type must be a ROW or structured type, got ${String(type)}`);
    }
    return new TableArgDecl<R2, T>(this.traits, type, this.optional);
  }
}

/** A declared scalar argument of type `T`; optional arguments may be left out (DEFAULT) and are then null. */
export class ScalarArgDecl<T = unknown, O extends boolean = boolean> {
  readonly kind = "scalar" as const;
  constructor(readonly type: DataType<T>, readonly optional: O) {
    Object.freeze(this);
  }
}

export type ArgDecl = TableArgDecl<unknown, TableTrait> | ScalarArgDecl<unknown, boolean>;

/**
 * A table argument with its traits: `tableArg(ArgumentTrait.SET_SEMANTIC_TABLE)`. Without a declared
 * type the argument is polymorphic; `.typed(DataTypes.ROW(...))` or `.typed(structuredType(...))`
 * fixes the row type.
 */
export function tableArg<const T extends readonly TableTrait[]>(...traits: T): TableArgDecl<PolymorphicRow, T[number]> {
  for (const t of traits) {
    if (!isArgumentTrait(t) || (t as string) === ArgumentTrait.SCALAR) {
      throw new ValidationError(`tableArg: '${String(t)}' is not a table argument trait; expected one of ${Object.values(ArgumentTrait).filter((x) => x !== "SCALAR").join(", ")}`);
    }
  }
  const has = (t: TableTrait) => (traits as readonly TableTrait[]).includes(t);
  const semantics = [ArgumentTrait.ROW_SEMANTIC_TABLE, ArgumentTrait.SET_SEMANTIC_TABLE, ArgumentTrait.BROADCAST_SEMANTIC_TABLE].filter(has);
  if (semantics.length !== 1) {
    throw new ValidationError(
      "tableArg: a table argument needs exactly one of ArgumentTrait.ROW_SEMANTIC_TABLE, ArgumentTrait.SET_SEMANTIC_TABLE and ArgumentTrait.BROADCAST_SEMANTIC_TABLE",
    );
  }
  if (has(ArgumentTrait.NOTIFY_STATEFUL_SETS) && !has(ArgumentTrait.BROADCAST_SEMANTIC_TABLE)) {
    throw new ValidationError("tableArg: NOTIFY_STATEFUL_SETS is only valid for a table argument with BROADCAST_SEMANTIC_TABLE");
  }
  if (has(ArgumentTrait.BROADCAST_SEMANTIC_TABLE) && has(ArgumentTrait.PASS_COLUMNS_THROUGH)) {
    throw new ValidationError("tableArg: a table with broadcast semantics cannot pass columns through (its rows emit nothing)");
  }
  if (has(ArgumentTrait.OPTIONAL_PARTITION_BY) && !has(ArgumentTrait.SET_SEMANTIC_TABLE)) {
    throw new ValidationError("tableArg: OPTIONAL_PARTITION_BY is only valid for a table argument with SET_SEMANTIC_TABLE");
  }
  for (const t of [ArgumentTrait.REQUIRE_UPDATE_BEFORE, ArgumentTrait.REQUIRE_FULL_DELETE] as const) {
    if (has(t) && !has(ArgumentTrait.SUPPORT_UPDATES)) {
      throw new ValidationError(`tableArg: ${t} requires SUPPORT_UPDATES`);
    }
  }
  if (has(ArgumentTrait.PASS_COLUMNS_THROUGH) && has(ArgumentTrait.SUPPORT_UPDATES)) {
    throw new ValidationError("Signatures with updating inputs must not pass columns through.");
  }
  return new TableArgDecl<PolymorphicRow, T[number]>([...new Set(traits)] as T[number][]);
}

/**
 * A scalar argument of a data type: `scalarArg(DataTypes.INT())`. With `{ optional: true }` the
 * argument may be left out or given as `null`/DEFAULT, and `eval` then receives null.
 */
export function scalarArg<T, const O extends boolean = false>(type: DataType<T>, options?: { optional?: O }): ScalarArgDecl<T, O> {
  if (!(type instanceof DataType)) throw new ValidationError(`scalarArg needs a data type, e.g. scalarArg(DataTypes.INT()), got ${String(type)}`);
  return new ScalarArgDecl(type, (options?.optional ?? false) as O);
}
