import { pushedFilterPredicate, type ScanPushdown } from "../../plan/pushed-filter.js";
import { getOwn } from "../../types/own.js";
import { createReadStream, type ReadStream, statSync } from "node:fs";
import { basename } from "node:path";
import type { JsonValue, SourceBatch, SourceContext, SourceReader } from "../api/contract.js";
import { ExecutionError } from "../../types/errors.js";
import type { ConnectorTable } from "../connector-spec.js";
import type { DataType } from "../../types/data-type.js";
import { DataTypes } from "../../types/data-types.js";
import { decodeJson, decodeText, FieldError } from "./codec.js";
import { CsvParser } from "./csv-parser.js";
import { parseJsonLine } from "./json-exact.js";
import { fileFormat, type CsvFormat, type FileFormat } from "./format.js";
import { connectorTableOf } from "./table-view.js";
import { describeThrown } from "../../types/describe-thrown.js";
import { DirectoryMonitor, monitorInterval } from "./monitor.js";
import { defaultPartitionName } from "./partitions.js";
import { fileLayout, type FileLayout, NO_PARTITION_VALUES } from "./file-layout.js";

/** Listing moved to file-layout.ts (shared with the Parquet source); re-exported for existing importers. */
export { listFiles } from "./file-layout.js";

/** Records read ahead of the job, per source; the file stream pauses beyond this. */
const READ_AHEAD = 8192;

/** Rows per batch handed to the job (at most; fewer when the pump has no more ready). */
const BATCH_ROWS = 1024;

/** One unit read from a file: a parsed record, or a syntax error the parser reported. */
type Item =
  | { readonly kind: "record"; readonly line: number; readonly fields: readonly (string | null)[] | Record<string, unknown>; readonly text?: string }
  | { readonly kind: "malformed"; readonly line: number; readonly column?: number; readonly message: string }
  | Boundary;

/**
 * A record boundary in a file, queued after the items before it: the byte offset just past the last
 * complete record, the line that follows, and whether that record ended in a `\r` whose `\n` may follow.
 */
interface Boundary {
  readonly kind: "boundary";
  readonly offset: number;
  readonly line: number;
  readonly cr: boolean;
}

/** Where a file's reading starts: its beginning, or a boundary of an earlier run. */
const FILE_START: Boundary = { kind: "boundary", offset: 0, line: 1, cr: false };

/**
 * A checkpointed position: the file (index in the sorted listing), its last record boundary the job
 * had reached, and how many records (and malformed lines) after it the job has already received.
 */
interface FilePosition {
  readonly file: number;
  /** A watching source (`source.monitor-interval`): the files assigned so far, in reading order (`file` indexes them). */
  readonly files?: readonly string[];
  readonly offset: number;
  readonly line: number;
  readonly cr: boolean;
  readonly skip: number;
}

/**
 * Flink's filesystem source metadata (FileSystemTableSource.ReadableFileInfo), in Flink's order: the file's full
 * path, its name, its size in bytes and its last modification time.
 */
export const FILE_METADATA: ReadonlyMap<string, DataType> = new Map<string, DataType>([
  ["file.path", DataTypes.STRING().notNull()],
  ["file.name", DataTypes.STRING().notNull()],
  ["file.size", DataTypes.BIGINT().notNull()],
  ["file.modification-time", DataTypes.TIMESTAMP_LTZ(3).notNull()],
]);

function fileMetadata(file: string, keys: readonly string[]): unknown[] {
  const st = statSync(file);
  return keys.map((k) => {
    switch (k) {
      case "file.path": return file;
      case "file.name": return basename(file);
      case "file.size": return st.size;
      case "file.modification-time": return new Date(Math.floor(st.mtimeMs));
      default: throw new ExecutionError(`filesystem source: unknown metadata key '${k}'`);
    }
  });
}

/**
 * Reads the files of a filesystem table, one after the other, as CSV or JSON Lines, checked against the
 * table's physical columns: a source of the public connector API (index.ts). A pump reads ahead asynchronously
 * (streams, nothing loaded whole); `read` converts synchronously into a batch and returns a Promise only when
 * the pump has nothing ready.
 * A malformed line fails the job with a message naming the file, the line and the column — or, with
 * `csv.ignore-parse-errors` / `json.ignore-parse-errors`, is skipped and counted in the metric
 * `filesystem[<table>].numSkippedRecords` (plus one warning line on stderr when the table has been read).
 */
