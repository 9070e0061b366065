import { describe, expect, it } from "vitest";
import { functions } from "../../examples/table-api/builtin-functions.js";
import { productTotals, widgetCounts } from "../../examples/table-api/group-counts.js";
import { filtered, reshaped, selectTotals } from "../../examples/table-api/projections.js";
import { EnvironmentSettings, TableEnvironment } from "../../src/index.js";
import { printed } from "../support.js";

const streaming = () => TableEnvironment.create(EnvironmentSettings.inStreamingMode());
const batch = () => TableEnvironment.create(EnvironmentSettings.inBatchMode());

describe("seed 003: basic operations", () => {
  it("select with a computed total", async () => {
    expect(await selectTotals(streaming()).execute().toChangelog()).toEqual([
      "+I[widget, 2, 3.00]", "+I[gadget, 1, 20.00]", "+I[widget, 0, 0.00]", "+I[gizmo, 5, 16.25]", "+I[widget, 4, 5.60]",
    ]);
    expect(selectTotals(streaming()).getResolvedSchema().toShortString())
      .toBe("[product: STRING NOT NULL, amount: INT NOT NULL, total: DECIMAL(21, 2) NOT NULL]");
  });

  it("chained filters drop zero amounts, cancelled and NULL statuses", async () => {
    expect(await filtered(streaming()).execute().toChangelog()).toEqual([
      "+I[1, widget, 2, 1.50, paid]", "+I[5, widget, 4, 1.40, paid]",
    ]);
  });

  it("addColumns, renameColumns, dropColumns", async () => {
    const t = reshaped(streaming());
    expect(t.getResolvedSchema().names).toEqual(["item", "amount", "price", "status", "total"]);
    expect(await t.execute().toChangelog()).toEqual([
      "+I[widget, 2, 1.50, paid, 3.00]", "+I[gadget, 1, 20.00, cancelled, 20.00]", "+I[widget, 0, 1.50, paid, 0.00]",
      "+I[gizmo, 5, 3.25, null, 16.25]", "+I[widget, 4, 1.40, paid, 5.60]",
    ]);
  });
});

describe("seed 003: built-in functions", () => {
  it("upperCase, round and extract(HOUR), NULL in gives NULL out", async () => {
    expect(await printed(functions(streaming()).execute())).toBe([
      "+----+--------------------------------+--------------------------------+----------------------+",
      "| op |                            _c0 |                            _c1 |                  _c2 |",
      "+----+--------------------------------+--------------------------------+----------------------+",
      "| +I |                           LAMP |                           20.0 |                    7 |",
      "| +I |                           DESK |                          149.5 |                   16 |",
      "| +I |                          CHAIR |                         <NULL> |               <NULL> |",
      "+----+--------------------------------+--------------------------------+----------------------+",
      "3 rows in set",
    ].join("\n"));
  });
});

describe("seed 003: aggregation and the changelog", () => {
  it("three widget orders: +I [widget, 1], then -U/+U pairs, as the document shows", async () => {
    expect(await widgetCounts(streaming()).execute().toChangelog()).toEqual([
      "+I[widget, 1]", "-U[widget, 1]", "+U[widget, 2]", "-U[widget, 2]", "+U[widget, 3]",
    ]);
  });

  it("groupBy with sum and count is an updating table in streaming mode", async () => {
    const t = productTotals(streaming());
    expect(t.changelogMode()).toBe("[I,UB,UA]");
    expect(await t.execute().toChangelog()).toEqual([
      "+I[widget, 2, 1]", "+I[gadget, 1, 1]", "-U[widget, 2, 1]", "+U[widget, 2, 2]", "+I[gizmo, 5, 1]",
      "-U[widget, 2, 2]", "+U[widget, 6, 3]",
    ]);
  });

  it("the same query in batch mode gives the final insert-only result", async () => {
    const t = productTotals(batch());
    expect(t.changelogMode()).toBe("[I]");
    expect(await t.execute().toChangelog()).toEqual(["+I[widget, 6, 3]", "+I[gadget, 1, 1]", "+I[gizmo, 5, 1]"]);
  });
});
