// Typed handles (src/table/table-handle.ts): from(handle) reads what the handle was made for, and refuses
// once the name refers to something else, so its static type is never wrong.
import { describe, expect, it } from "vitest";
import { $, DataTypes, EnvironmentSettings, Row, Schema, TableDescriptor, TableEnvironment, ValidationError } from "../../src/index.js";

const PEOPLE = DataTypes.ROW(DataTypes.FIELD("name", DataTypes.STRING()), DataTypes.FIELD("age", DataTypes.INT()));
const env = () => TableEnvironment.create(EnvironmentSettings.inBatchMode());

describe("typed handles", () => {
  it("from(view handle) is the view; its name serves SQL", async () => {
    const e = env();
    const people = e.createTemporaryView("People", e.fromValues(PEOPLE, Row.of("Alice", 35), Row.of("Bob", 12)));
    expect(people.name).toBe("People");
    expect(await e.from(people).filter($("age").isGreaterOrEqual(18)).select($("name")).execute().toChangelog()).toEqual(["+I[Alice]"]);
    expect(await e.sqlQuery(`SELECT name FROM ${people} WHERE age < 18`).execute().toChangelog()).toEqual(["+I[Bob]"]);
  });

  it("from(table handle) scans the connector table", async () => {
    const e = env();
    const gen = e.createTemporaryTable("Gen", TableDescriptor.forConnector("datagen")
      .schema(Schema.newBuilder().column("id", "INT NOT NULL").build()).option("number-of-rows", "3").option("fields.id.kind", "sequence")
      .option("fields.id.start", "1").option("fields.id.end", "3").build());
    expect(await e.from(gen).execute().toChangelog()).toEqual(["+I[1]", "+I[2]", "+I[3]"]);
  });

  it("a handle whose name was dropped, replaced or shadowed, or that belongs to another environment, is refused", () => {
    const e = env();
    const first = e.createTemporaryView("V", e.fromValues(PEOPLE, Row.of("Alice", 35)));
    e.dropTemporaryView("V");
    expect(() => e.from(first)).toThrow(new ValidationError(
      "from(handle 'V'): 'V' no longer refers to the table this handle was made for (it was dropped, replaced or shadowed, "
      + "or createTable kept an existing table); use from(\"V\") for what is registered now"));
    e.createTemporaryView("V", e.fromValues(1, 2));
    expect(() => e.from(first)).toThrow(ValidationError);

    const schema = Schema.newBuilder().column("id", "INT").build();
    const catalog = e.createTable("T", TableDescriptor.forConnector("datagen").schema(schema).option("number-of-rows", "1").build());
    expect(e.from(catalog).getResolvedSchema().names).toEqual(["id"]);
    // createTable(ignoreIfExists) keeps the table there: the new handle's type would be the ignored descriptor's
    const ignored = e.createTable("T", TableDescriptor.forConnector("datagen").schema(Schema.newBuilder().column("x", "STRING").build()).build(), true);
    expect(() => e.from(ignored)).toThrow(/'T' no longer refers to the table this handle was made for/);
    // a temporary table of the same name shadows the catalog table
    e.createTemporaryTable("T", TableDescriptor.forConnector("datagen").schema(schema).option("number-of-rows", "1").build());
    expect(() => e.from(catalog)).toThrow(/'T' no longer refers/);

    const other = env();
    expect(() => other.from(catalog)).toThrow(new ValidationError("from(handle 'T'): the handle belongs to another TableEnvironment"));
  });

  it("createTemporaryView refuses what is not a Table", () => {
    const e = env();
    expect(() => e.createTemporaryView("X", {} as never)).toThrow(new ValidationError("createTemporaryView('X'): expected a Table"));
  });
});
