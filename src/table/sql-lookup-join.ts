import { ExecutionError, ValidationError } from "../types/errors.js";
import { type LookupReader, type LookupReaderFactory, isLookupReaderFactory } from "../exec/lookup.js";
import type { FromItem, QueryHint } from "../sql/ast.js";
import { Expression } from "../expressions/expression.js";
import type { ExprNode } from "../expressions/node.js";
import { conjuncts, sideOf } from "../plan/join-builder.js";
import { LookupFunction } from "../functions/temporal-table-function.js";
import { ResolvedSchema } from "../types/resolved-schema.js";
import { type LookupFilterSupport, type PushedFilter, isLookupFilterSupport } from "../plan/pushed-filter.js";
import { lookupFunctionOf } from "./connector-tables.js";
import { resolveSchema } from "./schema-resolve.js";
import type { Table } from "./table.js";
import type { TableEnvironment } from "./table-environment.js";

/**
 * SQL lookup joins, `JOIN dim FOR SYSTEM_TIME AS OF o.proc_time AS c ON o.k = c.id`: the options of Flink's
 * LOOKUP hint (`/*+ LOOKUP('table'='c', 'async'='true', 'retry-predicate'='lookup_miss', ...)` after
 * SELECT) and the lookup reader they shape. The binder (sql-binder.ts) builds the join itself.
 */
export interface LookupHintOptions {
  /** 'async': false looks up one key at a time; true (or absent) keeps up to `capacity` lookups in flight. */
  readonly async?: boolean;
  /** 'capacity': lookups in flight at most (async). */
  readonly capacity?: number;
  /** 'timeout': a lookup answering later fails the job (async). */
  readonly timeoutMs?: number;
  /** 'retry-predicate' = 'lookup_miss' with 'retry-strategy' = 'fixed_delay': a key that finds nothing is asked again. */
  readonly retry?: { readonly maxAttempts: number; readonly delayMs: number };
}

const KNOWN = ["table", "async", "output-mode", "capacity", "timeout", "retry-predicate", "retry-strategy", "fixed-delay", "max-attempts"];
const RETRY = ["retry-predicate", "retry-strategy", "fixed-delay", "max-attempts"];

const UNIT_MS: Readonly<Record<string, number>> = {
  ms: 1, milli: 1, millis: 1, s: 1000, sec: 1000, secs: 1000, second: 1000, seconds: 1000,
  min: 60000, mins: 60000, minute: 60000, minutes: 60000, h: 3600000, hour: 3600000, hours: 3600000, d: 86400000, day: 86400000, days: 86400000,
};

/** `10s`, `500 ms`, `1min`, `2 h` (Flink's duration syntax; a bare number is milliseconds). */
function durationMs(text: string, key: string): number {
  const m = /^\s*(\d+)\s*(ms|milli|millis|s|sec|secs|second|seconds|min|mins|minute|minutes|h|hour|hours|d|day|days)?\s*$/i.exec(text);
  if (m === null) throw new ValidationError(`Invalid LOOKUP hint option '${key}': '${text}' is not a duration (e.g. '10s', '500ms', '1min')`);
  const unit = (m[2] ?? "ms").toLowerCase();
  const scale = UNIT_MS[unit] ?? 1;
  return Number(m[1]) * scale;
}

function positiveInt(text: string, key: string): number {
  if (!/^\d+$/.test(text) || Number(text) < 1) throw new ValidationError(`Invalid LOOKUP hint option '${key}': expected a positive whole number, got '${text}'`);
  return Number(text);
}

/**
 * The LOOKUP hints of a SELECT that name this lookup table (by its alias or its name) and their options,
 * checked as Flink checks them: 'table' is required, unknown keys and malformed values are errors, and the
 * retry options come all together or not at all.
 */
