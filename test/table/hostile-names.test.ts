// Columns may be named anything: Object.prototype members, quotes, backticks, unicode, blank-looking names.
// Every column must survive every source, sink and result API whatever its name (issue 7).
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import {
  $, ArgumentTrait, CollectionSink, DataTypes, EnvironmentSettings, ExecutionError, ProcessTableFunction, Row, Schema, TableDescriptor,
  TableEnvironment, tableArg, valueState, type DataType,
} from "../../src/index.js";

const dir = mkdtempSync(join(tmpdir(), "tablestream-names-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let fileNo = 0;
const newPath = () => join(dir, `t${fileNo++}`);

const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype);
const ODD_NAMES = ["'", "\"", "`", "``", "a`b", "it's", "\"q\"", "ü", "名前", "😀", "\u00a0", " ", "  x", "\u200b", "-", "$", "0", "f0"];
// `*` is the one name a column cannot have: `$("*")` is Flink's "all columns" (docs/expressions.md)
const nameArb = fc.oneof(fc.constantFrom(...PROTOTYPE_NAMES, ...ODD_NAMES), fc.string({ minLength: 1, maxLength: 4 })).filter((n) => n !== "*");
const namesArb = fc.uniqueArray(nameArb, { minLength: 1, maxLength: 4 });
const env = () => TableEnvironment.create(EnvironmentSettings.inStreamingMode());

/** A row type with one INT and one STRING column per pair of names. */
// (untyped on purpose: the names are only known at run time)
function rowTypeOf(names: readonly string[]): DataType<Record<string, unknown> | null> {
  return DataTypes.ROW(...names.map((n, i) => DataTypes.FIELD(n, (i % 2 === 0 ? DataTypes.INT() : DataTypes.STRING()) as DataType<unknown>))) as never;
}
function objectRow(names: readonly string[], seed: number): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  names.forEach((n, i) => Object.defineProperty(o, n, { value: i % 2 === 0 ? seed + i : `v${seed}-${i}`, enumerable: true, writable: true, configurable: true }));
  return o;
}
/** Own enumerable entries in order: what a row must carry, nothing inherited. */
const entries = (o: object) => Object.keys(o).map((k) => [k, (o as Record<string, unknown>)[k]]);
const quote = (n: string) => "`" + n.replace(/`/g, "``") + "`";

describe("hostile column names", () => {
  it("survive fromValues (typed and inferred), toArray, collect, the collection sink and SQL views", async () => {
    await fc.assert(fc.asyncProperty(namesArb, async (names) => {
      const input = [objectRow(names, 1), objectRow(names, 2)];
      const expected = input.map(entries);
      const e = env();
      const typed = e.fromValues(rowTypeOf(names), input as never[]);
      expect((await typed.execute().toArray()).map(entries)).toEqual(expected);
      const collected: object[] = [];
      for await (const r of typed.execute().collect()) collected.push(r);
      expect(collected.map(entries)).toEqual(expected);
      expect(collected.map((r) => Row.kindOf(r))).toEqual(["+I", "+I"]);
      expect((await e.fromValues(...input).execute().toArray()).map(entries)).toEqual(expected);
      const printed = input.map((r) => `+I[${names.map((c) => r[c]).join(", ")}]`);
      expect(await typed.execute().toChangelog()).toEqual(printed);
      // rows print in Flink's notation, unless a column named toString shadows the method (docs/types.md)
      if (!names.includes("toString")) expect(collected.map(String)).toEqual(printed);

      const sink = new CollectionSink();
      e.createTemporaryTable("out", sink.descriptor(Schema.newBuilder().fromRowDataType(rowTypeOf(names)).build()));
      await typed.executeInsert("out").await();
      expect(sink.rows().map(entries)).toEqual(expected);
      expect(sink.materialized().map(entries)).toEqual(expected);

      e.createTemporaryView("v", typed);
      const sql = await e.executeSql(`SELECT ${names.map(quote).join(", ")} FROM v`).toArray();
      expect(sql.map(entries)).toEqual(expected);
    }), { numRuns: 40 });
  });

  for (const format of ["csv", "json"] as const) {
    it(`survive a ${format} file written and read back`, async () => {
      await fc.assert(fc.asyncProperty(namesArb, async (names) => {
        const input = [objectRow(names, 1), objectRow(names, 2)];
        const e = env();
        const path = newPath();
        const schema = Schema.newBuilder().fromRowDataType(rowTypeOf(names)).build();
        e.createTable("f", TableDescriptor.forConnector("filesystem").schema(schema).option("path", path).format(format).build());
        await e.fromValues(rowTypeOf(names), input as never[]).executeInsert("f").await();
        if (format === "json") {
          const line = readFileSync(join(path, readdirSync(path)[0]!), "utf8").split("\n")[0]!;
          expect(entries(JSON.parse(line) as object)).toEqual(entries(input[0]!));
        }
        expect((await e.from("f").execute().toArray()).map(entries)).toEqual(input.map(entries));
      }), { numRuns: 15 });
    });
  }

  it("a JSON Lines field missing from a line is NULL, never an inherited member; fail-on-missing-field fires", async () => {
    for (const name of PROTOTYPE_NAMES) {
      const path = newPath();
      writeFileSync(path, `{"id": 1, "nested": {}}\n`);
      const type = DataTypes.ROW(
        DataTypes.FIELD("id", DataTypes.INT()),
        DataTypes.FIELD(name, DataTypes.STRING()),
        DataTypes.FIELD("nested", DataTypes.ROW(DataTypes.FIELD(name, DataTypes.INT()))),
      );
      const table = (fail: boolean) => TableDescriptor.forConnector("filesystem").schema(Schema.newBuilder().fromRowDataType(type).build())
        .option("path", path).format("json").option("json.fail-on-missing-field", String(fail)).build();
      const e = env();
      e.createTable("j", table(false));
      const rows = await e.from("j").execute().toArray();
      expect(rows.map(entries), name).toEqual([[["id", 1], [name, null], ["nested", expect.anything()]]]);
      expect(entries((rows[0] as Record<string, object>).nested!), name).toEqual([[name, null]]);
      e.createTable("strict", table(true));
      await expect(e.from("strict").execute().toArray(), name).rejects.toThrow(ExecutionError);
    }
  });

  it("Row.withKind keeps every field as an own property and the kind readable", () => {
    for (const name of PROTOTYPE_NAMES) {
      const fields = objectRow([name, "x"], 5);
      const row = Row.withKind("-D", fields);
      expect(entries(row), name).toEqual([[name, 5], ["x", "v5-1"]]);
      expect(Row.kindOf(row), name).toBe("-D");
    }
  });

  it("a JSON writer keeps a `__proto__` column, ROW field and MAP key", async () => {
    const type = DataTypes.ROW(
      DataTypes.FIELD("__proto__", DataTypes.INT()),
      DataTypes.FIELD("r", DataTypes.ROW(DataTypes.FIELD("__proto__", DataTypes.STRING()))),
      DataTypes.FIELD("m", DataTypes.MAP(DataTypes.STRING(), DataTypes.INT())),
    );
    const e = env();
    const path = newPath();
    e.createTable("f", TableDescriptor.forConnector("filesystem").schema(Schema.newBuilder().fromRowDataType(type).build()).option("path", path).format("json").build());
    await e.fromValues(type, [Row.of(7, Row.of("x"), new Map([["__proto__", 1], ["toString", 2]]))]).executeInsert("f").await();
    expect(readFileSync(join(path, readdirSync(path)[0]!), "utf8")).toBe(`{"__proto__":7,"r":{"__proto__":"x"},"m":{"__proto__":1,"toString":2}}\n`);
    const [row] = await e.from("f").execute().toArray() as Record<string, unknown>[];
    expect(entries(row!)).toEqual([["__proto__", 7], ["r", expect.anything()], ["m", new Map([["__proto__", 1], ["toString", 2]])]]);
    expect(entries(row!.r as object)).toEqual([["__proto__", "x"]]);
  });

  it("survive a PTF: input rows, state fields, objects passed to collect, output columns", async () => {
    await fc.assert(fc.asyncProperty(namesArb, async (names) => {
      const input = [objectRow(names, 1), objectRow(names, 2), objectRow(names, 1)];
      const stateName = names[0]!;
      // an output column the objects given to collect never have: NULL, not an inherited member
      const absent = PROTOTYPE_NAMES.find((n) => n !== names[0])!;
      const defaults: Record<string, unknown> = {};
      Object.defineProperty(defaults, stateName, { value: 0, enumerable: true, writable: true, configurable: true });
      const Echo = ProcessTableFunction.define({
        name: "Echo",
        args: { input: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE) },
        state: { memory: valueState(defaults) },
        output: DataTypes.ROW(DataTypes.FIELD("seen", DataTypes.INT()), DataTypes.FIELD(absent, DataTypes.INT()), ...rowTypeOf(names).fields.map((f) => DataTypes.FIELD(`o${f.name}`, f.type))),
        eval(ctx, { memory }, { input: row }) {
          const m = memory as Record<string, number>;
          m[stateName] = (Object.hasOwn(m, stateName) ? m[stateName]! : -100) + 1;
          const out: Record<string, unknown> = { seen: m[stateName] };
          for (const n of names) Object.defineProperty(out, `o${n}`, { value: Object.hasOwn(row, n) ? (row as Record<string, unknown>)[n] : "inherited!", enumerable: true });
          ctx.collect(out as never);
        },
      });
      const e = env();
      const t = e.fromValues(rowTypeOf(names), input as never[]);
      const rows = await (t as never as { partitionBy(k: unknown): { process(f: unknown): { execute(): { toArray(): Promise<object[]> } } } }).partitionBy($(names[0]!)).process(Echo).execute().toArray();
      const expected = input.map((r, i) => [
        [names[0]!, r[names[0]!]],
        ["seen", i === 2 ? 2 : 1],
        [absent, null],
        ...names.map((n) => [`o${n}`, r[n]]),
      ]);
      expect(rows.map(entries)).toEqual(expected);
    }), { numRuns: 30 });
  });
});
