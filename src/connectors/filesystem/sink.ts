import type { SinkWriter as PartFileWriter } from "../../exec/source.js";
import { Kind } from "../../types/row.js";
import type { Committable, SinkBatch, SinkContext, SinkWriter } from "../api/contract.js";
import { fileFormat } from "./format.js";
import { PartitionedFileSinkWriter } from "./partitioned-writer.js";
import { connectorTableOf } from "./table-view.js";
import { FileSinkWriter } from "./writer.js";

/**
 * The filesystem sink on the public connector API: the part-file writers (writer.ts, and partitioned-writer.ts
 * for `PARTITIONED BY` tables: one part-file writer per partition directory) behind the asynchronous writer's
 * two-phase commit. The job hands rows over in batches; at a checkpoint's barrier `prepareCommit` seals the part
 * file in progress and returns the pending files (`{ dir, pending }`, partitioned `{ partitions }`: the form a
 * checkpoint stored before this API, so old checkpoints still commit); `commit` renames them into place.
 *
 * A restored job's `pendingCommittables` are restored into the part-file writers when the writer opens: published
 * when the crash came before the rename, or, for INSERT OVERWRITE, staged again until the job finishes. The job then
 * commits them once more (idempotent: a file already in place is left alone).
 */
export class FileTableWriter implements SinkWriter {
  private readonly parts: PartFileWriter;

  constructor(ctx: SinkContext) {
    const table = connectorTableOf(ctx);
    const format = fileFormat(table);
    this.parts = ctx.partitionKeys.length === 0 ? new FileSinkWriter(table, format) : new PartitionedFileSinkWriter(table, format, ctx.partitionKeys);
    this.parts.open();
    for (const c of ctx.pendingCommittables) this.parts.restore!(c);
  }

  /** The rows are encoded into the part file's buffer at once (an insert-only sink: every kind is +I). */
  write(batch: SinkBatch): void {
    const rows = batch.rows;
    for (let i = 0; i < rows.length; i++) this.parts.write(Kind.INSERT, rows[i]!);
  }

  prepareCommit(checkpointId: number): Committable {
    return this.parts.prepareCommit!(checkpointId) as Committable;
  }

  commit(committables: readonly Committable[]): void {
    for (const c of committables) this.parts.commit!(c);
  }

  abort(): void {
    this.parts.abort!();
  }

  close(): void {
    this.parts.close();
  }
}
