import { describe, expect, it } from "vitest";
import { $, DataTypes, type ResolvedSchema, Row, ValidationError, lit } from "../../src/index.js";
import { changelog, env, thrown } from "./support.js";

const F = DataTypes.FIELD;
const people = () => env().fromValues(
  DataTypes.ROW(F("name", DataTypes.STRING()), F("age", DataTypes.INT())), Row.of("Alice", 35), Row.of("Bob", 12),
);

describe("$, lit and as", () => {
  it("columns keep their names, unnamed expressions are _c<position>, .as names a result", async () => {
    const t = people().select($("name"), $("age").plus(1), lit("x"), $("age").times(2).as("twice"));
    expect(t.getResolvedSchema().names).toEqual(["name", "_c1", "_c2", "twice"]);
    expect(await changelog(t)).toEqual(["+I[Alice, 36, x, 70]", "+I[Bob, 13, x, 24]"]);
  });

  it("addColumns numbers unnamed columns after the existing ones", () => {
    // the type level asks for a name here; at run time Flink's rule applies
    const untyped = people() as unknown as { addColumns(...e: unknown[]): { getResolvedSchema(): ResolvedSchema } };
    expect(untyped.addColumns($("age").plus(1)).getResolvedSchema().names).toEqual(["name", "age", "_c2"]);
  });

  it("$ needs a non-empty name", () => {
    expect(thrown(() => $("" as "name")).message).toBe("$() needs a column name");
  });
});

describe("unknown columns reached through dynamic strings", () => {
  // a column name computed at run time slips past the compiler; the API call must still catch it
  const dynamic = (name: string) => $(name as "name");
  const message = "column 'nmae' is not in [name, age]";

  it("select, filter and addColumns raise a ValidationError naming the column and the available ones", () => {
    for (const call of [
      () => people().select(dynamic("nmae")),
      () => people().filter(dynamic("nmae").isEqual("Bob")),
      () => people().addColumns(dynamic("nmae").upperCase().as("up")),
      () => people().select($("age").plus(dynamic("nmae") as never)),
    ]) {
      const e = thrown(call);
      expect(e).toBeInstanceOf(ValidationError);
      expect(e.message).toBe(message);
    }
  });

  it("groupBy keys, aggregates, renameColumns and dropColumns raise it too", () => {
    expect(thrown(() => people().groupBy(dynamic("nmae")).select(dynamic("nmae"))).message).toBe(message);
    expect(thrown(() => people().groupBy($("name")).select($("name"), $("agee" as "age").sum())).message).toBe("column 'agee' is not in [name, age]");
    expect(thrown(() => people().renameColumns(dynamic("nmae").as("n"))).message).toBe("renameColumns: column 'nmae' is not in [name, age]");
    expect(thrown(() => people().dropColumns(dynamic("nmae"))).message).toBe("dropColumns: column 'nmae' is not in [name, age]");
  });
});
