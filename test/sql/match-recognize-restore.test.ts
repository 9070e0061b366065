// MATCH_RECOGNIZE restore programs (MatchRecognizeRestoreTest): stop with a savepoint after the rows "before
// restore" — partial matches and rows waiting for the watermark are in the snapshot — restore a new job from it and
// feed the rows "after restore"; Flink's exact rows per phase.
import { expect, it } from "vitest";
import { backendSuite } from "../support/state-backends.js";
import { DataTypes, Schema, type TableEnvironment } from "../../src/index.js";
import { type AnyTable, type ProgramSource, twoPhase } from "../checkpoints/two-phase.js";
import { EVENT_TIME_AFTER, EVENT_TIME_BEFORE, EVENT_TIME_SCHEMA, SIMPLE_ROWS, SIMPLE_SQL, SKIP_AFTER, SKIP_BEFORE, eventTimeSql } from "./match-recognize-fixtures.js";

const sql = (text: string) => (e: TableEnvironment, tables: Record<string, AnyTable>) => {
  for (const [name, t] of Object.entries(tables)) e.createTemporaryView(name, t as never);
  return e.sqlQuery(text);
};

/** Rows in arrival order with an ascending `proctime` rowtime column (one second per row) and a zero-delay watermark. */
function arrival(name: string, schema: ReturnType<typeof Schema.newBuilder>, before: readonly (readonly unknown[])[], after: readonly (readonly unknown[])[]): ProgramSource {
  const stamp = (rows: readonly (readonly unknown[])[], from: number) => rows.map((r, i) => [...r, (from + i) * 1000]);
  return {
    name, schema: schema.column("proctime", DataTypes.TIMESTAMP(3)).watermark("proctime", "proctime").build() as never,
    before: stamp(before, 0), after: stamp(after, before.length),
  };
}

backendSuite("MATCH_RECOGNIZE restore programs, two phases", () => {
  it("R-149 match-simple: the partial match a, b survives the savepoint and completes with c", async () => {
    const src = arrival("MyTable", Schema.newBuilder().column("id", DataTypes.BIGINT()).column("name", DataTypes.STRING()), SIMPLE_ROWS.slice(0, 10), SIMPLE_ROWS.slice(10));
    const r = await twoPhase([src], sql(SIMPLE_SQL));
    expect(r.before).toEqual(["+I[6, 7, 8]"]);
    expect(r.after).toEqual(["+I[9, 10, 11]"]);
  });

  it("R-151 match-order-by-event-time: rows waiting for the watermark and the partial match are restored", async () => {
    const src: ProgramSource = { name: "MyEventTimeTable", schema: EVENT_TIME_SCHEMA as never, before: EVENT_TIME_BEFORE, after: EVENT_TIME_AFTER };
    const r = await twoPhase([src], sql(eventTimeSql("ORDER BY rowtime")));
    expect(r.before).toEqual(["+I[10, 8, 9]", "+I[7, 5, 8]"]);
    expect(r.after).toEqual(["+I[9, 3, 11]"]);
  });

  it("R-155 match-skip-to-next-row: the partial match from the last 100 continues after the restore", async () => {
    const src = arrival("MyTable", Schema.newBuilder().column("vehicle_id", DataTypes.BIGINT()).column("engine_temperature", DataTypes.INT()), SKIP_BEFORE, SKIP_AFTER);
    const r = await twoPhase([src], sql(`SELECT * FROM MyTable MATCH_RECOGNIZE(PARTITION BY vehicle_id ORDER BY proctime
      MEASURES FIRST(A.engine_temperature) as Initial_Temp, LAST(A.engine_temperature) as Final_Temp ONE ROW PER MATCH AFTER MATCH SKIP TO NEXT ROW
      PATTERN (A+ B) DEFINE A as LAST(A.engine_temperature,1) is NULL OR A.engine_temperature > LAST(A.engine_temperature,1),
      B as B.engine_temperature < LAST(A.engine_temperature)) MR`));
    expect(r.before).toEqual(["+I[1, 100, 106]", "+I[1, 102, 106]", "+I[1, 104, 106]", "+I[1, 106, 106]", "+I[1, 105, 107]", "+I[1, 107, 107]", "+I[1, 101, 101]"]);
    expect(r.after).toEqual(["+I[1, 100, 111]", "+I[1, 110, 111]", "+I[1, 111, 111]"]);
  });
});
