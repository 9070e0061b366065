import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  $, DataTypes, EnvironmentSettings, Schema, TableDescriptor, TableEnvironment, defineConnector, type PushedFilter, type SourceBatch,
} from "../../../src/index.js";

const env = () => TableEnvironment.create(EnvironmentSettings.inStreamingMode());
const schema = Schema.newBuilder().column("name", DataTypes.STRING()).column("age", DataTypes.INT()).column("city", DataTypes.STRING()).build();

function people() {
  const d = mkdtempSync(join(tmpdir(), "tablestream-pushdown-"));
  writeFileSync(join(d, "p.csv"), "Ann,35,Oslo\nBob,17,Rome\nCid,,Oslo\nDan,52,\nEve,18,Rome\n");
  const e = env();
  e.createTemporaryTable("people", TableDescriptor.forConnector("filesystem").schema(schema).option("path", d).format("csv").build());
  return e;
}

describe("projection and filter pushdown", () => {
  it("pushes comparisons with literals and the used columns into the file source; explain shows them", async () => {
    const e = people();
    const t = e.from("people").filter($("age").isGreaterOrEqual(18).and($("city").isEqual("Oslo").or($("age").isGreater(50)))).select($("name"));
    const plan = t.explain();
    // every column is used (name selected, age and city filtered): no projection
    // an OR of comparisons is offered as one filter: the file source applies it too, nothing stays above
    expect(plan).toContain("SourceScan(table=[people], connector=[filesystem], filter=[age >= 18 AND (city = 'Oslo' OR age > 50)], changelogMode=[I]) -> [name: STRING, age: INT, city: STRING]");
    expect(plan).not.toContain("Filter(");
    expect(await t.execute().toChangelog()).toEqual(["+I[Ann]", "+I[Dan]"]);
  });

  it("a filter fully pushed disappears; a projection reads only the used columns", async () => {
    const e = people();
    const t = e.from("people").filter($("city").isEqual("Rome")).select($("name"));
    const plan = t.explain();
    expect(plan).toContain("SourceScan(table=[people], connector=[filesystem], project=[name, city], filter=[city = 'Rome']");
    expect(plan).not.toContain("Filter(");
    expect(await t.execute().toChangelog()).toEqual(["+I[Bob]", "+I[Eve]"]);
    const p = e.from("people").select($("age"), $("name"));
    expect(p.explain()).toContain("project=[name, age]");
    expect(await p.execute().toChangelog()).toEqual(["+I[35, Ann]", "+I[17, Bob]", "+I[null, Cid]", "+I[52, Dan]", "+I[18, Eve]"]);
  });

  it("NULLs fail pushed comparisons (SQL semantics), IS NULL / IN / flipped comparisons are pushed", async () => {
    const e = people();
    expect(await e.from("people").filter($("age").isLess(40)).select($("name")).execute().toChangelog()).toEqual(["+I[Ann]", "+I[Bob]", "+I[Eve]"]);
    const nulls = e.from("people").filter($("city").isNull()).select($("name"));
    expect(nulls.explain()).toContain("filter=[city IS NULL]");
    expect(await nulls.execute().toChangelog()).toEqual(["+I[Dan]"]);
    const inList = e.sqlQuery("SELECT name FROM people WHERE age IN (17, 52) AND 20 < age");
    expect(inList.explain()).toContain("filter=[age IN (17, 52) AND age > 20]");
    expect(await inList.execute().toChangelog()).toEqual(["+I[Dan]"]);
  });

  it("a scan read by two consumers is not changed", async () => {
    const e = people();
    const scan = e.from("people");
    const u = scan.filter($("age").isGreater(40)).select($("name")).unionAll(scan.select($("city").as("name")));
    expect(u.explain()).not.toContain("filter=[");
    expect((await u.execute().toChangelog()).length).toBe(6);
  });

  it("a public connector gets the accepted filters and the projection in its context", async () => {
    const seen: { filters: readonly PushedFilter[]; columns: string[]; projection?: readonly number[] }[] = [];
    const e = env().registerConnector(defineConnector({
      name: "pushy",
      options: {},
      source: {
        pushdown: { projection: true, acceptFilter: (f) => f.op === "=" },
        createReader: (ctx) => {
          seen.push({ filters: ctx.filters, columns: ctx.columns.map((c) => c.name), ...(ctx.projection ? { projection: ctx.projection } : {}) });
          let done = false;
          // the source applies the equality itself: only Rome rows, only the projected columns
          return { read: (): SourceBatch | null => (done ? null : (done = true, { rows: [["Bob", 17, "Rome"], ["Eve", 18, "Rome"]].map((r) => ctx.projection!.map((i) => r[i])) })), position: () => null, close() {} };
        },
      },
    }));
    e.createTemporaryTable("p", TableDescriptor.forConnector("pushy").schema(schema).build());
    const t = e.from("p").filter($("city").isEqual("Rome")).select($("name"));
    expect(t.explain()).toContain("SourceScan(table=[p], connector=[pushy], project=[name, city], filter=[city = 'Rome'], changelogMode=[I]) -> [name: STRING, city: STRING]");
    expect(await t.execute().toChangelog()).toEqual(["+I[Bob]", "+I[Eve]"]);
    expect(seen.at(-1)).toEqual({ filters: [{ column: "city", op: "=", value: "Rome" }], columns: ["name", "city"], projection: [0, 2] });
    // a filter it does not accept stays in the plan
    const kept = e.from("p").filter($("age").isGreater(17)).select($("name"));
    expect(kept.explain()).toContain("Filter(condition=[greaterThan(age, 17)]");
    expect(kept.explain()).toContain("SourceScan(table=[p], connector=[pushy], project=[name, age], changelogMode=[I])");
  });
});
