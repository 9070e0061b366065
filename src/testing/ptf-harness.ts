import type { Immutable } from "immer";
import { keyExtractor } from "../exec/operators/ptf/keys.js";
import { PtfOperator, type PtfSnapshot } from "../exec/operators/ptf/ptf-operator.js";
import { copyValue } from "../exec/operators/ptf/state-copy.js";
import { Expression } from "../expressions/expression.js";
import { $, descriptor, lit } from "../expressions/functions.js";
import { EnvironmentSettings, TableEnvironment, type RowInput } from "../table/table-environment.js";
import type { ScalarArgDecl, TableArgDecl } from "../ptf/arguments.js";
import { resolveProcessCall } from "../ptf/call.js";
import { ProcessTableFunction } from "../ptf/function.js";
import type { ResolvedPtfCall } from "../ptf/resolved-call.js";
import type { ListViewDecl, MapViewDecl, ValueStateDecl, ValueViewDecl } from "../ptf/state.js";
import { TableArgument, partitionKeyNames } from "../ptf/table-arguments.js";
import { ArgumentTrait, type TableTrait } from "../ptf/traits.js";
import { parseDuration } from "../ptf/ttl.js";
import type { AnyProcessTableFunction, ProcessOutput } from "../ptf/typing.js";
import { ValidationError } from "../types/errors.js";
import { KIND_SHORT, type KeyedRow } from "../types/row.js";
import { type RowConverter, rowConverter } from "../table/row-converter.js";
import { Schema } from "../table/schema.js";
import type { Table } from "../table/table.js";
import { DataType } from "../types/data-type.js";
import { toJavaString } from "../types/format.js";
import type { Flatten } from "../table/typing.js";
import { coerceValue } from "../types/values.js";
import { deepFreeze } from "./freeze.js";
import { InputRows } from "./ptf-input.js";

// ---- types ----

/** The row type of a function's (single) table argument: its declared type, or any row when polymorphic. */
type TableRowOf<F> = F extends ProcessTableFunction<infer A, unknown, unknown>
  ? { [N in keyof A]: A[N] extends TableArgDecl<infer R, TableTrait> ? R : never }[keyof A] & object
  : object;

type ScalarDeclsOf<F> = F extends ProcessTableFunction<infer A, unknown, unknown>
  ? { [N in keyof A as A[N] extends ScalarArgDecl<unknown, boolean> ? N : never]: A[N] }
  : {};

/** A scalar argument as the harness takes it: a value of the declared type, or an expression (`lit(1).hours()`, `descriptor("ts")`). */
type ArgInput<D> = D extends ScalarArgDecl<infer T, infer O> ? (O extends true ? T | null : T) | Expression<unknown> : never;

type RequiredArgNames<D> = { [N in keyof D]: D[N] extends ScalarArgDecl<unknown, true> ? never : N }[keyof D];

/** The scalar arguments of a call by name; the function's non-optional ones are required. */
export type HarnessArgs<F> =
  & { readonly [N in keyof ScalarDeclsOf<F> as N extends RequiredArgNames<ScalarDeclsOf<F>> ? N : never]: ArgInput<ScalarDeclsOf<F>[N]> }
  & { readonly [N in keyof ScalarDeclsOf<F> as N extends RequiredArgNames<ScalarDeclsOf<F>> ? never : N]?: ArgInput<ScalarDeclsOf<F>[N]> };

type ArgsOption<F> = [RequiredArgNames<ScalarDeclsOf<F>>] extends [never]
  ? { readonly args?: HarnessArgs<F> }
  : { readonly args: HarnessArgs<F> };

