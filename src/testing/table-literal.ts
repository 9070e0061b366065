import { Kind, KIND_SHORT, type RowKind, kindFromShort } from "../types/row.js";
import type { ResolvedSchema } from "../types/resolved-schema.js";
import { toSqlString } from "../types/format.js";
import { ValidationError } from "../types/errors.js";
import type { DataType } from "../types/data-type.js";
import { decodeText } from "../connectors/filesystem/codec.js";
import type { CsvFormat } from "../connectors/filesystem/format.js";
import type { TableResult } from "../table/table-result.js";
import type { ChangelogKind, Table } from "../table/table.js";
import type { TableEnvironment } from "../table/table-environment.js";
import { Schema } from "../table/schema.js";
import { DataType as DataTypeClass } from "../types/data-type.js";
import { Row } from "../types/row.js";

/**
 * Changelogs as tables in text, for test fixtures and readable failures — the tableau's cells without its
 * borders, as in Markdown:
 *
 * ```
 * | op | name  | score |
 * | +I | Alice |    12 |
 * | -U | Alice |    12 |
 * | +U | Alice |    13 |
 * ```
 *
 * The `op` column is optional (a table without it is insert-only, or a batch result). Cells are trimmed;
 * `<NULL>` is null; values are written as the tableau prints them (`2025-01-01 12:00:00.000`, `1.5`, `true`).
 * Separator lines (`|---|`, `+----+`) are ignored, so a printed tableau pastes in as it is. A `|` inside a
 * cell is written `\|` (as in Markdown).
 */
export interface ParsedTable {
  readonly columns: readonly string[];
  /** Whether the first column was `op`. */
  readonly withKinds: boolean;
  readonly rows: readonly { readonly kind: RowKind; readonly cells: readonly (string | null)[] }[];
}

const NULL_CELL = "<NULL>";

export function parseTable(text: string): ParsedTable {
  const lines = text.split("\n").map((l) => l.trim()).filter((l) => l.startsWith("|"));
  const isSeparator = (l: string) => /^\|[\s|:+-]*\|$/.test(l) && l.includes("---");
  const body = lines.filter((l) => !isSeparator(l));
  if (body.length === 0) throw new ValidationError("table literal has no header line (| col | col |)");
  const split = (l: string, lineNo: number): string[] => {
    if (!l.endsWith("|")) throw new ValidationError(`table literal line ${lineNo}: '${l}' does not end with '|'`);
    return splitCells(l.slice(1, -1)).map((c) => c.trim());
  };
  const header = split(body[0]!, 1);
  const withKinds = header[0] === "op";
  const columns = withKinds ? header.slice(1) : header;
  const rows = body.slice(1).map((l, i) => {
    const cells = split(l, i + 2);
    if (cells.length !== header.length) {
      throw new ValidationError(`table literal line ${i + 2}: ${cells.length} cells, but the header has ${header.length} (${header.join(", ")})`);
    }
    let kind: RowKind = "+I";
    if (withKinds) {
      const k = cells.shift()!;
      if (!(KIND_SHORT as readonly string[]).includes(k)) throw new ValidationError(`table literal line ${i + 2}: '${k}' is not a row kind (+I, -U, +U, -D)`);
      kind = k as RowKind;
    }
    return { kind, cells: cells.map((c) => (c === NULL_CELL ? null : c)) };
  });
  return { columns, withKinds, rows };
}

/** Cells between unescaped `|`; `\|` is a `|` inside a cell and `\\` a backslash. */
function splitCells(s: string): string[] {
  const out: string[] = [];
  let cur = "";
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === "\\" && (s[i + 1] === "|" || s[i + 1] === "\\")) { cur += s[++i]; continue; }
    if (c === "|") { out.push(cur); cur = ""; continue; }
    cur += c;
  }
  out.push(cur);
  return out;
}

const escapeCell = (c: string): string => c.replace(/[\\|]/g, (m) => `\\${m}`);

/** Renders rows as a table literal, columns padded to their widest cell (numbers right-aligned). */
export function formatTable(columns: readonly string[], rows: readonly { readonly kind?: RowKind; readonly cells: readonly (string | null)[] }[], withKinds = true): string {
  const head = withKinds ? ["op", ...columns] : [...columns];
  const body = rows.map((r) => {
    const cells = r.cells.map((c) => (c === null ? NULL_CELL : escapeCell(c)));
    return withKinds ? [r.kind ?? "+I", ...cells] : cells;
  });
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
  const numeric = head.map((_, i) => body.length > 0 && body.every((r) => /^-?[\d.]+(E-?\d+)?$|^<NULL>$/.test(r[i]!)));
  const line = (cells: readonly string[]) =>
    `| ${cells.map((c, i) => (numeric[i] ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join(" | ")} |`;
  return [line(head), ...body.map(line)].join("\n");
}

/** Cells of positional values as the tableau renders them. */
export function cellsOf(schema: ResolvedSchema, values: readonly unknown[]): (string | null)[] {
  return values.map((v, i) => toSqlString(schema.columns[i]!.type, v));
}

const LITERAL_FORMAT: CsvFormat = {
  kind: "csv", delimiter: "|", quote: false, escape: undefined, comments: false, nullLiteral: undefined, arrayDelimiter: ";", ignoreParseErrors: false,
};

/**
 * Reads a table literal as input rows of a row type: columns matched by name (all of the type's columns
 * must be there), each cell parsed as its column's type. Returns the kinds and positional values, which
 * `fromTable` hands to `fromValues`.
 */