function project(row: readonly unknown[], columns: readonly number[]): unknown[] {
  const out = new Array<unknown>(columns.length);
  for (let i = 0; i < columns.length; i++) out[i] = row[columns[i]!];
  return out;
}

/** What `fill` stopped at: a full batch, the end of the files, the pump or the monitor having nothing yet. */
type FillResult = "full" | "end" | "data" | "monitor";

export class FileSourceReader implements SourceReader {
  private files: string[];
  /** Set with `source.monitor-interval`: new files of the directory are appended to `files` as they appear (monitor.ts). */
  private readonly monitor: DirectoryMonitor | undefined;
  private fileIndex = -1;
  private file = "";
  private queue: Item[] = [];
  private head = 0;
  private fileRead = true;
  private failure: unknown;
  private closed = false;
  private stream: ReadStream | undefined;
  private dataWaiter: (() => void) | undefined;
  private spaceWaiter: (() => void) | undefined;
  /** The last record boundary the job reached in the current file, and the items consumed since. */
  private at: Boundary = FILE_START;
  private since = 0;
  /** After a restore: items the job had already received, dropped as they are read again. */
  private drop = 0;
  /** The position a seek names: where the next file starts. */
  private resume: FilePosition | undefined;
  private skipped = 0;
  private firstSkip: string | undefined;
  /** Where the skipped count can be read (named in the stderr warning). */
  private metricScope: string | undefined;
  private readonly types: readonly DataType[];
  private readonly names: readonly string[];

  private readonly filter: ((row: readonly unknown[]) => boolean) | undefined;
  /** Where each file column goes in the row, the row's width, and the partition values of the current file. */
  private readonly slots: readonly number[];
  private readonly width: number;
  private readonly partitions: FileLayout;
  private partitionValues: readonly unknown[] = [];
  private readonly projection: readonly number[] | undefined;

  private readonly table: ConnectorTable;
  private readonly format: FileFormat;

  /**
   * @param ctx the scan: options, the declared columns (`physicalColumns`; `columns` may be projected), pushed
   * filters and projection, pruned partitions, metadata keys, metrics, and the position to resume after
   */
  constructor(ctx: SourceContext) {
    const table = connectorTableOf(ctx, ctx.physicalColumns);
    this.table = table;
    this.format = fileFormat(table);
    const pushdown = ctx.partitions !== undefined ? { partitions: ctx.partitions } : undefined;
    const path = table.options.get("path")!;
    const layout = fileLayout({
      path, tableName: table.tableName, columns: table.physical.columns, partitionKeys: table.partitionKeys ?? [], defaultName: defaultPartitionName(table),
      ...(pushdown?.partitions !== undefined ? { partitions: pushdown.partitions } : {}),
    });
    this.files = layout.files;
    this.partitions = layout;
    this.slots = layout.slots;
    this.width = table.physical.size;
    const interval = monitorInterval(table);
    this.monitor = interval === undefined ? undefined : new DirectoryMonitor(path, table.tableName, interval);
    this.monitor?.assigned(this.files);
    // the files hold the columns that are not partition keys (all of them for an unpartitioned table)
    this.types = layout.slots.map((i) => table.physical.columns[i]!.type);
    this.names = layout.slots.map((i) => table.physical.names[i]!);
    const filters = ctx.filters;
    this.filter = filters.length === 0 ? undefined : pushedFilterPredicate(filters, (c) => table.physical.indexOf(c));
    this.projection = ctx.projection;
    this.metadataKeys = ctx.metadata.map((m) => m.name);
    this.metricScope = ctx.metrics.scope;
    ctx.metrics.gauge("numSkippedRecords", () => this.skipped);
    if (ctx.restoreFrom !== undefined && ctx.restoreFrom !== null) this.seek(ctx.restoreFrom);
  }

  /** The metadata columns' keys (FILE_METADATA) and the current file's values of them, appended to every row. */
  private readonly metadataKeys: readonly string[];
  private fileMetadata: unknown[] = [];

  /** Malformed lines skipped so far (with `*.ignore-parse-errors`). */
  skippedLines(): number {
    return this.skipped;
  }

  /**
   * The next rows (up to BATCH_ROWS): at once when the pump has some ready, else a Promise of them; null at the
   * end. A failure after some rows of a batch is thrown by the next call, once the rows before it went out.
   */
  read(): SourceBatch | null | Promise<SourceBatch | null> {
    if (this.closed) return null;
    const rows: unknown[][] = [];
    let r: FillResult;
    try {
      r = this.fill(rows);
    } catch (e) {
      if (rows.length === 0) throw e;
      this.failure = e;
      return { rows };
    }
    if (rows.length > 0) return { rows };
    switch (r) {
      case "end": return this.end();
      case "data": return new Promise<void>((resolve) => { this.dataWaiter = resolve; }).then(() => this.read());
      case "monitor": return this.monitor!.wait().then(() => this.read());
      default: return { rows };
    }
  }

