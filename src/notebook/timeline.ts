import { KIND_SHORT } from "../types/row.js";
import { escapeHtml } from "./html.js";
import type { TimelineTrace } from "./trace.js";

/**
 * A changelog timeline as SVG (no browser needed to make it): input rows by arrival on the x axis and
 * event time on the y axis, the watermark as a step line, window panes as bands from their first row to
 * the arrival after which they fired, timers as diamonds, late rows as red crosses, and the output
 * changelog as a strip of row-kind marks along the top at the arrival that produced each row. Every mark
 * carries a `<title>` (a tooltip in browsers and notebooks) and a `data-*` attribute so tests can check
 * the picture structurally.
 */
export interface TimelineOptions {
  readonly width?: number;
  readonly height?: number;
  readonly title?: string;
}

const KIND_COLOR = ["#1a7f37", "#b35900", "#0550ae", "#cf222e"];
const FAMILY = 'font-family="DejaVu Sans Mono,ui-monospace,Menlo,monospace"';
const FONT = `${FAMILY} font-size="10"`;

export function timelineSvg(trace: TimelineTrace, options: TimelineOptions = {}): string {
  const width = options.width ?? 720;
  const height = options.height ?? 380;
  const left = 96;
  const right = 24;
  const top = 64;
  const bottom = 44;
  const n = trace.inputs.length;

  // event-time range over rows, panes and finite watermarks
  const times: number[] = [];
  for (const i of trace.inputs) if (i.time !== null) times.push(i.time);
  for (const p of trace.windows) times.push(p.start, p.end);
  for (const w of trace.watermarks) if (Number.isFinite(w.time)) times.push(w.time);
  for (const t of trace.timers) times.push(t.time);
  let tMin = times.length ? Math.min(...times) : 0;
  let tMax = times.length ? Math.max(...times) : 1;
  if (tMax === tMin) { tMin -= 500; tMax += 500; }

  const plotW = width - left - right;
  const plotH = height - top - bottom;
  // x: arrivals 0..n-1, plus one slot for "end of input"
  const x = (arrival: number) => left + ((arrival + 0.5) / (n + 1)) * plotW;
  const y = (t: number) => top + plotH - ((t - tMin) / (tMax - tMin)) * plotH;
  const f = (v: number) => Math.round(v * 10) / 10;

  const parts: string[] = [];
  parts.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" class="tablestream-timeline">`);
  parts.push(`<rect x="0" y="0" width="${width}" height="${height}" fill="#ffffff"/>`);
  if (options.title) parts.push(`<text x="${left}" y="16" ${FAMILY} font-size="12" font-weight="bold" fill="#24292f">${escapeHtml(options.title)}</text>`);

  // axes and grid
  parts.push(`<g class="axes" stroke="#8c959f" stroke-width="1">`
    + `<line x1="${left}" y1="${top + plotH}" x2="${left + plotW}" y2="${top + plotH}"/>`
    + `<line x1="${left}" y1="${top}" x2="${left}" y2="${top + plotH}"/></g>`);
  const ticks = timeTicks(tMin, tMax, 5);
  for (const t of ticks) {
    parts.push(`<line x1="${left}" y1="${f(y(t))}" x2="${left + plotW}" y2="${f(y(t))}" stroke="#eaeef2" stroke-width="1"/>`);
    parts.push(`<text x="${left - 6}" y="${f(y(t) + 3)}" text-anchor="end" ${FONT} fill="#57606a">${timeLabel(t)}</text>`);
  }
  for (let a = 0; a <= n; a++) {
    if (n > 30 && a % Math.ceil(n / 20) !== 0 && a !== n) continue;
    parts.push(`<text x="${f(x(a))}" y="${top + plotH + 14}" text-anchor="middle" ${FONT} fill="#57606a">${a === n ? "end" : a + 1}</text>`);
  }
  parts.push(`<text x="${f(left + plotW / 2)}" y="${height - 8}" text-anchor="middle" ${FONT} fill="#57606a">input rows in arrival order →</text>`);
  parts.push(`<text x="12" y="${f(top + plotH / 2)}" ${FONT} fill="#57606a" transform="rotate(-90 12 ${f(top + plotH / 2)})" text-anchor="middle">event time ↑</text>`);

  // window panes: from the first row that falls into them to the arrival after which they fired
  trace.windows.forEach((p, i) => {
    const first = trace.inputs.find((r) => r.time !== null && !r.late && r.time >= p.start && r.time < p.end);
    const x0 = x(first ? first.arrival : 0) - 6;
    const x1 = x(p.firedAt) + 6;
    const fill = i % 2 === 0 ? "#ddf4ff" : "#fff8c5";
    parts.push(`<g class="pane" data-start="${p.start}" data-end="${p.end}" data-fired-at="${p.firedAt}">`
      + `<title>window [${timeLabel(p.start)}, ${timeLabel(p.end)}) fired after ${p.firedAt === n ? "end of input" : `row ${p.firedAt + 1}`}</title>`
      + `<rect x="${f(x0)}" y="${f(y(p.end))}" width="${f(Math.max(2, x1 - x0))}" height="${f(Math.max(2, y(p.start) - y(p.end)))}" fill="${fill}" stroke="#54aeff" stroke-width="0.8" opacity="0.8"/>`
      + `</g>`);
  });
  // the firing flags go over every pane, so a later pane never hides an earlier pane's flag
  for (const p of trace.windows) {
    parts.push(`<path class="fires" data-end="${p.end}" d="M${f(x(p.firedAt))} ${f(y(p.end) - 1)} l0 -9 l8 3 l-8 3" fill="#0969da" stroke="#0969da" stroke-width="1"/>`);
  }

  // the watermark as a step line: it holds its value until the next record moves it
  if (trace.watermarks.length > 0) {
    let d = "";
    let prev: number | undefined;
    for (const w of trace.watermarks) {
      const wy = f(y(w.time));
      const wx = f(x(w.arrival));
      d += prev === undefined ? `M${wx} ${wy}` : ` L${wx} ${prev} L${wx} ${wy}`;
      prev = wy;
    }
    d += ` L${f(x(n))} ${prev}`;
    parts.push(`<path class="watermark" d="${d}" fill="none" stroke="#8250df" stroke-width="1.5" stroke-dasharray="4 2"><title>watermark</title></path>`);
  }

  // timers
  for (const t of trace.timers) {
    const tx = x(t.firedAt ?? n);
    const ty = y(t.time);
    parts.push(`<g class="timer" data-time="${t.time}" data-fired-at="${t.firedAt ?? ""}"><title>timer ${escapeHtml(t.name ?? "")} at ${timeLabel(t.time)}${t.firedAt === undefined ? " (pending)" : ` fired after ${t.firedAt === n ? "end of input" : `row ${t.firedAt + 1}`}`}</title>`
      + `<path d="M${f(tx)} ${f(ty - 5)} l5 5 l-5 5 l-5 -5 z" fill="${t.firedAt === undefined ? "#ffffff" : "#bf8700"}" stroke="#bf8700" stroke-width="1.2"/></g>`);
  }

  // input rows
  for (const r of trace.inputs) {
    if (r.time === null) continue;
    const cx = f(x(r.arrival));
    const cy = f(y(r.time));
    const title = `<title>row ${r.arrival + 1}: ${escapeHtml(r.label)} at ${timeLabel(r.time)}${r.late ? " (late)" : ""}</title>`;
    parts.push(r.late
      ? `<g class="row late" data-arrival="${r.arrival}" data-time="${r.time}">${title}<path d="M${cx - 4} ${cy - 4} L${cx + 4} ${cy + 4} M${cx - 4} ${cy + 4} L${cx + 4} ${cy - 4}" stroke="#cf222e" stroke-width="2"/></g>`
      : `<g class="row" data-arrival="${r.arrival}" data-time="${r.time}">${title}<circle cx="${cx}" cy="${cy}" r="4" fill="#24292f"/></g>`);
  }

  // the output changelog along the top, stacked per arrival
  const stack = new Map<number, number>();
  const maxStack = 4;
  for (const o of trace.outputs) {
    const level = stack.get(o.arrival) ?? 0;
    stack.set(o.arrival, level + 1);
    const ox = f(x(o.arrival) - 8);
    const kind = KIND_SHORT[o.kind]!;
    if (level >= maxStack) continue;
    const oy = top - 14 - level * 11;
    parts.push(`<g class="output" data-arrival="${o.arrival}" data-kind="${kind}"><title>${kind}[${escapeHtml(o.label)}]</title>`
      + `<rect x="${ox}" y="${oy - 8}" width="16" height="10" rx="2" fill="${KIND_COLOR[o.kind]}"/>`
      + `<text x="${f(x(o.arrival))}" y="${oy}" text-anchor="middle" ${FAMILY} font-size="7" fill="#ffffff">${kind}</text></g>`);
  }
  for (const [arrival, count] of stack) {
    if (count > maxStack) parts.push(`<text x="${f(x(arrival) + 10)}" y="${top - 14 - (maxStack - 1) * 11}" ${FONT} fill="#57606a">+${count - maxStack}</text>`);
  }

  // legend
  const legend = [
    `<circle cx="0" cy="-3" r="4" fill="#24292f"/><text x="8" y="0" ${FONT}>row</text>`,
    `<path d="M-4 -7 L4 1 M-4 1 L4 -7" stroke="#cf222e" stroke-width="2"/><text x="8" y="0" ${FONT}>late row</text>`,
    `<path d="M-6 -3 L6 -3" stroke="#8250df" stroke-width="1.5" stroke-dasharray="4 2"/><text x="10" y="0" ${FONT}>watermark</text>`,
    `<rect x="-5" y="-8" width="10" height="9" fill="#ddf4ff" stroke="#54aeff"/><text x="8" y="0" ${FONT}>window pane ▸ fires</text>`,
    `<path d="M0 -8 l4 4 l-4 4 l-4 -4 z" fill="#bf8700"/><text x="8" y="0" ${FONT}>timer</text>`,
  ];
  const legendX = [0, 56, 130, 212, 352];
  parts.push(`<g class="legend" transform="translate(${left + 8} 36)" fill="#57606a">`
    + legend.map((l, i) => `<g transform="translate(${legendX[i]} 0)">${l}</g>`).join("") + `</g>`);
  parts.push(`<text x="${left - 6}" y="${top - 17}" text-anchor="end" ${FONT} fill="#57606a">output</text>`);
  parts.push("</svg>");
  return parts.join("");
}

