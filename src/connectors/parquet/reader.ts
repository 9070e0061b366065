import { ExecutionError } from "../../types/errors.js";
import type { JsonValue, SourceBatch, SourceContext, SourceReader } from "../api/contract.js";
import { listFiles } from "../filesystem/reader.js";
import { type ChunkStats, groupMayMatch, rowPredicate } from "./filters.js";
import { loadHyparquet } from "./load.js";
import type { PARQUET_OPTIONS } from "./options.js";
import { type ElementTree, leafCount, nestedReadConverter, schemaTree, shapeMismatch } from "./nested.js";
import { PARQUET_PARSERS, type ParquetElement } from "./types.js";

type Hyparquet = Awaited<ReturnType<typeof loadHyparquet>>;
type Metadata = Awaited<ReturnType<Hyparquet["parquetMetadataAsync"]>>;
type AsyncBuffer = Awaited<ReturnType<Hyparquet["asyncBufferFromFile"]>>;

interface OpenFile {
  readonly path: string;
  readonly buffer: AsyncBuffer;
  /** The file's metadata with DECIMAL / TIME logical types stripped (read raw, converted exactly here). */
  readonly metadata: Metadata;
  /** Per read column: its schema element in the file, and the column chunk index in a row group. */
  readonly elements: readonly ParquetElement[];
  readonly chunkIndex: readonly number[];
  readonly converters: readonly (((v: unknown) => unknown) | undefined)[];
  /** First row of each row group. */
  readonly groupStarts: readonly number[];
}

/**
 * Reads the Parquet files of a table one row group at a time, only as the job pulls (hyparquet, columns
 * projected to those the plan reads). Row groups whose statistics rule out a pushed filter are skipped;
 * the filters are applied to every row read. Columns are found by name; a column missing from a file,
 * or a value that does not fit its type, fails the job naming the table, the file and the column.
 */
export class ParquetSourceReader implements SourceReader {
  private readonly files: readonly string[];
  private fileIndex = 0;
  private group = 0;
  private current: OpenFile | undefined;
  private readonly predicates: ((row: readonly unknown[]) => boolean)[];
  private readonly where: string;
  /** Row groups skipped by statistics (tests and explain read it). */
  skippedGroups = 0;

  private constructor(private readonly ctx: SourceContext<typeof PARQUET_OPTIONS>, private readonly hp: Hyparquet) {
    this.where = `connector 'parquet' table '${ctx.tableName}'`;
    this.files = listFiles(ctx.options.path, ctx.tableName, "parquet").filter((f) => !f.endsWith(".crc"));
    this.predicates = ctx.filters.map((f) => rowPredicate(f, ctx.columns.findIndex((c) => c.name === f.column)));
    const from = ctx.restoreFrom as { file?: number; group?: number } | undefined;
    if (from && typeof from.file === "number" && typeof from.group === "number") { this.fileIndex = from.file; this.group = from.group; }
  }

  static async open(ctx: SourceContext<typeof PARQUET_OPTIONS>): Promise<ParquetSourceReader> {
    return new ParquetSourceReader(ctx, await loadHyparquet(`connector 'parquet' table '${ctx.tableName}'`));
  }

  async read(): Promise<SourceBatch | null> {
    for (;;) {
      if (this.fileIndex >= this.files.length) return null;
      const f = (this.current ??= await this.openFile(this.files[this.fileIndex]!));
      const groups = f.metadata.row_groups;
      if (this.group >= groups.length) {
        this.current = undefined;
        this.fileIndex++;
        this.group = 0;
        continue;
      }
      const g = this.group++;
      const rg = groups[g]!;
      const rows = Number(rg.num_rows);
      if (!this.groupMayMatch(f, rg.columns.map((c) => c.meta_data?.statistics as ChunkStats | undefined), rows)) {
        this.skippedGroups++;
        continue;
      }
      const batch = await this.readGroup(f, g, rows);
      if (batch.length > 0) return { rows: batch };
    }
  }

  private groupMayMatch(f: OpenFile, stats: readonly (ChunkStats | undefined)[], rows: number): boolean {
    const cols = this.ctx.columns;
    for (const flt of this.ctx.filters) {
      const i = cols.findIndex((c) => c.name === flt.column);
      if (!groupMayMatch(flt, cols[i]!.type, stats[f.chunkIndex[i]!], rows)) return false;
    }
    return true;
  }