  private fill(rows: unknown[][]): FillResult {
    while (rows.length < BATCH_ROWS) {
      if (this.failure !== undefined) throw this.failure;
      if (this.head < this.queue.length) {
        const item = this.queue[this.head]!;
        this.queue[this.head++] = undefined as never;
        if (this.head > 1024 && this.head * 2 > this.queue.length) { this.queue = this.queue.slice(this.head); this.head = 0; }
        if (this.spaceWaiter && this.queue.length - this.head < READ_AHEAD / 2) { const w = this.spaceWaiter; this.spaceWaiter = undefined; w(); }
        if (item.kind === "boundary") { this.at = item; this.since = this.drop; continue; }
        this.since++;
        if (this.drop > 0) { this.drop--; continue; }
        const row = this.convert(item);
        if (row === undefined) continue;
        // pushed filters and projection (plan/pushdown.ts) apply after the position count, so positions do not depend on them
        if (this.filter !== undefined && !this.filter(row)) continue;
        const record = this.projection === undefined ? row : project(row, this.projection);
        for (let m = 0; m < this.fileMetadata.length; m++) record.push(this.fileMetadata[m]);
        rows.push(record);
        continue;
      }
      if (!this.fileRead) return "data";
      if (this.fileIndex + 1 >= this.files.length) {
        if (this.monitor === undefined) return "end";
        // new files of a partitioned table count only in a partition the scan reads (partition values from the path)
        for (const f of this.monitor.poll()) if (this.partitions.valuesOf(f) !== undefined) this.files.push(f);
        if (this.fileIndex + 1 >= this.files.length) return "monitor";
      }
      this.startFile(++this.fileIndex);
    }
    return "full";
  }

  private end(): null {
    this.closed = true;
    if (this.skipped > 0) {
      const metric = this.metricScope === undefined ? "" : ` (metric '${this.metricScope}.numSkippedRecords')`;
      process.stderr.write(`tablestream: filesystem table '${this.table.tableName}' skipped ${this.skipped} malformed line${this.skipped === 1 ? "" : "s"} (${this.format.kind}.ignore-parse-errors)${metric}; the first: ${this.firstSkip}\n`);
    }
    return null;
  }

  private where(line: number, column?: number): string {
    const col = column === undefined ? "" : `, column ${column} ('${this.names[column - 1]}')`;
    return `file '${this.file}', line ${line}${col}`;
  }

  /** An item as a row, or undefined when it is skipped; throws when malformed and not ignored. */
  private convert(item: Exclude<Item, Boundary>): unknown[] | undefined {
    if (item.kind === "malformed") {
      const named = this.format.kind === "csv" && item.column !== undefined && item.column <= this.names.length;
      return this.malformed(`${named ? this.where(item.line, item.column) : `${this.where(item.line)}${item.column !== undefined ? `, column ${item.column}` : ""}`}: ${item.message}`);
    }
    const types = this.types;
    const slots = this.slots;
    const row = new Array<unknown>(this.width);
    let i = 0;
    try {
      if (Array.isArray(item.fields)) {
        const fields = item.fields as readonly (string | null)[];
        if (fields.length !== types.length) {
          return this.malformed(`${this.where(item.line)}: expected ${types.length} field(s) [${this.names.join(", ")}], got ${fields.length}`);
        }
        const f = this.format as CsvFormat;
        for (; i < types.length; i++) {
          const s = fields[i]!;
          const v = s === null ? null : decodeText(types[i]!, s, f);
          if (v === null && !types[i]!.isNullable) throw new FieldError(`NULL for the NOT NULL column of type ${types[i]}`);
          row[slots[i]!] = v;
        }
      } else {
        const obj = item.fields as Record<string, unknown>;
        const failOnMissing = this.format.kind === "json" && this.format.failOnMissingField;
        for (; i < types.length; i++) {
          const v = getOwn(obj, this.names[i]!);
          if (v === undefined && failOnMissing) throw new FieldError("the field is missing (json.fail-on-missing-field)");
          const value = decodeJson(types[i]!, v === undefined ? null : v, failOnMissing);
          if (value === null && !types[i]!.isNullable) throw new FieldError(`NULL for the NOT NULL column of type ${types[i]}`);
          row[slots[i]!] = value;
        }
      }
    } catch (e) {
      if (!(e instanceof FieldError)) throw e;
      // a JSON line read through doubles: read it again keeping every number's text, so the error quotes it as written
      const exact = item.text === undefined || Array.isArray(item.fields) ? undefined : this.exactError(item.text, i);
      return this.malformed(`${this.where(item.line, i + 1)}: ${(exact ?? e).message}`);
    }
    const keys = this.partitions.keyIndex;
    for (let k = 0; k < keys.length; k++) row[keys[k]!] = this.partitionValues[k];
    return row;
  }

