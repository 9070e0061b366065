import type { ResolvedSchema } from "../types/resolved-schema.js";
import { toSqlString } from "../types/format.js";
import { KIND_SHORT } from "../types/row.js";
import { NULL_VALUE } from "../types/print.js";

/**
 * HTML renderings for notebooks (Jupyter, tslab) and any other front end that shows `text/html`: the
 * tableau as a table with row kinds coloured, schemas with types and changelog mode, plans as text.
 * Every function returns a self-contained fragment with inline styles (notebook front ends drop or
 * scope `<style>` blocks differently), and escapes every value and name.
 */

/** Colours of the row kinds, as in Flink's web UI tone: inserts green, retractions red, updates blue. */
const KIND_STYLE: readonly string[] = [
  "color:#1a7f37", // +I
  "color:#b35900", // -U
  "color:#0550ae", // +U
  "color:#cf222e", // -D
];

const TABLE_STYLE = "border-collapse:collapse;font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:12px";
const CELL_STYLE = "border:1px solid #d0d7de;padding:2px 8px;text-align:right;white-space:pre";
const HEAD_STYLE = "border:1px solid #d0d7de;padding:2px 8px;text-align:right;background:#f6f8fa";
const NOTE_STYLE = "font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:12px;color:#57606a;margin:4px 0";

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => (c === "&" ? "&amp;" : c === "<" ? "&lt;" : c === ">" ? "&gt;" : c === '"' ? "&quot;" : "&#39;"));
}

export interface ChangelogHtmlOptions {
  /** Streaming results show an `op` column with each row's kind (as the tableau does). */
  readonly streaming: boolean;
  /** The number of rows the result had in all; more than `rows.length` means the table was cut. */
  readonly total?: number;
  /** How the result ended when it did not end normally: cancelled after a time budget, failed. */
  readonly ending?: string;
}

/**
 * A result as an HTML table: `op` column (streaming) with the kind coloured, `<NULL>` for null, values
 * rendered as the tableau renders them; a footer `N rows in set` (or `showing M of N rows`).
 */
export function changelogHtml(
  schema: ResolvedSchema, kinds: readonly number[], rows: readonly (readonly unknown[])[], options: ChangelogHtmlOptions,
): string {
  const total = options.total ?? rows.length;
  const cols = schema.columns;
  const head = (options.streaming ? ["op", ...schema.names] : [...schema.names])
    .map((n) => `<th style="${HEAD_STYLE}">${escapeHtml(n)}</th>`).join("");
  const body: string[] = [];
  for (let i = 0; i < rows.length; i++) {
    const kind = kinds[i]!;
    const style = options.streaming ? KIND_STYLE[kind]! : "";
    const cells = rows[i]!.map((v, j) => {
      const text = toSqlString(cols[j]!.type, v);
      return text === null
        ? `<td style="${CELL_STYLE};color:#8c959f">${NULL_VALUE.replace("<", "&lt;").replace(">", "&gt;")}</td>`
        : `<td style="${CELL_STYLE}">${escapeHtml(text)}</td>`;
    });
    if (options.streaming) cells.unshift(`<td style="${CELL_STYLE};${style};font-weight:bold">${KIND_SHORT[kind]}</td>`);
    body.push(`<tr style="${style}">${cells.join("")}</tr>`);
  }
  const count = total === 1 ? "1 row" : `${total} rows`;
  const footer = total === 0 ? "Empty set"
    : rows.length < total ? `showing ${rows.length} of ${count}` : `${count} in set`;
  const ending = options.ending ? ` · ${escapeHtml(options.ending)}` : "";
  return `<div class="tablestream-result"><table style="${TABLE_STYLE}"><thead><tr>${head}</tr></thead>`
    + `<tbody>${body.join("")}</tbody></table><p style="${NOTE_STYLE}">${footer}${ending}</p></div>`;
}

/** A schema as an HTML table of columns and types, with the changelog mode when known. */
export function schemaHtml(schema: ResolvedSchema, changelogMode?: string): string {
  const rows = schema.columns.map((c) =>
    `<tr><td style="${CELL_STYLE};text-align:left">${escapeHtml(c.name)}</td>`
    + `<td style="${CELL_STYLE};text-align:left">${escapeHtml(c.type.toString())}</td></tr>`).join("");
  const mode = changelogMode ? `<p style="${NOTE_STYLE}">changelog mode: ${escapeHtml(changelogMode)}</p>` : "";
  return `<div class="tablestream-schema"><table style="${TABLE_STYLE}"><thead><tr>`
    + `<th style="${HEAD_STYLE};text-align:left">column</th><th style="${HEAD_STYLE};text-align:left">type</th>`
    + `</tr></thead><tbody>${rows}</tbody></table>${mode}</div>`;
}

/**
 * A plan (the text of `explain()`) as a readable block: one operator per line, the tree drawn by its
 * indentation, each operator's name in bold and its changelog mode (`changelogMode=[I,UB,UA]`) dimmed.
 */
export function planHtml(explainText: string): string {
  const lines = explainText.split("\n").map((line) => {
    const m = /^(\s*(?:[+:|` -]*)?)([A-Za-z][A-Za-z0-9]*)(.*)$/.exec(line);
    if (!m) return escapeHtml(line);
    const [, indent, name, rest] = m;
    const dimmed = escapeHtml(rest!).replace(/(changelogMode=\[[^\]]*\])/g, '<span style="color:#8c959f">$1</span>');
    return `${escapeHtml(indent!)}<b>${escapeHtml(name!)}</b>${dimmed}`;
  });
  return `<pre class="tablestream-plan" style="${NOTE_STYLE};color:#24292f">${lines.join("\n")}</pre>`;
}
