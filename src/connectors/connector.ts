import type { SinkWriter, SourceReader } from "../exec/source.js";
import { ValidationError } from "../types/errors.js";
import type { ScanPushdown } from "../plan/pushed-filter.js";
import type { JobSettings } from "../exec/job-contract.js";
import type { ConnectorSpec, ConnectorTable } from "./connector-spec.js";

/**
 * A connector: the planning-time spec (options, capabilities; see table-descriptor.ts) plus the run-time
 * factories of its reader and writer, behind the one Source/Sink contract of exec/source.ts.
 */
export interface Connector extends ConnectorSpec {
  /**
   * A reader producing the table's physical columns, in order; computed columns and watermarks are added
   * around it. With `pushdown` (plan/pushdown.ts) it returns only rows passing the filters, and only the
   * projected columns (`table.physical` stays the declared columns).
   */
  createReader?(table: ConnectorTable, settings: JobSettings, pushdown?: ScanPushdown): SourceReader;
  /** A writer for the table's physical columns, in order. */
  createWriter?(table: ConnectorTable, settings: JobSettings): SinkWriter;
}

/** Reads an integer option; a ValidationError names the option and the table when it is not one. */
export function intOption(table: ConnectorTable, key: string, min: number, fallback?: number): number | undefined {
  const v = table.options.get(key);
  if (v === undefined) return fallback;
  if (!/^-?\d+$/.test(v.trim()) || Number(v) < min || !Number.isSafeInteger(Number(v))) {
    throw new ValidationError(`option '${key}' of table '${table.tableName}' must be a whole number ≥ ${min}, got '${v}'`);
  }
  return Number(v);
}

/** Reads a boolean option ('true' / 'false', case-insensitive). */
export function boolOption(table: ConnectorTable, key: string, fallback: boolean): boolean {
  const v = table.options.get(key);
  if (v === undefined) return fallback;
  const l = v.trim().toLowerCase();
  if (l !== "true" && l !== "false") throw new ValidationError(`option '${key}' of table '${table.tableName}' must be 'true' or 'false', got '${v}'`);
  return l === "true";
}
