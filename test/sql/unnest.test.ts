// CROSS JOIN UNNEST(array) / LEFT JOIN UNNEST(...) ON TRUE: one row per element, as Flink's UNNEST.
import { describe, expect, it } from "vitest";
import { DataTypes, EnvironmentSettings, Row, TableEnvironment, ValidationError } from "../../src/index.js";

function env() {
  const e = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
  const type = DataTypes.ROW(
    DataTypes.FIELD("id", DataTypes.INT().notNull()),
    DataTypes.FIELD("tags", DataTypes.ARRAY(DataTypes.STRING())),
    DataTypes.FIELD("items", DataTypes.ARRAY(DataTypes.ROW(DataTypes.FIELD("name", DataTypes.STRING()), DataTypes.FIELD("qty", DataTypes.INT())))),
    DataTypes.FIELD("attrs", DataTypes.MAP(DataTypes.STRING(), DataTypes.INT())),
  );
  e.createTemporaryView("Orders", e.fromValues(type, [
    Row.of(1, ["a", "b"], [Row.of("apple", 2)], new Map([["x", 1]])),
    Row.of(2, [], [Row.of("pear", 1), Row.of("plum", 3)], new Map()),
    Row.of(3, null, null, null),
    Row.of(4, ["c", null], [], new Map([["y", 2], ["z", 3]])),
  ]) as never);
  return e;
}

describe("UNNEST", () => {
  it("CROSS JOIN UNNEST(array) AS t (tag): one row per element; an empty or NULL array gives none", async () => {
    const e = env();
    expect(await e.executeSql("SELECT id, tag FROM Orders CROSS JOIN UNNEST(tags) AS t (tag)").toChangelog())
      .toEqual(["+I[1, a]", "+I[1, b]", "+I[4, c]", "+I[4, null]"]);
    // a comma join is the same; the element column without a name list is EXPR$0
    expect(await e.executeSql("SELECT id, t.tag FROM Orders, UNNEST(Orders.tags) t (tag) WHERE t.tag IS NOT NULL").toChangelog())
      .toEqual(["+I[1, a]", "+I[1, b]", "+I[4, c]"]);
    expect(e.sqlQuery("SELECT * FROM Orders CROSS JOIN UNNEST(tags)").getResolvedSchema().names).toEqual(["id", "tags", "items", "attrs", "EXPR$0"]);
    expect(e.sqlQuery("SELECT id, tag FROM Orders CROSS JOIN UNNEST(tags) AS t (tag)").explain()).toContain("Correlate(invocation=[UNNEST(tags)]");
  });

  it("an array of rows gives the rows' fields; a map its key and value; LEFT JOIN ... ON TRUE keeps rows without elements", async () => {
    const e = env();
    expect(await e.executeSql("SELECT id, name, qty FROM Orders CROSS JOIN UNNEST(items)").toChangelog())
      .toEqual(["+I[1, apple, 2]", "+I[2, pear, 1]", "+I[2, plum, 3]"]);
    expect(await e.executeSql("SELECT id, k, v FROM Orders CROSS JOIN UNNEST(attrs) AS m (k, v)").toChangelog())
      .toEqual(["+I[1, x, 1]", "+I[4, y, 2]", "+I[4, z, 3]"]);
    expect(await e.executeSql("SELECT id, tag FROM Orders LEFT JOIN UNNEST(tags) AS t (tag) ON TRUE").toChangelog())
      .toEqual(["+I[1, a]", "+I[1, b]", "+I[2, null]", "+I[3, null]", "+I[4, c]", "+I[4, null]"]);
  });

  it("errors: not an array or map, a wrong number of names, UNNEST on the left", () => {
    const e = env();
    expect(() => e.sqlQuery("SELECT * FROM Orders CROSS JOIN UNNEST(id) AS t (x)")).toThrow(/UNNEST takes an ARRAY or a MAP, got INT NOT NULL/);
    expect(() => e.sqlQuery("SELECT * FROM Orders CROSS JOIN UNNEST(attrs) AS t (x)")).toThrow(/UNNEST produces 2 columns \[key, value\] but the alias names 1 \[x\]/);
    expect(() => e.sqlQuery("SELECT * FROM UNNEST(tags) AS t (x)")).toThrow(ValidationError);
    expect(() => e.sqlQuery("SELECT * FROM Orders FULL JOIN UNNEST(tags) AS t (x) ON TRUE")).toThrow(/use CROSS JOIN or LEFT JOIN \.\.\. ON TRUE/);
  });

  it("WITH ORDINALITY AS t (v, pos): each element with its position from 1, for arrays, arrays of rows and maps", async () => {
    const e = env();
    expect(await e.executeSql("SELECT id, tag, pos FROM Orders CROSS JOIN UNNEST(tags) WITH ORDINALITY AS t (tag, pos)").toChangelog())
      .toEqual(["+I[1, a, 1]", "+I[1, b, 2]", "+I[4, c, 1]", "+I[4, null, 2]"]);
    expect(await e.executeSql("SELECT id, name, qty, n FROM Orders CROSS JOIN UNNEST(items) WITH ORDINALITY AS t (name, qty, n)").toChangelog())
      .toEqual(["+I[1, apple, 2, 1]", "+I[2, pear, 1, 1]", "+I[2, plum, 3, 2]"]);
    expect(await e.executeSql("SELECT id, k, v, i FROM Orders CROSS JOIN UNNEST(attrs) WITH ORDINALITY AS m (k, v, i)").toChangelog())
      .toEqual(["+I[1, x, 1, 1]", "+I[4, y, 2, 1]", "+I[4, z, 3, 2]"]);
    expect(await e.executeSql("SELECT id, tag, pos FROM Orders LEFT JOIN UNNEST(tags) WITH ORDINALITY AS t (tag, pos) ON TRUE").toChangelog())
      .toEqual(["+I[1, a, 1]", "+I[1, b, 2]", "+I[2, null, null]", "+I[3, null, null]", "+I[4, c, 1]", "+I[4, null, 2]"]);
    const schema = e.sqlQuery("SELECT * FROM Orders CROSS JOIN UNNEST(tags) WITH ORDINALITY").getResolvedSchema();
    expect(schema.names).toEqual(["id", "tags", "items", "attrs", "EXPR$0", "ORDINALITY"]);
    expect(schema.toString()).toContain("`ORDINALITY` INT NOT NULL");
    expect(() => e.sqlQuery("SELECT * FROM Orders CROSS JOIN UNNEST(tags) WITH ORDINALITY AS t (x)"))
      .toThrow(/UNNEST \.\.\. WITH ORDINALITY produces 2 columns \[EXPR\$0, ORDINALITY\] but the alias names 1 \[x\]/);
  });
});
