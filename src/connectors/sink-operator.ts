import type { MetricGroup } from "../exec/metrics.js";
import { BaseOperator } from "../exec/operator.js";
import type { AsyncWork, SinkWriter } from "../exec/source.js";
import { helpers } from "../expressions/helpers.js";
import { ExecutionError, ValidationError } from "../types/errors.js";
import type { SinkNode } from "../plan/nodes.js";
import { Kind } from "../types/row.js";
import type { DataType } from "../types/data-type.js";

const INTEGERS = ["TINYINT", "SMALLINT", "INT", "BIGINT"];

/** Converts a value of the query's column type to the sink column's representation, where they differ. */
function converter(from: DataType, to: DataType): ((v: unknown) => unknown) | undefined {
  if (to.root === "DECIMAL" && INTEGERS.includes(from.root)) return (v) => (v === null ? null : helpers.dec(v));
  if ((to.root === "DOUBLE" || to.root === "FLOAT") && from.root === "DECIMAL") return (v) => (v === null ? null : helpers.dec(v).toNumber());
  return undefined;
}

/**
 * The end of an insert job: hands every record to the connector's writer, in the sink's column order.
 * An upsert sink does not receive UPDATE_BEFORE (as Flink's planner never sends it one). A NULL for a
 * NOT NULL sink column fails the job naming the column, or drops the record with
 * `table.exec.sink.not-null-enforcer = DROP` (Flink's option). The writer is closed exactly once: at end
 * of input, or when the job is cancelled or fails — it commits complete records only.
 */
export class SinkOperator extends BaseOperator {
  private closed = false;
  private readonly dropUpdateBefore: boolean;
  private readonly notNull: number[];
  private readonly dropNulls: boolean;
  private readonly converters: (((v: unknown) => unknown) | undefined)[];
  private readonly convert: boolean;
  /** Records received and records handed to the writer (`Sink[<table>].numRecordsIn` / `numRecordsOut`). */
  private recordsIn = 0;
  private recordsOut = 0;
  /** Snapshots taken (the id handed to `prepareCommit`). */
  private prepared = 0;
  /** Cancelled with checkpoints on: the writer discards what no checkpoint covers (`abort`) instead of committing. */
  private discard = false;

  constructor(private readonly node: SinkNode, private readonly writer: SinkWriter, config: ReadonlyMap<string, string>) {
    super(1);
    this.dropUpdateBefore = node.changelog === "upsert";
    const input = node.input.schema.columns;
    const sink = node.schema.columns;
    this.notNull = sink.map((c, i) => (!c.type.isNullable && input[i]!.type.isNullable ? i : -1)).filter((i) => i >= 0);
    const enforcer = (config.get("table.exec.sink.not-null-enforcer") ?? "ERROR").toUpperCase();
    if (enforcer !== "ERROR" && enforcer !== "DROP") {
      throw new ValidationError(`option 'table.exec.sink.not-null-enforcer' must be ERROR or DROP, got '${enforcer}'`);
    }
    this.dropNulls = enforcer === "DROP";
    this.converters = sink.map((c, i) => converter(input[i]!.type, c.type));
    this.convert = this.converters.some((c) => c !== undefined);
  }

  override open(): void {
    this.writer.open();
  }

  /** In minus out: the `-U` an upsert sink does not take, rows dropped by the NOT NULL enforcer. */
  setMetrics(group: MetricGroup): void {
    group.gauge("numRecordsIn", () => this.recordsIn);
    group.gauge("numRecordsOut", () => this.recordsOut);
  }

  processElement(_input: number, kind: number, row: unknown[]): void {
    this.recordsIn++;
    if (kind === Kind.UPDATE_BEFORE && this.dropUpdateBefore) return;
    const nn = this.notNull;
    for (let k = 0; k < nn.length; k++) {
      if (row[nn[k]!] === null) {
        if (this.dropNulls) return;
        const col = this.node.schema.columns[nn[k]!]!;
        throw new ExecutionError(`Column '${col.name}' is NOT NULL, however, a null value is being written into it (table '${this.node.tableName}'). You can set job configuration 'table.exec.sink.not-null-enforcer'='DROP' to suppress this exception and drop such records silently.`);
      }
    }
    if (this.convert) {
      const out = row.slice();
      const cs = this.converters;
      for (let i = 0; i < cs.length; i++) { const c = cs[i]; if (c !== undefined) out[i] = c(out[i]); }
      this.writer.write(kind, out);
      this.recordsOut++;
      return;
    }
    this.writer.write(kind, row);
    this.recordsOut++;
  }

  protected override onWatermark(): void {}

  protected override onEndOfInput(): void {
    this.finish();
    this.out.endInput();
  }

  override close(): void {
    this.finish();
  }

  /**
   * Two-phase commit (Flink's exactly-once sinks): a checkpoint holds what the writer prepared, the writer
   * commits it once the checkpoint is durable, and a restored job hands it back (`restore`) so the writer
   * commits what the crash left uncommitted and drops what came after. A writer without `prepareCommit` has
   * no state and no guarantee across restores.
   */
  override snapshotState(): unknown {
    const w = this.writer;
    if (w.prepareCommit === undefined) return null;
    return { committable: w.prepareCommit(++this.prepared), recordsIn: this.recordsIn, recordsOut: this.recordsOut };
  }

  notifyCheckpointComplete(state: unknown): void {
    this.writer.commit?.((state as { committable: unknown }).committable);
  }

  override restoreState(state: unknown): void {
    const s = state as { committable: unknown; recordsIn: number; recordsOut: number };
    this.writer.restore?.(s.committable);
    this.recordsIn = s.recordsIn;
    this.recordsOut = s.recordsOut;
  }

  /**
   * @internal the job was cancelled or failed (exec/job.ts). An `INSERT OVERWRITE` replaces the table's contents
   * only when its job finishes (Flink commits overwritten files once, at the end of a successful batch job): the
   * writer discards what it wrote (`abort`) and the old contents stay.
   */
  jobUnfinished(): void {
    if (this.node.overwrite === true) this.discard = true;
  }

  /** @internal the job was cancelled with checkpoints on (exec/job.ts) */
  discardUncommitted(): void {
    this.discard = true;
  }

  /** The job's view of an asynchronous writer: its backpressure while running, its closing at the end. */
  asyncWork(): AsyncWork {
    const w = this.writer;
    return {
      backpressure: () => w.backpressure?.(),
      barrier: (id) => w.barrier?.(id),
      drain: () => (this.closed ? w.closing?.() : undefined),
      ...(w.endOfStep !== undefined ? { endOfStep: () => w.endOfStep!() } : {}),
    };
  }

  /** Records written into the sink so far. */
  written(): number {
    return this.writer.written();
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.discard && this.writer.abort !== undefined) this.writer.abort();
    else this.writer.close();
  }
}
