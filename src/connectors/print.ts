import type { SinkWriter } from "../exec/source.js";
import { KIND_SHORT } from "../types/row.js";
import { checkOptionKeys, type ConnectorTable } from "./connector-spec.js";
import type { DataType } from "../types/data-type.js";
import { toJavaString } from "../types/format.js";
import { boolOption, type Connector } from "./connector.js";

/**
 * Flink's `print` connector: every record as one line in Flink's notation, `+I[Alice, 35]` (values as
 * Java's toString renders them), prefixed with `print-identifier> ` when that option is set, to stdout
 * (or stderr with `standard-error = true`) as it arrives. Accepts every row kind.
 */
class PrintWriter implements SinkWriter {
  private count = 0;
  private readonly prefix: string;
  private readonly types: readonly DataType[];
  private readonly stream: NodeJS.WriteStream;

  constructor(table: ConnectorTable) {
    const id = table.options.get("print-identifier");
    this.prefix = id ? `${id}> ` : "";
    this.types = table.physical.types;
    this.stream = boolOption(table, "standard-error", false) ? process.stderr : process.stdout;
  }

  open(): void {}

  write(kind: number, row: readonly unknown[]): void {
    const types = this.types;
    let s = `${this.prefix}${KIND_SHORT[kind]}[`;
    for (let i = 0; i < row.length; i++) s += (i > 0 ? ", " : "") + toJavaString(types[i], row[i]);
    this.stream.write(s + "]\n");
    this.count++;
  }

  close(): void {}

  written(): number {
    return this.count;
  }
}

export const printConnector: Connector = {
  name: "print",
  canRead: false,
  canWrite: true,
  validate(table) {
    checkOptionKeys(table, ["print-identifier", "standard-error", "sink.parallelism"]);
    boolOption(table, "standard-error", false);
  },
  sinkChangelog: () => "all",
  createWriter: (table) => new PrintWriter(table),
};

/** Flink's `blackhole` connector: swallows every record (for benchmarks and dry runs). */
export const blackholeConnector: Connector = {
  name: "blackhole",
  canRead: false,
  canWrite: true,
  validate(table) {
    checkOptionKeys(table, ["sink.parallelism"]);
  },
  sinkChangelog: () => "all",
  createWriter: () => {
    let count = 0;
    return { open() {}, write() { count++; }, close() {}, written: () => count };
  },
};