export function rowsOfTable(types: readonly { readonly name: string; readonly type: DataType }[], literal: string | ParsedTable): { kinds: Kind[]; rows: unknown[][] } {
  const t = typeof literal === "string" ? parseTable(literal) : literal;
  const index = types.map((c) => {
    const i = t.columns.indexOf(c.name);
    if (i < 0) throw new ValidationError(`table literal has no column '${c.name}' (it has ${t.columns.join(", ")})`);
    return i;
  });
  const kinds: Kind[] = [];
  const rows = t.rows.map((r, line) => {
    kinds.push(kindFromShort(r.kind));
    return types.map((c, j) => {
      const cell = r.cells[index[j]!]!;
      if (cell === null) return null;
      try {
        return decodeText(c.type, cell, LITERAL_FORMAT);
      } catch (e) {
        throw new ValidationError(`table literal row ${line + 1}, column '${c.name}': ${(e as Error).message}`, { cause: e });
      }
    });
  });
  return { kinds, rows };
}

/**
 * An input table from a table literal: `fromTable(env, schema, "| op | name | score |\n| +I | Bob | 3 |")`.
 * With a Schema, the literal gives its physical columns (computed columns and watermarks follow from the
 * schema); with a ROW type, its fields. Rows with kinds other than `+I` make a changelog input.
 */
export function fromTable<T extends object>(env: TableEnvironment, schema: Schema<T> | DataType<T | null>, literal: string): Table<T, "append"> {
  const columns = schema instanceof Schema
    ? schema.columns.flatMap((c) => (c.kind === "physical" ? [{ name: c.name, type: c.type }] : []))
    : (schema as DataTypeClass).fields.map((f) => ({ name: f.name, type: f.type }));
  const { kinds, rows } = rowsOfTable(columns, literal);
  const input = rows.map((r, i) => Row.ofKind(KIND_SHORT[kinds[i]!]!, ...r));
  return (schema instanceof Schema
    ? env.fromValues(schema, input as never)
    : env.fromValues(schema as DataType<T | null>, input as never)) as unknown as Table<T, "append">;
}

/** A job's changelog as cells (the tableau's rendering of each value), with its schema and mode. */
export interface CapturedChangelog {
  readonly schema: ResolvedSchema;
  readonly batch: boolean;
  readonly rows: { kind: RowKind; cells: (string | null)[] }[];
}

/** Runs a table (or consumes a result) to its end and keeps its changelog as cells. */
export async function captureChangelog(value: Table<object, ChangelogKind> | TableResult<object>): Promise<CapturedChangelog> {
  const result = "execute" in value ? value.execute() : value;
  const schema = result.getResolvedSchema();
  const rows: { kind: RowKind; cells: (string | null)[] }[] = [];
  const job = result.startJob({ record: (k, v) => { rows.push({ kind: KIND_SHORT[k]!, cells: cellsOf(schema, v) }); } });
  try {
    for (;;) {
      const r = job.step(4096);
      if (r === "done") break;
      if (r !== "more") await r;
    }
  } finally {
    job.cancel();
  }
  return { schema, batch: result.isBatch(), rows };
}

/** Runs a table (or consumes a result) and renders its changelog as a table literal. */
export async function tableOf(value: Table<object, ChangelogKind> | TableResult<object>): Promise<string> {
  const c = await captureChangelog(value);
  return formatTable(c.schema.names, c.rows, !c.batch);
}

/**
 * A line diff of two table literals (after normalising their spacing): `-` lines are expected and missing,
 * `+` lines came and were not expected; equal lines are shown with two spaces. Empty when equal.
 */
export function diffTables(expected: string, actual: string): string {
  const norm = (s: string) => {
    const t = parseTable(s);
    return formatTable(t.columns, t.rows, t.withKinds).split("\n");
  };
  const a = norm(expected);
  const b = norm(actual);
  if (a.length === b.length && a.every((l, i) => l.replace(/\s+/g, " ") === b[i]!.replace(/\s+/g, " "))) return "";
  // longest common subsequence over lines (tables in tests are small)
  const key = (l: string) => l.replace(/\s+/g, " ");
  const dp: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      dp[i]![j] = key(a[i]!) === key(b[j]!) ? dp[i + 1]![j + 1]! + 1 : Math.max(dp[i + 1]![j]!, dp[i]![j + 1]!);
    }
  }
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && key(a[i]!) === key(b[j]!)) { out.push(`  ${b[j]}`); i++; j++; }
    else if (j < b.length && (i === a.length || dp[i]![j + 1]! >= dp[i + 1]![j]!)) { out.push(`+ ${b[j]}`); j++; }
    else { out.push(`- ${a[i]}`); i++; }
  }
  return out.join("\n");
}

/**
 * Runs a table and checks its changelog against a table literal (kinds, values and order); throws an
 * Error whose message shows both tables as a diff.
 *
 * ```ts
 * await expectTable(counts, `
 *   | op | name  | n |
 *   | +I | Alice | 1 |
 *   | -U | Alice | 1 |
 *   | +U | Alice | 2 |`);
 * ```
 */
export async function expectTable(value: Table<object, ChangelogKind> | TableResult<object>, expected: string): Promise<void> {
  const actual = await tableOf(value);
  const diff = diffTables(expected, actual);
  if (diff !== "") throw new Error(`the changelog differs from the expected table (- expected, + actual):\n${diff}`);
}
