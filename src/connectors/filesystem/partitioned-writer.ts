import { existsSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import type { SinkWriter } from "../../exec/source.js";
import type { DataType } from "../../types/data-type.js";
import { ResolvedSchema } from "../../types/resolved-schema.js";
import type { ConnectorTable } from "../connector-spec.js";
import type { FileFormat } from "./format.js";
import { defaultPartitionName, partitionPath, partitionValueText } from "./partitions.js";
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
  private readonly writers = new Map<string, FileSinkWriter>();
  private readonly keyIndex: readonly number[];
  private readonly keyTypes: readonly DataType[];
  private readonly dataIndex: readonly number[];
  private readonly dataTable: ConnectorTable;
  private readonly defaultName: string;
  private readonly values: string[];
  /** One row of the data columns, reused: a partition writer encodes the row before `write` returns. */
  private readonly scratch: unknown[];

  constructor(private readonly table: ConnectorTable, private readonly format: FileFormat, private readonly keys: readonly string[]) {
    const physical = table.physical;
    this.keyIndex = keys.map((k) => physical.indexOf(k));
    this.keyTypes = this.keyIndex.map((i) => physical.columns[i]!.type);
    this.dataIndex = physical.columns.map((_c, i) => i).filter((i) => !this.keyIndex.includes(i));
    this.dataTable = { ...table, physical: new ResolvedSchema(this.dataIndex.map((i) => physical.columns[i]!)) };
    this.defaultName = defaultPartitionName(table);
    this.values = keys.map(() => "");
    this.scratch = new Array<unknown>(this.dataIndex.length);
  }

  private root(): string {
    return this.table.options.get("path")!;
  }

  /** The writer of a partition directory (relative to the table path), created when first needed. */
  private writerOf(relative: string): FileSinkWriter {
    let w = this.writers.get(relative);
    if (w === undefined) {
      const options = new Map(this.dataTable.options);
      options.set("path", join(this.root(), relative));
      w = new FileSinkWriter({ ...this.dataTable, options }, this.format);
      w.open();
      this.writers.set(relative, w);
    }
    return w;
  }

  open(): void {}

  write(kind: number, row: readonly unknown[]): void {
    for (let k = 0; k < this.keyIndex.length; k++) this.values[k] = partitionValueText(this.keyTypes[k]!, row[this.keyIndex[k]!], this.defaultName);
    const writer = this.writerOf(partitionPath(this.keys, this.values));
    const data = this.scratch;
    for (let i = 0; i < this.dataIndex.length; i++) data[i] = row[this.dataIndex[i]!];
    writer.write(kind, data);
  }

  prepareCommit(checkpointId: number): unknown {
    const partitions: Record<string, unknown> = {};
    for (const [p, w] of this.writers) partitions[p] = w.prepareCommit();
    void checkpointId;
    const c: PartitionedCommittable = { partitions };
    return c;
  }

  commit(committable: unknown): void {
    for (const [p, c] of Object.entries((committable as PartitionedCommittable).partitions)) this.writerOf(p).commit(c);
  }

  restore(committable: unknown): void {
    for (const [p, c] of Object.entries((committable as PartitionedCommittable).partitions ?? {})) this.writerOf(p).restore(c);
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
    if (failure === undefined && this.table.overwrite) this.clearEmptyStaticPartition();
    if (failure !== undefined) throw failure;
  }

  /** INSERT OVERWRITE of a fully static partition that received no row: the partition becomes empty. */
  private clearEmptyStaticPartition(): void {
    const spec = this.table.staticPartition;
    if (spec === undefined || !this.keys.every((k) => spec[k] !== undefined)) return;
    const relative = partitionPath(this.keys, this.keys.map((k) => (spec[k] === "" ? this.defaultName : spec[k]!)));
    if (this.writers.has(relative)) return;
    const dir = join(this.root(), relative);
    if (!existsSync(dir) || !statSync(dir).isDirectory()) return;
    for (const f of readdirSync(dir)) {
      if (!f.startsWith(".") && !f.startsWith("_")) rmSync(join(dir, f), { recursive: true, force: true });
    }
  }

  written(): number {
    let n = 0;
    for (const w of this.writers.values()) n += w.written();
    return n;
  }
}