/** How a harness is made: the call's arguments, the input's row type, and the harness's environment. */
export type PtfHarnessOptions<F, T extends object, K extends string, O extends string = never> = {
  /**
   * Row type of the table argument: a ROW data type or a Schema (rows then give its physical columns).
   * May be left out for a typed table argument (`tableArg(...).typed(type)`): its type is the input's.
   */
  readonly input?: DataType<T | null> | Schema<T>;
  /** PARTITION BY columns of a set-semantics table argument. */
  readonly partitionBy?: readonly K[];
  /**
   * The `on_time` column: the time attribute eval's `timeContext().time()` reads, timers run on and the
   * `rowtime` output column comes from. Watermarks are given with `processWatermark`.
   */
  readonly onTime?: O;
  /** The call's `uid` (default: the function's name, as in a job). Snapshots are restored by uid. */
  readonly uid?: string;
  /** Processing time (epoch ms) the harness starts at; default 0. */
  readonly processingTime?: number;
  /** Configuration options of the call, e.g. `{ "table.exec.state.ttl": "1 h" }`. */
  readonly config?: Readonly<Record<string, string>>;
} & ArgsOption<F>;

/** The rows a harness emits: the call's result columns, plus `rowtime` with `on_time`. */
export type HarnessOutput<F, T, K extends string, O extends string> =
  KeyedRow<Flatten<ProcessOutput<F, T, K> & ([O] extends [never] ? {} : { rowtime: Date })>>;

/** What `state(key)` shows for one state entry. */
export type EntrySnapshot<D> =
  D extends ValueStateDecl<infer T> ? Immutable<T> | null
  : D extends ValueViewDecl<infer T> ? Immutable<T> | null
  : D extends ListViewDecl<infer T> ? readonly Immutable<T>[]
  : D extends MapViewDecl<infer K, infer V> ? ReadonlyMap<Immutable<K>, Immutable<V>>
  : never;

/** The state of one virtual processor, by state entry name: deep, read-only copies. */
export type HarnessState<F> = F extends ProcessTableFunction<unknown, infer S, unknown>
  ? { readonly [N in keyof S]: EntrySnapshot<S[N]> }
  : Readonly<Record<string, unknown>>;

/**
 * A PARTITION BY key as a test writes it: the value of the one key column, an array of values for
 * several columns, `[]` (or nothing) without PARTITION BY.
 */
export type HarnessKey<T, K extends string> =
  [K] extends [never] ? readonly []
  : { [P in K]: [Exclude<K, P>] extends [never] ? T[P & keyof T] : readonly unknown[] }[K];

/** A harness's state at one moment, for `restore` on a new harness (deep, read-only). */
export interface PtfHarnessSnapshot {
  /** The call's uid: a snapshot is restored only into a call with the same uid. */
  readonly uid: string | undefined;
  /** The operator's checkpoint: every state entry of every key, with TTL write times. */
  readonly state: PtfSnapshot;
  /** State entry kinds by name (`value`, `listView`, ...): a restore refuses an entry declared differently. */
  readonly entries: Readonly<Record<string, string>>;
  /** The keys seen: [key in the state backend, key as a test writes it]. */
  readonly keys: readonly (readonly [unknown, unknown])[];
}

// ---- the harness ----

/**
 * Drives one Process Table Function directly, without a pipeline, as Flink's operator test harnesses
 * do: rows go in one at a time, the emitted rows and the state of every key can be read in between,
 * and processing time is a clock the test sets (TTL). It runs the real PTF operator and state backend,
 * so what it shows is what a job does.
 *
 * ```ts
 * const h = PtfTestHarness.of(Greeter, { input: Visit, partitionBy: ["user"] });
 * h.processElement({ user: "Ann", at: new Date(0) });
 * h.changelog();                   // ["+I[Ann, Hello!]"]
 * h.state("Ann");                  // { seen: { visits: 1 } }   (frozen copy)
 * h.advanceProcessingTime("31 min");
 * h.state("Ann");                  // { seen: null }            (expired)
 * ```
 */
