// The seeds' SQL examples that examples/sql/ runs as written (the statement sets are in
// test/sql/statement-sets.test.ts; the seeds' other SQL calls in test/sql/execute-sql.test.ts and the PTF examples).
import { describe, expect, it } from "vitest";
import { EnvironmentSettings, Row, TableEnvironment } from "../../src/index.js";
import { ORDERED_PROCESSOR_SCRIPT, orderedProcessorScript } from "../../examples/sql/ordered-processor.js";
import { updatingTable } from "../../examples/sql/updating-table.js";
import type { Event } from "../../examples/ptf/ordered-processor.js";

describe("seed 000 SQL examples, as written", () => {
  it("Ordering: CREATE TABLE (datagen) + CREATE FUNCTION ... AS 'org.example.OrderedProcessor' + ORDER BY (ts ASC, score DESC)", async () => {
    const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    const result = orderedProcessorScript(env);
    expect(env.listUserDefinedFunctions()).toEqual(["OrderedProcessor"]);
    expect(result.getResolvedSchema().toShortString()).toBe("[name: STRING, EXPR$0: ARRAY<*Event*>]");
    const rows: { name: unknown; EXPR$0: unknown }[] = [];
    for await (const r of result.collect()) {
      rows.push(r as never);
      if (rows.length === 4) break;
    }
    // datagen's names are random, so each partition holds one event: its list is that one event, released in ts order
    const times = rows.map((r) => {
      expect(Row.kindOf(r as never)).toBe("+I");
      const events = r.EXPR$0 as Event[];
      expect(events).toHaveLength(1);
      return events[0]!.ts!.getTime();
    });
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(new Set(rows.map((r) => r.name)).size).toBe(4);
    expect(ORDERED_PROCESSOR_SCRIPT[1]).toBe("CREATE FUNCTION OrderedProcessor AS 'org.example.OrderedProcessor';");
  });

  it("Updating input tables: the changes of COUNT(*) over VALUES 1, 2, 3 enter a SUPPORT_UPDATES argument", async () => {
    expect(await updatingTable().toChangelog()).toEqual(["+I[+I[1]]", "+I[-U[1]]", "+I[+U[2]]", "+I[-U[2]]", "+I[+U[3]]"]);
  });
});
