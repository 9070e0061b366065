import { buildJobGraph, type JobGraph, type SourceEntry } from "../exec/job-graph.js";
import { metricScope } from "../exec/metric-scope.js";
import type { Operator, Output } from "../exec/operator.js";
import { PtfOperator } from "../exec/operators/ptf/ptf-operator.js";
import { decodeSnapshot, encodeSnapshot } from "../exec/snapshot-codec.js";
import { WatermarkGenerator } from "../exec/sources/watermark-generator.js";
import type { PlanNode, WatermarkSpec } from "../plan/nodes.js";
import { parseDuration } from "../ptf/ttl.js";
import { OPERATORS } from "../table/wiring.js";
import type { JobSettings, MetricsSnapshot } from "../table/executor.js";
import { type RowConverter, rowConverter } from "../table/row-converter.js";
import { Schema } from "../table/schema.js";
import type { ChangelogKind, Table } from "../table/table.js";
import { EnvironmentSettings, type RowInput, TableEnvironment } from "../table/table-environment.js";
import type { Flatten } from "../table/typing.js";
import { DataType } from "../types/data-type.js";
import { ValidationError } from "../types/errors.js";
import { toJavaString } from "../types/format.js";
import type { ResolvedSchema } from "../types/resolved-schema.js";
import { type KeyedRow, KIND_SHORT, type RowKind } from "../types/row.js";
import { cellsOf, formatTable } from "./table-literal.js";
import { type OperatorState, checkpointOperators, checkpointSize, restoreOperators } from "./operator-checkpoint.js";
import { InputRows } from "./ptf-input.js";
import { keyExtractor } from "../exec/operators/ptf/keys.js";
import { copyValue } from "../exec/operators/ptf/state-copy.js";
import type { AnyProcessTableFunction } from "../ptf/typing.js";
import { coerceValue } from "../types/values.js";
import { deepFreeze } from "./freeze.js";
import type { HarnessState } from "./ptf-harness.js";

// ---- types ----

/**
 * One named input of a harnessed program: a Schema (its watermark declaration makes its rowtime column a
 * time attribute) or a ROW type, insert-only; `{ schema, changelog: true }` for an input whose rows carry
 * kinds (`Row.ofKind(RowKind.DELETE, ...)`), as `fromChangelogAsyncIterable` reads them.
 */
export type PipelineInput<T extends object = object> =
  | Schema<T>
  | DataType<T | null>
  | { readonly schema: Schema<T> | DataType<T | null>; readonly changelog: true };

/** The inputs of a harness by name. */
export type PipelineInputs = { readonly [name: string]: PipelineInput<any> };

/** The row type of one input declaration. */
export type InputRow<S> =
  S extends { readonly schema: infer X } ? InputRow<X>
  : S extends Schema<infer T> ? T
  : S extends DataType<infer T> ? Flatten<NonNullable<T>>
  : never;

/** The tables a program reads: one per input, insert-only or (changelog inputs) updating. */
export type InputTables<I extends PipelineInputs> = {
  readonly [N in keyof I]: I[N] extends { readonly changelog: true } ? Table<InputRow<I[N]>, "retract"> : Table<InputRow<I[N]>, "append">;
};

/** How a pipeline harness is made. */
export interface PipelineHarnessOptions<I extends PipelineInputs, R extends object> {
  /** The program's inputs by name: what `send(name, row)` feeds. */
  readonly inputs: I;
  /** The program: any Table API program over the input tables (and anything else of `env`). */
  readonly program: (inputs: InputTables<I>, env: TableEnvironment) => Table<R, ChangelogKind>;
  /** The environment the program is built in (streaming mode); default: a new streaming environment. */
  readonly env?: TableEnvironment;
  /** Configuration options, e.g. `{ "table.exec.state.ttl": "1 h" }`. */
  readonly config?: Readonly<Record<string, string>>;
  /** Processing time (epoch ms) the harness's clock starts at; default 0. */
  readonly processingTime?: number;
  /**
   * `"schema"` (default): an input whose Schema declares a watermark emits it after each row, as a source
   * does (max time seen - delay); `watermark(name, t)` can move it further. `"manual"`: only `watermark()`.
   */
  readonly watermarks?: "schema" | "manual";
}

/** A pending event-time timer of a process table function call. */
export interface PendingTimer {
  /** The operator (`Process[<function>]`). */
  readonly operator: string;
  /** The PARTITION BY key (the key column's value; an array for several columns; null without PARTITION BY). */
  readonly key: unknown;
  /** The timer's name, null for an unnamed timer. */
  readonly name: string | null;
  /** When it fires (epoch ms). */
  readonly time: number;
}

