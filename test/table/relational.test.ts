import { describe, expect, it } from "vitest";
import { $, DataTypes, EnvironmentSettings, Row, RowKind, Table, TableEnvironment, ValidationError } from "../../src/index.js";

const streaming = () => TableEnvironment.create(EnvironmentSettings.inStreamingMode());
const batch = () => TableEnvironment.create(EnvironmentSettings.inBatchMode());

const PEOPLE = DataTypes.ROW(
  DataTypes.FIELD("name", DataTypes.STRING()), DataTypes.FIELD("age", DataTypes.INT()), DataTypes.FIELD("city", DataTypes.STRING()));
const people = (env: TableEnvironment) => env.fromValues(PEOPLE,
  Row.of("Alice", 35, "Berlin"), Row.of("Bob", 17, "Paris"), Row.of("Carol", 42, "Berlin"), Row.of("Dave", 35, null));

describe("distinct", () => {
  it("keeps the first occurrence of each row, NULL equal to NULL", async () => {
    const t = streaming().fromValues(DataTypes.ROW(DataTypes.FIELD("a", DataTypes.INT()), DataTypes.FIELD("b", DataTypes.STRING())),
      Row.of(1, "x"), Row.of(1, "x"), Row.of(null, "x"), Row.of(1, null), Row.of(null, "x"), Row.of(2, "x"), Row.of(1, null));
    const d = t.distinct();
    expect(d.changelogMode()).toBe("[I]");
    expect(await d.execute().toChangelog()).toEqual(["+I[1, x]", "+I[null, x]", "+I[1, null]", "+I[2, x]"]);
  });

  it("on an updating input: -D when the last copy of a row is retracted, +I when it comes back", async () => {
    const t = streaming().fromValues(DataTypes.ROW(DataTypes.FIELD("a", DataTypes.INT())),
      Row.of(1), Row.of(1), Row.ofKind(RowKind.DELETE, 1), Row.ofKind(RowKind.UPDATE_BEFORE, 1), Row.ofKind(RowKind.UPDATE_AFTER, 1),
      Row.ofKind(RowKind.DELETE, 7));
    const d = t.distinct();
    expect(d.changelogMode()).toBe("[I,D]");
    expect(await d.execute().toChangelog()).toEqual(["+I[1]", "-D[1]", "+I[1]"]);
  });

  it("in batch mode over an updating input: only the rows present at the end, as inserts", async () => {
    const t = batch().fromValues(DataTypes.ROW(DataTypes.FIELD("a", DataTypes.INT())),
      Row.of(1), Row.of(2), Row.of(2), Row.ofKind(RowKind.DELETE, 1), Row.of(3));
    expect(t.distinct().changelogMode()).toBe("[I]");
    expect(await t.distinct().execute().toChangelog()).toEqual(["+I[2]", "+I[3]"]);
  });
});

describe("union and unionAll", () => {
  it("unionAll keeps duplicates, union removes them; names come from the first table", async () => {
    const env = streaming();
    const cities = people(env).select($("city"));
    const names = env.fromValues("Berlin", "Rome", "Berlin").as("town");
    expect(await cities.unionAll(names as never).execute().toArray()).toHaveLength(7);
    const u = cities.union(names as never);
    expect(u.getResolvedSchema().names).toEqual(["city"]);
    const rows = (await u.execute().toChangelog()).sort();
    expect(rows).toEqual(["+I[Berlin]", "+I[Paris]", "+I[Rome]", "+I[null]"]);
  });

  it("the result type is the common type of the inputs; an INT column is cast where a DECIMAL is expected", async () => {
    const env = streaming();
    const a = env.fromValues(DataTypes.ROW(DataTypes.FIELD("x", DataTypes.INT().notNull()), DataTypes.FIELD("s", DataTypes.CHAR(2).notNull())), Row.of(1, "ab"));
    const b = env.fromValues(DataTypes.ROW(DataTypes.FIELD("y", DataTypes.DECIMAL(10, 2)), DataTypes.FIELD("t", DataTypes.VARCHAR(5))), Row.of("2.50", "hello"));
    const u = (a as unknown as Table<object>).unionAll(b as unknown as Table<object>);
    expect(u.getResolvedSchema().toShortString()).toBe("[x: DECIMAL(12, 2), s: VARCHAR(5)]");
    expect(await u.execute().toChangelog()).toEqual(["+I[1.00, ab]", "+I[2.50, hello]"]);
  });

  it("rejects tables with different column counts or incompatible types, naming the column", () => {
    const env = streaming();
    const a = people(env) as unknown as Table<object>;
    expect(() => a.unionAll(people(env).select($("name")) as unknown as Table<object>))
      .toThrow("union: tables have different numbers of columns: [name: STRING, age: INT, city: STRING] and [name: STRING]");
    const bools = env.fromValues(DataTypes.ROW(DataTypes.FIELD("n", DataTypes.BOOLEAN()), DataTypes.FIELD("a", DataTypes.INT()), DataTypes.FIELD("c", DataTypes.STRING())),
      Row.of(true, 1, "x")) as unknown as Table<object>;
    expect(() => a.union(bools)).toThrow(new ValidationError(
      "union: incompatible types at column 1: STRING ('name') in the first table and BOOLEAN ('n') in another"));
  });

  it("union of updating inputs retracts through the distinct", async () => {
    const env = streaming();
    const t = env.fromValues(DataTypes.ROW(DataTypes.FIELD("a", DataTypes.INT())), Row.of(1), Row.ofKind(RowKind.DELETE, 1));
    const u = t.union(env.fromValues(DataTypes.ROW(DataTypes.FIELD("a", DataTypes.INT())), Row.of(2)));
    expect(u.changelogMode()).toBe("[I,D]");
    expect(await u.execute().toChangelog()).toEqual(["+I[1]", "+I[2]", "-D[1]"]);
  });
});