  private async readGroup(f: OpenFile, g: number, count: number): Promise<unknown[][]> {
    let rows: unknown[][] = [];
    try {
      await this.hp.parquetRead({
        file: f.buffer, metadata: f.metadata, columns: this.ctx.columns.map((c) => c.name), rowStart: f.groupStarts[g]!, rowEnd: f.groupStarts[g]! + count,
        rowFormat: "array", parsers: PARQUET_PARSERS, onComplete: (r: unknown[][]) => { rows = r; },
      });
    } catch (e) {
      throw new ExecutionError(`${this.where}: cannot read row group ${g} of '${f.path}': ${(e as Error).message}`, { cause: e });
    }
    const conv = f.converters;
    const cols = this.ctx.columns;
    for (let r = 0; r < rows.length; r++) {
      const row = rows[r]!;
      for (let c = 0; c < conv.length; c++) {
        const fn = conv[c];
        if (row[c] === undefined) row[c] = null;
        if (fn === undefined) continue;
        try {
          row[c] = fn(row[c]);
        } catch (e) {
          throw new ExecutionError(`${this.where}: '${f.path}' row ${f.groupStarts[g]! + r + 1}, column '${cols[c]!.name}' (${cols[c]!.type}): ${(e as Error).message}`, { cause: e });
        }
      }
    }
    const preds = this.predicates;
    return preds.length === 0 ? rows : rows.filter((row) => preds.every((p) => p(row)));
  }

  private async openFile(path: string): Promise<OpenFile> {
    let buffer: AsyncBuffer;
    let metadata: Metadata;
    try {
      buffer = await this.hp.asyncBufferFromFile(path);
      metadata = await this.hp.parquetMetadataAsync(buffer);
    } catch (e) {
      throw new ExecutionError(`${this.where}: '${path}' is not a readable Parquet file: ${(e as Error).message}`, { cause: e });
    }
    const schema = metadata.schema as unknown as ParquetElement[];
    // top-level columns: the root's children, each with its first column chunk (nested ones span several)
    const top = schemaTree(schema).children;
    const firstChunk: number[] = [];
    for (let i = 0, chunk = 0; i < top.length; i++) { firstChunk.push(chunk); chunk += leafCount(top[i]!); }
    const nodes: ElementTree[] = this.ctx.columns.map((c) => {
      const n = top.find((x) => x.element.name === c.name);
      if (n === undefined) {
        throw new ExecutionError(`${this.where}: column '${c.name}' is not in '${path}', whose columns are [${top.map((x) => x.element.name).join(", ")}]`);
      }
      const why = shapeMismatch(c.type, n);
      if (why !== undefined) throw new ExecutionError(`${this.where}: column '${c.name}' (${c.type}) of '${path}' ${why}`);
      return n;
    });
    const elements = nodes.map((n) => n.element);
    const chunkIndex = nodes.map((n) => firstChunk[top.indexOf(n)]!);
    // DECIMAL and TIME columns come back raw (hyparquet reads decimals as doubles), converted exactly here; MAP
    // groups come back as their key_value entries (hyparquet would make the keys strings of a plain object)
    const stripped = {
      ...metadata,
      schema: schema.map((e) => (e.converted_type === "DECIMAL" || e.logical_type?.type === "DECIMAL" || e.converted_type?.startsWith("TIME_") || e.logical_type?.type === "TIME"
        || e.converted_type === "MAP" || e.converted_type === "MAP_KEY_VALUE" || e.logical_type?.type === "MAP"
        ? { ...e, converted_type: undefined, logical_type: undefined } : e)),
    } as unknown as Metadata;
    const groupStarts: number[] = [];
    let start = 0;
    for (const rg of metadata.row_groups) { groupStarts.push(start); start += Number(rg.num_rows); }
    return { path, buffer, metadata: stripped, elements, chunkIndex, converters: this.ctx.columns.map((c, i) => nestedReadConverter(c.type, nodes[i]!)), groupStarts };
  }

  position(): JsonValue {
    return { file: this.fileIndex, group: this.group };
  }

  close(): void {
    this.current = undefined;
  }
}
