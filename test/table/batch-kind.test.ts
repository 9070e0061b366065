// Batch vs streaming as the type says (issue 9, test/types/batch.ts): a batch aggregate is insert-only at
// run time, so it is written to an append-only sink by descriptor without a schema; the same query in
// streaming updates and the planner refuses that sink.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { $, DataTypes, EnvironmentSettings, Row, TableDescriptor, TableEnvironment, ValidationError } from "../../src/index.js";

const ROWS = DataTypes.ROW(DataTypes.FIELD("product", DataTypes.STRING().notNull()), DataTypes.FIELD("amount", DataTypes.INT().notNull()));
const DATA = [Row.of("apple", 3), Row.of("pear", 1), Row.of("apple", 4)];

function totals<B extends boolean>(env: TableEnvironment<B>) {
  return env.fromValues(ROWS, ...DATA).groupBy($("product")).select($("product"), $("amount").sum().as("total"));
}

describe("batch aggregates into an append-only sink", () => {
  it("a batch group aggregate is written to a filesystem sink by descriptor, with the table's schema", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tablestream-batch-kind-"));
    try {
      const env = TableEnvironment.create(EnvironmentSettings.inBatchMode());
      const t = totals(env);
      expect(t.changelogMode()).toBe("[I]");
      await t.executeInsert(TableDescriptor.forConnector("filesystem").option("path", dir).format("csv").build()).await();
      const files = readdirSync(dir).filter((f) => !f.startsWith("."));
      expect(files).toHaveLength(1);
      const lines = readFileSync(join(dir, files[0]!), "utf8").split("\n").filter((l) => l !== "").sort();
      expect(lines).toEqual(["apple,7", "pear,1"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("the same aggregate in streaming updates, and the planner refuses the append-only sink", () => {
    const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    const t = totals(env);
    expect(t.changelogMode()).toBe("[I,UB,UA]");
    // (a compile error when the table's kind is known: test/types/batch.ts; here typed as "any changelog")
    const untyped = t as unknown as ReturnType<TableEnvironment["from"]>;
    expect(() => untyped.insertInto(TableDescriptor.forConnector("filesystem").option("path", "/nonexistent").format("csv").build()))
      .toThrow(ValidationError);
  });

  it("batch results of joins, top-N and set operations are inserts, as their type says", async () => {
    const env = TableEnvironment.create(EnvironmentSettings.inBatchMode());
    const orders = env.fromValues(ROWS, ...DATA);
    const prices = env.fromValues(DataTypes.ROW(DataTypes.FIELD("name", DataTypes.STRING().notNull()), DataTypes.FIELD("price", DataTypes.INT())),
      Row.of("apple", 2), Row.of("plum", 5));
    const joined = orders.leftOuterJoin(prices, $("product").isEqual($("name"))).select($("product"), $("amount"), $("price"));
    const top = orders.topN(1, { partitionBy: [$("product")], orderBy: [$("amount").desc()] });
    const minus = orders.select($("product")).minus(prices.select($("name").as("product")));
    for (const t of [joined, top, minus]) expect(t.changelogMode()).toBe("[I]");
    expect((await joined.execute().toChangelog()).sort()).toEqual(["+I[apple, 3, 2]", "+I[apple, 4, 2]", "+I[pear, 1, null]"]);
    expect((await top.execute().toChangelog()).sort()).toEqual(["+I[apple, 4]", "+I[pear, 1]"]);
    expect(await minus.execute().toChangelog()).toEqual(["+I[pear]"]);
  });
});
