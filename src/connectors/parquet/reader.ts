import { ExecutionError } from "../../types/errors.js";
import type { JsonValue, PushedFilter, SourceBatch, SourceContext, SourceReader } from "../api/contract.js";
import { closeSync, openSync, readSync, statSync } from "node:fs";
import { type FileLayout, fileLayout } from "../filesystem/file-layout.js";
import { DirectoryMonitor } from "../filesystem/monitor.js";
import { pushedFilterPredicate } from "../../plan/pushed-filter.js";
import { type ChunkStats, groupMayMatch, rowPredicate } from "./filters.js";
import { loadHyparquet } from "./load.js";
import type { PARQUET_OPTIONS } from "./options.js";
import { type ElementTree, leafCount, nestedReadConverter, schemaTree, shapeMismatch } from "./nested.js";
import { PARQUET_PARSERS, type ParquetElement } from "./types.js";

/** A pushed filter on a file column, with that column's position among the columns read from the files. */
interface ConnectorColumnFilter {
  readonly filter: PushedFilter;
  readonly at: number;
}

type Hyparquet = Awaited<ReturnType<typeof loadHyparquet>>;
type Metadata = Awaited<ReturnType<Hyparquet["parquetMetadataAsync"]>>;
type AsyncBuffer = Awaited<ReturnType<Hyparquet["asyncBufferFromFile"]>>;

interface OpenFile {
  readonly path: string;
  readonly buffer: AsyncBuffer;
  /** The file's metadata with DECIMAL / TIME logical types stripped (read raw, converted exactly here). */
  readonly metadata: Metadata;
  /** Per column read from the file (the read columns but partition keys): its schema element, and its column chunk index in a row group. */
  readonly elements: readonly ParquetElement[];
  readonly chunkIndex: readonly number[];
  readonly converters: readonly (((v: unknown) => unknown) | undefined)[];
  /** First row of each row group. */
  readonly groupStarts: readonly number[];
  /** The file's partition values, by position in the partition keys (empty for an unpartitioned table). */
  readonly partition: readonly unknown[];
}

/** A checkpointed position: the file (index in `files`), the next row group; a watching source adds the files assigned so far. */
interface ParquetPosition {
  readonly file: number;
  readonly group: number;
  readonly files?: readonly string[];
}

