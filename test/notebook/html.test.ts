import { describe, expect, it } from "vitest";
import { $, DataTypes, EnvironmentSettings, Row, TableEnvironment } from "../../src/index.js";
import { changelogHtml, planHtml, resultHtml, schemaHtml, show, showPlan, showSchema } from "../../src/notebook/index.js";

const people = (env: TableEnvironment) => env.fromValues(
  DataTypes.ROW(DataTypes.FIELD("name", DataTypes.STRING()), DataTypes.FIELD("age", DataTypes.INT())),
  Row.of("Alice", 35), Row.of("Bob", 35), Row.of("<b>Eve</b>", null));

const cells = (html: string) => [...html.matchAll(/<tr[^>]*>(.*?)<\/tr>/g)].map((m) => [...m[1]!.matchAll(/<t[dh][^>]*>(.*?)<\/t[dh]>/g)].map((c) => c[1]));

describe("HTML tableau", () => {
  it("shows a streaming changelog with an op column, kinds coloured, values escaped, <NULL> for null", async () => {
    const env = TableEnvironment.create();
    const counts = people(env).groupBy($("age")).select($("age"), $("name").count().as("n"));
    const html = await resultHtml(counts.execute());
    await expect(show(people(env))).resolves.toBeUndefined();
    expect(cells(html)).toEqual([
      ["op", "age", "n"],
      ["+I", "35", "1"], ["-U", "35", "1"], ["+U", "35", "2"], ["+I", "&lt;NULL&gt;", "1"],
    ]);
    expect(html).toContain('<tr style="color:#b35900">'); // -U
    expect(html).toContain("4 rows in set");
  });

  it("shows a batch result without op column, and cuts long results with a count", async () => {
    const env = TableEnvironment.create(EnvironmentSettings.inBatchMode());
    const html = await resultHtml(people(env).execute(), { maxRows: 2 });
    expect(cells(html)).toEqual([["name", "age"], ["Alice", "35"], ["Bob", "35"]]);
    expect(html).toContain("showing 2 of 3 rows");
    const all = await resultHtml(people(env).execute());
    expect(cells(all)[3]).toEqual(["&lt;b&gt;Eve&lt;/b&gt;", "&lt;NULL&gt;"]);
    expect(all).not.toContain("<b>Eve");
  });

  it("stops an unbounded job after its time budget and says so", async () => {
    const env = TableEnvironment.create();
    env.executeSql("CREATE TABLE gen (id INT) WITH ('connector' = 'datagen', 'rows-per-second' = '1000000')");
    const html = await resultHtml(env.from("gen").execute(), { maxRows: 3, timeoutMs: 100 });
    expect(cells(html)).toHaveLength(4);
    expect(html).toMatch(/showing 3 of \d+ rows · stopped after 100 ms \(time budget\)/);
  });

  it("renders an empty result, and a failing job's rows before failing the cell", async () => {
    const env = TableEnvironment.create();
    expect(await resultHtml(people(env).filter($("age").isGreater(99)).execute())).toContain("Empty set");
    const failing = people(env).select($("name"), $("age").dividedBy(0).as("x"));
    await expect(resultHtml(failing.execute())).rejects.toThrow(/division by zero|divide by zero/i);
  });

  it("shows schemas with types and changelog mode, and plans as a tree", () => {
    const env = TableEnvironment.create();
    const counts = people(env).groupBy($("age")).select($("age"), $("name").count().as("n"));
    const schema = schemaHtml(counts.getResolvedSchema(), counts.changelogMode());
    expect(cells(schema)).toEqual([["column", "type"], ["age", "INT"], ["n", "BIGINT NOT NULL"]]);
    expect(schema).toContain(`changelog mode: ${counts.changelogMode()}`);
    expect(showSchema(counts)).toBeUndefined();
    expect(schemaHtml(counts.getResolvedSchema())).not.toContain("changelog mode");
    expect(showPlan(counts)).toBeUndefined();
    const plan = planHtml(counts.explain());
    expect(plan).toContain("<b>Aggregate</b>");
    expect(plan).toContain("+- <b>Values</b>");
  });

  it("escapes column names", () => {
    const schema = people(TableEnvironment.create()).renameColumns($("name").as("<i>n</i>"), $("age").as("a&b")).getResolvedSchema();
    const html = changelogHtml(schema, [0], [["x", 1]], { streaming: false });
    expect(cells(html)[0]).toEqual(["&lt;i&gt;n&lt;/i&gt;", "a&amp;b"]);
  });
});
