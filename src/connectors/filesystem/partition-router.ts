import { existsSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import type { DataType } from "../../types/data-type.js";
import { partitionPath, partitionValueText } from "./partitions.js";

/**
 * The routing half of a `PARTITIONED BY` file sink, shared by the text formats (partitioned-writer.ts) and Parquet
 * (../parquet/partitioned-writer.ts): each row goes to the writer of its partition directory (`dt=2024-01-01/hr=10`,
 * relative to the table path), created when first needed, with the row's other columns only (Flink does not store
 * partition columns in the files). The data row is one reused array: a partition writer must take its values
 * before `route` is called again.
 */
export class PartitionRouter<W> {
  /** The writers opened so far, by relative directory, in the order they were opened. */
  readonly writers = new Map<string, W>();
  /** Positions in the row of the columns the files hold. */
  readonly dataIndex: readonly number[];
  /** The current row's data columns (reused). */
  readonly data: unknown[];
  private readonly keyIndex: readonly number[];
  private readonly keyTypes: readonly DataType[];
  private readonly values: string[];

  constructor(columns: readonly { readonly name: string; readonly type: DataType }[], private readonly keys: readonly string[], private readonly defaultName: string, private readonly open: (relative: string) => W) {
    this.keyIndex = keys.map((k) => columns.findIndex((c) => c.name === k));
    this.keyTypes = this.keyIndex.map((i) => columns[i]!.type);
    this.dataIndex = columns.map((_c, i) => i).filter((i) => !this.keyIndex.includes(i));
    this.values = keys.map(() => "");
    this.data = new Array<unknown>(this.dataIndex.length);
  }

  /** The writer of a partition directory, opened when first needed. */
  writerOf(relative: string): W {
    let w = this.writers.get(relative);
    if (w === undefined) {
      w = this.open(relative);
      this.writers.set(relative, w);
    }
    return w;
  }

  /** The writer of the row's partition; `data` then holds the row's data columns. */
  route(row: readonly unknown[]): W {
    for (let k = 0; k < this.keyIndex.length; k++) this.values[k] = partitionValueText(this.keyTypes[k]!, row[this.keyIndex[k]!], this.defaultName);
    const data = this.data;
    for (let i = 0; i < this.dataIndex.length; i++) data[i] = row[this.dataIndex[i]!];
    return this.writerOf(partitionPath(this.keys, this.values));
  }

  /**
   * INSERT OVERWRITE of a fully static partition (`PARTITION (dt='x', hr='1')`) that received no row: Flink loads an
   * empty partition, so its visible files go (hidden ones, `.x` / `_x`, stay).
   */
  clearEmptyStaticPartition(root: string, spec: Readonly<Record<string, string>> | undefined): void {
    if (spec === undefined || !this.keys.every((k) => spec[k] !== undefined)) return;
    const relative = partitionPath(this.keys, this.keys.map((k) => (spec[k] === "" ? this.defaultName : spec[k]!)));
    if (this.writers.has(relative)) return;
    const dir = join(root, relative);
    if (!existsSync(dir) || !statSync(dir).isDirectory()) return;
    for (const f of readdirSync(dir)) {
      if (!f.startsWith(".") && !f.startsWith("_")) rmSync(join(dir, f), { recursive: true, force: true });
    }
  }
}
