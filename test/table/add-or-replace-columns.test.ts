import { describe, expect, it } from "vitest";
import { $, DataTypes, EnvironmentSettings, Row, TableEnvironment, ValidationError } from "../../src/index.js";

const people = () => TableEnvironment.create(EnvironmentSettings.inStreamingMode()).fromValues(
  DataTypes.ROW(DataTypes.FIELD("name", DataTypes.STRING()), DataTypes.FIELD("age", DataTypes.INT())),
  Row.of("Alice", 35), Row.of("Bob", 12),
);

/** What a call throws, for calls the compiler already rejects (made through an untyped table). */
function thrown(f: () => unknown): Error {
  try {
    f();
  } catch (e) {
    return e as Error;
  }
  throw new Error("expected an error");
}

describe("addOrReplaceColumns", () => {
  it("replaces a column in place and appends new ones", async () => {
    const t = people().addOrReplaceColumns($("age").plus(1).as("age"), $("name").charLength().as("len"));
    expect(t.getResolvedSchema().names).toEqual(["name", "age", "len"]);
    expect(await t.execute().toChangelog()).toEqual(["+I[Alice, 36, 5]", "+I[Bob, 13, 3]"]);
  });

  it("rejects two new columns of one name, naming it (the compile-time message's wording)", () => {
    const untyped = people() as unknown as { addOrReplaceColumns(...items: unknown[]): unknown };
    const e = thrown(() => untyped.addOrReplaceColumns($("age").plus(1).as("x"), $("age").plus(2).as("x")));
    expect(e).toBeInstanceOf(ValidationError);
    expect(e.message).toBe("addOrReplaceColumns: output column 'x' appears more than once among the new columns [x, x]");
  });

  it("rejects replacing one column twice instead of keeping the last silently", () => {
    const untyped = people() as unknown as { addOrReplaceColumns(...items: unknown[]): unknown };
    const e = thrown(() => untyped.addOrReplaceColumns($("age").plus(1).as("age"), $("name"), $("age").plus(2).as("age")));
    expect(e).toBeInstanceOf(ValidationError);
    expect(e.message).toBe("addOrReplaceColumns: output column 'age' appears more than once among the new columns [age, name, age]");
  });

  it("checks names known only at run time the same way", () => {
    const name: string = ["a", "x"][1]!;
    const e = thrown(() => people().addOrReplaceColumns($("age").as(name), $("name").as("x")));
    expect(e.message).toBe("addOrReplaceColumns: output column 'x' appears more than once among the new columns [x, x]");
  });
});
