// DECIMAL and BIGINT values from JSON Lines are read from the number's text, never through a double (issue 7).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { DataTypes, EnvironmentSettings, Schema, TableDescriptor, TableEnvironment, type DataType } from "../../src/index.js";
import { JsonNumber, parseJsonLine } from "../../src/connectors/filesystem/json-exact.js";

const dir = mkdtempSync(join(tmpdir(), "tablestream-json-exact-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

async function read(type: DataType<unknown>, lines: string[]): Promise<unknown[]> {
  const path = join(dir, `f${n++}.json`);
  writeFileSync(path, lines.join("\n") + "\n");
  const e = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
  e.createTable("j", TableDescriptor.forConnector("filesystem").schema(Schema.newBuilder().column("v", type).build()).option("path", path).format("json").build());
  return (await e.from("j").execute().toArray()).map((r) => (r as { v: unknown }).v);
}
const text = (v: unknown): unknown => (v === null ? null : Array.isArray(v) ? v.map(text) : typeof v === "object" && v !== null && "toFixed" in v ? (v as { toFixed(): string }).toFixed() : v);

describe("JSON numbers for DECIMAL and BIGINT are exact", () => {
  it("keeps every digit of a DECIMAL(38, 2), in a column, a nested ROW and an ARRAY", async () => {
    expect((await read(DataTypes.DECIMAL(38, 2), [`{"v": 12345678901234567890.12}`, `{"v": -0.01}`, `{"v": "99999999999999999999999999999999999.99"}`])).map(text))
      .toEqual(["12345678901234567890.12", "-0.01", "99999999999999999999999999999999999.99"]);
    const [row] = await read(DataTypes.ROW(DataTypes.FIELD("d", DataTypes.DECIMAL(30, 10))), [`{"v": {"d": 12345678901234567890.0123456789}}`]);
    expect(text((row as { d: unknown }).d)).toBe("12345678901234567890.0123456789");
    expect((await read(DataTypes.ARRAY(DataTypes.DECIMAL(20, 0)), [`{"v": [10000000000000000001, 1]}`])).map(text)).toEqual([["10000000000000000001", "1"]]);
  });

  it("property: any DECIMAL(38, 2) number reads back with the same digits", async () => {
    const unscaled = fc.bigInt({ min: -(10n ** 38n) + 1n, max: 10n ** 38n - 1n });
    await fc.assert(fc.asyncProperty(fc.array(unscaled, { minLength: 1, maxLength: 5 }), async (values) => {
      const texts = values.map((u) => {
        const a = u < 0n ? -u : u;
        return `${u < 0n ? "-" : ""}${a / 100n}.${String(a % 100n).padStart(2, "0")}`;
      });
      const expected = texts.map((t) => (t === "-0.00" ? "0.00" : t));
      expect((await read(DataTypes.DECIMAL(38, 2), texts.map((t) => `{"v": ${t}}`))).map((v) => (v as { toFixed(n: number): string }).toFixed(2))).toEqual(expected);
    }), { numRuns: 40 });
  });

  it("BIGINT: exact within ±(2^53-1); beyond, an error quoting the number as written", async () => {
    expect(await read(DataTypes.BIGINT(), [`{"v": 9007199254740991}`, `{"v": -9007199254740991}`, `{"v": "9007199254740991"}`])).toEqual([9007199254740991, -9007199254740991, 9007199254740991]);
    await expect(read(DataTypes.BIGINT(), [`{"v": 9007199254740993}`])).rejects.toThrow(/line 1, column 1 \('v'\): number 9007199254740993 does not fit BIGINT: value 9007199254740993 is outside/);
    await expect(read(DataTypes.BIGINT(), [`{"v": "12345678901234567890"}`])).rejects.toThrow(/number 12345678901234567890 does not fit BIGINT/);
  });

  it("an overflowing DECIMAL quotes the text as written", async () => {
    await expect(read(DataTypes.DECIMAL(5, 2), [`{"v": 1.5e3}`])).rejects.toThrow(/line 1, column 1 \('v'\): number 1\.5e3 does not fit DECIMAL\(5, 2\)/);
    await expect(read(DataTypes.DECIMAL(38, 2), [`{"v": 123456789012345678901234567890123456789.5}`])).rejects.toThrow(/number 123456789012345678901234567890123456789\.5 does not fit DECIMAL\(38, 2\)/);
  });

  it("a STRING column given an object keeps its numbers as written", async () => {
    expect(await read(DataTypes.STRING(), [`{"v": {"a": 12345678901234567890.5, "b": [1, "x"]}}`, `{"v": 98765432109876543210}`]))
      .toEqual([`{"a":12345678901234567890.5,"b":[1,"x"]}`, "98765432109876543210"]);
  });

  it("other numbers are unchanged; the parser keeps risky numbers as text and `__proto__` keys as own properties", () => {
    expect(parseJsonLine(`{"a": 1.5, "b": [1, 2e2]}`)).toEqual({ a: 1.5, b: [1, 200] });
    const v = parseJsonLine(`{"__proto__": 12345678901234567890, "s": "x\\"1234567890123456"}`) as Record<string, unknown>;
    expect(Object.keys(v)).toEqual(["__proto__", "s"]);
    expect(v.__proto__).toEqual(new JsonNumber("12345678901234567890"));
    expect(v.s).toBe("x\"1234567890123456");
    expect(() => parseJsonLine(`{"a": 12345678901234567890`)).toThrow(SyntaxError);
  });
});
