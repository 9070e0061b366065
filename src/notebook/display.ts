import { createRequire } from "node:module";
import { join } from "node:path";
import { type ChangelogKind, Table } from "../table/table.js";
import { TableResult } from "../table/table-result.js";
import { ResolvedSchema } from "../types/resolved-schema.js";
import { changelogHtml, planHtml, schemaHtml } from "./html.js";

/**
 * Showing tables, results and pictures in a notebook. Under the tslab kernel (Jupyter, TypeScript) the
 * HTML goes out as a `text/html` display; anywhere else the `show*` functions do nothing and the `*Html`
 * functions (`resultHtml`, `schemaHtml`, `planHtml`) return the fragment for tests and other front ends. tslab is
 * found from the notebook's own folder, never bundled.
 */
interface TslabDisplay {
  html(s: string): void;
  svg(s: string): void;
}

let tslab: { display: TslabDisplay } | null | undefined;

function tslabDisplay(): TslabDisplay | undefined {
  if (tslab === undefined) {
    try {
      tslab = createRequire(join(process.cwd(), "notebook.js"))("tslab") as { display: TslabDisplay };
      // tslab's display works only inside a running kernel; outside one it throws "Not ready"
      if (!process.env.JPY_PARENT_PID && !process.argv.some((a) => a.includes("tslab"))) tslab = null;
    } catch {
      tslab = null;
    }
  }
  return tslab?.display;
}

export interface ShowOptions {
  /** Rows shown at most (the rest are counted): 20 by default. */
  readonly maxRows?: number;
  /** Stop an unbounded job after this many milliseconds (a peek at a stream): 2000 by default. */
  readonly timeoutMs?: number;
}

/**
 * Runs a table (or consumes a result) and shows it as an HTML tableau: kinds coloured, at most `maxRows`
 * rows with the total counted, an unbounded job stopped after `timeoutMs`. Resolves when shown; a failed
 * job shows its rows so far and rejects.
 *
 * ```ts
 * await show(people.filter($("age").isGreaterOrEqual(18)));
 * ```
 */
export async function show(value: Table<object, ChangelogKind> | TableResult<object>, options: ShowOptions = {}): Promise<void> {
  const { html, error } = await render(value instanceof Table ? value.execute() : value, options);
  tslabDisplay()?.html(html);
  // a failed job still shows the rows it produced, then fails the cell
  if (error !== undefined) throw error;
}

/** Shows a schema (column names and types) with the table's changelog mode. */
export function showSchema(value: Table<object, ChangelogKind> | ResolvedSchema): void {
  const html = value instanceof ResolvedSchema ? schemaHtml(value) : schemaHtml(value.getResolvedSchema(), value.changelogMode());
  tslabDisplay()?.html(html);
}

/** Shows a table's plan (`explain()`) as a readable tree. */
export function showPlan(table: Table<object, ChangelogKind>): void {
  const html = planHtml(table.explain());
  tslabDisplay()?.html(html);
}

/** Shows an SVG picture (a timeline, a sparkline). */
export function showSvg(svg: string): void {
  tslabDisplay()?.svg(svg);
}

/** Shows any HTML fragment. */
export function showHtml(html: string): void {
  tslabDisplay()?.html(html);
}

/** A result rendered as HTML without displaying it (`show` without the notebook); rejects if the job fails. */
export async function resultHtml(result: TableResult<object>, options: ShowOptions = {}): Promise<string> {
  const { html, error } = await render(result, options);
  if (error !== undefined) throw error;
  return html;
}

async function render(result: TableResult<object>, options: ShowOptions): Promise<{ html: string; error?: unknown }> {
  const maxRows = options.maxRows ?? 20;
  const timeoutMs = options.timeoutMs ?? 2000;
  const kinds: number[] = [];
  const rows: (readonly unknown[])[] = [];
  let total = 0;
  const job = result.startJob({
    record: (k, v) => {
      total++;
      if (rows.length < maxRows) { kinds.push(k); rows.push(v); }
    },
  });
  const deadline = Date.now() + timeoutMs;
  let ending: string | undefined;
  let error: unknown;
  try {
    for (;;) {
      const r = job.step(4096);
      if (r === "done") break;
      if (Date.now() >= deadline) { ending = `stopped after ${timeoutMs} ms (time budget)`; break; }
      if (r === "more") await new Promise<void>((resolve) => setImmediate(resolve));
      else await Promise.race([r, new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, deadline - Date.now())))]);
    }
  } catch (e) {
    error = e;
    ending = `job failed: ${e instanceof Error ? e.message : String(e)}`;
  } finally {
    job.cancel();
  }
  const html = changelogHtml(result.getResolvedSchema(), kinds, rows, { streaming: !result.isBatch(), total, ...(ending ? { ending } : {}) });
  return error === undefined ? { html } : { html, error };
}
