import * as arrow from "apache-arrow";
import { describe, expect, it } from "vitest";
import {
  $, DataTypes, Decimal, EnvironmentSettings, Row, Schema, TableEnvironment, ValidationError,
} from "../../src/index.js";
import { ARROW_KIND_COLUMN, fromArrow, toArrow } from "../../src/table/arrow/index.js";

const env = () => TableEnvironment.create(EnvironmentSettings.inStreamingMode());

const allTypes = Schema.newBuilder()
  .column("b", DataTypes.BOOLEAN()).column("i8", DataTypes.TINYINT()).column("i16", DataTypes.SMALLINT())
  .column("i32", DataTypes.INT().notNull()).column("i64", DataTypes.BIGINT()).column("f", DataTypes.FLOAT())
  .column("d", DataTypes.DOUBLE()).column("s", DataTypes.STRING()).column("dec", DataTypes.DECIMAL(38, 10))
  .column("day", DataTypes.DATE()).column("t", DataTypes.TIME(3)).column("ts", DataTypes.TIMESTAMP(3))
  .column("ltz", DataTypes.TIMESTAMP_LTZ(3))
  .build();
const rows = [
  Row.of(true, -128, 32767, 1, 9007199254740991, 1.5, 0.1, "héllo ✓", "1234567890123456789012345678.0123456789", "2024-02-29", "23:59:59.999", "2024-01-02 03:04:05.678", new Date(-1)),
  Row.of(null, null, null, -2147483648, null, null, null, null, null, null, null, null, null),
  Row.of(false, 127, -32768, 2147483647, -9007199254740991, -0.25, -1e300, "", "-0.0000000001", "1969-12-31", "00:00:00.000", "1970-01-01 00:00:00", new Date(1_700_000_000_123)),
];

describe("toArrow / fromArrow", () => {
  it("builds typed Arrow columns for every mapped type, with NULLs", async () => {
    const e = env();
    const t = await toArrow(e.fromValues(allTypes, rows));
    expect(t.numRows).toBe(3);
    expect(t.schema.fields.map((f) => `${f.name}:${f.type}:${f.nullable}`)).toEqual([
      "b:Bool:true", "i8:Int8:true", "i16:Int16:true", "i32:Int32:false", "i64:Int64:true", "f:Float32:true", "d:Float64:true",
      "s:Utf8:true", "dec:Decimal[38e+10]:true", "day:Date32<DAY>:true", "t:Time32<MILLISECOND>:true",
      "ts:Timestamp<MILLISECOND>:true", "ltz:Timestamp<MILLISECOND, UTC>:true",
    ]);
    expect(t.getChild("i32")!.toArray()).toEqual(new Int32Array([1, -2147483648, 2147483647]));
    expect(t.getChild("i64")!.get(0)).toBe(9007199254740991n);
    expect(t.getChild("s")!.get(0)).toBe("héllo ✓");
    expect(t.getChild("s")!.get(1)).toBe(null);
    expect(t.getChild("day")!.get(0)).toBe(Date.UTC(2024, 1, 29));
    expect(t.getChild("ts")!.get(0)).toBe(Date.UTC(2024, 0, 2, 3, 4, 5, 678));
    expect(t.getChild("t")!.get(0)).toBe(86_399_999);
    expect(t.getChild(ARROW_KIND_COLUMN)).toBe(null);
  });

  it("round trips exactly through Arrow (DECIMAL digits, timestamps, NULLs, nullability)", async () => {
    const e = env();
    const source = e.fromValues(allTypes, rows);
    const back = fromArrow(e, await toArrow(source));
    expect(back.getResolvedSchema().toString()).toBe(source.getResolvedSchema().toString());
    expect(await back.execute().toChangelog()).toEqual(await e.fromValues(allTypes, rows).execute().toChangelog());
    const [first] = await back.execute().toArray();
    expect((first!.dec as Decimal).toFixed(10)).toBe("1234567890123456789012345678.0123456789");
  });

  it("an updating result gets the $row_kind column, and fromArrow reads the kinds back", async () => {
    const e = env();
    const counts = e.fromValues(Row.of("a"), Row.of("b"), Row.of("a")).as("name").groupBy($("name")).select($("name"), $("name").count().as("n"));
    const t = await toArrow(counts);
    expect(t.schema.names).toEqual(["name", "n", ARROW_KIND_COLUMN]);
    expect(t.getChild(ARROW_KIND_COLUMN)!.toArray()).toEqual(["+I", "+I", "-U", "+U"]);
    expect(await fromArrow(e, t).execute().toChangelog()).toEqual(["+I[a, 1]", "+I[b, 1]", "-U[a, 1]", "+U[a, 2]"]);
    // a TableResult: the kind column appears when a row is not +I
    expect((await toArrow(e.fromValues(Row.of(1)).execute())).schema.names).toEqual(["f0"]);
  });

  // typed arrays make NOT NULL fields; vectors of JS values nullable ones
  it("reads tables made by apache-arrow itself (unsigned, dictionary, other units)", async () => {
    const e = env();
    const t = new arrow.Table({
      u8: arrow.makeVector(Uint8Array.from([1, 255])), u32: arrow.makeVector(Uint32Array.from([0, 4294967295])),
      name: arrow.vectorFromArray(["x", "y"], new arrow.Dictionary(new arrow.Utf8(), new arrow.Int32())),
      f64: arrow.makeVector(Float64Array.from([0.5, NaN])),
      ts: arrow.makeVector(arrow.makeData({ type: new arrow.TimestampMicrosecond("Europe/Paris"), length: 2, nullCount: 0, data: BigInt64Array.from([1_000_000n, 2_500_000n]) })),
    });
    const table = fromArrow(e, t);
    expect(table.getResolvedSchema().toString()).toBe("(\n  `u8` SMALLINT NOT NULL,\n  `u32` BIGINT NOT NULL,\n  `name` STRING,\n  `f64` DOUBLE NOT NULL,\n  `ts` TIMESTAMP_LTZ(3)\n)");
    expect(await table.execute().toArray()).toEqual([
      { u8: 1, u32: 0, name: "x", f64: 0.5, ts: new Date(1000) },
      { u8: 255, u32: 4294967295, name: "y", f64: NaN, ts: new Date(2500) },
    ]);
  });

  it("unmapped types and out-of-range BIGINTs are errors naming the column", async () => {
    const e = env();
    const nested = Schema.newBuilder().column("xs", DataTypes.ARRAY(DataTypes.INT())).build();
    await expect(toArrow(e.fromValues(nested, [{ xs: [1] }]))).rejects.toThrow(/toArrow: column 'xs' has type ARRAY<INT>, which has no Arrow mapping yet/);
    const big = arrow.tableFromArrays({ v: BigInt64Array.from([1n, 1n << 60n]) });
    expect(() => fromArrow(e, big)).toThrow(new ValidationError("fromArrow: column 'v' row 2: 1152921504606846976 is outside the BIGINT range tablestream holds exactly (±2^53-1)"));
    const bin = new arrow.Table({ v: arrow.vectorFromArray([new Uint8Array([1])], new arrow.Binary()) });
    expect(() => fromArrow(e, bin)).toThrow(/fromArrow: column 'v': Arrow type Binary has no tablestream mapping yet/);
  });
});