export function lookupHintOptions(hints: readonly QueryHint[] | undefined, names: readonly string[]): LookupHintOptions | undefined {
  let found: LookupHintOptions | undefined;
  for (const h of hints ?? []) {
    if (h.name !== "LOOKUP") continue;
    const o = new Map(h.options);
    const table = o.get("table");
    if (table === undefined || table === "") throw new ValidationError("Invalid LOOKUP hint: the option 'table' is required, e.g. LOOKUP('table'='c', 'async'='true')");
    if (!names.includes(table)) continue;
    const unknown = [...o.keys()].filter((k) => !KNOWN.includes(k));
    if (unknown.length > 0) {
      throw new ValidationError(`Invalid LOOKUP hint options: unsupported option(s) ${unknown.map((k) => `'${k}'`).join(", ")}; supported: ${KNOWN.join(", ")}`);
    }
    const async = o.get("async");
    if (async !== undefined && async !== "true" && async !== "false") throw new ValidationError(`Invalid LOOKUP hint option 'async': expected 'true' or 'false', got '${async}'`);
    const mode = o.get("output-mode");
    if (mode !== undefined && mode !== "ordered" && mode !== "allow_unordered") {
      throw new ValidationError(`Invalid LOOKUP hint option 'output-mode': expected 'ordered' or 'allow_unordered', got '${mode}'`);
    }
    const given = RETRY.filter((k) => o.has(k));
    if (given.length > 0 && given.length < RETRY.length) {
      throw new ValidationError(`Invalid LOOKUP hint: the retry options ${RETRY.map((k) => `'${k}'`).join(", ")} go together; missing ${RETRY.filter((k) => !o.has(k)).map((k) => `'${k}'`).join(", ")}`);
    }
    if (given.length > 0) {
      if (o.get("retry-predicate")!.toLowerCase() !== "lookup_miss") throw new ValidationError(`Invalid LOOKUP hint option 'retry-predicate': only 'lookup_miss' is supported, got '${o.get("retry-predicate")}'`);
      if (o.get("retry-strategy")!.toLowerCase() !== "fixed_delay") throw new ValidationError(`Invalid LOOKUP hint option 'retry-strategy': only 'fixed_delay' is supported, got '${o.get("retry-strategy")}'`);
    }
    found = {
      ...(async === undefined ? {} : { async: async === "true" }),
      ...(o.has("capacity") ? { capacity: positiveInt(o.get("capacity")!, "capacity") } : {}),
      ...(o.has("timeout") ? { timeoutMs: durationMs(o.get("timeout")!, "timeout") } : {}),
      ...(given.length > 0 ? { retry: { maxAttempts: positiveInt(o.get("max-attempts")!, "max-attempts"), delayMs: durationMs(o.get("fixed-delay")!, "fixed-delay") } } : {}),
    };
  }
  return found;
}

type Rows = readonly (readonly unknown[])[];

/** A reader answering as `inner`, with the hint's retries of misses and its timeout. */
function shapedReader(inner: LookupReader, o: LookupHintOptions, table: string): LookupReader {
  const retry = o.retry;
  const timeout = o.timeoutMs;
  const timed = (p: Promise<Rows>): Promise<Rows> => (timeout === undefined ? p : new Promise<Rows>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ExecutionError(`lookup of '${table}' timed out after ${timeout} ms (LOOKUP hint 'timeout')`)), timeout);
    p.then((r) => { clearTimeout(timer); resolve(r); }, (e: unknown) => { clearTimeout(timer); reject(e); });
  }));
  const attempt = (key: readonly unknown[], n: number): Rows | Promise<Rows> => {
    const r = inner.lookup(key);
    if (r instanceof Promise) {
      return timed(r).then((rows) => {
        if (rows.length > 0 || retry === undefined || n > retry.maxAttempts) return rows;
        return new Promise<void>((res) => setTimeout(res, retry.delayMs)).then(() => attempt(key, n + 1));
      });
    }
    // an answer in the same step cannot change by waiting: a synchronous source is asked again at once
    if (r.length > 0 || retry === undefined || n > retry.maxAttempts) return r;
    return attempt(key, n + 1);
  };
  return { lookup: (key) => attempt(key, 1) };
}

/** The lookup source as the hint shapes it: `capacity` (1 without async) lookups in flight, retries, timeout. */
export function hintedReader(reader: unknown, o: LookupHintOptions | undefined, table: string): unknown {
  if (o === undefined) return reader;
  if (isLookupReaderFactory(reader)) {
    const capacity = o.async === false ? 1 : o.capacity ?? reader.maxConcurrent;
    const factory: LookupReaderFactory = {
      maxConcurrent: capacity,
      open: (signal) => {
        const opened = reader.open(signal);
        return Object.assign(shapedReader(opened, o, table), { close: () => opened.close() });
      },
    };
    // the hint shapes the calls, not the rows: filter pushdown goes to the source below
    if (isLookupFilterSupport(reader)) {
      return Object.assign(factory, {
        lookupColumns: reader.lookupColumns,
        acceptLookupFilter: (f: PushedFilter) => reader.acceptLookupFilter(f),
        withLookupFilters: (fs: readonly PushedFilter[]) => hintedReader(reader.withLookupFilters(fs), o, table),
      } satisfies LookupFilterSupport);
    }
    return factory;
  }
  return shapedReader(reader as LookupReader, o, table);
}

