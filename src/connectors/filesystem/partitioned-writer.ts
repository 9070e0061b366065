import { join } from "node:path";
import type { SinkWriter } from "../../exec/source.js";
import { ResolvedSchema } from "../../types/resolved-schema.js";
import type { ConnectorTable } from "../connector-spec.js";
import type { FileFormat } from "./format.js";
import { PartitionRouter } from "./partition-router.js";
import { defaultPartitionName } from "./partitions.js";
import { FileSinkWriter } from "./writer.js";

/** What a checkpoint stores for a partitioned sink: each partition writer's committable, by relative directory. */
interface PartitionedCommittable {
  readonly partitions: Readonly<Record<string, unknown>>;
}

/**
 * Writes a `PARTITIONED BY` filesystem table as Flink's filesystem sink does: each row goes to the directory of
 * its partition values (`path/dt=2024-01-01/hr=10/`, partitions.ts), and the files hold the other columns only.
 * Each partition directory has its own part-file writer (writer.ts) with the same two-phase commit, so a
 * checkpoint prepares and commits every partition's files, and a restore commits them per partition.
 *
 * INSERT OVERWRITE replaces only the partitions the job writes (Flink's dynamic overwrite): each partition
 * writer clears its directory when the job finishes. With a static partition naming every partition key
 * (`INSERT OVERWRITE t PARTITION (dt='x', hr='1') ...`), that partition is replaced even when the query yields no
 * row, as Flink loads an empty partition then.
 */
export class PartitionedFileSinkWriter implements SinkWriter {
  private readonly router: PartitionRouter<FileSinkWriter>;
  private readonly writers: ReadonlyMap<string, FileSinkWriter>;

  constructor(private readonly table: ConnectorTable, format: FileFormat, keys: readonly string[]) {
    const physical = table.physical;
    const router: PartitionRouter<FileSinkWriter> = new PartitionRouter(physical.columns, keys, defaultPartitionName(table), (relative) => {
      const options = new Map(table.options);
      options.set("path", join(this.root(), relative));
      const w = new FileSinkWriter({ ...table, physical: dataSchema, options }, format);
      w.open();
      return w;
    });
    const dataSchema = new ResolvedSchema(router.dataIndex.map((i) => physical.columns[i]!));
    this.router = router;
    this.writers = router.writers;
  }

  private root(): string {
    return this.table.options.get("path")!;
  }

  open(): void {}

  write(kind: number, row: readonly unknown[]): void {
    // the partition writer encodes the data row before `write` returns (the router reuses it)
    this.router.route(row).write(kind, this.router.data);
  }

  prepareCommit(checkpointId: number): unknown {
    const partitions: Record<string, unknown> = {};
    for (const [p, w] of this.writers) partitions[p] = w.prepareCommit();
    void checkpointId;
    const c: PartitionedCommittable = { partitions };
    return c;
  }

  commit(committable: unknown): void {
    for (const [p, c] of Object.entries((committable as PartitionedCommittable).partitions)) this.router.writerOf(p).commit(c);
  }

  restore(committable: unknown): void {
    for (const [p, c] of Object.entries((committable as PartitionedCommittable).partitions ?? {})) this.router.writerOf(p).restore(c);
  }

  abort(): void {
    for (const w of this.writers.values()) w.abort();
  }

  close(): void {
    let failure: unknown;
    for (const w of this.writers.values()) {
      try {
        w.close();
      } catch (e) {
        failure ??= e;
      }
    }
    if (failure === undefined && this.table.overwrite) this.router.clearEmptyStaticPartition(this.root(), this.table.staticPartition);
    if (failure !== undefined) throw failure;
  }

  written(): number {
    let n = 0;
    for (const w of this.writers.values()) n += w.written();
    return n;
  }
}