/** The state of a harnessed job, for `restore` on a new harness of the same program: plain, JSON-safe data. */
export interface PipelineSnapshot {
  /** Every operator's checkpointed state, by operator name in job order. */
  readonly operators: readonly OperatorState[];
  /** Per input: rows sent and the watermark progress (encoded). */
  readonly inputs: unknown;
  /** Positions of the program's other sources (encoded). */
  readonly sources: unknown;
  /** The harness's processing-time clock when the snapshot was taken. */
  readonly processingTime: number;
}

interface InputState {
  readonly name: string;
  readonly rows: InputRows;
  readonly changelog: boolean;
  out: Output;
  readonly generator: WatermarkGenerator | undefined;
  readonly rowtime: number;
  sent: number;
  watermark: number;
  ended: boolean;
}

type InputName<I> = keyof I & string;

// ---- the harness ----

/**
 * Runs any Table API program by hand, as Flink's operator test harnesses do for one operator: rows go to
 * named inputs one at a time, watermarks and the processing-time clock move when the test says, and after
 * every step the changelog so far, each operator's state size, the pending timers and the metrics can be
 * read. The job is the real one (the same job graph `execute()` runs), driven synchronously.
 *
 * ```ts
 * const h = PipelineHarness.of({ inputs: { clicks: Clicks }, program: ({ clicks }) => clicks.groupBy($("user")).select(...) });
 * h.send("clicks", { user: "Ann", at: new Date(0) });
 * h.table();          // | op | user | n |  ...
 * const s = h.snapshot();
 * ```
 */
export class PipelineHarness<I extends PipelineInputs, R extends object> {
  private readonly graph: JobGraph;
  private readonly inputs = new Map<string, InputState>();
  /** Sources of the program that are not harness inputs (a fromValues table it joins, ...). */
  private readonly others: SourceEntry[];
  private readonly named: { readonly name: string; readonly op: Operator }[];
  private readonly schema: ResolvedSchema;
  private readonly convert: RowConverter<object>;
  private readonly kinds: number[] = [];
  private readonly records: (readonly unknown[])[] = [];
  private now: number;
  private sinkWatermark = -Infinity;
  private opened = false;
  private restored: PipelineSnapshot | undefined;

  private constructor(options: PipelineHarnessOptions<I, R>) {
    if (options === null || typeof options !== "object" || typeof options.program !== "function" || options.inputs === null || typeof options.inputs !== "object") {
      throw new ValidationError("PipelineHarness.of: expected { inputs: { name: Schema | ROW type, ... }, program: (inputs, env) => table }");
    }
    const env = options.env ?? TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    if (env.isBatch()) throw new ValidationError("PipelineHarness: the environment is in batch mode; the harness drives streaming jobs (EnvironmentSettings.inStreamingMode())");
    for (const [k, v] of Object.entries(options.config ?? {})) env.getConfig().set(k, v);
    this.now = checkTime(options.processingTime ?? 0, "processingTime");

    // one empty table per input: its plan leaf is the source the harness pushes rows into
    const tables: Record<string, Table<object, ChangelogKind>> = {};
    const leafOf = new Map<PlanNode, string>();
    const specs = new Map<string, { schema: Schema<object> | DataType; changelog: boolean }>();
    for (const [name, spec] of Object.entries(options.inputs)) {
      const changelog = spec !== null && typeof spec === "object" && "changelog" in spec && spec.changelog === true;
      const schema = (changelog ? (spec as { schema: unknown }).schema : spec) as unknown;
      if (!(schema instanceof Schema) && !(schema instanceof DataType && schema.root === "ROW")) {
        throw new ValidationError(`PipelineHarness: input '${name}' must be a Schema, a ROW data type or { schema, changelog: true }, got ${String(schema)}`);
      }
      const table = changelog
        ? env.fromChangelogAsyncIterable(schema instanceof Schema ? schema : Schema.newBuilder().fromRowDataType(schema as DataType<object | null>).build(), [], { name })
        : schema instanceof Schema ? env.fromValues(schema, []) : env.fromValues(schema as DataType<object | null>, []);
      tables[name] = table as Table<object, ChangelogKind>;
      leafOf.set(table.node, name);
      specs.set(name, { schema: schema as Schema<object> | DataType, changelog });
    }
    const result = options.program(tables as unknown as InputTables<I>, env);
    if (result === null || typeof result !== "object" || !("node" in result)) {
      throw new ValidationError(`PipelineHarness: program must return a Table, got ${String(result)}`);
    }
    this.schema = result.node.schema;
    this.convert = rowConverter(this.schema);

    const settings: JobSettings = {
      batch: false, config: env.getConfig().options, clock: () => this.now, resolveFunction: env.planContext().resolveFunction,
    };
    const kinds = this.kinds;
    const records = this.records;
    this.graph = buildJobGraph(env.negotiate(result.node, true), settings, {
      record: (k, v) => { kinds.push(k); records.push(v); },
      watermark: (wm) => { this.sinkWatermark = wm; },
    }, OPERATORS, settings.resolveFunction);

    // the harness inputs among the job's sources, and the rest
    this.others = [];
    for (const s of this.graph.sources) {
      const node = this.graph.nodes.get(s.emitter);
      const name = node === undefined ? undefined : leafOf.get(node);
      if (name === undefined) {
        this.others.push(s);
        continue;
      }
      const spec = specs.get(name)!;
      const wm = manualOnly(options.watermarks) ? undefined : (node as { watermark?: WatermarkSpec }).watermark;
      this.inputs.set(name, {
        name, changelog: spec.changelog, out: s.emitter.out,
        rows: InputRows.of(spec.schema, env.planContext()),
        generator: wm ? new WatermarkGenerator(wm.delayMillis, wm.emit === "periodic" ? wm.intervalRecords ?? 1 : 1) : undefined,
        rowtime: wm ? node!.schema.indexOf(wm.rowtimeColumn) : -1,
        sent: 0, watermark: -Infinity, ended: false,
      });
    }
    const unread = [...specs.keys()].filter((n) => !this.inputs.has(n));
    if (unread.length > 0) throw new ValidationError(`PipelineHarness: the program does not read input${unread.length > 1 ? "s" : ""} ${unread.map((n) => `'${n}'`).join(", ")}`);
    this.named = operatorNames(this.graph);
  }

