// The public connector API's readable metadata: SourceDefinition.metadata declares keys and types, the reader
// gets the keys a table reads in SourceContext.metadata and appends their values to every row.
import { describe, expect, it } from "vitest";
import { DataTypes, EnvironmentSettings, TableEnvironment, defineConnector, option, type SourceBatch } from "../../../src/index.js";

function tagged(bad = false) {
  const seen: string[][] = [];
  const connector = defineConnector({
    name: "tagged",
    options: { topic: option.string({ default: "t1" }) },
    source: {
      metadata: { topic: DataTypes.STRING().notNull(), offset: DataTypes.BIGINT().notNull() },
      createReader: (ctx) => {
        seen.push(ctx.metadata.map((m) => `${m.name}:${m.type}`));
        let done = false;
        return {
          async read(): Promise<SourceBatch | null> {
            if (done) return null;
            done = true;
            const meta = (i: number) => ctx.metadata.map((m) => (m.name === "topic" ? ctx.options.topic : bad ? "x" : i));
            return { rows: [[1, "a", ...meta(0)], [2, "b", ...meta(1)]] };
          },
          position: () => (done ? 1 : 0),
          close: () => {},
        };
      },
    },
  });
  return { connector, seen };
}

describe("connector API: readable metadata", () => {
  it("a table's METADATA columns are delivered after the physical values, in the order the table declares them", async () => {
    const { connector, seen } = tagged();
    const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    env.registerConnector(connector);
    env.executeSql("CREATE TABLE T (`off` BIGINT METADATA FROM 'offset' VIRTUAL, id INT, v STRING, topic STRING METADATA) WITH ('connector' = 'tagged', 'topic' = 'orders')");
    expect(await env.executeSql("SELECT * FROM T").toChangelog()).toEqual(["+I[0, 1, a, orders]", "+I[1, 2, b, orders]"]);
    expect(seen).toEqual([["offset:BIGINT NOT NULL", "topic:STRING NOT NULL"]]);
    // a table without metadata columns gets none
    env.executeSql("CREATE TABLE P (id INT, v STRING) WITH ('connector' = 'tagged')");
    expect(await env.executeSql("SELECT * FROM P").toChangelog()).toEqual(["+I[1, a]", "+I[2, b]"]);
    expect(seen[1]).toEqual([]);
  });

  it("an unknown key lists the declared ones; a wrong value is the reader's error naming the column", async () => {
    const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    env.registerConnector(tagged(true).connector);
    env.executeSql("CREATE TABLE U (id INT, v STRING, p STRING METADATA FROM 'partition') WITH ('connector' = 'tagged')");
    expect(() => env.sqlQuery("SELECT * FROM U")).toThrow(/Invalid metadata key 'partition' in column 'p' of table 'default_catalog.default_database.U'\. The DynamicTableSource of connector 'tagged' supports the following metadata keys for reading:\ntopic\noffset/);
    env.executeSql("CREATE TABLE B (id INT, v STRING, o BIGINT METADATA FROM 'offset') WITH ('connector' = 'tagged')");
    await expect(env.executeSql("SELECT * FROM B").toChangelog()).rejects.toThrow("connector 'tagged' table 'B', row 1, column 'offset': value 'x' (string) does not fit type BIGINT NOT NULL");
  });
});