describe("createTemporaryView / from", () => {
  it("a registered view is found by name and can be queried like the table", async () => {
    const env = streaming();
    env.createTemporaryView("people", people(env));
    const adults = env.from<{ name: string | null; age: number | null }>("people").filter($("age").isGreaterOrEqual(18)).select($("name"));
    expect(await adults.execute().toChangelog()).toEqual(["+I[Alice]", "+I[Carol]", "+I[Dave]"]);
    expect(env.listViews()).toEqual(["people"]);
  });

  it("unknown names list the known ones; a name cannot be registered twice until dropped", () => {
    const env = streaming();
    env.createTemporaryView("people", people(env));
    expect(() => env.from("peple")).toThrow(new ValidationError("table 'peple' is not registered; known: [people]"));
    expect(() => env.createTemporaryView("people", people(env))).toThrow(new ValidationError("Temporary table 'people' already exists"));
    expect(env.dropTemporaryView("people")).toBe(true);
    expect(env.dropTemporaryView("people")).toBe(false);
    env.createTemporaryView("people", people(env).select($("name")));
    expect(env.from("people").getResolvedSchema().names).toEqual(["name"]);
  });

  it("a table of another environment cannot be registered", () => {
    expect(() => streaming().createTemporaryView("p", people(streaming())))
      .toThrow("createTemporaryView('p'): the table belongs to another TableEnvironment");
  });
});

describe("explain() and changelogMode()", () => {
  it("prints each node with its attributes, changelog mode and schema (filter / select / groupBy)", () => {
    const q = people(streaming())
      .filter($("age").isGreaterOrEqual(18))
      .select($("city"), $("age"))
      .groupBy($("city"))
      .select($("city"), $("age").avg().as("avg_age"), $("age").count().as("n"));
    expect(q.explain()).toBe([
      "== Logical Plan ==",
      "Aggregate(groupBy=[city], select=[city, AVG(age) AS avg_age, COUNT(age) AS n], changelogMode=[I,UB,UA]) -> [city: STRING, avg_age: INT, n: BIGINT NOT NULL]",
      "+- Project(select=[city, age], changelogMode=[I]) -> [city: STRING, age: INT]",
      "   +- Filter(condition=[greaterThanOrEqual(age, 18)], changelogMode=[I]) -> [name: STRING, age: INT, city: STRING]",
      "      +- Values(rows=4, changelogMode=[I]) -> [name: STRING, age: INT, city: STRING]",
    ].join("\n"));
  });

  it("shows a projection over the aggregate when the select list computes, and batch mode's insert-only modes", () => {
    const q = (env: TableEnvironment) => people(env).groupBy($("city")).select($("city").upperCase().as("c"), $("age").max().plus(1));
    expect(q(streaming()).explain()).toBe([
      "== Logical Plan ==",
      "Project(select=[upper(city) AS c, plus(EXPR$0, 1) AS _c1], changelogMode=[I,UB,UA]) -> [c: STRING, _c1: INT]",
      "+- Aggregate(groupBy=[city], select=[city, MAX(age) AS EXPR$0], changelogMode=[I,UB,UA]) -> [city: STRING, EXPR$0: INT]",
      "   +- Values(rows=4, changelogMode=[I]) -> [name: STRING, age: INT, city: STRING]",
    ].join("\n"));
    expect(q(batch()).explain()).toContain("Aggregate(groupBy=[city], select=[city, MAX(age) AS EXPR$0], changelogMode=[I])");
  });

  it("distinct and union nodes", () => {
    const env = streaming();
    const u = people(env).select($("city")).union(people(env).select($("name")) as never);
    expect(u.explain()).toBe([
      "== Logical Plan ==",
      "Distinct(changelogMode=[I]) -> [city: STRING]",
      "+- Union(all=[true], changelogMode=[I]) -> [city: STRING]",
      "   :- Project(select=[city], changelogMode=[I]) -> [city: STRING]",
      "   :  +- Values(rows=4, changelogMode=[I]) -> [name: STRING, age: INT, city: STRING]",
      "   +- Project(select=[name], changelogMode=[I]) -> [name: STRING]",
      "      +- Values(rows=4, changelogMode=[I]) -> [name: STRING, age: INT, city: STRING]",
    ].join("\n"));
  });

  it("changelogMode() of append, updating and retracting tables", () => {
    const env = streaming();
    const t = people(env);
    expect(t.changelogMode()).toBe("[I]");
    expect(t.filter($("age").isGreater(1)).changelogMode()).toBe("[I]");
    expect(t.groupBy($("city")).select($("city"), $("age").sum()).changelogMode()).toBe("[I,UB,UA]");
    const updating = env.fromValues(PEOPLE, Row.of("a", 1, "x"), Row.ofKind(RowKind.UPDATE_BEFORE, "a", 1, "x"), Row.ofKind(RowKind.UPDATE_AFTER, "a", 2, "x"));
    expect(updating.changelogMode()).toBe("[I,UB,UA]");
    expect(updating.groupBy($("city")).select($("city"), $("age").sum()).changelogMode()).toBe("[I,UB,UA,D]");
    expect(t.groupBy($("city")).select($("city"), $("age").sum()).select($("city")).changelogMode()).toBe("[I,UB,UA]");
  });
});