  /**
   * A harness for `program` over the named `inputs`:
   * `PipelineHarness.of({ inputs: { orders: Orders, rates: Rates }, program: ({ orders, rates }) => orders.join(rates)... })`.
   * Row types of `send` come from the input declarations, those of `output()` from the program.
   */
  static of<const I extends PipelineInputs, R extends object>(options: PipelineHarnessOptions<I, R>): PipelineHarness<I, Flatten<R>> {
    return new PipelineHarness(options) as unknown as PipelineHarness<I, Flatten<R>>;
  }

  // ---- input ----

  /**
   * Sends one row to `input`: `Row.of(...)` by position or an object by column name, checked against the
   * input's columns (computed columns are evaluated). With the schema's watermark, the input's watermark
   * follows the row (max time seen - delay), and timers and windows it passes fire before `send` returns.
   */
  send<N extends InputName<I>>(input: N, row: RowInput<InputRow<I[N]>>): this {
    const s = this.input(input, "send");
    if (s.ended) throw new ValidationError(`PipelineHarness.send('${input}'): the input has ended (endInput was called)`);
    this.open();
    const record = s.rows.toRecord(row, s.sent + 1, `PipelineHarness.send('${input}')`);
    const kind = s.rows.kind;
    if (kind !== 0 && !s.changelog) {
      throw new ValidationError(
        `PipelineHarness.send('${input}') row ${s.sent + 1}: a row of kind ${s.rows.kindName()}, but input '${input}' is insert-only; declare it as { schema, changelog: true }`,
      );
    }
    s.sent++;
    s.out.record(kind, record);
    if (s.generator !== undefined) {
      const t = record[s.rowtime] as Date | null;
      if (t !== null) {
        const w = s.generator.onEvent(t.getTime());
        if (w !== undefined) this.advance(s, w);
      }
    }
    return this;
  }

  /** Sends rows one after another. */
  sendAll<N extends InputName<I>>(input: N, rows: Iterable<RowInput<InputRow<I[N]>>>): this {
    for (const r of rows) this.send(input, r);
    return this;
  }

  /**
   * Moves the watermark of `input` to `time` (epoch ms or a Date), as its source would: timers, windows and
   * ORDER BY buffers it passes fire. A watermark not above the input's current one changes nothing.
   */
  watermark<N extends InputName<I>>(input: N, time: number | Date): this {
    const s = this.input(input, "watermark");
    if (s.ended) throw new ValidationError(`PipelineHarness.watermark('${input}'): the input has ended (endInput was called)`);
    const ms = time instanceof Date ? time.getTime() : time;
    if (typeof ms !== "number" || Number.isNaN(ms)) throw new ValidationError(`PipelineHarness.watermark('${input}'): expected epoch milliseconds or a Date, got ${String(time)}`);
    this.open();
    this.advance(s, ms);
    return this;
  }

