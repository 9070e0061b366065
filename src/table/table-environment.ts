import { resolveSchema } from "./schema-resolve.js";
import { checkTableLayout } from "./table-distribution.js";
import { getOwn } from "../types/own.js";
import type { FunctionResolver } from "../expressions/compile.js";
import type { Decimal } from "decimal.js";
import { ValidationError } from "../types/errors.js";
import { getExecutor } from "./executor.js";
import type { ProgressOptions } from "./progress.js";
import type { PlanContext } from "../plan/builders.js";
import { type PlanNode, type SinkNode, type StatementSetNode, type ValuesNode, valuesNode } from "../plan/nodes.js";
import { StatementSet } from "./statement-set.js";
import { normalizeUpserts } from "../plan/normalize-upserts.js";
import { Kind, kindFromShort, PositionalRow } from "../types/row.js";
import { type ChangelogKind, Table } from "./table.js";
import { TableHandle } from "./table-handle.js";
import { TableResult } from "./table-result.js";
import { DataType } from "../types/data-type.js";
import { ResolvedSchema } from "../types/resolved-schema.js";
import { coerceValue, commonType, inferType } from "../types/values.js";
import type { Widen } from "../expressions/type-level.js";
import { resolveProcessCall } from "../ptf/call.js";
import type { AnyProcessTableFunction, FromCallOutput, ProcessMode } from "../ptf/typing.js";
import type { CheckedArgs, CheckedFunction } from "../ptf/call-checks.js";
import type { Flatten } from "./typing.js";
import type { SourceKind } from "./batch-typing.js";
import { Schema } from "./schema.js";
import { watermarkEmission } from "./schema-resolve.js";
import { schemaValuesNode } from "./schema-values.js";
import type { FunctionCatalog } from "../functions/catalog.js";
import { TableRegistry, lookupFunctionOf, planSink, scanNode, scanTable } from "./connector-tables.js";
import { pushIntoScans } from "../plan/pushdown.js";
import { pushIntoLookups } from "../plan/lookup-pushdown.js";
import type { LookupFunction } from "../functions/temporal-table-function.js";
import type { ConnectorDefinition } from "../connectors/api/contract.js";
import type { OptionDecls } from "../connectors/api/options.js";
import { connectorFromDefinition } from "../connectors/api/adapter.js";
import { splitAsyncCalls } from "../functions/async-calls.js";
import { type InsertTableResult, startInsert } from "./insert.js";
import { TableDescriptor } from "./table-descriptor.js";
import { type FromIterableOptions, iterableDescriptor } from "./from-iterable.js";
import { createFunctionCatalog, prepareHook, type RegistrableFunction } from "../functions/environment.js";
import { executeSql, sqlQuery } from "./sql-execute.js";

/**
 * Streaming or batch execution, as Flink's EnvironmentSettings. `B` (true for batch) goes into the
 * environment's type, and from there into its tables' changelog kind (src/table/batch-typing.ts).
 */
export class EnvironmentSettings<B extends boolean = boolean> {
  private constructor(readonly batch: B) {}
  // (streaming is `EnvironmentSettings<boolean>`: its tables are typed as in any environment, and a helper
  // typed with a streaming environment also takes a batch one)
  static inStreamingMode(): EnvironmentSettings { return new EnvironmentSettings<boolean>(false); }
  static inBatchMode(): EnvironmentSettings<true> { return new EnvironmentSettings(true); }
  isStreamingMode(): boolean { return !this.batch; }
}

/** Configuration options (`table.exec.state.ttl`, ...), as Flink's TableConfig. */
export class TableConfig {
  readonly options = new Map<string, string>();
  set(key: string, value: string): this { this.options.set(key, value); return this; }
  get(key: string): string | undefined { return this.options.get(key); }
}

/** What a row given to fromValues may look like for a row type T: a positional Row.of(...) or an object. */
export type RowInput<T> =
  | PositionalRow
  | ({ [K in keyof T as null extends T[K] ? K : never]?: ValueInput<T[K]> }
    & { [K in keyof T as null extends T[K] ? never : K]: ValueInput<T[K]> });

