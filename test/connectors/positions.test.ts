import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { connectorFromDefinition } from "../../src/connectors/api/adapter.js";
import { datagenConnector as datagenDefinition } from "../../src/connectors/datagen/index.js";
import { filesystemConnector } from "../../src/connectors/filesystem/index.js";
import type { Output } from "../../src/exec/operator.js";
import type { SourceReader } from "../../src/exec/source.js";
import { DataTypes, ResolvedSchema } from "../../src/index.js";
import type { ConnectorTable } from "../../src/table/table-descriptor.js";

const datagenConnector = connectorFromDefinition(datagenDefinition);
const settings = { batch: false, config: new Map<string, string>(), clock: () => 0 };

/** Polls a reader to its end (or `limit` records), collecting records. */
async function drain(r: SourceReader, limit = Infinity): Promise<unknown[][]> {
  const rows: unknown[][] = [];
  const out: Output = { record: (_k, row) => { rows.push(row); }, watermark: () => {}, endInput: () => {} };
  while (rows.length < limit) {
    const s = r.poll(out, Math.min(3, limit - rows.length));
    if (s === "end") break;
    if (s !== "more") await s;
  }
  return rows;
}

describe("source positions (for checkpoints)", () => {
  it("a datagen reader restored at a position continues with the same rows", async () => {
    const table: ConnectorTable = {
      tableName: "g", connector: "datagen",
      options: new Map([["seed", "11"], ["rows-per-second", "1000000"], ["fields.id.kind", "sequence"], ["fields.id.start", "1"], ["fields.id.end", "10"]]),
      physical: new ResolvedSchema([{ name: "id", type: DataTypes.INT() }, { name: "r", type: DataTypes.INT() }, { name: "s", type: DataTypes.STRING() }]),
    };
    const whole = await drain(datagenConnector.createReader!(table, settings));
    expect(whole).toHaveLength(10);
    const first = datagenConnector.createReader!(table, settings);
    const head = await drain(first, 4);
    const resumed = datagenConnector.createReader!(table, settings);
    resumed.seek(first.position());
    expect([...head, ...(await drain(resumed))]).toEqual(whole);
  });

  it("a file reader restored at a position continues after the records it emitted", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tablestream-pos-"));
    try {
      writeFileSync(join(dir, "a.csv"), "1\n2\n3\n");
      writeFileSync(join(dir, "b.csv"), "4\n5\n");
      const table: ConnectorTable = {
        tableName: "f", connector: "filesystem", options: new Map([["path", dir], ["format", "csv"]]),
        physical: new ResolvedSchema([{ name: "n", type: DataTypes.INT() }]),
      };
      const first = filesystemConnector.createReader!(table, settings);
      expect(await drain(first, 2)).toEqual([[1], [2]]);
      const resumed = filesystemConnector.createReader!(table, settings);
      resumed.seek(first.position());
      expect(await drain(resumed)).toEqual([[3], [4], [5]]);
      first.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