  /** Ends `input` (all inputs without an argument), as a bounded source does: a watermark of +∞, then end of input. */
  endInput(input?: InputName<I>): this {
    this.open();
    const which = input === undefined ? [...this.inputs.values()] : [this.input(input, "endInput")];
    for (const s of which) {
      if (s.ended) continue;
      s.ended = true;
      s.watermark = Infinity;
      s.out.watermark(Infinity);
      s.out.endInput();
    }
    return this;
  }

  /** The watermark of one input (epoch ms; -Infinity before the first). */
  inputWatermark(input: InputName<I>): number {
    return this.input(input, "inputWatermark").watermark;
  }

  /** The watermark that has reached the end of the program (epoch ms; -Infinity before the first). */
  currentWatermark(): number {
    return this.sinkWatermark;
  }

  // ---- processing time ----

  /** Sets the processing-time clock (epoch ms) that state TTL runs on. It may not go back. */
  setProcessingTime(ms: number): this {
    const t = checkTime(ms, "setProcessingTime");
    if (t < this.now) throw new ValidationError(`PipelineHarness.setProcessingTime(${ms}): processing time cannot go back (it is ${this.now})`);
    this.now = t;
    return this;
  }

  /** Moves the processing-time clock forward by milliseconds or a duration such as "30 min". */
  advanceProcessingTime(by: number | string): this {
    this.now += parseDuration(by, "PipelineHarness.advanceProcessingTime");
    return this;
  }

  currentProcessingTime(): number {
    return this.now;
  }

  // ---- output ----

  /** The rows the program emitted so far (since the last `drain()`), typed, with their kinds (`Row.kindOf`). */
  output(): KeyedRow<R>[] {
    return this.records.map((r, i) => this.convert(this.kinds[i]!, r) as KeyedRow<R>);
  }

  /** The rows emitted so far, which are then forgotten: the next call returns only newer rows. */
  drain(): KeyedRow<R>[] {
    const out = this.output();
    this.kinds.length = 0;
    this.records.length = 0;
    return out;
  }

  /** The program's output columns and their types, as the Table's `getResolvedSchema()`. */
  getResolvedSchema(): ResolvedSchema {
    return this.schema;
  }

  /** The rows emitted so far in Flink's test notation: `+I[Ann, 1]`. */
  changelog(): string[] {
    const types = this.schema.types;
    return this.records.map((r, i) => `${KIND_SHORT[this.kinds[i]!]}[${r.map((x, j) => toJavaString(types[j], x)).join(", ")}]`);
  }

  /** The rows emitted so far as a table literal (`| op | user | n |`), as `tableOf` prints a job's. */
  table(): string {
    return formatTable(this.schema.names, this.capturedRows(), true);
  }

  /** @internal The rows emitted so far as kinds and cells (the tableau's rendering), for oracles. */
  capturedRows(): { kind: RowKind; cells: (string | null)[] }[] {
    return this.records.map((r, i) => ({ kind: KIND_SHORT[this.kinds[i]!]!, cells: cellsOf(this.schema, r) }));
  }

  /** @internal The output's column names. */
  outputColumns(): string[] {
    return [...this.schema.names];
  }

  /** @internal A row as `send(input, row)` would take it, rendered for a failure message: its kind and values. */
  describeInputRow(input: string, row: unknown): { kind: RowKind; values: string } {
    const s = this.input(input, "send");
    const record = s.rows.toRecord(row, s.sent + 1, `PipelineHarness.send('${input}')`);
    const types = s.rows.types();
    return { kind: KIND_SHORT[s.rows.kind]!, values: record.map((v, j) => toJavaString(types[j], v)).join(", ") };
  }

  // ---- state, timers, metrics ----

  /** The names of the job's operators in job order (`Aggregate`, `WindowAggregate[w]`, `Process[F]`, ...). */
  operators(): string[] {
    return this.named.map((o) => o.name);
  }

  /**
   * Each stateful operator's state size now: the bytes of its checkpoint (its snapshot encoded as a
   * checkpoint stores it, in JSON), by operator name. Operators that keep no state are left out.
   */
  stateSizes(): Readonly<Record<string, number>> {
    const out: Record<string, number> = {};
    for (const { name, op } of this.named) {
      const n = checkpointSize(op);
      if (n > 0) out[name] = n;
    }
    return out;
  }