/**
 * What fromValues accepts for a column whose values have TypeScript type V: V itself, or an input form
 * it converts exactly (a numeric string or number for DECIMAL, a timestamp string or epoch millis for
 * TIMESTAMP, a bigint in the safe range for integers). Nested rows, arrays and maps are checked when the
 * table is built.
 */
export type ValueInput<V> =
  unknown extends V ? unknown
  : | V
    | (NonNullable<V> extends Decimal ? string | number | bigint : never)
    | (NonNullable<V> extends Date ? string | number : never)
    | (NonNullable<V> extends number ? number | bigint : never)
    | (NonNullable<V> extends string | number | boolean | Date | Decimal ? never : unknown);

/** Schema of values given to fromValues without a type: scalars -> f0, Row.of(...) -> f0..fn, objects -> their keys. */
export type InferValuesSchema<E> =
  [E] extends [PositionalRow<infer V>] ? { [I in keyof V & `${number}` as `f${I}`]: Widen<V[I]> }
  : [Exclude<E, null>] extends [Date] ? { f0: E }
  : [Exclude<E, null>] extends [object] ? (Exclude<E, null> extends unknown[] ? { f0: E } : { [K in keyof Exclude<E, null>]: Widen<Exclude<E, null>[K]> })
  : { f0: Widen<E> };

/**
 * The entry point: creates tables, registers views and functions, and runs jobs.
 *
 * ```ts
 * const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
 * ```
 */
export class TableEnvironment<B extends boolean = boolean> {
  private readonly views = new Map<string, Table<object>>();
  private readonly config = new TableConfig();
  /**
   * Processing-time clock; replace it in tests: `env.setClock(manualClock(t0))` (advanced by hand, wakes idle
   * jobs whose processing-time timers come due) or `env.setClock(() => t)` (read only, docs/time.md).
   */
  private clock: () => number = Date.now;
  /** Resolvers for function names (user-defined functions register here). */
  readonly functionResolvers: FunctionResolver[] = [];

  private constructor(readonly settings: EnvironmentSettings<B>) {}