/** A sparkline (e.g. state size over time): values left to right, the last value labelled. */
export function sparklineSvg(values: readonly number[], options: { width?: number; height?: number; label?: string } = {}): string {
  const width = options.width ?? 240;
  const height = options.height ?? 40;
  const pad = 4;
  const labelW = 70;
  const max = Math.max(1, ...values);
  const min = Math.min(0, ...values);
  const w = width - labelW - pad * 2;
  const h = height - pad * 2;
  const pts = values.map((v, i) => `${Math.round((pad + (values.length === 1 ? 0 : (i / (values.length - 1)) * w)) * 10) / 10},${Math.round((pad + h - ((v - min) / (max - min || 1)) * h) * 10) / 10}`);
  const last = values.length ? values[values.length - 1]! : 0;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" class="tablestream-sparkline">`
    + `<rect x="0" y="0" width="${width}" height="${height}" fill="#ffffff"/>`
    + `<polyline points="${pts.join(" ")}" fill="none" stroke="#0969da" stroke-width="1.5"/>`
    + `<text x="${width - labelW + 4}" y="${height / 2 + 4}" ${FONT} fill="#24292f">${escapeHtml(options.label ? `${options.label} ` : "")}${last}</text></svg>`;
}

/** Time of day (UTC) as a label: `12:00:05`, with milliseconds when not whole seconds. */
export function timeLabel(t: number): string {
  if (!Number.isFinite(t)) return t > 0 ? "+∞" : "−∞";
  const iso = new Date(t).toISOString();
  return t % 1000 === 0 ? iso.slice(11, 19) : iso.slice(11, 23);
}

/** About `count` round tick values between lo and hi (steps of 1, 2, 5 × 10^k ms). */
function timeTicks(lo: number, hi: number, count: number): number[] {
  const raw = (hi - lo) / count;
  const mag = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
  const out: number[] = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi; t += step) out.push(t);
  return out;
}
