import { createRequire } from "node:module";
import { join } from "node:path";
import { type ProgressRenderer, type ProgressReport, progressLine } from "../table/progress.js";
import { escapeHtml } from "./html.js";

/** The part of tslab's display a progress output needs: one display entry, overwritten by each call. */
export interface UpdatingDisplay {
  html(s: string): void;
}

/**
 * A progress display for a notebook: one output that is replaced at each update (tslab's `newDisplay()`),
 * the same line as on a terminal, then the outcome when the job ended:
 * `await big.execute({ progress: { renderer: notebookProgress() } }).await()`. Outside a tslab kernel
 * (and with no `display` given) it shows nothing.
 */
export function notebookProgress(display: UpdatingDisplay | undefined = newTslabDisplay()): ProgressRenderer {
  const show = (r: ProgressReport, outcome?: string) => {
    display?.html(progressHtml(r, outcome));
  };
  return { update: (r) => show(r), end: (r, outcome) => show(r, outcome) };
}

/** The HTML of one progress update: the progress line, and the outcome once the job ended. */
export function progressHtml(r: ProgressReport, outcome?: string): string {
  const state = outcome === undefined ? "running" : outcome;
  return `<div class="tablestream-progress" data-state="${state}" style="font-family:monospace">`
    + `${escapeHtml(progressLine(r))}${outcome === undefined ? "" : ` · <b>${escapeHtml(outcome)}</b>`}</div>`;
}

function newTslabDisplay(): UpdatingDisplay | undefined {
  // tslab works only inside a running kernel (as in display.ts); found from the notebook's folder
  if (!process.env.JPY_PARENT_PID && !process.argv.some((a) => a.includes("tslab"))) return undefined;
  try {
    const tslab = createRequire(join(process.cwd(), "notebook.js"))("tslab") as { newDisplay(): UpdatingDisplay };
    return tslab.newDisplay();
  } catch {
    return undefined;
  }
}