  /**
   * A streaming (the default) or batch environment. A batch environment is a `TableEnvironment<true>`:
   * its tables are insert-only through aggregates, joins and top-N (their batch results are final), so a
   * batch aggregate goes to an append-only sink (docs/typing.md).
   */
  static create<B extends boolean = boolean>(settings?: EnvironmentSettings<B>): TableEnvironment<B> {
    return new TableEnvironment<B>(settings ?? (EnvironmentSettings.inStreamingMode() as EnvironmentSettings<B>));
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
      prepare: prepareHook(this.functions, this.isBatch()),
      splitAsyncCalls,
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
  // Overload order: the compiler reports a failed call against the last overload, so the ROW-typed
  // one (the most common) comes last. A typed first argument never takes the inferred overload.
  fromValues<const V extends readonly unknown[]>(...values: V extends readonly [DataType | Schema<object>, ...unknown[]] ? never : V):
    Table<InferValuesSchema<V[number]>, SourceKind<B>>;
  /** With a Schema (computed columns, watermark): rows give the physical columns; see schema-values.ts. */
  /** Rows given as one collection (Flink's `fromValues(type, Iterable)`), for data too large to spread into arguments. */
  fromValues<T extends object>(schema: Schema<T>, rows: readonly RowInput<T>[]): Table<T, SourceKind<B>>;
  fromValues<T extends object>(rowType: DataType<T | null>, rows: readonly RowInput<T>[]): Table<Flatten<T>, SourceKind<B>>;
  fromValues<T extends object>(schema: Schema<T>, ...rows: RowInput<T>[]): Table<T, SourceKind<B>>;
  fromValues<T extends object>(rowType: DataType<T | null>, ...rows: RowInput<T>[]): Table<Flatten<T>, SourceKind<B>>;
  fromValues(...args: unknown[]): Table<object, "append"> {
    const first = args[0];
    const typed = first instanceof Schema || first instanceof DataType;
    // (type, [row, row, ...]): the rows as one collection; an array is never a row by itself
    const rows = typed && args.length === 2 && Array.isArray(args[1]) ? (args[1] as unknown[]) : args.slice(1);
    if (first instanceof Schema) {
      return new Table(this, schemaValuesNode(first, rows, this.planContext(), watermarkEmission((k) => this.config.get(k))));
    }
    if (first instanceof DataType) return new Table(this, typedValues(first, rows));
    return new Table(this, inferredValues(args));
  }

  /**
   * A table fed by an AsyncIterable (or Iterable) of rows, objects or `Row.of(...)` (the counterpart of
   * Flink's `fromDataStream`): each row is checked against the schema's physical columns when it is read;
   * the watermark is the schema's (or `options.watermark`). The job pulls one row per `next()` only when
   * it polls (backpressure), and cancelling the job calls the iterator's `return()`. A Node `Readable` in
   * object mode is an AsyncIterable, so it can be given directly.
   */
  fromAsyncIterable<T extends object>(schema: Schema<T>, rows: AsyncIterable<RowInput<T>> | Iterable<RowInput<T>>, options?: FromIterableOptions<T>): Table<T, SourceKind<B>> {
    return this.from(iterableDescriptor(schema, rows, options, false));
  }

  /**
   * As fromAsyncIterable, for a changelog: rows carry kinds (`Row.ofKind(RowKind.DELETE, ...)` or
   * `Row.withKind(...)`), as Flink's `fromChangelogStream` (every kind allowed; plain rows are +I).
   */
  fromChangelogAsyncIterable<T extends object>(schema: Schema<T>, rows: AsyncIterable<RowInput<T>> | Iterable<RowInput<T>>, options?: FromIterableOptions<T>): Table<T, "retract"> {
    return this.from(iterableDescriptor(schema, rows, options, true)) as unknown as Table<T, "retract">;
  }

  /**
   * Registers a table under a name for `from(name)` (and SQL). Returns a typed handle: `from(handle)` is the
   * table with its schema and changelog kind (table-handle.ts).
   */
  createTemporaryView<const N extends string, S extends object, M extends ChangelogKind>(name: N, table: Table<S, M>): TableHandle<N, S, M> {
    if (!name) throw new ValidationError("createTemporaryView needs a name");
    if (!(table instanceof Table)) throw new ValidationError(`createTemporaryView('${name}'): expected a Table`);
    if (table.env !== this) throw new ValidationError(`createTemporaryView('${name}'): the table belongs to another TableEnvironment`);
    // as Flink: registering a name twice is an error; dropTemporaryView first to replace a view
    if (this.views.has(name)) throw new ValidationError(`Temporary table '${name}' already exists`);
    this.views.set(name, table);
    return new TableHandle<N, S, M>(name, this, table);
  }

  /** Removes a view registered with createTemporaryView; false if there was none. */
  dropTemporaryView(name: string): boolean {
    return this.views.delete(name);
  }

  /** A registered view or table by its handle, typed as it was registered. */
  from<S extends object, M extends ChangelogKind>(handle: TableHandle<string, S, M>): Table<S, M>;
  /** A registered view or table; unknown names list the known ones. */
  from<S extends object = Record<string, unknown>>(name: string): Table<S>;
  /** An anonymous connector table (Flink's `from(TableDescriptor)`), typed by the descriptor's schema. */
  from<S extends object>(descriptor: TableDescriptor<S>): Table<S, SourceKind<B>>;
  from(target: string | TableDescriptor<object> | TableHandle): Table<object> {
    if (target instanceof TableHandle) return this.fromHandle(target);
    if (target instanceof TableDescriptor) {
      const name = `*anonymous_${target.connector}$${++this.anonymousTables}*`;
      return new Table(this, scanNode({ name, descriptor: target, temporary: true }, this.planContext(), this.isBatch(), (k) => this.config.get(k), this.tables.connector));
    }
    const name = target;
    const t = this.views.get(name) ?? this.scanTable(name);
    if (!t) throw new ValidationError(`table '${name}' is not registered; known: [${this.listTables().join(", ")}]`);
    return t as unknown as Table<object>;
  }
  private anonymousTables = 0;

  private fromHandle(handle: TableHandle): Table<object> {
    const name = handle.name;
    if (handle.owner !== this) throw new ValidationError(`from(handle '${name}'): the handle belongs to another TableEnvironment`);
    // what from(name) would read now: a view, else a connector table (a temporary one shadows a catalog one)
    const current = this.views.get(name) ?? this.tables.get(name)?.descriptor;
    if (current !== handle.target) {
      throw new ValidationError(`from(handle '${name}'): '${name}' no longer refers to the table this handle was made for `
        + `(it was dropped, replaced or shadowed, or createTable kept an existing table); use from("${name}") for what is registered now`);
    }
    return this.from(name);
  }

  listViews(): string[] {
    return [...this.views.keys()];
  }

  // ---- Process Table Functions: fromCall / createFunction (issue 4, src/ptf) ----

  /**
   * A table from a Process Table Function call (function object or registered name). Arguments are
   * positional or named with `asArgument`; tables go in as `t.asArgument("r")` or
   * `t.partitionBy($("k")).asArgument("r")`. A PTF without table arguments is a generator, evaluated once.
   *
   * ```ts
   * env.fromCall(OrderGenerator)
   * env.fromCall(TableFilter, env.from("t").asArgument("input"), lit(100).asArgument("threshold"), lit("my-ptf").asArgument("uid"))
   * ```
   */
  fromCall<F extends AnyProcessTableFunction | string, const A extends readonly unknown[]>(
    fn: CheckedFunction<F, never, A>, ...args: CheckedArgs<F, never, A>
  ): Table<FromCallOutput<F, A>, SourceKind<B, ProcessMode<F>>> {
    return new Table(this, resolveProcessCall(this, fn, args));
  }

  // ---- SQL: executeSql / sqlQuery (src/sql, docs/sql.md) ----

  /**
   * Runs one SQL statement (the subset in docs/sql.md). A query returns its result like
   * `table.execute()`; CREATE VIEW / CREATE TABLE register and return Flink's OK result (one column
   * `result` with `OK`). Syntax errors are SqlParseErrors naming line and column.
   *
   * ```ts
   * env.executeSql("CREATE VIEW Names(name) AS VALUES ('Bob'), ('Alice'), ('Bob')");
   * await env.executeSql("SELECT * FROM Greeting(TABLE Names)").print();
   * ```
   */
  executeSql(statement: string): TableResult<Record<string, unknown>> {
    return executeSql(this, statement);
  }

  /** A SELECT or VALUES query as a Table (Flink's `sqlQuery`), for further Table API calls. */
  sqlQuery(query: string): Table<Record<string, unknown>> {
    return sqlQuery(this, query);
  }

  // ---- tables with time: fromValues(schema, ...) / createTable / TableDescriptor (issue 3) ----

  /** @internal Connector tables registered with createTable / createTemporaryTable. */
  readonly tables = new TableRegistry();

  /**
   * Registers a connector (built with `defineConnector`) under its name for this environment: tables
   * declared with `TableDescriptor.forConnector(name)` or SQL `WITH ('connector' = name, ...)` use it.
   * A name taken by a built-in connector or an earlier registration is a ValidationError.
   */
  registerConnector<O extends OptionDecls>(connector: ConnectorDefinition<O>): this {
    this.tables.registerConnector(connectorFromDefinition(connector as unknown as ConnectorDefinition));
    return this;
  }

  /**
   * The lookup side of a connector table (a connector with `lookup`) keyed by `keys`, for lookup joins:
   * `orders.joinLateral(call(env.lookupFunction("Customers", "id"), $("customer_id")))`. Each job opens
   * the connector's lookup reader, with the table's `lookup.*` cache and concurrency options. `S` types the
   * looked-up columns (a table by name is not typed otherwise).
   */
  lookupFunction<S extends object = object>(table: string, ...keys: [string, ...string[]]): LookupFunction<S> {
    return lookupFunctionOf(this.tables, table, keys, this.planContext()) as LookupFunction<S>;
  }

  /**
   * Registers a connector table (Flink's catalog table): `env.createTable("Names",
   * TableDescriptor.forConnector("datagen").schema(...).option("rows-per-second", "1").build())`.
   * Fails if a table of that name exists, unless `ignoreIfExists`. Returns a typed handle: `from(handle)` is typed by the schema.
   */
  createTable<const N extends string, S extends object>(name: N, descriptor: TableDescriptor<S>, ignoreIfExists = false): TableHandle<N, S, SourceKind<B>> {
    this.resolveAtCreate(descriptor);
    this.tables.register(name, descriptor, false, ignoreIfExists, false);
    return new TableHandle<N, S, SourceKind<B>>(name, this, descriptor);
  }

  /** Registers a temporary connector table; it shadows a catalog table of the same name. Returns a typed handle, as createTable. */
  createTemporaryTable<const N extends string, S extends object>(name: N, descriptor: TableDescriptor<S>): TableHandle<N, S, SourceKind<B>> {
    this.resolveAtCreate(descriptor);
    this.tables.register(name, descriptor, true, false, this.views.has(name));
    return new TableHandle<N, S, SourceKind<B>>(name, this, descriptor);
  }

  /** As Flink resolves a table's schema when it is created: a bad computed column or watermark fails here, not at the first query. */
  private resolveAtCreate(descriptor: TableDescriptor<object>): void {
    if (!descriptor.schemaSpec) return;
    const resolved = resolveSchema(descriptor.schemaSpec, this.planContext());
    checkTableLayout(resolved.physical.names, descriptor.distribution, descriptor.partitionKeys);
  }

  /** Drops a temporary connector table; false when there was none. */
  dropTemporaryTable(name: string): boolean {
    return this.tables.drop(name, true);
  }

  /** Drops a catalog connector table; false when there was none. */
  dropTable(name: string): boolean {
    return this.tables.drop(name, false);
  }

  /** Names of registered views and connector tables, sorted. */
  listTables(): string[] {
    return [...new Set([...this.views.keys(), ...this.tables.names()])].sort();
  }

  /** @internal A scan of a registered connector table, or undefined. */
  scanTable(name: string): Table<object> | undefined {
    const t = this.tables.get(name);
    return t && new Table(this, scanNode(t, this.planContext(), this.isBatch(), (k) => this.config.get(k), this.tables.connector));
  }

  /** @internal Plans writing `input` into a table (by name or descriptor). */
  planInsert(input: PlanNode, target: string | TableDescriptor<object>): SinkNode {
    return planSink(input, target, this.tables, this.planContext(), this.isBatch());
  }

  /** @internal Submits an insert job (one sink, or all sinks of a statement set). */
  startInsert(node: SinkNode | StatementSetNode, signal?: AbortSignal): InsertTableResult {
    const settings = {
      batch: this.isBatch(), config: this.config.options, clock: this.clock, resolveFunction: this.planContext().resolveFunction,
      connectors: this.tables.connector,
    };
    return startInsert(this.negotiate(node, false) as SinkNode | StatementSetNode, settings, signal);
  }

  /**
   * @internal The plan a job runs: keyed sources normalized where a consumer needs retractions
   * (src/plan/normalize-upserts.ts). `collect` = the root's rows go to `execute()`'s retracting collect sink.
   */
  negotiate(root: PlanNode, collect: boolean): PlanNode {
    const cdcDuplicates = (this.config.get("table.exec.source.cdc-events-duplicate") ?? "false").toLowerCase() === "true";
    const pushed = pushIntoLookups(pushIntoScans(root, (scan) => this.tables.connector(scan.connector).pushdown?.(scanTable(scan))));
    return normalizeUpserts(pushed, { batch: this.isBatch(), cdcDuplicates, rootNeedsRetractions: collect });
  }

  /** A set of inserts that `execute()` runs as one job (Flink's StatementSet; docs/statement-sets.md). */
  createStatementSet(): StatementSet {
    return new StatementSet(this);
  }

  // ---- user-defined functions: createTemporaryFunction / createFunction (issue 3) ----

  /** @internal The one function catalog: user-defined functions and PTFs by name (src/functions/catalog.ts). */
  readonly functions: FunctionCatalog = createFunctionCatalog(this.functionResolvers);

  /**
   * Registers a temporary function under `name` for `call("name", ...)`; it shadows a catalog function of
   * the same name. Fails if a temporary function of that name exists. Names are case-insensitive.
   */
  createTemporaryFunction(name: string, fn: RegistrableFunction): void {
    this.functions.createTemporaryFunction(name, fn);
  }

  /** Registers a catalog function; fails if one of that name exists unless `ignoreIfExists`. */
  createFunction(name: string, fn: RegistrableFunction, ignoreIfExists = false): void {
    this.functions.createFunction(name, fn, ignoreIfExists);
  }

  /** Drops a temporary function; false when none was registered under `name`. */
  dropTemporaryFunction(name: string): boolean {
    return this.functions.dropTemporaryFunction(name);
  }

  /** Drops a catalog function; false when none was registered under `name`. */
  dropFunction(name: string): boolean {
    return this.functions.dropFunction(name);
  }

  /** Names of the registered user-defined functions, sorted. */
  listUserDefinedFunctions(): string[] {
    return this.functions.list();
  }

  /** @internal Runs a plan: used by Table.execute(). */
  executeNode(node: PlanNode, signal?: AbortSignal, progress?: boolean | ProgressOptions): TableResult {
    const executor = getExecutor();
    const settings = {
      batch: this.isBatch(), config: this.config.options, clock: this.clock, resolveFunction: this.planContext().resolveFunction,
      connectors: this.tables.connector,
    };
    const root = this.negotiate(node, true);
    return new TableResult(node.schema, (sink) => executor.createJob(root, settings, sink), this.isBatch(), signal,
      progress === true ? {} : progress === false || progress === undefined ? undefined : progress);
  }
}

function rowWhere(i: number): () => string {
  return () => `fromValues row ${i + 1}`;
}

function typedValues(rowType: DataType, rows: readonly unknown[]): ValuesNode {
  if (rowType.root !== "ROW") {
    // a non-row type: every value is one column f0 of that type
    const t = rowType;
    const schema = new ResolvedSchema([{ name: "f0", type: t }]);
    return valuesNode({
      schema,
      rows: rows.map((v, i) => [coerceValue(t, v instanceof PositionalRow ? v.values[0] : v, () => `fromValues row ${i + 1}, column 'f0'`)]),
    });
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
      values = fields.map((f) => getOwn(obj, f.name));
    } else {
      throw new ValidationError(`${where()}: expected Row.of(...) or an object for row type ${rowType}, got ${String(row)}`);
    }
    return fields.map((f, j) => coerceValue(f.type, values[j], () => `${where()}, column '${f.name}'`));
  });
  return valuesNode({ schema, rows: out, ...(kinds.some((k) => k !== Kind.INSERT) ? { kinds } : {}) });
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
      return names.map((n) => getOwn(v as object, n));
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
      t = t === undefined ? vt : commonType(t, vt, () => `fromValues row ${i + 1}, column '${n}'`);
    });
    return t!;
  });
  const schema = new ResolvedSchema(names.map((n, j) => ({ name: n, type: fieldTypes[j]! })));
  const kinds = values.map((v) => (isRow(v) ? kindFromShort((v as PositionalRow).kind) : Kind.INSERT));
  const coerced = rows.map((r, i) => r.map((x, j) => coerceValue(fieldTypes[j]!, x, () => `fromValues row ${i + 1}, column '${names[j]}'`)));
  return valuesNode({ schema, rows: coerced, ...(kinds.some((k) => k !== Kind.INSERT) ? { kinds } : {}) });
}
