import type { ValuesNode } from "../../plan/nodes.js";
import type { MetricGroup } from "../metrics.js";
import { type Output, recordEach } from "../operator.js";
import type { PollResult, SourceReader } from "../source.js";
import { WatermarkGenerator } from "./watermark-generator.js";

/** Reads the rows of a fromValues table; with a watermark declaration it emits per-record watermarks. */
export class ValuesReader implements SourceReader {
  private next = 0;
  /** Records emitted by this job (`Values.numRecordsOut`): counted per poll, not per record. */
  private emitted = 0;
  private readonly rowtime: number;
  private readonly wm: WatermarkGenerator | undefined;
  /** Where the edge's record loop leaves the index of a row that threw. */
  private readonly at = [0];

  constructor(private readonly node: ValuesNode) {
    this.rowtime = node.watermark ? node.schema.indexOf(node.watermark.rowtimeColumn) : -1;
    const wm = node.watermark;
    this.wm = wm ? new WatermarkGenerator(wm.delayMillis, wm.emit === "periodic" ? wm.intervalRecords ?? 1 : 1) : undefined;
  }

  poll(out: Output, max: number): PollResult {
    // Records go out as the node's own arrays, without a copy: records are immutable once emitted (no
    // operator writes into its input), so sharing them with the plan is safe and saves an allocation
    // per row (W0 ran 1.5x faster without it). test/exec/values-reader.test.ts checks the rows stay intact.
    const rows = this.node.rows as readonly unknown[][];
    const kinds = this.node.kinds;
    const wm = this.wm;
    const start = this.next;
    const end = Math.min(rows.length, start + max);
    // the edge's own loop when it has one (a call site per operator class), else record by record
    const loop = out.recordLoop;
    try {
      if (loop !== undefined) loop(rows, kinds, start, end, wm, this.rowtime, this.at);
      else recordEach(out, rows, kinds, start, end, wm, this.rowtime, this.at);
    } catch (e) {
      // the job fails; its metrics still count every record handed out, the failing one included
      this.emitted += this.at[0]! - start + 1;
      throw e;
    }
    this.next = end;
    this.emitted += end - start;
    if (end < rows.length) return "more";
    return this.finish(out);
  }

  /**
   * End of input, out of poll's body on purpose: poll is optimised with the job's whole record path inlined,
   * and the watermark / end-of-input calls reach per-job closures (edges, the result sink) that the next job
   * replaces — inlined into poll, they deoptimised it in every new job, which then ran its first slices in
   * slower code (5–6 deoptimisations per job after warm-up on W0–W8, none since; docs/benchmarks.md).
   */
  private finish(out: Output): PollResult {
    out.watermark(Infinity);
    out.endInput();
    return "end";
  }

  setMetrics(group: MetricGroup): void {
    group.gauge("numRecordsOut", () => this.emitted);
  }

  /** The next row index; with a watermark declaration also the generator's state (`{ next, wm }`). */
  position(): unknown { return this.wm === undefined ? this.next : { next: this.next, wm: this.wm.state() }; }
  seek(position: unknown): void {
    if (typeof position === "number") { this.next = position; return; }
    const p = position as { next: number; wm: readonly [number, number, number] };
    this.next = p.next;
    this.wm?.restore(p.wm);
  }
  currentWatermark(): number { return this.wm?.current() ?? -Infinity; }
  close(): void {}
}
