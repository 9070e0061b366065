import { join } from "node:path";
import type { SinkBatch, SinkContext, SinkWriter } from "../api/contract.js";
import { PartitionRouter } from "../filesystem/partition-router.js";
import type { PARQUET_OPTIONS } from "./options.js";
import { ParquetSinkWriter } from "./writer.js";

type Ctx = SinkContext<typeof PARQUET_OPTIONS>;

/**
 * A `PARTITIONED BY` Parquet table, written as Flink's filesystem sink writes one: each row goes to the part file of
 * its partition directory (`path/dt=2024-01-01/hr=10/part-….parquet`, routed by the filesystem connector's
 * PartitionRouter), and the files hold the columns that are not partition keys. Each partition's file is written
 * hidden and renamed into place when the job finishes (writer.ts). INSERT OVERWRITE replaces only the partitions the
 * job writes (dynamic overwrite), and a fully static partition that receives no row becomes empty.
 */
export class PartitionedParquetSinkWriter implements SinkWriter {
  private readonly router: PartitionRouter<ParquetSinkWriter>;

  private constructor(private readonly ctx: Ctx, private readonly open: (ctx: Ctx) => ParquetSinkWriter) {
    const dataColumns: Ctx["columns"][number][] = [];
    this.router = new PartitionRouter(ctx.columns, ctx.partitionKeys, ctx.options["partition.default-name"], (relative) =>
      this.open({ ...ctx, columns: dataColumns, options: { ...ctx.options, path: join(ctx.options.path, relative) } }));
    for (const i of this.router.dataIndex) dataColumns.push(ctx.columns[i]!);
  }

  static async create(ctx: Ctx): Promise<PartitionedParquetSinkWriter> {
    const factory = await ParquetSinkWriter.factory(ctx);
    return new PartitionedParquetSinkWriter(ctx, factory);
  }

  write(batch: SinkBatch): void {
    const router = this.router;
    for (const row of batch.rows) router.route(row).writeRow(router.data);
  }

  abort(): void {
    for (const w of this.router.writers.values()) w.abort();
  }

  close(): void {
    let failure: unknown;
    for (const w of this.router.writers.values()) {
      try {
        w.close();
      } catch (e) {
        failure ??= e;
      }
    }
    if (failure !== undefined) throw failure;
    if (this.ctx.overwrite) this.router.clearEmptyStaticPartition(this.ctx.options.path, this.ctx.staticPartition);
  }
}
