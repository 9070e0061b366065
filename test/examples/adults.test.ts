import { describe, expect, it } from "vitest";
import { adults } from "../../examples/table-api/adults.js";
import { Row } from "../../src/index.js";
import { printed } from "../support.js";

describe("seed 003: the complete example", () => {
  it("prints the adults table exactly as the document shows", async () => {
    expect(await printed(adults().execute())).toBe(
      [
        "+----+--------------------------------+-------------+",
        "| op |                           name |         age |",
        "+----+--------------------------------+-------------+",
        "| +I |                          Alice |          35 |",
        "| +I |                            Bob |          35 |",
        "+----+--------------------------------+-------------+",
        "2 rows in set",
      ].join("\n"),
    );
  });

  it("collects typed rows with their kinds", async () => {
    const rows = await adults().execute().toArray();
    expect(rows).toEqual([{ name: "Alice", age: 35 }, { name: "Bob", age: 35 }]);
    expect(rows.map((r) => Row.kindOf(r))).toEqual(["+I", "+I"]);
  });
});
