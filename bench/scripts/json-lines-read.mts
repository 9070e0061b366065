// JSON Lines read speed (issue 7: exact numbers must keep it reasonable): npx tsx bench/scripts/json-lines-read.mts
import { writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DataTypes, EnvironmentSettings, Schema, TableDescriptor, TableEnvironment } from "../../src/index.js";
const dir = mkdtempSync(join(tmpdir(), "jsonspeed-"));
const path = join(dir, "data.json");
const N = 200000;
const lines: string[] = [];
for (let i = 0; i < N; i++) lines.push(JSON.stringify({ id: i, name: `user${i % 1000}`, amount: (i * 7.31).toFixed(2), big: i * 1000003, ok: i % 2 === 0 }).replace(/"amount":"([^"]+)"/, '"amount":$1'));
writeFileSync(path, lines.join("\n") + "\n");
const schema = Schema.newBuilder().column("id", DataTypes.INT()).column("name", DataTypes.STRING()).column("amount", DataTypes.DECIMAL(12, 2)).column("big", DataTypes.BIGINT()).column("ok", DataTypes.BOOLEAN()).build();
for (let r = 0; r < 4; r++) {
  const e = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
  e.createTable("j", TableDescriptor.forConnector("filesystem").schema(schema).option("path", path).format("json").build());
  const t = performance.now();
  const c = process.cpuUsage();
  const rows = await e.from("j").execute().toArray();
  const ms = performance.now() - t;
  const cpu = process.cpuUsage(c);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  // CPU time is the steadier figure on a shared machine
  console.log(`${rows.length} rows in ${ms.toFixed(0)} ms wall, ${cpuMs.toFixed(0)} ms CPU = ${(rows.length / cpuMs / 1000).toFixed(2)} M rows per CPU-second`);
}
