/**
 * tablestream/notebook: rich display for notebooks (tslab / Jupyter) and any `text/html` front end —
 * results as coloured HTML tableaus, schemas, plans, and pictures of event time (changelog timelines,
 * sparklines) as SVG.
 */
export { show, showSchema, showPlan, showSvg, showHtml, resultHtml } from "./display.js";
export type { ShowOptions } from "./display.js";
export { changelogHtml, schemaHtml, planHtml, escapeHtml } from "./html.js";
export type { ChangelogHtmlOptions } from "./html.js";
export { traceTimeline } from "./trace.js";
export type { TimelineTrace, TraceInput, TraceOutput, TracePane, TraceTimer } from "./trace.js";
export { timelineSvg, sparklineSvg, timeLabel } from "./timeline.js";
export type { TimelineOptions } from "./timeline.js";
export { notebookProgress, progressHtml } from "./progress.js";
export type { UpdatingDisplay } from "./progress.js";
