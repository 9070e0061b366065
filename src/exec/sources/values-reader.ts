import type { ValuesNode } from "../../table/plan/nodes.js";
import type { Output } from "../operator.js";
import type { PollResult, SourceReader } from "../source.js";
import { WatermarkGenerator } from "./watermark-generator.js";

/** Reads the rows of a fromValues table; with a watermark declaration it emits per-record watermarks. */
export class ValuesReader implements SourceReader {
  private next = 0;
  private readonly rowtime: number;
  private readonly wm: WatermarkGenerator | undefined;

  constructor(private readonly node: ValuesNode) {
    this.rowtime = node.watermark ? node.schema.indexOf(node.watermark.rowtimeColumn) : -1;
    this.wm = node.watermark ? new WatermarkGenerator(node.watermark.delayMillis) : undefined;
  }

  poll(out: Output, max: number): PollResult {
    const rows = this.node.rows;
    const kinds = this.node.kinds;
    const end = Math.min(rows.length, this.next + max);
    for (let i = this.next; i < end; i++) {
      // records are handed out as fresh arrays: operators downstream may keep them
      const row = rows[i]!.slice();
      out.record(kinds ? kinds[i]! : 0, row);
      if (this.wm) {
        const t = row[this.rowtime] as Date | null;
        if (t !== null) {
          const w = this.wm.onEvent(t.getTime());
          if (w !== undefined) out.watermark(w);
        }
      }
    }
    this.next = end;
    if (end < rows.length) return "more";
    out.watermark(Infinity);
    out.endInput();
    return "end";
  }

  position(): unknown { return this.next; }
  seek(position: unknown): void { this.next = position as number; }
  close(): void {}
}