  /** The FieldError of column i when a JSON line is decoded with all numbers as written, if any. */
  private exactError(text: string, i: number): FieldError | undefined {
    try {
      const obj = parseJsonLine(text, true) as Record<string, unknown>;
      const v = getOwn(obj, this.names[i]!);
      decodeJson(this.types[i]!, v === undefined ? null : v);
    } catch (e) {
      if (e instanceof FieldError) return e;
    }
    return undefined;
  }

  private malformed(message: string): undefined {
    if (!this.format.ignoreParseErrors) {
      throw new ExecutionError(`filesystem table '${this.table.tableName}': ${message}${this.format.kind === "csv" ? " (set 'csv.ignore-parse-errors' to skip such lines)" : " (set 'json.ignore-parse-errors' to skip such lines)"}`);
    }
    this.skipped++;
    this.firstSkip ??= message;
    return undefined;
  }

  /** Starts the pump of file `i`. */
  private startFile(i: number): void {
    this.file = this.files[i]!;
    if (this.partitions.keyIndex.length > 0) this.partitionValues = this.partitions.valuesOf(this.file) ?? NO_PARTITION_VALUES;
    if (this.metadataKeys.length > 0) this.fileMetadata = fileMetadata(this.file, this.metadataKeys);
    this.fileRead = false;
    const r = this.resume;
    this.resume = undefined;
    this.at = r === undefined ? FILE_START : { kind: "boundary", offset: r.offset, line: r.line, cr: r.cr };
    this.since = r?.skip ?? 0;
    this.drop = r?.skip ?? 0;
    // a restore seeks to the byte offset of the boundary instead of reading the file again
    const stream = createReadStream(this.file, { encoding: "utf8", start: this.at.offset });
    this.stream = stream;
    const items = this.format.kind === "csv" ? csvItems(stream, this.format, this.types.length, this.at) : jsonItems(stream, this.at);
    void this.pump(items);
  }

  private async pump(batches: AsyncIterable<Item[]>): Promise<void> {
    try {
      for await (const batch of batches) {
        if (this.closed) return;
        for (const item of batch) this.queue.push(item);
        this.wakeReader();
        if (this.queue.length - this.head >= READ_AHEAD) await new Promise<void>((resolve) => { this.spaceWaiter = resolve; });
      }
    } catch (e) {
      if (!this.closed) this.failure = e instanceof ExecutionError ? e : new ExecutionError(`filesystem table '${this.table.tableName}': cannot read file '${this.file}': ${describeThrown(e)}`, { cause: e });
    } finally {
      this.fileRead = true;
      this.wakeReader();
    }
  }

  private wakeReader(): void {
    const w = this.dataWaiter;
    if (w) { this.dataWaiter = undefined; w(); }
  }

  /** The file being read, its last record boundary the job reached (byte offset) and the records since (checkpoints). */
  position(): JsonValue {
    const p: FilePosition = {
      file: this.fileIndex, offset: this.at.offset, line: this.at.line, cr: this.at.cr, skip: this.since,
      ...(this.monitor !== undefined ? { files: this.files.slice(0, this.fileIndex + 1) } : {}),
    };
    return p as unknown as JsonValue;
  }