type AnyTable = Table<object>;
interface Source { readonly qualifier: string | undefined; readonly columns: ReadonlyMap<string, string> }
interface Bound { readonly table: AnyTable; readonly sources: readonly Source[] }
type Lateral = { joinLateral(call: Expression<unknown>, condition?: Expression<unknown>): AnyTable; leftOuterJoinLateral(call: Expression<unknown>, condition?: Expression<unknown>): AnyTable };

/**
 * `left [LEFT] JOIN dim FOR SYSTEM_TIME AS OF left.proc_time [AS c] ON left.k = c.id [AND ...]`: Flink's lookup
 * join. `dim` must be a connector table whose connector can be looked up (jdbc, a connector with a lookup
 * side); the equalities between a column of `dim` and an expression over the left side are the lookup key,
 * the rest of the condition is applied to the joined rows (LEFT: a row that finds nothing is padded with
 * NULLs). The join is Table.joinLateral / leftOuterJoinLateral over the table's lookup function, so it is the
 * Table API's LookupJoin node. Columns of `dim` that the left side has too are renamed `name0`, ... (Flink).
 */
export function bindLookupJoin(
  env: TableEnvironment, joinType: "INNER" | "LEFT", r: Extract<FromItem, { kind: "Table" }>, left: Bound, on: ExprNode | undefined,
  hints: readonly QueryHint[] | undefined, resolve: (e: ExprNode, sources: readonly Source[], pos: number) => ExprNode, location: (pos: number) => string,
): Bound {
  const registered = env.tables.get(r.name);
  const connector = registered === undefined ? undefined : env.tables.connector(registered.descriptor.connector);
  if (registered === undefined || connector?.createLookup === undefined) {
    throw new ValidationError(`SQL validation failed. ${location(r.pos)}: Processing-time temporal join is not supported yet. `
      + `'${r.name}' ${registered === undefined ? "is not a connector table" : `(connector '${registered.descriptor.connector}') cannot be looked up`}; `
      + "FOR SYSTEM_TIME AS OF a processing-time attribute joins a table whose connector has a lookup side (jdbc, or a connector defined with lookup)");
  }
  const pc = env.planContext();
  const physical = resolveSchema(registered.descriptor.schemaSpec!, pc).physical;
  const leftSchema = left.table.getResolvedSchema();
  const taken = new Set(leftSchema.names);
  const renamed = physical.names.map((n) => {
    let name = n;
    for (let i = 0; taken.has(name); i++) name = `${n}${i}`;
    taken.add(name);
    return name;
  });
  const qualifier = r.alias ?? r.name;
  const sources = [...left.sources, { qualifier, columns: new Map(physical.names.map((n, i) => [n, renamed[i]!])) }];
  const dim = new ResolvedSchema(physical.columns.map((c, i) => ({ name: renamed[i]!, type: c.type })));
  const condition = on === undefined ? undefined : resolve(on, sources, r.pos);
  const keyColumns: string[] = [];
  const keyValues: ExprNode[] = [];
  const rest: ExprNode[] = [];
  for (const p of condition === undefined ? [] : conjuncts(condition)) {
    if (p.kind === "Call" && p.fn === "equals" && p.udf === undefined) {
      const [a, b] = p.args as [ExprNode, ExprNode];
      const pick = (d: ExprNode, l: ExprNode): boolean => {
        if (d.kind !== "Column" || !dim.has(d.name) || leftSchema.has(d.name) || sideOf(l, leftSchema, dim) !== "L") return false;
        const original = physical.names[dim.indexOf(d.name)]!;
        if (keyColumns.includes(original)) return false;
        keyColumns.push(original);
        keyValues.push(l);
        return true;
      };
      if (pick(a, b) || pick(b, a)) continue;
    }
    rest.push(p);
  }
  if (keyColumns.length === 0) {
    throw new ValidationError(`SQL validation failed. ${location(r.pos)}: Temporal table join requires an equality condition on fields of table [${r.name}]: `
      + `ON must equate a column of '${qualifier}' with the left side (e.g. o.customer_id = ${qualifier}.id)`);
  }
  const fn = lookupFunctionOf(env.tables, r.name, keyColumns, pc);
  const reader = hintedReader(fn.reader, lookupHintOptions(hints, [qualifier, r.name]), r.name);
  const call: ExprNode = { kind: "Call", fn: r.name, args: keyValues, udf: new LookupFunction(r.name, dim, fn.keyIndexes, reader) };
  const residual = rest.length === 0 ? undefined : new Expression(rest.length === 1 ? rest[0]! : { kind: "Call", fn: "and", args: rest });
  const l = left.table as unknown as Lateral;
  const table = joinType === "LEFT" ? l.leftOuterJoinLateral(new Expression(call), residual) : l.joinLateral(new Expression(call), residual);
  return { table, sources };
}
