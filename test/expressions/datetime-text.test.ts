// One parser for DATE / TIME / TIMESTAMP / TIMESTAMP_LTZ text on every path (issue 7): fromValues strings,
// CSV and JSON Lines fields, SQL literals and CAST accept the same text and refuse the same out-of-range fields.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import {
  DataTypes, EnvironmentSettings, ExecutionError, Schema, SqlParseError, TableDescriptor, TableEnvironment, ValidationError, type DataType,
} from "../../src/index.js";

const dir = mkdtempSync(join(tmpdir(), "tablestream-datetime-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const env = () => TableEnvironment.create(EnvironmentSettings.inStreamingMode());

type Kind = "DATE" | "TIME" | "TIMESTAMP" | "TIMESTAMP_LTZ";
const typeOf = (k: Kind): DataType<unknown> => (k === "DATE" ? DataTypes.DATE() : k === "TIME" ? DataTypes.TIME(3) : k === "TIMESTAMP" ? DataTypes.TIMESTAMP(3) : DataTypes.TIMESTAMP_LTZ(3)) as DataType<unknown>;
const sqlType = (k: Kind) => (k === "DATE" ? "DATE" : k === "TIME" ? "TIME(3)" : k === "TIMESTAMP" ? "TIMESTAMP(3)" : "TIMESTAMP_LTZ(3)");
/** Values in a comparable form: DATE/TIME strings, timestamps as ISO text (JS's ISO parser has no 2-digit-year mapping). */
const shown = (v: unknown) => (v instanceof Date ? v.toISOString() : v);

const ACCEPTED: [Kind, string, string][] = [
  ["DATE", "2025-01-05", "2025-01-05"],
  ["DATE", "2025-1-5", "2025-01-05"],
  ["DATE", "0000-01-01", "0000-01-01"],
  ["DATE", "0099-12-31", "0099-12-31"],
  ["DATE", "2024-02-29", "2024-02-29"],
  ["DATE", " 2025-03-04 ", "2025-03-04"],
  ["TIME", "10:30", "10:30:00.000"],
  ["TIME", "1:2:3", "01:02:03.000"],
  ["TIME", "23:59:59.999", "23:59:59.999"],
  ["TIMESTAMP", "2025-01-01 10:00:00", "2025-01-01T10:00:00.000Z"],
  ["TIMESTAMP", "2025-01-01T10:00", "2025-01-01T10:00:00.000Z"],
  ["TIMESTAMP", "2025-1-2 3:04:05.6", "2025-01-02T03:04:05.600Z"],
  ["TIMESTAMP", "0099-12-31 23:59:59", "0099-12-31T23:59:59.000Z"],
  ["TIMESTAMP", "0001-01-01 00:00:00", "0001-01-01T00:00:00.000Z"],
  ["TIMESTAMP", "2025-01-01", "2025-01-01T00:00:00.000Z"],
  ["TIMESTAMP_LTZ", "0050-06-15 12:00:00.123", "0050-06-15T12:00:00.123Z"],
];
const REJECTED: [Kind, string][] = [
  ["TIMESTAMP", "2025-01-01 25:00:00"],
  ["TIMESTAMP", "2025-01-01 24:00:00"],
  ["TIMESTAMP", "2025-01-01 10:60:00"],
  ["TIMESTAMP", "2025-01-01 23:59:60"],
  ["TIMESTAMP", "2025-02-30 10:00:00"],
  ["TIMESTAMP", "2025-13-01 10:00:00"],
  ["TIMESTAMP", "25-01-01 10:00:00"],
  ["TIMESTAMP_LTZ", "2025-04-31 00:00:00"],
  ["TIME", "10:60:00"],
  ["TIME", "23:59:60"],
  ["TIME", "25:00"],
  ["DATE", "2025-02-30"],
  ["DATE", "2023-02-29"],
  ["DATE", "2025-00-10"],
  ["DATE", "2025-01-32"],
];

async function viaFromValues(k: Kind, text: string) {
  const e = env();
  const rows = await e.fromValues(DataTypes.ROW(DataTypes.FIELD("c", typeOf(k))), [{ c: text }]).execute().toArray();
  return shown((rows[0] as { c: unknown }).c);
}
async function viaFile(k: Kind, text: string, format: "csv" | "json") {
  const path = join(dir, `f${n++}.${format}`);
  writeFileSync(path, format === "csv" ? `1,${JSON.stringify(text)}\n` : `{"id": 1, "c": ${JSON.stringify(text)}}\n`);
  const e = env();
  const schema = Schema.newBuilder().column("id", DataTypes.INT()).column("c", typeOf(k)).build();
  e.createTable("f", TableDescriptor.forConnector("filesystem").schema(schema).option("path", path).format(format).build());
  const rows = await e.from("f").execute().toArray();
  return shown((rows[0] as { c: unknown }).c);
}
async function viaSql(k: Kind, text: string, cast: boolean) {
  const e = env();
  e.executeSql("CREATE VIEW one(x) AS VALUES (1)");
  const quoted = `'${text.replace(/'/g, "''")}'`;
  const expr = cast ? `CAST(${quoted} AS ${sqlType(k)})` : `${k === "TIMESTAMP_LTZ" ? "TIMESTAMP" : k} ${quoted}`;
  const rows = await e.executeSql(`SELECT ${expr} AS c FROM one`).toArray();
  return shown((rows[0] as { c: unknown }).c);
}

describe("date/time text: one parser on every path", () => {
  for (const [k, text, expected] of ACCEPTED) {
    it(`${k} '${text}' reads as ${expected} everywhere`, async () => {
      expect(await viaFromValues(k, text)).toBe(expected);
      expect(await viaFile(k, text, "csv")).toBe(expected);
      expect(await viaFile(k, text, "json")).toBe(expected);
      expect(await viaSql(k, text, true)).toBe(expected);
      // SQL literals: TIME literals keep their own precision, DATE literals are exactly yyyy-MM-dd
      if (k !== "TIME" && !(k === "DATE" && text.trim().length !== 10) && k !== "TIMESTAMP_LTZ") expect(await viaSql(k, text, false)).toBe(expected);
    });
  }

  for (const [k, text] of REJECTED) {
    it(`${k} '${text}' is refused everywhere, naming where`, async () => {
      await expect(viaFromValues(k, text)).rejects.toThrow(new RegExp(`^fromValues row 1, column 'c': '${text}' is not a`));
      await expect(viaFile(k, text, "csv")).rejects.toThrow(ExecutionError);
      await expect(viaFile(k, text, "csv")).rejects.toThrow(/file '.*\.csv', line 1, column 2 \('c'\): /);
      await expect(viaFile(k, text, "json")).rejects.toThrow(/file '.*\.json', line 1, column 2 \('c'\): /);
      await expect(viaSql(k, text, true)).rejects.toThrow(/cannot cast/);
      if (k !== "TIMESTAMP_LTZ") {
        const literal = viaSql(k, text, false);
        await expect(literal).rejects.toThrow(SqlParseError);
        // the position is the literal's text: after "SELECT " and the keyword
        await expect(viaSql(k, text, false)).rejects.toThrow(`at line 1, column ${8 + k.length + 1}: ${k} '${text}' is not a`);
      }
    });
  }

  it("a bad value is a ValidationError at fromValues", () => {
    expect(() => env().fromValues(DataTypes.ROW(DataTypes.FIELD("c", DataTypes.DATE())), [{ c: "2025-02-30" }])).toThrow(ValidationError);
  });

  it("property: any timestamp of years 0000-9999 written as text reads back as the same instant, and through a CSV file", async () => {
    const instant = fc.date({ min: new Date("0000-01-01T00:00:00.000Z"), max: new Date("9999-12-31T23:59:59.999Z"), noInvalidDate: true });
    await fc.assert(fc.asyncProperty(fc.array(instant, { minLength: 1, maxLength: 4 }), async (dates) => {
      const texts = dates.map((d) => d.toISOString().replace("T", " ").replace("Z", ""));
      const e = env();
      const type = DataTypes.ROW(DataTypes.FIELD("ts", DataTypes.TIMESTAMP(3)), DataTypes.FIELD("d", DataTypes.DATE()));
      const t = e.fromValues(type, texts.map((x) => ({ ts: x, d: x.slice(0, 10) })));
      const expected = dates.map((d) => [d.toISOString(), d.toISOString().slice(0, 10)]);
      expect((await t.execute().toArray()).map((r) => [(r.ts as Date).toISOString(), r.d])).toEqual(expected);
      const path = join(dir, `rt${n++}`);
      e.createTable("f", TableDescriptor.forConnector("filesystem").schema(Schema.newBuilder().fromRowDataType(type).build()).option("path", path).format("csv").build());
      await t.executeInsert("f").await();
      expect((await e.from("f").execute().toArray()).map((r) => [(r.ts as Date).toISOString(), r.d])).toEqual(expected);
    }), { numRuns: 25 });
  });

  it("property: a field out of its range is refused, never rolled over (fromValues and CAST alike)", async () => {
    const field = fc.record({
      y: fc.integer({ min: 0, max: 9999 }), mo: fc.integer({ min: 0, max: 13 }), d: fc.integer({ min: 0, max: 32 }),
      h: fc.integer({ min: 0, max: 25 }), mi: fc.integer({ min: 0, max: 61 }), s: fc.integer({ min: 0, max: 61 }),
    });
    await fc.assert(fc.asyncProperty(field, async ({ y, mo, d, h, mi, s }) => {
      const p = (x: number, w = 2) => String(x).padStart(w, "0");
      const text = `${p(y, 4)}-${p(mo)}-${p(d)} ${p(h)}:${p(mi)}:${p(s)}`;
      const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
      const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mo - 1] ?? 0;
      const valid = mo >= 1 && mo <= 12 && d >= 1 && d <= days && h <= 23 && mi <= 59 && s <= 59;
      if (valid) {
        const iso = `${p(y, 4)}-${p(mo)}-${p(d)}T${p(h)}:${p(mi)}:${p(s)}.000Z`;
        expect(await viaFromValues("TIMESTAMP", text)).toBe(iso);
        expect(await viaSql("TIMESTAMP", text, true)).toBe(iso);
      } else {
        await expect(viaFromValues("TIMESTAMP", text)).rejects.toThrow(ValidationError);
        await expect(viaSql("TIMESTAMP", text, true)).rejects.toThrow(/cannot cast/);
      }
    }), { numRuns: 150 });
  });
});
