// A connector written as a user would write one, against the package's public API only:
// 'line-file' reads and writes a text file of one record per line, in any of the built-in row formats
// (csv, json, raw). The source is bounded and pull-based (it reads the file in chunks only when the job
// asks for rows) and reports its position (the byte offset after the last line it returned), so a restore
// can resume there; the sink appends lines asynchronously, in batches, and flushes on close.
import { open, type FileHandle } from "node:fs/promises";
import {
  DataTypes, EnvironmentSettings, Schema, TableDescriptor, TableEnvironment, ValidationError,
  defineConnector, option, type SinkBatch, type SourceBatch, type SourceContext, type SourceReader, type SinkWriter,
} from "../../src/index.js";

const options = {
  path: option.string({ required: true, description: "The file to read or write." }),
  "read.chunk-bytes": option.int({ default: 64 * 1024, min: 16, description: "Bytes read per read() call." }),
  "write.append": option.boolean({ default: false, description: "Append to the file instead of replacing it." }),
};

class LineFileReader implements SourceReader {
  private carry = "";
  /** Bytes of the file consumed by complete lines returned so far. */
  private offset: number;
  private readAt: number;
  private eof = false;
  private readonly decoder = new TextDecoder();

  constructor(private readonly file: FileHandle, private readonly ctx: SourceContext<typeof options>) {
    this.offset = typeof ctx.restoreFrom === "number" ? ctx.restoreFrom : 0;
    this.readAt = this.offset;
  }

  async read(): Promise<SourceBatch | null> {
    const format = this.ctx.format!;
    for (;;) {
      if (this.eof && this.carry === "") return null;
      let text = this.carry;
      if (!this.eof) {
        const buf = new Uint8Array(this.ctx.options["read.chunk-bytes"]);
        const { bytesRead } = await this.file.read(buf, 0, buf.length, this.readAt);
        this.readAt += bytesRead;
        if (bytesRead === 0) this.eof = true;
        text += this.decoder.decode(buf.subarray(0, bytesRead), { stream: !this.eof });
      }
      const lines = text.split("\n");
      // the last piece is a partial line, unless the file ended
      this.carry = this.eof ? "" : lines.pop()!;
      const rows: unknown[][] = [];
      for (const line of lines) {
        this.offset += Buffer.byteLength(line, "utf8") + 1;
        if (line.trim() === "") continue;
        rows.push(format.decode(line.endsWith("\r") ? line.slice(0, -1) : line));
      }
      if (rows.length > 0 || this.eof) return { rows };
    }
  }

  position(): number {
    return this.offset;
  }

  close(): Promise<void> {
    return this.file.close();
  }
}

class LineFileWriter implements SinkWriter {
  constructor(private readonly file: FileHandle, private readonly ctx: { format?: { encode(row: readonly unknown[]): string } }) {}

  async write(batch: SinkBatch): Promise<void> {
    const format = this.ctx.format!;
    let text = "";
    for (const row of batch.rows) text += format.encode(row) + "\n";
    await this.file.appendFile(text);
  }

  flush(): Promise<void> {
    return this.file.sync();
  }

  close(): Promise<void> {
    return this.file.close();
  }
}

export const lineFile = defineConnector({
  name: "line-file",
  options,
  formats: true,
  validate(table) {
    if (table.format === undefined) throw new ValidationError(`table '${table.tableName}' (connector 'line-file') needs the option 'format' (csv, json or raw)`);
  },
  source: {
    async createReader(ctx) {
      return new LineFileReader(await open(ctx.options.path, "r"), ctx);
    },
  },
  sink: {
    // append-only: the file holds inserts
    changelog: () => "insert-only",
    async createWriter(ctx) {
      return new LineFileWriter(await open(ctx.options.path, ctx.options["write.append"] ? "a" : "w"), ctx);
    },
  },
});

/** Copies the adults of a CSV file of people into a JSON Lines file, through the connector. */
export async function copyAdults(from: string, to: string, env = TableEnvironment.create(EnvironmentSettings.inStreamingMode())): Promise<void> {
  env.registerConnector(lineFile);
  const people = Schema.newBuilder().column("name", DataTypes.STRING()).column("age", DataTypes.INT()).build();
  env.createTemporaryTable("people", TableDescriptor.forConnector("line-file").schema(people).option("path", from).format("csv").build());
  env.executeSql(`CREATE TEMPORARY TABLE adults (name STRING, age INT) WITH ('connector' = 'line-file', 'path' = '${to}', 'format' = 'json')`);
  await env.executeSql("INSERT INTO adults SELECT name, age FROM people WHERE age >= 18").await();
}
