import type { FunctionResolver } from "../expressions/compile.js";
import { ValidationError } from "./errors.js";
import { getExecutor } from "./executor.js";
import type { PlanContext } from "./plan/builders.js";
import { newNodeId, type PlanNode, type ValuesNode } from "./plan/nodes.js";
import { Kind, kindFromShort, PositionalRow } from "./row.js";
import { Table } from "./table.js";
import { TableResult } from "./table-result.js";
import { DataType } from "./types/data-type.js";
import { ResolvedSchema } from "./types/resolved-schema.js";
import { coerceValue, commonType, inferType } from "./types/values.js";
import type { Widen } from "../expressions/type-level.js";

/** Streaming or batch execution, as Flink's EnvironmentSettings. */
export class EnvironmentSettings {
  private constructor(readonly batch: boolean) {}
  static inStreamingMode(): EnvironmentSettings { return new EnvironmentSettings(false); }
  static inBatchMode(): EnvironmentSettings { return new EnvironmentSettings(true); }
  isStreamingMode(): boolean { return !this.batch; }
}

/** Configuration options (`table.exec.state.ttl`, ...), as Flink's TableConfig. */
export class TableConfig {
  readonly options = new Map<string, string>();
  set(key: string, value: string): this { this.options.set(key, value); return this; }
  get(key: string): string | undefined { return this.options.get(key); }
}

/** What a row given to fromValues may look like for a row type T: a positional Row.of(...) or an object. */
export type RowInput<T> = PositionalRow | { [K in keyof T]?: unknown };

/** Schema of values given to fromValues without a type: scalars -> f0, Row.of(...) -> f0..fn, objects -> their keys. */
export type InferValuesSchema<E> =
  [E] extends [PositionalRow<infer V>] ? { [I in keyof V & `${number}` as `f${I}`]: Widen<V[I]> }
  : [E] extends [Date] ? { f0: E }
  : [Exclude<E, null>] extends [object] ? (Exclude<E, null> extends unknown[] ? { f0: E } : { [K in keyof Exclude<E, null>]: Widen<Exclude<E, null>[K]> })
  : { f0: Widen<E> };

/**
 * The entry point: creates tables, registers views and functions, and runs jobs.
 *
 * ```ts
 * const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
 * ```
 */
export class TableEnvironment {
  private readonly views = new Map<string, Table<object, never>>();
  private readonly config = new TableConfig();
  /** Processing-time clock; replace it in tests (`env.setClock(() => t)`). */
  private clock: () => number = Date.now;
  /** Resolvers for function names (user-defined functions register here). */
  readonly functionResolvers: FunctionResolver[] = [];

  private constructor(readonly settings: EnvironmentSettings) {}

  static create(settings: EnvironmentSettings = EnvironmentSettings.inStreamingMode()): TableEnvironment {
    return new TableEnvironment(settings);
  }

  isBatch(): boolean {
    return this.settings.batch;
  }

  getConfig(): TableConfig {
    return this.config;
  }

  setClock(clock: () => number): this {
    this.clock = clock;
    return this;
  }

  /** @internal */
  planContext(): PlanContext {
    const resolvers = this.functionResolvers;
    return {
      resolveFunction: (name, args, ctx, node) => {
        for (const r of resolvers) {
          const c = r(name, args, ctx, node);
          if (c) return c;
        }
        return undefined;
      },
    };
  }

  /**
   * A table from values. With an explicit ROW type, rows are `Row.of(...)` or objects and are checked
   * against it; without, the type is inferred (scalars give column `f0`, `Row.of(...)` gives `f0..fn`,
   * plain objects their keys).
   *
   * ```ts
   * env.fromValues(DataTypes.ROW(DataTypes.FIELD("name", DataTypes.STRING())), Row.of("Alice"))
   * env.fromValues("Bob", "Alice").as("name")
   * ```
   */
  fromValues<T extends object>(rowType: DataType<T | null>, ...rows: RowInput<T>[]): Table<T, "append">;
  fromValues<const V extends readonly unknown[]>(...values: V): Table<InferValuesSchema<V[number]>, "append">;
  fromValues(...args: unknown[]): Table<object, "append"> {
    const first = args[0];
    // (issue 3 adds: a Schema with a watermark declaration as first argument)
    if (first instanceof DataType) return new Table(this, valuesNode(first, args.slice(1)));
    return new Table(this, inferredValues(args));
  }

  /** Registers a table under a name for `from(name)` (and SQL). */
  createTemporaryView(name: string, table: Table<object, never> | Table<never, never>): void {
    if (!name) throw new ValidationError("createTemporaryView needs a name");
    this.views.set(name, table as Table<object, never>);
  }

  /** A registered view or table; unknown names list the known ones. */
  from<S extends object = Record<string, unknown>>(name: string): Table<S> {
    const t = this.views.get(name);
    if (!t) throw new ValidationError(`table '${name}' is not registered; known: [${[...this.views.keys()].join(", ")}]`);
    return t as unknown as Table<S>;
  }

  listViews(): string[] {
    return [...this.views.keys()];
  }

  // ---- Process Table Functions: fromCall / createFunction (issue 4, src/ptf) ----

  // ---- tables with time: fromValues(schema, ...) / createTable / TableDescriptor (issue 3) ----

  // ---- user-defined functions: createTemporaryFunction / createFunction (issue 3) ----