  /**
   * The state of one virtual processor of the program's call of `fn` (a process table function it calls
   * once), as `eval` would see it now: every state entry by name, as deep read-only copies, with
   * PtfTestHarness.state's rules (nothing stored: null, an empty list `[]`, an empty Map). `key` is the
   * value of the call's PARTITION BY column (an array for several columns; nothing without PARTITION BY).
   */
  state<F extends AnyProcessTableFunction>(fn: F, ...key: [] | [unknown]): HarnessState<F> {
    const ops = this.named.filter((o): o is { name: string; op: PtfOperator } => o.op instanceof PtfOperator && o.op.call.fn === fn);
    const fname = (fn as { displayName?: string }).displayName ?? String(fn);
    if (ops.length !== 1) {
      throw new ValidationError(ops.length === 0
        ? `PipelineHarness.state(): the program does not call function '${fname}'; its operators are [${this.operators().join(", ")}]`
        : `PipelineHarness.state(): the program calls function '${fname}' ${ops.length} times (${ops.map((o) => o.name).join(", ")}); state() reads a function called once`);
    }
    const op = ops[0]!.op;
    const table = op.call.tables[0]!;
    const cols = table.partitionKeys;
    const record = new Array<unknown>(table.schema.size).fill(null);
    const where = "PipelineHarness.state()";
    if (cols.length === 0) {
      if (key.length > 0) throw new ValidationError(`${where}: the call of '${fname}' has no PARTITION BY, so there is one virtual processor: call state(${fname}) without a key`);
    } else {
      if (key.length === 0) throw new ValidationError(`${where}: give the key of a virtual processor of '${fname}': the value of ${cols.map((c) => `'${table.schema.names[c]}'`).join(", ")}`);
      const values = cols.length === 1 ? [key[0]] : key[0];
      if (!Array.isArray(values) || values.length !== cols.length) {
        throw new ValidationError(`${where}: the key of '${fname}' is an array of ${cols.length} values (${cols.map((c) => table.schema.names[c]).join(", ")}), got ${JSON.stringify(key[0]) ?? String(key[0])}`);
      }
      cols.forEach((c, i) => { record[c] = coerceValue(table.schema.types[c]!, values[i], () => `${where}: key column '${table.schema.names[c]}'`); });
    }
    const live = op.peekState(keyExtractor(cols, table.schema.types)(record), this.now);
    const out: Record<string, unknown> = {};
    for (const s of op.call.fn.states) {
      const v = live[s.name];
      out[s.name] = v !== undefined ? copyValue(v) : s.decl.kind === "listView" ? [] : s.decl.kind === "mapView" ? new Map() : null;
    }
    return deepFreeze(out) as HarnessState<F>;
  }

  /** The event-time timers of the program's process table function calls that have not fired, in firing order. */
  timers(): PendingTimer[] {
    const out: PendingTimer[] = [];
    for (const { name, op } of this.named) {
      if (!(op instanceof PtfOperator) || op.timers === undefined) continue;
      const keyColumns = op.call.tables[0]!.partitionKeys;
      for (const [key, timerName, time, record] of op.timers.snapshot()) {
        const k = keyColumns.length === 0 ? null : keyColumns.length === 1 ? record[keyColumns[0]!] : keyColumns.map((c) => record[c]);
        out.push({ operator: name, key: k ?? key ?? null, name: timerName, time });
      }
    }
    return out;
  }

  /** The job's metrics now (docs/metrics.md); the harness's inputs are not counted as source records. */
  metrics(): MetricsSnapshot {
    return this.graph.metrics.snapshot();
  }

  // ---- snapshots ----

  /**
   * The state of the job now, for `restore` into a new harness of the same program: every operator's
   * checkpoint, the inputs' watermark progress and the clock. Taken between steps of a running job (no
   * input ended).
   */
  snapshot(): PipelineSnapshot {
    const ended = [...this.inputs.values()].filter((s) => s.ended).map((s) => `'${s.name}'`);
    if (ended.length > 0) throw new ValidationError(`PipelineHarness.snapshot(): input ${ended.join(", ")} has ended; a snapshot is taken of a running job`);
    this.open();
    return {
      operators: checkpointOperators(this.named),
      inputs: encodeSnapshot(Object.fromEntries([...this.inputs.values()].map((s) => [s.name, { sent: s.sent, watermark: s.watermark, generator: s.generator?.state() }]))),
      sources: encodeSnapshot(this.others.map((s) => s.reader.position())),
      processingTime: this.now,
    };
  }