/** Whether a file ends with Parquet's footer magic (`PAR1`): a file still being written is not complete yet. */
function complete(path: string): boolean {
  let fd: number | undefined;
  try {
    const size = statSync(path).size;
    if (size < 12) return false;
    fd = openSync(path, "r");
    const tail = Buffer.alloc(4);
    readSync(fd, tail, 0, 4, size - 4);
    return tail.toString("latin1") === "PAR1";
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

const isData = (f: string): boolean => !f.endsWith(".crc");

/**
 * Reads the Parquet files of a table one row group at a time, only as the job pulls (hyparquet, columns
 * projected to those the plan reads). Row groups whose statistics rule out a pushed filter are skipped;
 * the filters are applied to every row read. Columns are found by name; a column missing from a file,
 * or a value that does not fit its type, fails the job naming the table, the file and the column.
 *
 * A `PARTITIONED BY` table's files hold the other columns: the partition values come from the file's `k=v/`
 * directories (file-layout.ts, shared with the filesystem source), and only the partitions left by pruning are
 * listed. With `source.monitor-interval` the path is listed again every interval (the filesystem source's
 * DirectoryMonitor) and each new, complete file (footer written) is read once, whole; the files assigned so far
 * are part of the position, so a restored job reads only files it had not reached.
 */
export class ParquetSourceReader implements SourceReader {
  private readonly files: string[];
  private fileIndex = 0;
  private group = 0;
  private current: OpenFile | undefined;
  /** Pushed filters on file columns (those on partition keys were applied by pruning the partitions). */
  private readonly fileFilters: ConnectorColumnFilter[];
  private readonly predicates: ((row: readonly unknown[]) => boolean)[];
  private readonly where: string;
  private readonly layout: FileLayout;
  /** The columns read from the files (names), and where each goes in a row; the row's width. */
  private readonly fileColumns: readonly SourceContext["columns"][number][];
  private readonly slots: readonly number[];
  private readonly width: number;
  private readonly monitor: DirectoryMonitor | undefined;
  /** Whether the scan reads a listed file (a data file in a partition it reads). */
  private readonly reads: (file: string) => boolean;
  /** Files the monitor found before their footer was written: looked at again at each listing. */
  private incomplete: string[] = [];
  /** Row groups skipped by statistics (tests and explain read it). */
  skippedGroups = 0;

  private constructor(private readonly ctx: SourceContext<typeof PARQUET_OPTIONS>, private readonly hp: Hyparquet) {
    this.where = `connector 'parquet' table '${ctx.tableName}'`;
    const keys = ctx.partitionKeys;
    const interval = ctx.options["source.monitor-interval"];
    // a watching source also reads partitions created after planning: it lists every `k=v/` directory and keeps the
    // files whose partition values pass the filters on partition keys (those the planner pruned with)
    const watching = interval !== undefined && keys.length > 0;
    this.layout = fileLayout({
      path: ctx.options.path, tableName: ctx.tableName, connector: "parquet", columns: ctx.columns, partitionKeys: keys,
      defaultName: ctx.options["partition.default-name"], ...(ctx.partitions !== undefined && !watching ? { partitions: ctx.partitions } : {}),
    });
    const keyFilters = ctx.filters.filter((f) => (f.op === "OR" ? (f.any ?? []) : [f]).every((g) => keys.includes(g.column)));
    const inPartition = watching && keyFilters.length > 0 ? pushedFilterPredicate(keyFilters, (c) => keys.indexOf(c)) : undefined;
    this.reads = (f) => {
      if (!isData(f)) return false;
      const values = this.layout.valuesOf(f);
      return values !== undefined && (inPartition === undefined || inPartition(values));
    };
    this.slots = this.layout.slots;
    this.fileColumns = this.slots.map((i) => ctx.columns[i]!);
    this.width = ctx.columns.length;
    this.fileFilters = ctx.filters.filter((f) => f.op !== "OR" && !keys.includes(f.column)).map((f) => ({ filter: f, at: this.fileColumns.findIndex((c) => c.name === f.column) }));
    this.predicates = this.fileFilters.map((f) => rowPredicate(f.filter, ctx.columns.findIndex((c) => c.name === f.filter.column)));
    const from = ctx.restoreFrom as Partial<ParquetPosition> | null | undefined;
    this.monitor = interval === undefined ? undefined : new DirectoryMonitor(ctx.options.path, ctx.tableName, interval, ctx.clock);
    const restored = from && typeof from.file === "number" && typeof from.group === "number";
    if (restored && this.monitor !== undefined && Array.isArray(from.files)) {
      // a watching source reads the files it had assigned, in that order, then the ones that appeared since
      this.files = [...from.files];
      this.monitor.assigned(this.files);
    } else {
      this.files = this.layout.files.filter(this.reads);
      this.monitor?.assigned(this.layout.files);
    }
    if (restored) { this.fileIndex = from.file!; this.group = from.group!; }
  }

  static async open(ctx: SourceContext<typeof PARQUET_OPTIONS>): Promise<ParquetSourceReader> {
    return new ParquetSourceReader(ctx, await loadHyparquet(`connector 'parquet' table '${ctx.tableName}'`));
  }

  async read(): Promise<SourceBatch | null> {
    for (;;) {
      if (this.fileIndex >= this.files.length) {
        if (this.monitor === undefined) return null;
        if (!this.discover()) {
          await this.monitor.wait();
          return { rows: [] };
        }
      }
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

  /** New files of a watching source (in a partition the scan reads, footer written); whether any was added. */
  private discover(): boolean {
    const found = [...this.incomplete, ...this.monitor!.poll().filter(this.reads)];
    this.incomplete = [];
    let added = false;
    for (const f of found) {
      if (complete(f)) { this.files.push(f); added = true; } else this.incomplete.push(f);
    }
    return added;
  }

  private groupMayMatch(f: OpenFile, stats: readonly (ChunkStats | undefined)[], rows: number): boolean {
    const cols = this.fileColumns;
    for (const { filter, at } of this.fileFilters) {
      if (!groupMayMatch(filter, cols[at]!.type, stats[f.chunkIndex[at]!], rows)) return false;
    }
    return true;
  }

  private async readGroup(f: OpenFile, g: number, count: number): Promise<unknown[][]> {
    let rows: unknown[][] = [];
    const cols = this.fileColumns;
    if (cols.length === 0) {
      // only partition columns are read: the row group's row count is all the file tells
      rows = Array.from({ length: count }, () => []);
    } else {
      try {
        await this.hp.parquetRead({
          file: f.buffer, metadata: f.metadata, columns: cols.map((c) => c.name), rowStart: f.groupStarts[g]!, rowEnd: f.groupStarts[g]! + count,
          rowFormat: "array", parsers: PARQUET_PARSERS, onComplete: (r: unknown[][]) => { rows = r; },
        });
      } catch (e) {
        throw new ExecutionError(`${this.where}: cannot read row group ${g} of '${f.path}': ${(e as Error).message}`, { cause: e });
      }
    }
    const conv = f.converters;
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
    if (this.layout.keyIndex.length > 0) rows = this.withPartition(rows, f.partition);
    const preds = this.predicates;
    return preds.length === 0 ? rows : rows.filter((row) => preds.every((p) => p(row)));
  }

  /** The rows of a partitioned table's file: its columns at their places, the partition values at theirs. */
  private withPartition(rows: readonly unknown[][], partition: readonly unknown[]): unknown[][] {
    const slots = this.slots;
    const keyIndex = this.layout.keyIndex;
    const out = new Array<unknown[]>(rows.length);
    for (let r = 0; r < rows.length; r++) {
      const from = rows[r]!;
      const row = new Array<unknown>(this.width);
      for (let i = 0; i < slots.length; i++) row[slots[i]!] = from[i];
      for (let k = 0; k < keyIndex.length; k++) if (keyIndex[k]! >= 0) row[keyIndex[k]!] = partition[k];
      out[r] = row;
    }
    return out;
  }

  private async openFile(path: string): Promise<OpenFile> {
    const partition = this.layout.valuesOf(path);
    if (partition === undefined) throw new ExecutionError(`${this.where}: '${path}' is not in a partition directory of the table (${this.ctx.partitionKeys.map((k) => `${k}=...`).join("/")})`);
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
    const nodes: ElementTree[] = this.fileColumns.map((c) => {
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
    return { path, buffer, metadata: stripped, elements, chunkIndex, converters: this.fileColumns.map((c, i) => nestedReadConverter(c.type, nodes[i]!)), groupStarts, partition };
  }

  position(): JsonValue {
    return this.monitor === undefined ? { file: this.fileIndex, group: this.group } : { file: this.fileIndex, group: this.group, files: [...this.files] };
  }

  close(): void {
    this.current = undefined;
    this.monitor?.close();
  }
}
