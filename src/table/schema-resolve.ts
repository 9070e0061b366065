import { CodegenContext, type FunctionResolver, compileExpr } from "../expressions/compile.js";
import { type ExprNode, nodeToString } from "../expressions/node.js";
import { TableError, ValidationError } from "../types/errors.js";
import { type PlanContext, containsAgg } from "../plan/builders.js";
import type { WatermarkSpec } from "../plan/nodes.js";
import type { Schema, SchemaWatermark } from "./schema.js";
import type { DataType } from "../types/data-type.js";
import { type Column, ResolvedSchema } from "../types/resolved-schema.js";

/** A computed column after resolution: its expression over the physical columns, its type and position. */
export interface ResolvedComputedColumn {
  readonly name: string;
  readonly expr: ExprNode;
  readonly type: DataType;
  /** Position in the full schema. */
  readonly index: number;
}

/** A Schema resolved against an environment: what sources and fromValues build their plan nodes from. */
/** A metadata column after resolution: its key (the column name when none was given), type and position. */
export interface ResolvedMetadataColumn {
  readonly name: string;
  readonly key: string;
  readonly type: DataType;
  readonly virtual: boolean;
  readonly index: number;
}

export interface ResolvedTableSchema {
  /** All columns in declared order; the watermark column is a ROWTIME attribute, key columns NOT NULL. */
  readonly schema: ResolvedSchema;
  /** The physical columns (what a source reads), in declared order. */
  readonly physical: ResolvedSchema;
  readonly computed: readonly ResolvedComputedColumn[];
  /** Metadata columns (`columnByMetadata`): the key the source delivers each under, in declared order. */
  readonly metadata?: readonly ResolvedMetadataColumn[];
  readonly watermark?: WatermarkSpec;
  readonly primaryKey?: readonly string[];
}

/** How a source emits watermarks: after every record (Flink's `on-event`, the default) or every N records. */
export interface WatermarkEmission {
  readonly emit: "on-event" | "periodic";
  readonly intervalRecords?: number;
}

/**
 * Resolves the types of a declared Schema (Flink resolves a Schema when a table is created from it):
 * computed columns are typed over the physical columns, the watermark column must be TIMESTAMP(p) or
 * TIMESTAMP_LTZ(p) with p ≤ 3 and the watermark expression `col` or `col - <constant interval>`.
 */
export function resolveSchema(schema: Schema<object>, pc: PlanContext, emission: WatermarkEmission = { emit: "on-event" }): ResolvedTableSchema {
  const physicalCols: Column[] = [];
  const pk = schema.primaryKeySpec?.columns;
  for (const c of schema.columns) {
    if (c.kind === "physical") physicalCols.push({ name: c.name, type: pk?.includes(c.name) ? c.type.notNull() : c.type });
  }
  if (physicalCols.length === 0) throw new ValidationError(`a table schema needs at least one physical column, got [${schema.columnNames.join(", ")}]`);
  const physical = new ResolvedSchema(physicalCols);
  const computed: ResolvedComputedColumn[] = [];
  const metadata: ResolvedMetadataColumn[] = [];
  const columns: Column[] = schema.columns.map((c, index) => {
    if (c.kind === "physical") return physical.column(c.name);
    if (c.kind === "metadata") {
      metadata.push({ name: c.name, key: c.key ?? c.name, type: c.type, virtual: c.virtual, index });
      return { name: c.name, type: c.type };
    }
    const text = c.sql ?? nodeToString(c.expr);
    if (containsAgg(c.expr)) throw new ValidationError(`computed column '${c.name}': aggregate functions are not allowed in ${text}`);
    let type: DataType;
    try {
      type = compileExpr(c.expr, new CodegenContext(physical, pc.resolveFunction)).type;
    } catch (e) {
      if (e instanceof TableError) {
        throw new ValidationError(`computed column '${c.name}' AS ${text}: ${e.message} (computed columns may use the physical columns [${physical.names.join(", ")}])`, { cause: e });
      }
      throw e;
    }
    computed.push({ name: c.name, expr: c.expr, type, index });
    return { name: c.name, type };
  });
  let watermark: WatermarkSpec | undefined;
  if (schema.watermarkSpec) {
    const at = columns.findIndex((c) => c.name === schema.watermarkSpec!.column);
    const col = columns[at]!;
    if (col.type.timeAttribute === "PROCTIME") {
      throw new ValidationError(`Invalid watermark definition for '${col.name}': a watermark cannot be defined for a processing-time attribute (PROCTIME()); declare it on an event-time column`);
    }
    checkRowtimeType(col);
    const delayMillis = watermarkDelay(schema.watermarkSpec, pc);
    columns[at] = { name: col.name, type: col.type.withTimeAttribute("ROWTIME") };
    watermark = emission.emit === "periodic"
      ? { rowtimeColumn: col.name, delayMillis, emit: "periodic", intervalRecords: checkInterval(emission.intervalRecords) }
      : { rowtimeColumn: col.name, delayMillis, emit: "on-event" };
  }
  const resolved: ResolvedTableSchema = { schema: new ResolvedSchema(columns), physical, computed, ...(metadata.length > 0 ? { metadata } : {}) };
  return {
    ...resolved,
    ...(watermark ? { watermark } : {}),
    ...(pk ? { primaryKey: pk } : {}),
  };
}

