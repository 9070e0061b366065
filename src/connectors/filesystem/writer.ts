import { setOwn } from "../../types/own.js";
import { closeSync, mkdirSync, openSync, renameSync, writeSync } from "node:fs";
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
 * Writes an append-only filesystem table: the records of one job go to one part file in the table's
 * directory, named as Flink names them (`part-<uuid>-0-0`, with `.csv` / `.json`). While the job runs
 * the file is hidden (`.part-...inprogress`: readers skip names starting with a dot) and it receives
 * whole lines only; when the job ends — at end of input, cancelled or failed — it is renamed into
 * place with every complete record, so a reader never sees half a record. A job that wrote nothing
 * leaves no file.
 */
export class FileSinkWriter implements SinkWriter {
  private fd: number | undefined;
  private buffer = "";
  private count = 0;
  private closed = false;
  private readonly dir: string;
  private readonly name: string;
  private readonly types: readonly DataType[];
  private readonly names: readonly string[];

  constructor(private readonly table: ConnectorTable, private readonly format: FileFormat) {
    this.dir = table.options.get("path")!;
    this.name = `part-${randomUUID()}-0-0.${format.kind === "csv" ? "csv" : "json"}`;
    this.types = table.physical.types;
    this.names = table.physical.names;
  }

  private get inProgress(): string {
    return join(this.dir, `.${this.name}.inprogress`);
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
      this.fd = openSync(this.inProgress, "w");
    }
    writeSync(this.fd, this.buffer);
    this.buffer = "";
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      this.flush();
    } finally {
      if (this.fd !== undefined) {
        closeSync(this.fd);
        this.fd = undefined;
        renameSync(this.inProgress, join(this.dir, this.name));
      }
    }
  }

  written(): number {
    return this.count;
  }
}
