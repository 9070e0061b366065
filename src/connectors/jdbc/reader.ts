import { ExecutionError } from "../../types/errors.js";
import type { JsonValue, SourceBatch, SourceContext, SourceReader } from "../api/contract.js";
import type { JdbcConnection, RowCursor } from "./driver.js";
import { codecOf, openConnection, whereOf } from "./open.js";
import { type JdbcTable, partitionOptions } from "./options.js";
import { type ScanPartition, scanPartitions } from "./partitions.js";
import { scanQuery } from "./sql.js";
import { filterCondition } from "./filters.js";

/** Where a scan stands: the partition being read and the rows of it already returned. */
interface ScanPosition {
  readonly partition: number;
  readonly rows: number;
}

/**
 * A bounded scan of a database table (Flink's JdbcRowDataInputFormat): one query per partition of the
 * partitioned scan (or one for the whole table), read one after the other, each in chunks of
 * `scan.fetch-size` rows when set. Rows are converted from the database's values by the column types;
 * a value that does not fit fails the job naming the table, the row and the column.
 */
export class JdbcScanReader implements SourceReader {
  private readonly partitions: readonly (ScanPartition | undefined)[];
  private readonly decoders: ((raw: unknown) => unknown)[];
  private readonly columns: readonly string[];
  private partition = 0;
  private rowsInPartition = 0;
  private rowsRead = 0;
  private cursor: RowCursor | undefined;

  private constructor(private readonly table: JdbcTable & { readonly filters: SourceContext["filters"] }, private readonly conn: JdbcConnection) {
    // the partition column need not be read (a projection may leave it out): it was checked when planned
    const p = partitionOptions(table, false);
    this.partitions = p === undefined ? [undefined] : scanPartitions(p);
    const codec = codecOf(table);
    this.decoders = table.columns.map((c) => codec.decoder(c.type));
    this.columns = table.columns.map((c) => c.name);
  }

  static async open(table: JdbcTable & { readonly filters: SourceContext["filters"] }): Promise<JdbcScanReader> {
    return new JdbcScanReader(table, await openConnection(table));
  }

  read(): SourceBatch | null | Promise<SourceBatch | null> {
    if (this.partition >= this.partitions.length) return null;
    if (this.cursor === undefined) {
      const part = this.partitions[this.partition];
      const column = this.table.options["scan.partition.column"];
      const filters = this.table.filters;
      const where = filters.length === 0 ? undefined : (first: number) => filterCondition(this.conn.dialect, filters, this.table.columns, codecOf(this.table), first);
      this.cursor = this.conn.cursor(scanQuery(this.conn.dialect, this.table.options["table-name"], this.columns, column, part, where), this.table.options["scan.fetch-size"]);
    }
    let next: unknown[][] | null | Promise<unknown[][] | null>;
    try {
      next = this.cursor.next();
    } catch (e) {
      throw this.failed(e);
    }
    if (next instanceof Promise) return next.then((rows) => this.take(rows), (e) => { throw this.failed(e); });
    return this.take(next);
  }

  private take(rows: unknown[][] | null): SourceBatch | null | Promise<SourceBatch | null> {
    if (rows === null) {
      const closing = this.cursor!.close();
      this.cursor = undefined;
      this.partition++;
      this.rowsInPartition = 0;
      return closing instanceof Promise ? closing.then(() => this.read()) : this.read();
    }
    const decoders = this.decoders;
    for (let r = 0; r < rows.length; r++) {
      const row = rows[r]!;
      for (let c = 0; c < decoders.length; c++) {
        const raw = row[c];
        if (raw === null || raw === undefined) { row[c] = null; continue; }
        try {
          row[c] = decoders[c]!(raw);
        } catch (e) {
          throw new ExecutionError(`${whereOf(this.table)}: row ${this.rowsRead + r + 1}, column '${this.columns[c]}' (${this.table.columns[c]!.type}): ${(e as Error).message}`, { cause: e });
        }
      }
    }
    this.rowsRead += rows.length;
    this.rowsInPartition += rows.length;
    return { rows };
  }

  private failed(e: unknown): ExecutionError {
    if (e instanceof ExecutionError) return e;
    return new ExecutionError(`${whereOf(this.table)}: the scan of ${this.conn.dialect.name} table '${this.table.options["table-name"]}' failed after ${this.rowsRead} rows: ${(e as Error)?.message ?? String(e)}`, { cause: e });
  }

  position(): JsonValue {
    const p: ScanPosition = { partition: this.partition, rows: this.rowsInPartition };
    return { ...p };
  }

  async close(): Promise<void> {
    const c = this.cursor;
    this.cursor = undefined;
    try { await c?.close(); } catch { /* closing must not hide why the job stopped */ }
    await this.conn.close();
  }
}