export class PtfTestHarness<F extends AnyProcessTableFunction, T extends object, K extends string, O extends string = never> {
  private readonly op: PtfOperator;
  private readonly call: ResolvedPtfCall;
  private readonly input: InputRows;
  private readonly keyOf: (record: readonly unknown[]) => unknown;
  private readonly keyColumns: readonly number[];
  private readonly keyNames: readonly string[];
  private readonly convert: RowConverter<object>;
  private readonly outputTypes: readonly DataType[];
  /** Emitted records and their kinds, until drained. */
  private readonly kinds: number[] = [];
  private readonly records: unknown[][] = [];
  /** Every key processed (or restored): key in the backend -> key as a test writes it. */
  private readonly seen = new Map<unknown, unknown>();
  private now: number;
  private rowCount = 0;
  private restored = false;
  private ended = false;

  private constructor(fn: F, options: PtfHarnessOptions<F, T, K, O>) {
    if (!(fn instanceof ProcessTableFunction)) {
      throw new ValidationError(`PtfTestHarness.of: expected a ProcessTableFunction, got ${String(fn)}`);
    }
    const name = fn.displayName;
    if (fn.tableArgs.length !== 1) {
      throw new ValidationError(
        fn.tableArgs.length === 0
          ? `PtfTestHarness: function '${name}' has no table argument: it is evaluated once (a generator); test it with env.fromCall(${name})`
          : `PtfTestHarness drives functions with one table argument; '${name}' declares ${fn.tableArgs.length} (${fn.tableArgs.map((a) => a.name).join(", ")})`,
      );
    }
    const tableArg = fn.tableArgs[0]!;
    const decl = tableArg.decl as TableArgDecl<unknown, TableTrait>;
    const rowType = options.input ?? decl.type;
    if (rowType === undefined) {
      throw new ValidationError(
        `PtfTestHarness: table argument '${tableArg.name}' of function '${name}' takes any table; give the input's row type: { input: DataTypes.ROW(...) } or a Schema`,
      );
    }
    if (!(rowType instanceof Schema) && !(rowType instanceof DataType && rowType.root === "ROW")) {
      throw new ValidationError(`PtfTestHarness: input must be a ROW data type or a Schema, got ${String(rowType)}`);
    }
    this.now = checkTime(options.processingTime ?? 0, "processingTime");

    // The call is resolved by the same code as a pipeline's (argument binding, Flink's validation
    // messages, uid rules, output columns), over an empty table of the input's type.
    const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    for (const [k, v] of Object.entries(options.config ?? {})) env.getConfig().set(k, v);
    const table = (rowType instanceof Schema ? env.fromValues(rowType, []) : env.fromValues(rowType as DataType<object | null>, [])) as Table<object>;
    const keys = options.partitionBy ?? [];
    const keyNames = keys.length > 0 ? partitionKeyNames(table, keys.map((k) => $(k))) : [];
    const args: unknown[] = [new TableArgument(tableArg.name, table, keyNames)];
    const given = (options as { args?: Readonly<Record<string, unknown>> }).args ?? {};
    for (const [argName, value] of Object.entries(given)) {
      const a = fn.arg(argName);
      // a value is a literal of the declared type (checked and converted like any argument); an
      // unknown name is passed on so that the call reports it with the list of arguments
      const e = value instanceof Expression ? value : a?.decl.kind === "scalar" ? lit(value, a.decl.type) : lit(value);
      args.push(e.asArgument(argName));
    }
    if (options.onTime !== undefined) args.push(descriptor(options.onTime).asArgument("on_time"));
    if (options.uid !== undefined) args.push(lit(options.uid).asArgument("uid"));
    const node = resolveProcessCall(env, fn, args);
    this.call = node.call;

    const resolved = this.call.tables[0]!;
    this.keyColumns = resolved.partitionKeys;
    this.keyNames = resolved.partitionKeys.map((i) => resolved.schema.names[i]!);
    this.keyOf = keyExtractor(resolved.partitionKeys, resolved.schema.types);
    this.input = InputRows.of(rowType as DataType | Schema<object>, env.planContext());
    this.convert = rowConverter(node.schema);
    this.outputTypes = node.schema.types;
    this.op = new PtfOperator(this.call, { batch: false, config: env.getConfig().options, clock: () => this.now });
    const kinds = this.kinds;
    const records = this.records;
    this.op.out = {
      record(kind, row) {
        kinds.push(kind);
        records.push(row);
      },
      watermark() {},
      endInput() {},
    };
    this.op.open();
  }

