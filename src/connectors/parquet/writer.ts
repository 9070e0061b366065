import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { ExecutionError } from "../../types/errors.js";
import type { SinkBatch, SinkContext, SinkWriter } from "../api/contract.js";
import { loadHyparquetWriter } from "./load.js";
import type { PARQUET_OPTIONS } from "./options.js";
import { nestedWriteConverter, parquetElements } from "./nested.js";

/** Removes what a reader of the directory sees (names starting with '.' or '_' stay, as the in-progress file). */
function clearVisibleFiles(dir: string): void {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return;
  for (const f of readdirSync(dir)) if (!f.startsWith(".") && !f.startsWith("_")) rmSync(join(dir, f), { recursive: true, force: true });
}

type HyparquetWriter = Awaited<ReturnType<typeof loadHyparquetWriter>>;
type ParquetWriter = InstanceType<HyparquetWriter["ParquetWriter"]>;

/**
 * Writes a job's rows into one Parquet part file of the sink directory (`part-<uuid>-0-0.parquet`, as
 * Flink names part files), one row group per `parquet.row-group-size` rows, columns buffered as arrays.
 * While the job runs the file is hidden (`.part-….parquet.inprogress`, which readers skip); `close()`
 * writes the footer and renames it into place, so a reader never sees a half-written file. A failed or
 * cancelled job (`abort`) removes it. A job that writes no row leaves no file.
 */
export class ParquetSinkWriter implements SinkWriter {
  private readonly dir: string;
  private readonly name = `part-${randomUUID()}-0-0.parquet`;
  private writer: ParquetWriter | undefined;
  private columns: unknown[][];
  private buffered = 0;
  private aborted = false;
  private readonly converters: (((v: unknown) => unknown) | undefined)[];
  private readonly where: string;

  private constructor(private readonly ctx: SinkContext<typeof PARQUET_OPTIONS>, private readonly hw: HyparquetWriter) {
    this.dir = ctx.options.path;
    this.where = `connector 'parquet' table '${ctx.tableName}'`;
    this.columns = ctx.columns.map(() => []);
    this.converters = ctx.columns.map((c) => nestedWriteConverter(c.type, c.name));
  }

  static async open(ctx: SinkContext<typeof PARQUET_OPTIONS>): Promise<ParquetSinkWriter> {
    return new ParquetSinkWriter(ctx, await loadHyparquetWriter(`connector 'parquet' table '${ctx.tableName}'`));
  }

  /** Writers opened synchronously once hyparquet-writer is loaded (one per partition directory). */
  static async factory(ctx: SinkContext<typeof PARQUET_OPTIONS>): Promise<(ctx: SinkContext<typeof PARQUET_OPTIONS>) => ParquetSinkWriter> {
    const hw = await loadHyparquetWriter(`connector 'parquet' table '${ctx.tableName}'`);
    return (c) => new ParquetSinkWriter(c, hw);
  }

  private get inProgress(): string {
    return join(this.dir, `.${this.name}.inprogress`);
  }

  write(batch: SinkBatch): void {
    for (const row of batch.rows) this.writeRow(row);
  }

  /** Buffers one row (its values are taken now: the caller may reuse the array). */
  writeRow(row: readonly unknown[]): void {
    const conv = this.converters;
    const cols = this.columns;
    for (let c = 0; c < cols.length; c++) {
      const f = conv[c];
      cols[c]!.push(f === undefined ? row[c] : f(row[c]));
    }
    if (++this.buffered >= this.ctx.options["parquet.row-group-size"]) this.writeGroup();
  }

  private writeGroup(): void {
    if (this.buffered === 0) return;
    try {
      if (this.writer === undefined) {
        mkdirSync(this.dir, { recursive: true });
        const schema = [{ name: "root", num_children: this.ctx.columns.length }, ...this.ctx.columns.flatMap((c) => parquetElements(c.name, c.type))];
        this.writer = new this.hw.ParquetWriter({
          writer: this.hw.fileWriter(this.inProgress), schema: schema as never, codec: this.ctx.options["parquet.compression"], createdBy: "tablestream",
        });
      }
      const columnData = this.ctx.columns.map((c, i) => ({ name: c.name, data: this.columns[i]!, nullable: c.type.isNullable }));
      void this.writer.write({ columnData: columnData as never, rowGroupSize: this.buffered, pageSize: this.ctx.options["parquet.page-size"] });
    } catch (e) {
      throw new ExecutionError(`${this.where}: cannot write '${this.inProgress}': ${(e as Error).message}`, { cause: e });
    }
    this.columns = this.ctx.columns.map(() => []);
    this.buffered = 0;
  }

  abort(): void {
    this.aborted = true;
  }

  close(): void {
    if (this.aborted) {
      rmSync(this.inProgress, { force: true });
      return;
    }
    this.writeGroup();
    // INSERT OVERWRITE: the table's visible files go once the job has finished (hidden ones are left alone)
    if (this.ctx.overwrite) clearVisibleFiles(this.dir);
    if (this.writer === undefined) return;
    try {
      void this.writer.finish();
      renameSync(this.inProgress, join(this.dir, this.name));
    } catch (e) {
      throw new ExecutionError(`${this.where}: cannot finish '${this.inProgress}': ${(e as Error).message}`, { cause: e });
    }
  }
}
