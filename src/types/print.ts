import { KIND_SHORT } from "./row.js";
import { toSqlString } from "./format.js";
import type { DataType } from "./data-type.js";
import type { ResolvedSchema } from "./resolved-schema.js";

/**
 * Flink's tableau printing (TableauStyle): right-aligned cells, `<NULL>`, `...` for cut values, a footer
 * `N rows in set`. Streaming prints an `op` column with the row kind and derives column widths from the
 * types, so rows print as they arrive; batch has no `op` column and measures the data first.
 */
export const NULL_VALUE = "<NULL>";
const MAX_COLUMN_WIDTH = 30;
const TRUNCATED = "...";

function typeWidth(t: DataType): number {
  switch (t.root) {
    case "TINYINT": return 4;
    case "SMALLINT": return 6;
    case "INT": return 11;
    case "BIGINT": return 20;
    case "DECIMAL": return t.precision! + 2;
    case "BOOLEAN": return 5;
    case "DATE": return 10;
    case "TIME": return (t.precision ?? 0) === 0 ? 8 : t.precision! + 9;
    case "TIMESTAMP":
    case "TIMESTAMP_LTZ": {
      const p = t.precision ?? 6;
      return p === 0 ? 19 : p <= 3 ? 23 : p <= 6 ? 26 : 29;
    }
    default: return MAX_COLUMN_WIDTH;
  }
}

/**
 * Display width as Flink computes it: UTF-16 length plus one for each East Asian wide or full-width
 * character (so a CJK character counts 2).
 */
export function displayWidth(s: string): number {
  let w = 0;
  for (const ch of s) w += charWidth(ch.codePointAt(0)!);
  return w;
}

function charWidth(cp: number): number {
  return (cp > 0xffff ? 2 : 1) + (isFullWidth(cp) ? 1 : 0);
}

/** Unicode East Asian Width W or F (the ranges of wcwidth, plus the wide emoji blocks). */
function isFullWidth(cp: number): boolean {
  return (cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0xa4cf && cp !== 0x303f) || (cp >= 0xac00 && cp <= 0xd7a3)
    || (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0xfe30 && cp <= 0xfe4f) || (cp >= 0xff00 && cp <= 0xff60)
    || (cp >= 0xffe0 && cp <= 0xffe6) || (cp >= 0x1f300 && cp <= 0x1f64f) || (cp >= 0x1f900 && cp <= 0x1f9ff)
    || (cp >= 0x20000 && cp <= 0x3fffd);
}

export class TableauPrinter {
  private widths: number[] | undefined;
  private readonly names: string[];
  rows = 0;

  /**
   * `streaming`: an `op` column and widths from the types (Flink's `tableauWithTypeInferredColumnWidths`
   * with printRowKind); otherwise no `op` column and widths measured from the data (`measure`).
   */
  constructor(private readonly schema: ResolvedSchema, private readonly out: (line: string) => void, private readonly streaming: boolean) {
    this.names = streaming ? ["op", ...schema.names] : [...schema.names];
    if (streaming) {
      this.widths = [2, ...schema.columns.map((c) => Math.max(c.name.length, typeWidth(c.type), NULL_VALUE.length))];
    }
  }

  /** A record as the strings of its cells (the kind first when streaming). */
  cells(kind: number, values: readonly unknown[]): string[] {
    const cols = this.schema.columns;
    const cells = values.map((v, i) => toSqlString(cols[i]!.type, v) ?? NULL_VALUE);
    if (this.streaming) cells.unshift(KIND_SHORT[kind]!);
    return cells;
  }

  /** Batch: widths from the names and all cells, capped at 30. */
  measure(rows: readonly string[][]): void {
    const w = this.names.map(displayWidth);
    for (const r of rows) r.forEach((c, i) => { w[i] = Math.max(w[i]!, displayWidth(c)); });
    this.widths = w.map((x) => Math.min(x, MAX_COLUMN_WIDTH));
  }

  header(): void {
    this.border();
    this.line(this.names);
    this.border();
  }

  row(cells: string[]): void {
    this.line(cells);
    this.rows++;
  }

  footer(): void {
    this.border();
    this.out(`${this.rows} ${this.rows === 1 ? "row" : "rows"} in set`);
  }

  border(): void {
    this.out(`+${this.widths!.map((w) => "-".repeat(w + 2)).join("+")}+`);
  }

  private line(cells: string[]): void {
    const parts = cells.map((c, i) => {
      const w = this.widths![i]!;
      const dw = displayWidth(c);
      if (dw <= w) return " ".repeat(w - dw) + c;
      return truncate(c, w - TRUNCATED.length) + TRUNCATED;
    });
    this.out(`| ${parts.join(" | ")} |`);
  }
}

/** The longest prefix of whole characters that fits `width`, left-padded to it (Flink's truncateString). */
function truncate(s: string, width: number): string {
  let out = "";
  let w = 0;
  for (const ch of s) {
    const cw = charWidth(ch.codePointAt(0)!);
    if (w + cw > width) break;
    out += ch;
    w += cw;
  }
  return " ".repeat(Math.max(0, width - w)) + out;
}