function checkInterval(n: number | undefined): number {
  const v = n ?? 100;
  if (!Number.isInteger(v) || v < 1) throw new ValidationError(`periodic watermark emission needs a positive whole number of records, got ${n}`);
  return v;
}

/** Flink's rule and message for the type of a watermark's time column. */
function checkRowtimeType(c: Column): void {
  const t = c.type;
  if ((t.root !== "TIMESTAMP" && t.root !== "TIMESTAMP_LTZ") || (t.precision ?? 6) > 3) {
    throw new ValidationError(`Invalid data type of time field for watermark definition. The field must be of type TIMESTAMP(p) or TIMESTAMP_LTZ(p), the supported precision 'p' is from 0 to 3, but the time field type is ${t} (column '${c.name}')`);
  }
}

/** The delay of a bounded-out-of-orderness watermark expression `col` / `col - <interval>`. */
function watermarkDelay(wm: SchemaWatermark, pc: PlanContext): number {
  const text = wm.sql ?? nodeToString(wm.expr);
  const unsupported = () => new ValidationError(
    `watermark for '${wm.column}': the expression must be '${wm.column}' or '${wm.column} - INTERVAL ...' (bounded out-of-orderness), got ${text}`);
  let e = wm.expr;
  while (e.kind === "Alias") e = e.expr;
  if (e.kind === "Column") {
    if (e.name !== wm.column) throw unsupported();
    return 0;
  }
  if (e.kind !== "Call" || e.fn !== "minus" || e.args.length !== 2) throw unsupported();
  const [left, right] = e.args as [ExprNode, ExprNode];
  if (left.kind !== "Column" || left.name !== wm.column || referencesColumn(right)) throw unsupported();
  const { type, value } = evaluateConstant(right, pc);
  if (type.root !== "INTERVAL_DAY_TIME") {
    throw new ValidationError(`watermark for '${wm.column}': the delay must be a day-time INTERVAL (e.g. INTERVAL '1' SECOND), got ${type} in ${text}`);
  }
  if (typeof value !== "number" || !Number.isFinite(value)) throw new ValidationError(`watermark for '${wm.column}': the delay must not be NULL in ${text}`);
  return value;
}

function referencesColumn(e: ExprNode): boolean {
  switch (e.kind) {
    case "Column": return true;
    case "Call": case "Agg": return e.args.some(referencesColumn);
    case "Alias": case "Sort": case "Argument": return referencesColumn(e.expr);
    default: return false;
  }
}

/** Evaluates an expression without columns (an interval such as `lit(1).seconds()`) once, at planning time. */
export function evaluateConstant(e: ExprNode, pc: PlanContext): { type: DataType; value: unknown } {
  const ctx = new CodegenContext(new ResolvedSchema([]), pc.resolveFunction);
  const c = compileExpr(e, ctx);
  const f = ctx.build<(r: unknown[]) => unknown>(`function(r){${ctx.tempDeclarations()}return ${c.src};}`);
  return { type: c.type, value: f([]) };
}

/**
 * Generated function that extends a physical record with the computed columns, in declared order;
 * `undefined` when the schema has none (the physical record is the full record).
 */
export function computedColumnsFunction(resolved: ResolvedTableSchema, resolveFunction?: FunctionResolver):
  ((physical: readonly unknown[]) => unknown[]) | undefined {
  if (resolved.metadata !== undefined) {
    throw new ValidationError(`metadata column '${resolved.metadata[0]!.name}': metadata columns are provided by a connector's source (a table created with a TableDescriptor); this table has no source to read them from`);
  }
  if (resolved.computed.length === 0) return undefined;
  const ctx = new CodegenContext(resolved.physical, resolveFunction, "p");
  let phys = 0;
  const items = resolved.schema.columns.map((c, i) => {
    const comp = resolved.computed.find((x) => x.index === i);
    return comp ? compileExpr(comp.expr, ctx).src : `p[${phys++}]`;
  });
  return ctx.build(`function(p){${ctx.tempDeclarations()}return [${items.join(",")}];}`);
}

/**
 * Watermark emission from table options / configuration, with Flink's option name:
 * `scan.watermark.emit.strategy` = `on-event` (default) or `on-periodic`; tablestream emits periodic
 * watermarks every `scan.watermark.emit.interval-records` records (default 100) rather than on a wall-clock
 * interval, so that runs are reproducible.
 */
export function watermarkEmission(get: (key: string) => string | undefined): WatermarkEmission {
  const strategy = get("scan.watermark.emit.strategy") ?? "on-event";
  if (strategy === "on-event") return { emit: "on-event" };
  if (strategy !== "on-periodic") {
    throw new ValidationError(`option 'scan.watermark.emit.strategy' must be 'on-event' or 'on-periodic', got '${strategy}'`);
  }
  const n = get("scan.watermark.emit.interval-records");
  if (n !== undefined && !/^\d+$/.test(n)) {
    throw new ValidationError(`option 'scan.watermark.emit.interval-records' must be a positive whole number, got '${n}'`);
  }
  return { emit: "periodic", intervalRecords: n === undefined ? 100 : Number(n) };
}