  /**
   * Continues at a position (`SourceContext.restoreFrom`, or the bare position a checkpoint of the version before
   * the public API stored: the same form): the file is opened at the boundary's byte offset and the records after
   * it already received are dropped.
   */
  private seek(position: unknown): void {
    const p = position as Partial<FilePosition> & { records?: number };
    if (typeof p?.file !== "number") throw new ExecutionError(`filesystem table '${this.table.tableName}': cannot restore from the position ${JSON.stringify(position)}`);
    // a watching source continues with the files it had assigned (the done ones are skipped, the current one is
    // read from its offset); the directory's other files, present or new, come after them
    if (this.monitor !== undefined && Array.isArray(p.files)) {
      const assigned = p.files.filter((f): f is string => typeof f === "string");
      const known = new Set(assigned);
      this.files = [...assigned, ...this.files.filter((f) => !known.has(f))];
      this.monitor.assigned(this.files);
    }
    // a position taken before the first file was opened names file -1: start from the first
    this.fileIndex = Math.max(p.file, 0) - 1;
    if (p.file < 0) return;
    // a position of an earlier version counted records from the file's start
    this.resume = typeof p.offset === "number"
      ? { file: p.file, offset: p.offset, line: p.line ?? 1, cr: p.cr === true, skip: p.skip ?? 0 }
      : { file: p.file, offset: 0, line: 1, cr: false, skip: p.records ?? 0 };
  }

  close(): void {
    this.closed = true;
    this.monitor?.close();
    this.stream?.destroy();
    this.wakeReader();
    const w = this.spaceWaiter;
    if (w) { this.spaceWaiter = undefined; w(); }
  }
}

/** CSV records of a stream in batches (one per chunk read), with the line each starts on. */
async function* csvItems(stream: ReadStream, f: CsvFormat, width: number, from: Boundary): AsyncGenerator<Item[]> {
  let batch: Item[] = [];
  /** Bytes of the file before the current chunk. */
  let bytes = from.offset;
  const parser = new CsvParser(
    { delimiter: f.delimiter, quote: f.quote, escape: f.escape, comments: f.comments, nullLiteral: f.nullLiteral },
    (fields, line) => {
      // an empty line is a record of one NULL only where the table has one column
      if (width > 1 && fields.length === 1 && fields[0] === null) return;
      batch.push({ kind: "record", line, fields });
    },
    (line, column, message) => { batch.push({ kind: "malformed", line, column, message: `malformed CSV: ${message}` }); },
    from.line, from.cr,
  );
  for await (const chunk of stream) {
    const text = chunk as string;
    parser.push(text);
    const end = parser.recordEnd;
    if (end >= 0) {
      // one byte count per chunk, not per record: a boundary per chunk is where a restore can seek to
      const offset = bytes + (end === text.length ? Buffer.byteLength(text) : Buffer.byteLength(text.slice(0, end)));
      batch.push({ kind: "boundary", offset, line: parser.currentLine, cr: end === text.length && parser.endsInCR });
    }
    bytes += Buffer.byteLength(text);
    if (batch.length) { yield batch; batch = []; }
  }
  parser.end();
  batch.push({ kind: "boundary", offset: bytes, line: parser.currentLine, cr: false });
  yield batch;
}

/** JSON Lines in batches: one object per non-blank line. */
async function* jsonItems(stream: ReadStream, from: Boundary): AsyncGenerator<Item[]> {
  let rest = "";
  let line = from.line - 1;
  /** Bytes of the file up to the last complete line. */
  let bytes = from.offset;
  const parseLine = (text: string, out: Item[]) => {
    line++;
    const t = text.endsWith("\r") ? text.slice(0, -1) : text;
    if (t.trim() === "") return;
    let v: unknown;
    try {
      v = parseJsonLine(t);
    } catch (e) {
      const msg = (e as Error).message;
      const pos = /position (\d+)/.exec(msg);
      out.push({ kind: "malformed", line, ...(pos ? { column: Number(pos[1]) + 1 } : {}), message: `malformed JSON: ${msg}` });
      return;
    }
    if (v === null || typeof v !== "object" || Array.isArray(v)) {
      out.push({ kind: "malformed", line, message: `expected a JSON object, got ${t.length > 40 ? t.slice(0, 40) + "..." : t}` });
      return;
    }
    out.push({ kind: "record", line, fields: v as Record<string, unknown>, text: t });
  };
  for await (const chunk of stream) {
    const text = rest + (chunk as string);
    const out: Item[] = [];
    let start = 0;
    for (let nl = text.indexOf("\n"); nl >= 0; nl = text.indexOf("\n", start)) {
      parseLine(text.slice(start, nl), out);
      start = nl + 1;
    }
    rest = text.slice(start);
    if (start > 0) {
      bytes += Buffer.byteLength(start === text.length ? text : text.slice(0, start));
      out.push({ kind: "boundary", offset: bytes, line: line + 1, cr: false });
    }
    if (out.length) yield out;
  }
  if (rest !== "") {
    const out: Item[] = [];
    parseLine(rest, out);
    out.push({ kind: "boundary", offset: bytes + Buffer.byteLength(rest), line: line + 1, cr: false });
    yield out;
  }
}