  /**
   * Restores a snapshot into this harness, which must be new (nothing sent, no watermark, nothing
   * restored) and built from the same program: it then continues as the harness the snapshot was taken
   * from would. The clock continues from the snapshot's time. Each input re-emits the watermark it had, as
   * a source restored with its watermark state would (Flink itself starts a restored job without one).
   */
  restore(snapshot: PipelineSnapshot): this {
    if (this.opened || this.restored !== undefined) {
      throw new ValidationError("PipelineHarness.restore(): restore into a new harness, before its first send (Flink's initializeState comes before open)");
    }
    if (snapshot === null || typeof snapshot !== "object" || !Array.isArray(snapshot.operators)) {
      throw new ValidationError("PipelineHarness.restore(): expected a snapshot taken with PipelineHarness.snapshot()");
    }
    restoreOperators(this.named, snapshot.operators, "PipelineHarness.restore()");
    const inputs = decodeSnapshot(snapshot.inputs) as Record<string, { sent: number; watermark: number; generator?: readonly [number, number, number] }>;
    const names = Object.keys(inputs);
    if (names.length !== this.inputs.size || names.some((n) => !this.inputs.has(n))) {
      throw new ValidationError(`PipelineHarness.restore(): the snapshot has the inputs [${names.join(", ")}] but this harness has [${[...this.inputs.keys()].join(", ")}]`);
    }
    for (const [name, st] of Object.entries(inputs)) {
      const s = this.inputs.get(name)!;
      s.sent = st.sent;
      if (st.generator !== undefined) s.generator?.restore(st.generator);
    }
    const positions = decodeSnapshot(snapshot.sources) as unknown[];
    this.others.forEach((s, i) => s.reader.seek(positions[i]));
    this.now = Math.max(this.now, snapshot.processingTime);
    this.restored = snapshot;
    return this;
  }

  // ---- internals ----

  private input(name: string, method: string): InputState {
    const s = this.inputs.get(name);
    if (s === undefined) throw new ValidationError(`PipelineHarness.${method}: no input '${name}'; the inputs are [${[...this.inputs.keys()].join(", ")}]`);
    return s;
  }

  private advance(s: InputState, wm: number): void {
    if (wm <= s.watermark) return;
    s.watermark = wm;
    s.out.watermark(wm);
  }

  /** Opens the job on its first step: operators open, the program's other sources run to their end. */
  private open(): void {
    if (this.opened) return;
    this.opened = true;
    for (const op of this.graph.operators) op.open();
    if (this.restored !== undefined) {
      const inputs = decodeSnapshot(this.restored.inputs) as Record<string, { watermark: number }>;
      for (const [name, st] of Object.entries(inputs)) if (st.watermark > -Infinity) this.advance(this.inputs.get(name)!, st.watermark);
    }
    for (const s of this.others) {
      for (let r = s.reader.poll(s.emitter.out, 4096); r !== "end"; r = s.reader.poll(s.emitter.out, 4096)) {
        if (r !== "more") {
          throw new ValidationError(
            "PipelineHarness: the program reads a source that is not one of the harness's inputs and does not end right away (an unbounded or asynchronous source); make it an input",
          );
        }
      }
      s.done = true;
    }
  }
}

/** Operators named after their plan nodes (`Aggregate`, `Process[F]`, `WindowAggregate[w]`); repeats get `#2`, `#3`. */
function operatorNames(graph: JobGraph): { name: string; op: Operator }[] {
  const seen = new Map<string, number>();
  const out: { name: string; op: Operator }[] = [];
  for (const op of graph.operators) {
    const node = graph.nodes.get(op as unknown as SourceEntry["emitter"]);
    const base = node === undefined ? "Collect" : metricScope(node) ?? node.kind;
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    out.push({ name: n === 1 ? base : `${base}#${n}`, op });
  }
  return out;
}

function manualOnly(w: "schema" | "manual" | undefined): boolean {
  if (w !== undefined && w !== "schema" && w !== "manual") throw new ValidationError(`PipelineHarness: watermarks must be "schema" or "manual", got ${String(w)}`);
  return w === "manual";
}

function checkTime(ms: number, what: string): number {
  if (typeof ms !== "number" || !Number.isFinite(ms)) throw new ValidationError(`PipelineHarness ${what}: expected epoch milliseconds, got ${String(ms)}`);
  return ms;
}
