import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { copyAdults, lineFile } from "../../examples/connectors/line-file-connector.js";
import { DataTypes, EnvironmentSettings, Schema, TableDescriptor, TableEnvironment } from "../../src/index.js";

const dir = () => mkdtempSync(join(tmpdir(), "tablestream-line-file-"));
const env = () => TableEnvironment.create(EnvironmentSettings.inStreamingMode());

describe("examples/connectors/line-file-connector.ts: a connector written against the public API", () => {
  it("copies the adults of a CSV file into a JSON Lines file (Table API source, SQL sink)", async () => {
    const d = dir();
    writeFileSync(join(d, "people.csv"), "Alice,35\nBob,17\r\n\"Smith, Jo\",40\n,\n");
    await copyAdults(join(d, "people.csv"), join(d, "adults.json"));
    expect(readFileSync(join(d, "adults.json"), "utf8")).toBe('{"name":"Alice","age":35}\n{"name":"Smith, Jo","age":40}\n');
  });

  it("reads in chunks smaller than a line, multi-byte characters split between chunks, raw format", async () => {
    const d = dir();
    const path = join(d, "lines.txt");
    writeFileSync(path, "één\ntwo\nthree\n");
    const e = env().registerConnector(lineFile);
    const schema = Schema.newBuilder().column("line", DataTypes.STRING()).build();
    const desc = () => TableDescriptor.forConnector("line-file").schema(schema).option("path", path).option("read.chunk-bytes", 16).format("raw").build();
    expect(await e.from(desc()).execute().toChangelog()).toEqual(["+I[één]", "+I[two]", "+I[three]"]);
  });

  it("an unknown option names it and lists the valid ones; a missing format is the connector's own error", () => {
    const e = env().registerConnector(lineFile);
    const schema = Schema.newBuilder().column("line", DataTypes.STRING()).build();
    expect(() => e.from(TableDescriptor.forConnector("line-file").schema(schema).option("path", "x").option("chunk", 1).format("raw").build()))
      .toThrow(/Unsupported options found for 'line-file'[^]*chunk[^]*Supported options:\n\nformat\npath\nraw.null-literal\nread.chunk-bytes\nwrite.append/);
    expect(() => e.from(TableDescriptor.forConnector("line-file").schema(schema).option("path", "x").build()))
      .toThrow(/^table '\*anonymous_line-file\$\d+\*' \(connector 'line-file'\) needs the option 'format' \(csv, json or raw\)$/);
  });
});