  /**
   * A harness for `fn` called with the given arguments, e.g.
   * `PtfTestHarness.of(TableFilter, { input: Orders, args: { threshold: 100 } })` or
   * `PtfTestHarness.of(Counter, { input: Clicks, partitionBy: ["user"], uid: "counter" })`.
   * Invalid calls fail with the messages a pipeline gives.
   */
  static of<
    F extends AnyProcessTableFunction, T extends object = TableRowOf<F>, const K extends keyof T & string = never, const O extends keyof T & string = never,
  >(fn: F, options: PtfHarnessOptions<F, T, K, O>): PtfTestHarness<F, Flatten<T>, K, O> {
    return new PtfTestHarness(fn, options) as unknown as PtfTestHarness<F, Flatten<T>, K, O>;
  }

  // ---- input and time ----

  /**
   * Processes one row of the table argument: `Row.of(...)` (by position) or an object (by column name),
   * checked against the input's type. Rows of another kind than INSERT (`Row.ofKind(RowKind.DELETE, ...)`)
   * need a table argument declared with SUPPORT_UPDATES.
   */
  processElement(row: RowInput<T>): void {
    if (this.ended) throw new ValidationError("PtfTestHarness.processElement(): the input has ended (endInput() was called)");
    const n = ++this.rowCount;
    const record = this.input.toRecord(row, n);
    const kind = this.input.kind;
    if (kind !== 0 && !this.call.tables[0]!.decl.has(ArgumentTrait.SUPPORT_UPDATES)) {
      throw new ValidationError(
        `PtfTestHarness.processElement row ${n}: a row of kind ${this.input.kindName()}, but table argument '${this.call.tables[0]!.name}' of function `
        + `'${this.call.functionName}' takes an insert-only table (it does not declare ArgumentTrait.SUPPORT_UPDATES)`,
      );
    }
    const key = this.keyOf(record);
    if (!this.seen.has(key)) this.seen.set(key, this.userKey(record));
    this.op.processElement(0, kind, record);
  }

  /** Processes rows one after another. */
  processElements(rows: Iterable<RowInput<T>>): void {
    for (const r of rows) this.processElement(r);
  }

  /**
   * A watermark of the table argument (epoch ms or a Date): timers at or before it fire, in time order,
   * before it is passed on. A watermark not above the current one changes nothing, as in a job.
   */
  processWatermark(watermark: number | Date): void {
    if (this.ended) throw new ValidationError("PtfTestHarness.processWatermark(): the input has ended (endInput() was called)");
    const ms = watermark instanceof Date ? watermark.getTime() : watermark;
    if (typeof ms !== "number" || Number.isNaN(ms)) throw new ValidationError(`PtfTestHarness.processWatermark: expected epoch milliseconds or a Date, got ${String(watermark)}`);
    this.op.processWatermark(0, ms);
  }

  /** Ends the input, as a bounded table does: a watermark of +∞ fires every remaining timer. */
  endInput(): void {
    if (this.ended) return;
    this.ended = true;
    this.op.endInput(0);
  }

  /** The operator's current watermark (epoch ms; -Infinity before the first one). */
  currentWatermark(): number {
    return this.op.currentWatermark;
  }

  /** Sets the processing-time clock (epoch ms) that state TTL runs on. It may not go back. */
  setProcessingTime(ms: number): void {
    const t = checkTime(ms, "setProcessingTime");
    if (t < this.now) throw new ValidationError(`PtfTestHarness.setProcessingTime(${ms}): processing time cannot go back (it is ${this.now})`);
    this.now = t;
  }

  /** Moves the processing-time clock forward by milliseconds or a duration such as "30 min" (Flink's syntax, as for TTL). */
  advanceProcessingTime(by: number | string): void {
    this.now += parseDuration(by, "PtfTestHarness.advanceProcessingTime");
  }

