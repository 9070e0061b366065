import { setOwn } from "../../types/own.js";
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, statSync, writeSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import type { SinkWriter } from "../../exec/source.js";
import { ExecutionError } from "../../types/errors.js";
import type { ConnectorTable } from "../connector-spec.js";
import type { DataType } from "../../types/data-type.js";
import { encodeCsv, encodeJson, FieldError } from "./codec.js";
import type { FileFormat } from "./format.js";

/** Bytes (as UTF-16 units) buffered before a write to the in-progress file. */
const BUFFER = 1 << 16;

/**
 * Writes an append-only filesystem table: the records of one job go to part files in the table's
 * directory, named as Flink names them (`part-<uuid>-0-<n>`, with `.csv` / `.json`). While a part file is
 * written it is hidden (`.part-...inprogress`: readers skip names starting with a dot) and it receives
 * whole lines only; when the job ends — at end of input, cancelled or failed — it is renamed into place
 * with every complete record, so a reader never sees half a record. A job that wrote nothing leaves no file.
 *
 * With checkpoints (Flink's exactly-once FileSink, two-phase commit): at each checkpoint the part file in
 * progress is closed and becomes pending (`prepareCommit`; it stays hidden and is named in the checkpoint);
 * once the checkpoint is on disk it is committed (renamed into place, `commit`); the next records start the
 * next part file. A job restored from that checkpoint commits its pending files if the crash came before
 * the rename (`restore`), and a cancelled job deletes its in-progress file (`abort`): its records are written
 * again by the restarted job. A job killed outright leaves its in-progress file hidden, never visible.
 *
 * INSERT OVERWRITE (batch): the hidden part files are the staging area. Nothing is published before the job
 * ends — a checkpoint's commit keeps its files pending — and only a job that finishes swaps them in (`close`:
 * the table's old files are removed, then the new ones renamed into place). A job that fails or is cancelled is
 * aborted (SinkOperator.jobUnfinished): its staged files are deleted and the old files stay as they were.
 */
export class FileSinkWriter implements SinkWriter {
  private fd: number | undefined;
  private buffer = "";
  private count = 0;
  private closed = false;
  private readonly dir: string;
  private readonly prefix: string;
  private readonly ext: string;
  /** The part file being written (its final name) and the next part number. */
  private name: string;
  private part = 0;
  /** Part files closed by a checkpoint and not yet committed (final names). */
  private pending: string[] = [];
  private readonly types: readonly DataType[];
  private readonly names: readonly string[];

  constructor(private readonly table: ConnectorTable, private readonly format: FileFormat) {
    this.dir = table.options.get("path")!;
    this.prefix = `part-${randomUUID()}-0`;
    this.ext = format.kind === "csv" ? "csv" : "json";
    this.name = this.partName();
    this.types = table.physical.types;
    this.names = table.physical.names;
  }

  private partName(): string {
    return `${this.prefix}-${this.part}.${this.ext}`;
  }

  private inProgress(name: string = this.name): string {
    return join(this.dir, `.${name}.inprogress`);
  }

  open(): void {}

  write(_kind: number, row: readonly unknown[]): void {
    let line: string;
    try {
      line = this.format.kind === "csv" ? encodeCsv(this.types, row, this.format) : this.jsonLine(row);
    } catch (e) {
      if (e instanceof FieldError) throw new ExecutionError(`filesystem table '${this.table.tableName}': cannot write record ${this.count + 1}: ${e.message}`);
      throw e;
    }
    this.buffer += line + "\n";
    this.count++;
    if (this.buffer.length >= BUFFER) this.flush();
  }

  private jsonLine(row: readonly unknown[]): string {
    const o: Record<string, unknown> = {};
    const iso = this.format.kind === "json" && this.format.isoTimestamps;
    for (let i = 0; i < this.types.length; i++) setOwn(o, this.names[i]!, encodeJson(this.types[i]!, row[i], iso));
    return JSON.stringify(o);
  }

  private flush(): void {
    if (this.buffer.length === 0) return;
    if (this.fd === undefined) {
      mkdirSync(this.dir, { recursive: true });
      this.fd = openSync(this.inProgress(), "w");
    }
    writeSync(this.fd, this.buffer);
    this.buffer = "";
  }

  /** Closes the part file in progress (flushed to disk) and moves on to the next part number. */
  private sealPart(): string | undefined {
    this.flush();
    if (this.fd === undefined) return undefined;
    fsyncSync(this.fd);
    closeSync(this.fd);
    this.fd = undefined;
    const sealed = this.name;
    this.part++;
    this.name = this.partName();
    return sealed;
  }

  prepareCommit(): unknown {
    const sealed = this.sealPart();
    if (sealed !== undefined) this.pending.push(sealed);
    return { dir: this.dir, pending: [...this.pending] };
  }

  commit(committable: unknown): void {
    // INSERT OVERWRITE: staged until the job finishes (close swaps them in)
    if (this.table.overwrite) return;
    const files = (committable as { pending: readonly string[] }).pending;
    for (const f of files) this.publish(f);
    this.pending = this.pending.filter((f) => !files.includes(f));
  }

  /** Renames a pending file into place; a file already in place (committed before a crash) is left alone. */
  private publish(name: string): void {
    const from = this.inProgress(name);
    if (existsSync(from)) renameSync(from, join(this.dir, name));
  }

  restore(committable: unknown): void {
    const files = (committable as { pending: readonly string[] }).pending;
    // INSERT OVERWRITE: staged again (a restore may hand over several checkpoints' files), swapped in by close
    if (this.table.overwrite) { for (const f of files) if (!this.pending.includes(f)) this.pending.push(f); }
    else for (const f of files) this.publish(f);
  }

  abort(): void {
    if (this.closed) return;
    this.closed = true;
    this.buffer = "";
    if (this.fd !== undefined) {
      closeSync(this.fd);
      this.fd = undefined;
      rmSync(this.inProgress(), { force: true });
    }
    // INSERT OVERWRITE: no checkpoint's files become visible once the job has not finished
    if (this.table.overwrite) for (const f of this.pending) rmSync(this.inProgress(f), { force: true });
    this.pending = [];
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    let sealed: string | undefined;
    try {
      sealed = this.sealPart();
    } finally {
      // INSERT OVERWRITE: the committed files replace what the directory held (hidden files are left alone)
      if (this.table.overwrite) this.clearDirectory();
      if (this.fd !== undefined) {
        closeSync(this.fd);
        this.fd = undefined;
        sealed = this.name;
      }
      for (const f of sealed === undefined ? this.pending : [...this.pending, sealed]) this.publish(f);
      this.pending = [];
    }
  }

  private clearDirectory(): void {
    if (!existsSync(this.dir) || !statSync(this.dir).isDirectory()) return;
    for (const f of readdirSync(this.dir)) {
      if (!f.startsWith(".") && !f.startsWith("_")) rmSync(join(this.dir, f), { recursive: true, force: true });
    }
  }

  written(): number {
    return this.count;
  }
}