  /** @internal Runs a plan: used by Table.execute(). */
  executeNode(node: PlanNode, signal?: AbortSignal): TableResult {
    const executor = getExecutor();
    const settings = {
      batch: this.isBatch(), config: this.config.options, clock: this.clock, resolveFunction: this.planContext().resolveFunction,
    };
    return new TableResult(node.schema, (sink) => executor.createJob(node, settings, sink), this.isBatch(), signal);
  }
}

function rowWhere(i: number): () => string {
  return () => `fromValues row ${i + 1}`;
}

function valuesNode(rowType: DataType, rows: readonly unknown[]): ValuesNode {
  if (rowType.root !== "ROW") {
    // a non-row type: every value is one column f0 of that type
    const t = rowType;
    const schema = new ResolvedSchema([{ name: "f0", type: t }]);
    return {
      kind: "Values", id: newNodeId(), schema,
      rows: rows.map((v, i) => [coerceValue(t, v instanceof PositionalRow ? v.values[0] : v, () => `fromValues row ${i + 1}, column 'f0'`)]),
    };
  }
  const fields = rowType.fields;
  const schema = new ResolvedSchema(fields.map((f) => ({ name: f.name, type: f.type })));
  const kinds: number[] = [];
  const out = rows.map((row, i) => {
    const where = rowWhere(i);
    let values: readonly unknown[];
    if (row instanceof PositionalRow) {
      kinds.push(kindFromShort(row.kind));
      values = row.values;
      if (values.length !== fields.length) {
        throw new ValidationError(`${where()}: has ${values.length} values but the row type ${rowType} has ${fields.length} fields`);
      }
    } else if (row !== null && typeof row === "object" && !Array.isArray(row)) {
      kinds.push(Kind.INSERT);
      const obj = row as Record<string, unknown>;
      for (const k of Object.keys(obj)) {
        if (!fields.some((f) => f.name === k)) throw new ValidationError(`${where()}: column '${k}' is not in [${schema.names.join(", ")}]`);
      }
      values = fields.map((f) => obj[f.name]);
    } else {
      throw new ValidationError(`${where()}: expected Row.of(...) or an object for row type ${rowType}, got ${String(row)}`);
    }
    return fields.map((f, j) => coerceValue(f.type, values[j], () => `${where()}, column '${f.name}'`));
  });
  const node: ValuesNode = { kind: "Values", id: newNodeId(), schema, rows: out };
  return kinds.some((k) => k !== Kind.INSERT) ? { ...node, kinds } : node;
}

function inferredValues(values: readonly unknown[]): ValuesNode {
  if (values.length === 0) throw new ValidationError("fromValues needs at least one value, or an explicit row type");
  const isRow = (v: unknown) => v instanceof PositionalRow;
  const isObj = (v: unknown) => v !== null && typeof v === "object" && !isRow(v) && !(v instanceof Date) && !Array.isArray(v)
    && !(v instanceof Map) && Object.getPrototypeOf(v) === Object.prototype;
  let fieldTypes: DataType[];
  let names: string[];
  let extract: (v: unknown, i: number) => readonly unknown[];
  if (values.every(isRow)) {
    const arity = (values[0] as PositionalRow).arity;
    values.forEach((v, i) => {
      if ((v as PositionalRow).arity !== arity) throw new ValidationError(`fromValues row ${i + 1}: has ${(v as PositionalRow).arity} values, row 1 has ${arity}`);
    });
    names = Array.from({ length: arity }, (_, i) => `f${i}`);
    extract = (v) => (v as PositionalRow).values;
  } else if (values.every(isObj)) {
    names = Object.keys(values[0] as object);
    extract = (v, i) => {
      const keys = Object.keys(v as object);
      const extra = keys.find((k) => !names.includes(k));
      const missing = names.find((k) => !keys.includes(k));
      if (extra !== undefined || missing !== undefined) {
        throw new ValidationError(`fromValues row ${i + 1}: ${extra !== undefined ? `column '${extra}' is not in row 1's columns` : `column '${missing}' is missing`} [${names.join(", ")}]`);
      }
      return names.map((n) => (v as Record<string, unknown>)[n]);
    };
  } else if (values.some((v) => isRow(v) || isObj(v))) {
    throw new ValidationError("fromValues: mix of scalars, Row.of(...) and objects; give all rows in one form");
  } else {
    names = ["f0"];
    extract = (v) => [v];
  }
  const rows = values.map((v, i) => extract(v, i));
  fieldTypes = names.map((n, j) => {
    let t: DataType | undefined;
    rows.forEach((r, i) => {
      const vt = inferType(r[j], () => `fromValues row ${i + 1}, column '${n}'`);
      t = t === undefined ? vt : commonType(t, vt, () => `fromValues column '${n}'`);
    });
    return t!;
  });
  const schema = new ResolvedSchema(names.map((n, j) => ({ name: n, type: fieldTypes[j]! })));
  const kinds = values.map((v) => (isRow(v) ? kindFromShort((v as PositionalRow).kind) : Kind.INSERT));
  const coerced = rows.map((r, i) => r.map((x, j) => coerceValue(fieldTypes[j]!, x, () => `fromValues row ${i + 1}, column '${names[j]}'`)));
  const node: ValuesNode = { kind: "Values", id: newNodeId(), schema, rows: coerced };
  return kinds.some((k) => k !== Kind.INSERT) ? { ...node, kinds } : node;
}