  /** The processing-time clock (epoch ms). */
  currentProcessingTime(): number {
    return this.now;
  }

  // ---- output ----

  /** The rows emitted so far (since the last `drain()`), as rows of the call's result with their kind (`Row.kindOf`). */
  output(): HarnessOutput<F, T, K, O>[] {
    const out = new Array<HarnessOutput<F, T, K, O>>(this.records.length);
    for (let i = 0; i < this.records.length; i++) out[i] = this.convert(this.kinds[i]!, this.records[i]!) as HarnessOutput<F, T, K, O>;
    return out;
  }

  /** The rows emitted so far in Flink's notation, as `toChangelog()` of a result gives them: `+I[Bob, 1]`. */
  changelog(): string[] {
    const types = this.outputTypes;
    return this.records.map((r, i) => `${KIND_SHORT[this.kinds[i]!]}[${r.map((x, j) => toJavaString(types[j], x)).join(", ")}]`);
  }

  /** The rows emitted so far, which are then forgotten: the next call returns only newer rows. */
  drain(): HarnessOutput<F, T, K, O>[] {
    const out = this.output();
    this.kinds.length = 0;
    this.records.length = 0;
    return out;
  }

  // ---- state ----

  /**
   * The state of the virtual processor of `key` as `eval` would see it now: every state entry by name,
   * as a deep read-only copy (immer-frozen; taken only when asked). A value state with nothing stored
   * (fresh, cleared, expired, or all fields null) is null, an empty ListView `[]`, an empty MapView an
   * empty Map, an unset ValueView null. Expired entries are not shown (the harness's clock decides);
   * looking changes nothing. `key` is the value of the PARTITION BY column (an array for several columns;
   * nothing without PARTITION BY) and must be a key the harness processed or restored.
   */
  state(...key: [K] extends [never] ? [] | [readonly []] : [HarnessKey<T, K>]): HarnessState<F> {
    const internal = this.internalKey(key, "state");
    const live = this.op.peekState(internal, this.now);
    const out: Record<string, unknown> = {};
    for (const s of this.call.fn.states) {
      const v = live[s.name];
      out[s.name] = v !== undefined ? copyValue(v) : s.decl.kind === "listView" ? [] : s.decl.kind === "mapView" ? new Map() : null;
    }
    return deepFreeze(out) as HarnessState<F>;
  }

  /** The keys whose virtual processor holds state now (expired state does not count), in the order they first stored some. */
  keys(): HarnessKey<T, K>[] {
    return this.op.liveStateKeys(this.now).map((k) => (this.seen.has(k) ? this.seen.get(k) : k) as HarnessKey<T, K>);
  }

  // ---- snapshots ----

  /** The state of all keys, for `restore` on a new harness (Flink's `snapshot` + `initializeState`). */
  snapshot(): PtfHarnessSnapshot {
    return deepFreeze({
      uid: this.call.uid,
      // copied whole: the operator's snapshot may share immutable parts (timer records) with the live state
      state: copyValue(this.op.snapshotState()),
      entries: Object.fromEntries(this.call.fn.states.map((s) => [s.name, s.decl.kind])),
      keys: [...this.seen].map(([k, u]) => [k, copyValue(u)] as const),
    });
  }

