import { CodegenContext, type FunctionResolver, compileExpr } from "../expressions/compile.js";
import type { MetricGroup } from "../exec/metrics.js";
import type { Output } from "../exec/operator.js";
import type { PollResult, SourceReader } from "../exec/source.js";
import { WatermarkGenerator } from "../exec/sources/watermark-generator.js";
import type { SourceScanNode } from "../plan/nodes.js";

/**
 * Everything a scan adds around a connector's reader, so that connectors only produce physical rows:
 * computed columns (one generated function per scan) and the watermarks of the table's watermark
 * declaration (bounded out-of-orderness over the rowtime column, per record or every N records).
 */
class ScanOutput implements Output {
  out!: Output;
  /** The last watermark this scan emitted (its own or the reader's). */
  emittedWatermark = -Infinity;
  /** Records emitted into the job (`<connector>[<table>].numRecordsOut`). */
  records = 0;
  constructor(
    private readonly complete: ((p: unknown[]) => unknown[]) | undefined,
    private readonly rowtime: number,
    readonly wm: WatermarkGenerator | undefined,
  ) {}

  record(kind: number, physical: unknown[]): void {
    const row = this.complete ? this.complete(physical) : physical;
    this.records++;
    this.out.record(kind, row);
    if (this.wm !== undefined) {
      const t = row[this.rowtime] as Date | null;
      if (t !== null) {
        const w = this.wm.onEvent(t.getTime());
        if (w !== undefined) { this.emittedWatermark = w; this.out.watermark(w); }
      }
    }
  }

  watermark(wm: number): void {
    if (wm > this.emittedWatermark) this.emittedWatermark = wm;
    this.out.watermark(wm);
  }

  endInput(): void {
    this.out.endInput();
  }
}

/** A connector reader seen through its scan: computed columns and watermarks added. */
export class ScanReader implements SourceReader {
  private readonly scanOut: ScanOutput;

  /** @param clock the job's processing-time clock: `PROCTIME()` columns read it when a row is read */
  constructor(private readonly inner: SourceReader, node: SourceScanNode, resolveFunction?: FunctionResolver, clock?: () => number) {
    const wmSpec = node.watermark;
    this.scanOut = new ScanOutput(
      computedColumns(node, resolveFunction, clock),
      wmSpec ? node.schema.indexOf(wmSpec.rowtimeColumn) : -1,
      wmSpec ? new WatermarkGenerator(wmSpec.delayMillis, wmSpec.emit === "periodic" ? (wmSpec.intervalRecords ?? 100) : 1) : undefined,
    );
  }

  poll(out: Output, max: number): PollResult {
    this.scanOut.out = out;
    return this.inner.poll(this.scanOut, max);
  }

  /** `numRecordsOut` is counted here for every connector; the connector's reader adds its own metrics. */
  setMetrics(group: MetricGroup): void {
    const scanOut = this.scanOut;
    group.gauge("numRecordsOut", () => scanOut.records);
    this.inner.setMetrics?.(group);
  }

  get replayable(): boolean { return this.inner.replayable !== false; }

  /** The reader's position; with a watermark declaration also the generator's state (`{ inner, wm, emitted }`). */
  position(): unknown {
    const wm = this.scanOut.wm;
    return wm === undefined ? this.inner.position() : { inner: this.inner.position(), wm: wm.state(), emitted: this.scanOut.emittedWatermark };
  }

  /** A reader that cannot replay starts its watermarks afresh: its rows after a restore are new ones. */
  seek(position: unknown): void {
    const wm = this.scanOut.wm;
    if (wm === undefined) { this.inner.seek(position); return; }
    const p = position as { inner: unknown; wm: readonly [number, number, number]; emitted: number };
    this.inner.seek(p.inner);
    if (this.replayable) {
      wm.restore(p.wm);
      this.scanOut.emittedWatermark = p.emitted;
    }
  }

  currentWatermark(): number { return this.scanOut.emittedWatermark; }
  close(): void { this.inner.close(); }
}

/**
 * `(physical) => full record` with the computed columns in their declared places; undefined without any.
 * When the computed columns all follow the physical ones (the usual layout) they are appended to the
 * reader's record in place, so a record is allocated once.
 */
function computedColumns(node: SourceScanNode, resolveFunction?: FunctionResolver, clock?: () => number): ((p: unknown[]) => unknown[]) | undefined {
  const metadata = node.metadata ?? [];
  if (node.computed.length === 0 && metadata.length === 0) return undefined;
  const ctx = new CodegenContext(node.physical, resolveFunction, "p");
  if (clock !== undefined) ctx.withClock(clock);
  const width = node.physical.size;
  // the reader's record: the physical values, then the metadata values in the scan's metadata order
  const read = (name: string): string => {
    const m = metadata.findIndex((x) => x.name === name);
    return m >= 0 ? `p[${width + m}]` : `p[${node.physical.indexOf(name)}]`;
  };
  const items = node.schema.columns.map((c) => {
    const comp = node.computed.find((x) => x.name === c.name);
    return comp ? compileExpr(comp.expr, ctx).src : read(c.name);
  });
  if (node.computed.length === 0) {
    // metadata only: the record is complete when the metadata columns come last in their declared order
    if (items.every((src, i) => src === `p[${i}]`)) return undefined;
    return ctx.build(`function(p){return [${items.join(",")}];}`);
  }
  const trailing = metadata.length === 0 && node.schema.columns.every((c, i) => (i < width) === !node.computed.some((x) => x.name === c.name));
  if (trailing) {
    // evaluate every computed value first (they read only physical columns), then append them
    const vals = items.slice(width);
    const body = vals.map((src, k) => `const v${k}=${src};`).join("") + vals.map((_, k) => `p[${width + k}]=v${k};`).join("");
    return ctx.build(`function(p){${ctx.tempDeclarations()}${body}return p;}`);
  }
  return ctx.build(`function(p){${ctx.tempDeclarations()}return [${items.join(",")}];}`);
}
