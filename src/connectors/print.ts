import { toJavaString } from "../types/format.js";
import { defineConnector } from "./api/define.js";
import { option } from "./api/options.js";
import type { SinkBatch, SinkWriter } from "./api/contract.js";
import type { DataType } from "../types/data-type.js";

/**
 * Flink's `print` connector, defined with the public connector API as a user's connector is: every record
 * as one line in Flink's notation, `+I[Alice, 35]` (values as Java's toString renders them), prefixed with
 * `print-identifier> ` when that option is set, to stdout (or stderr with `standard-error = true`), one
 * `write` of the stream per record, at the end of every job step (`handOver: "step"`). Accepts every row kind.
 */
class PrintWriter implements SinkWriter {
  constructor(private readonly prefix: string, private readonly types: readonly DataType[], private readonly stream: NodeJS.WriteStream) {}

  write(batch: SinkBatch): void {
    const { rows, kinds } = batch;
    const types = this.types;
    for (let r = 0; r < rows.length; r++) {
      const row = rows[r]!;
      let s = `${this.prefix}${kinds[r]!}[`;
      for (let i = 0; i < row.length; i++) s += (i > 0 ? ", " : "") + toJavaString(types[i], row[i]);
      this.stream.write(s + "]\n");
    }
  }

  close(): void {}
}

export const printConnector = defineConnector({
  name: "print",
  options: {
    "print-identifier": option.string({ description: "A prefix of every line: `<identifier>> +I[...]`." }),
    "standard-error": option.boolean({ default: false, description: "Print to stderr instead of stdout." }),
  },
  sink: {
    changelog: () => "all",
    handOver: "step",
    createWriter(ctx) {
      const id = ctx.options["print-identifier"];
      return new PrintWriter(id ? `${id}> ` : "", ctx.columns.map((c) => c.type), ctx.options["standard-error"] ? process.stderr : process.stdout);
    },
  },
});

/** Flink's `blackhole` connector: swallows every record (for benchmarks and dry runs), a batch per call. */
export const blackholeConnector = defineConnector({
  name: "blackhole",
  options: {},
  sink: {
    changelog: () => "all",
    createWriter: () => ({ write() {}, close() {} }),
  },
});
