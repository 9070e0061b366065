import { ValidationError } from "../types/errors.js";
import { toJavaString } from "../types/format.js";
import type { GroupWindowSpec, PlanNode, ValuesNode, WindowAggregateNode } from "../plan/nodes.js";
import { inputsOf } from "../plan/nodes.js";
import { WatermarkGenerator } from "../exec/sources/watermark-generator.js";
import type { ChangelogKind, Table } from "../table/table.js";

/**
 * What happened in a job, record by record, in the terms a timeline shows: each input row with its event
 * time, the watermark after it, each output row at the input record that caused it, window panes and when
 * they fired, and late rows. Times are epoch milliseconds; `arrival` is the 0-based index of the input
 * record after which something happened (`inputs.length` = at end of input).
 */
export interface TimelineTrace {
  readonly inputs: readonly TraceInput[];
  readonly watermarks: readonly { readonly arrival: number; readonly time: number }[];
  readonly outputs: readonly TraceOutput[];
  readonly windows: readonly TracePane[];
  readonly timers: readonly TraceTimer[];
}

export interface TraceInput {
  readonly arrival: number;
  /** Event time (ms), null for a row without one. */
  readonly time: number | null;
  readonly label: string;
  /** At or behind the watermark when it arrived (for a window plan: its window had fired already). */
  readonly late: boolean;
}

export interface TraceOutput {
  readonly arrival: number;
  /** Numeric row kind (0 +I, 1 -U, 2 +U, 3 -D). */
  readonly kind: number;
  readonly label: string;
}

/** A window pane: [start, end) in event time; `firedAt` the arrival after which it fired. */
export interface TracePane {
  readonly start: number;
  readonly end: number;
  readonly firedAt: number;
}

/** A timer at event time `time`, registered after arrival `registeredAt`, fired after `firedAt` (if it fired). */
export interface TraceTimer {
  readonly time: number;
  readonly registeredAt: number;
  readonly firedAt?: number;
  readonly name?: string;
}

/**
 * Runs a bounded program over one `fromValues` table with a watermark one input record at a time and
 * records its timeline. The watermarks are the source's own (same generator), the outputs are what the
 * job emitted after each record, and window panes are derived from the plan's group window (fired when
 * the watermark reaches the window's last millisecond, as Flink does).
 *
 * ```ts
 * const trace = await traceTimeline(counts);
 * display(timelineSvg(trace));
 * ```
 */
export async function traceTimeline(table: Table<object, ChangelogKind>, options: { timers?: readonly TraceTimer[] } = {}): Promise<TimelineTrace> {
  const plan = table.node;
  const sources = leaves(plan);
  if (sources.length !== 1 || sources[0]!.kind !== "Values") {
    throw new ValidationError(`traceTimeline: the program must read exactly one fromValues table (found ${sources.map((s) => s.kind).join(", ") || "none"})`);
  }
  const values = sources[0] as ValuesNode;
  if (!values.watermark) throw new ValidationError("traceTimeline: the input table declares no watermark (fromValues with a Schema that has one)");
  const rowtime = values.schema.indexOf(values.watermark.rowtimeColumn);
  const types = values.schema.types;
  const generator = new WatermarkGenerator(values.watermark.delayMillis,
    values.watermark.emit === "periodic" ? values.watermark.intervalRecords ?? 1 : 1);

  // watermark after each record, exactly as the source emits them
  const watermarks: { arrival: number; time: number }[] = [];
  const before: number[] = [];
  values.rows.forEach((row, i) => {
    before.push(generator.current());
    const t = row[rowtime] as Date | null;
    if (t === null) return;
    const w = generator.onEvent(t.getTime());
    if (w !== undefined) watermarks.push({ arrival: i, time: w });
  });

  const window = findWindow(plan);
  const timeOf = (i: number): number | null => (values.rows[i]![rowtime] as Date | null)?.getTime() ?? null;
  const inputs: TraceInput[] = values.rows.map((row, i) => {
    const time = timeOf(i);
    const wm = before[i]!;
    const late = time !== null && (window ? panesOf(window, time).every((p) => p.end - 1 <= wm) : time <= wm);
    return { arrival: i, time, label: row.map((v, j) => toJavaString(types[j], v)).join(", "), late };
  });

  // run the job one source record per step; outputs belong to the record just processed
  const outputs: TraceOutput[] = [];
  const outTypes = plan.schema.types;
  // One source record per step. The last step also ends the input (the source emits the record, its
  // watermark, then +Infinity in one poll), so there outputs after the record's own watermark reached the
  // end of the plan, or all of them for a plan that emits only on watermarks, belong to end of input.
  const n = values.rows.length;
  const lastWatermarkAdvances = watermarks.length > 0 && watermarks[watermarks.length - 1]!.arrival === n - 1;
  const emitsOnWatermarksOnly = onlyWatermarkDriven(plan);
  let arrival = 0;
  let atEnd = false;
  const job = table.execute().startJob({
    record: (kind, v) => {
      const endOfInput = atEnd || (arrival >= n - 1 && emitsOnWatermarksOnly && !lastWatermarkAdvances);
      outputs.push({ arrival: endOfInput ? n : arrival, kind, label: v.map((x, j) => toJavaString(outTypes[j], x)).join(", ") });
    },
    watermark: () => { if (arrival >= n - 1) atEnd = true; },
  });
  try {
    for (;;) {
      const r = job.step(1);
      if (r === "done") break;
      if (r !== "more") await r;
      arrival++;
    }
  } finally {
    job.cancel();
  }
  return { inputs, watermarks, outputs, windows: window ? panes(window, inputs, watermarks) : [], timers: options.timers ?? [] };
}

