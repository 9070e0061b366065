// An INSERT writes a TIMESTAMP into a TIMESTAMP_LTZ sink column (and back) as Flink's implicit cast does;
// tablestream's session time zone is UTC, so the wall-clock time and the instant agree.
import { describe, expect, it } from "vitest";
import { CollectionSink, DataTypes, EnvironmentSettings, Row, Schema, TableEnvironment } from "../../src/index.js";

async function insert(from: "TIMESTAMP" | "TIMESTAMP_LTZ", to: string): Promise<string[]> {
  const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
  const sink = new CollectionSink();
  env.createTemporaryTable("out", sink.descriptor(Schema.newBuilder().column("id", DataTypes.INT()).column("t", to).build()));
  const type = from === "TIMESTAMP" ? DataTypes.TIMESTAMP(3) : DataTypes.TIMESTAMP_LTZ(3);
  await env.fromValues(DataTypes.ROW(DataTypes.FIELD("id", DataTypes.INT()), DataTypes.FIELD("t", type)), Row.of(1, new Date(Date.UTC(2020, 0, 1, 8, 0, 0))), Row.of(2, null))
    .executeInsert("out").await();
  return sink.changelog();
}

describe("TIMESTAMP and TIMESTAMP_LTZ sink columns", () => {
  it("a TIMESTAMP into a TIMESTAMP_LTZ column is the instant of that wall-clock time", async () => {
    expect(await insert("TIMESTAMP", "TIMESTAMP_LTZ(3)")).toEqual(["+I[1, 2020-01-01T08:00:00Z]", "+I[2, null]"]);
  });

  it("a TIMESTAMP_LTZ into a TIMESTAMP column is the wall-clock time of the instant", async () => {
    expect(await insert("TIMESTAMP_LTZ", "TIMESTAMP(3)")).toEqual(["+I[1, 2020-01-01T08:00]", "+I[2, null]"]);
  });

  it("other types still do not fit a timestamp column", async () => {
    const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    env.createTemporaryTable("out", new CollectionSink().descriptor(Schema.newBuilder().column("t", "TIMESTAMP_LTZ(3)").build()));
    expect(() => env.fromValues(DataTypes.ROW(DataTypes.FIELD("t", DataTypes.DATE())), Row.of(new Date(0))).insertInto("out"))
      .toThrow("Incompatible types for sink column 't' at position 0.");
  });
});