  /**
   * Restores a snapshot into this harness, which must be new (no row processed, nothing restored):
   * it then continues as the harness the snapshot was taken from would. The snapshot's uid must be
   * this call's (state is found again by uid), and a state entry must keep its kind.
   */
  restore(snapshot: PtfHarnessSnapshot): void {
    if (this.rowCount > 0 || this.restored) {
      throw new ValidationError("PtfTestHarness.restore(): restore into a new harness, before its first processElement (Flink's initializeState comes before open)");
    }
    if (snapshot === null || typeof snapshot !== "object" || !("state" in snapshot) || !("entries" in snapshot)) {
      throw new ValidationError("PtfTestHarness.restore(): expected a snapshot taken with PtfTestHarness.snapshot()");
    }
    if (snapshot.uid !== this.call.uid) {
      throw new ValidationError(
        `PtfTestHarness.restore(): the snapshot holds the state of uid '${snapshot.uid ?? "NULL"}' but this call of '${this.call.functionName}' has uid '${this.call.uid ?? "NULL"}'; state is found again by uid`,
      );
    }
    for (const s of this.call.fn.states) {
      const was = snapshot.entries[s.name];
      if (was !== undefined && was !== s.decl.kind) {
        throw new ValidationError(`PtfTestHarness.restore(): state entry '${s.name}' is a ${was} in the snapshot but function '${this.call.functionName}' declares a ${s.decl.kind}`);
      }
    }
    this.restored = true;
    this.op.restoreState(snapshot.state);
    for (const [k, u] of snapshot.keys) this.seen.set(k, copyValue(u));
  }

  // ---- keys ----

  /** The key as a test writes it, from a record: the value of the one key column, else an array. */
  private userKey(record: readonly unknown[]): unknown {
    const cols = this.keyColumns;
    return cols.length === 1 ? record[cols[0]!] : cols.map((i) => record[i]);
  }

  /** The backend's key for a key a test wrote; it must have been processed or restored. */
  private internalKey(args: readonly unknown[], method: string): unknown {
    const where = `PtfTestHarness.${method}()`;
    const cols = this.keyColumns;
    const key = args[0];
    const record = new Array<unknown>(this.call.tables[0]!.schema.size).fill(null);
    const types = this.call.tables[0]!.schema.types;
    if (cols.length === 0) {
      if (args.length > 1 || (key !== undefined && !(Array.isArray(key) && key.length === 0))) {
        throw new ValidationError(`${where}: the call has no PARTITION BY, so there is one virtual processor: call ${method}() without a key`);
      }
    } else if (args.length !== 1) {
      throw new ValidationError(`${where}: give the key of a virtual processor: the value of ${this.describeKeyColumns()}`);
    } else if (cols.length === 1) {
      record[cols[0]!] = coerceValue(types[cols[0]!]!, key, () => `${where}: key column '${this.keyNames[0]}'`);
    } else {
      if (!Array.isArray(key) || key.length !== cols.length) {
        throw new ValidationError(`${where}: the key of ${this.describeKeyColumns()} is an array of ${cols.length} values, got ${key === undefined ? "undefined" : JSON.stringify(key) ?? String(key)}`);
      }
      cols.forEach((c, i) => { record[c] = coerceValue(types[c]!, key[i], () => `${where}: key column '${this.keyNames[i]}'`); });
    }
    const internal = this.keyOf(record);
    if (!this.seen.has(internal)) {
      const seen = [...this.seen.values()].map((u) => this.formatKey(u));
      throw new ValidationError(
        `${where}: no row with key ${this.formatKey(cols.length === 1 ? record[cols[0]!] : cols.map((c) => record[c]))} (PARTITION BY ${this.keyNames.join(", ")}) was processed or restored; `
        + `keys seen: [${seen.slice(0, 20).join(", ")}${seen.length > 20 ? `, ... (${seen.length} keys)` : ""}]`,
      );
    }
    return internal;
  }

  private describeKeyColumns(): string {
    return this.keyNames.length === 1 ? `column '${this.keyNames[0]}'` : `columns [${this.keyNames.join(", ")}]`;
  }

  private formatKey(u: unknown): string {
    const types = this.call.tables[0]!.schema.types;
    const cols = this.keyColumns;
    if (cols.length === 1) return toJavaString(types[cols[0]!], u);
    return `[${(u as unknown[]).map((x, i) => toJavaString(types[cols[i]!], x)).join(", ")}]`;
  }
}

function checkTime(ms: number, what: string): number {
  if (typeof ms !== "number" || !Number.isFinite(ms)) throw new ValidationError(`PtfTestHarness ${what}: expected epoch milliseconds, got ${String(ms)}`);
  return ms;
}