/** Plans whose outputs come only when a watermark passes (group windows, event-time OVER). */
function onlyWatermarkDriven(n: PlanNode): boolean {
  if (n.kind === "WindowAggregate") return true;
  if (n.kind === "OverAggregate") return n.window.timeBased && n.window.procTime !== true;
  if (n.kind === "Values" || n.kind === "Process" || n.kind === "Aggregate" || n.kind === "Distinct") return false;
  const ins = inputsOf(n);
  return ins.length > 0 && ins.every(onlyWatermarkDriven);
}

function leaves(n: PlanNode): PlanNode[] {
  const ins = inputsOf(n);
  return ins.length === 0 ? [n] : ins.flatMap(leaves);
}

function findWindow(n: PlanNode): GroupWindowSpec | undefined {
  if (n.kind === "WindowAggregate") return (n as WindowAggregateNode).window;
  for (const i of inputsOf(n)) {
    const w = findWindow(i);
    if (w) return w;
  }
  return undefined;
}

/** The panes [start, end) a row at `t` belongs to (sessions: the row's own gap-long pane, merged later). */
function panesOf(w: GroupWindowSpec, t: number): { start: number; end: number }[] {
  const floor = (x: number, m: number) => x - (((x % m) + m) % m);
  switch (w.type) {
    case "TUMBLE": {
      const start = floor(t, w.size);
      return [{ start, end: start + w.size }];
    }
    case "SLIDE": {
      const out: { start: number; end: number }[] = [];
      for (let start = floor(t, w.step!); start > t - w.size; start -= w.step!) out.push({ start, end: start + w.size });
      return out.reverse();
    }
    case "CUMULATE": {
      const start = floor(t, w.size);
      const out: { start: number; end: number }[] = [];
      for (let end = floor(t, w.step!) + w.step!; end <= start + w.size; end += w.step!) out.push({ start, end });
      return out;
    }
    case "SESSION":
      return [{ start: t, end: t + w.size }];
  }
}

/** Every pane that holds an on-time row, and the arrival after which the watermark reached its last millisecond. */
function panes(w: GroupWindowSpec, inputs: readonly TraceInput[], watermarks: readonly { arrival: number; time: number }[]): TracePane[] {
  const byKey = new Map<string, { start: number; end: number }>();
  const add = (p: { start: number; end: number }) => {
    const key = `${p.start}:${p.end}`;
    if (!byKey.has(key)) byKey.set(key, p);
  };
  if (w.type === "SESSION") {
    // merge the rows' gap-long panes the way session windows merge
    const times = inputs.filter((i) => !i.late && i.time !== null).map((i) => i.time!).sort((a, b) => a - b);
    let cur: { start: number; end: number } | undefined;
    for (const t of times) {
      if (cur && t < cur.end) cur.end = Math.max(cur.end, t + w.size);
      else { if (cur) add(cur); cur = { start: t, end: t + w.size }; }
    }
    if (cur) add(cur);
  } else {
    for (const i of inputs) if (!i.late && i.time !== null) for (const p of panesOf(w, i.time)) add(p);
  }
  return [...byKey.values()].sort((a, b) => a.end - b.end || a.start - b.start).map((p) => {
    const fired = watermarks.find((m) => m.time >= p.end - 1);
    return { start: p.start, end: p.end, firedAt: fired ? fired.arrival : inputs.length };
  });
}
