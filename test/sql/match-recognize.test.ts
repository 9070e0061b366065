// MATCH_RECOGNIZE in SQL: Flink's MatchRecognizeTestPrograms (R-149 .. R-156) with their exact rows, run in one job
// over the rows before and after the restore (test/sql/match-recognize-restore.test.ts runs them in two phases).
// Flink's programs order by PROCTIME(), which tablestream does not have yet: they run here ordered by an event-time
// column that ascends in arrival order with a zero-delay watermark, which is the same order (see docs/sql.md).
import { expect, it } from "vitest";
import { activeBackendOptions, backendSuite } from "../support/state-backends.js";
import { DataTypes, EnvironmentSettings, Row, TableEnvironment } from "../../src/index.js";
import {
  COMPLEX_COLUMNS, COMPLEX_ROWS, COMPLEX_SQL, EVENT_TIME_AFTER, EVENT_TIME_BEFORE, EVENT_TIME_SCHEMA, SIMPLE_ROWS, SIMPLE_SQL, SKIP_AFTER, SKIP_BEFORE, SKIP_COLUMNS,
  arrivalOrdered, eventTimeSql,
} from "./match-recognize-fixtures.js";

/** A streaming environment on the backend of the suite that runs (test/support/state-backends.ts). */
const streaming = (() => { const e = TableEnvironment.create(EnvironmentSettings.inStreamingMode()); for (const [k, v] of Object.entries(activeBackendOptions())) e.getConfig().set(k, v); return e; });




function eventTimeEnv(): TableEnvironment {
  const env = streaming();
  env.createTemporaryView("MyEventTimeTable", env.fromValues(EVENT_TIME_SCHEMA, ...[...EVENT_TIME_BEFORE, ...EVENT_TIME_AFTER].map((r) => Row.of(...r))) as never);
  return env;
}

backendSuite("MATCH_RECOGNIZE: Flink's programs", () => {
  it("R-151 match-order-by-event-time: rows sorted by rowtime as the watermark passes, the late row dropped", async () => {
    const env = eventTimeEnv();
    expect(await env.executeSql(eventTimeSql("ORDER BY rowtime")).toChangelog()).toEqual(["+I[10, 8, 9]", "+I[7, 5, 8]", "+I[9, 3, 11]"]);
  });

  it("R-152 match-order-by-int-column: a second ORDER BY key orders rows of equal time", async () => {
    const env = eventTimeEnv();
    expect(await env.executeSql(eventTimeSql("ORDER BY rowtime, sequence_num")).toChangelog()).toEqual(["+I[9, 8, 10]", "+I[7, 5, 8]", "+I[9, 3, 11]"]);
  });
});

const SKIP_SQL = (after: string) => `SELECT * FROM
 MyTable
   MATCH_RECOGNIZE(
   PARTITION BY vehicle_id
   ORDER BY \`proctime\`
   MEASURES
       FIRST(A.engine_temperature) as Initial_Temp,
       LAST(A.engine_temperature) as Final_Temp
   ONE ROW PER MATCH
   ${after}
   PATTERN (A+ B)
   DEFINE
       A as LAST(A.engine_temperature,1) is NULL OR A.engine_temperature > LAST(A.engine_temperature,1),
       B as B.engine_temperature < LAST(A.engine_temperature)
   )MR;`;

async function skipProgram(after: string): Promise<string[]> {
  const env = streaming();
  arrivalOrdered(env, "MyTable", SKIP_COLUMNS, [...SKIP_BEFORE, ...SKIP_AFTER]);
  return env.executeSql(SKIP_SQL(after)).toChangelog();
}


backendSuite("MATCH_RECOGNIZE: Flink's programs in arrival order", () => {
  it("R-149 match-simple: quoted and lower-case variables, a strict sequence A l C", async () => {
    const env = streaming();
    arrivalOrdered(env, "MyTable", [["id", DataTypes.BIGINT()], ["name", DataTypes.STRING()]], SIMPLE_ROWS);
    expect(await env.executeSql(SIMPLE_SQL).toChangelog()).toEqual(["+I[6, 7, 8]", "+I[9, 10, 11]"]);
  });

  it("R-150 match-complex: PARTITION BY, DOWN{2,} UP, FIRST(DOWN.price, 5) is NULL; SELECT * is partition columns + measures", async () => {
    const env = streaming();
    arrivalOrdered(env, "MyTable", COMPLEX_COLUMNS, COMPLEX_ROWS);
    const t = env.sqlQuery(COMPLEX_SQL);
    expect(t.getResolvedSchema().toString()).toBe("(\n  `symbol` STRING,\n  `first` INT,\n  `last` INT,\n  `nullPrice` INT\n)");
    expect(await env.executeSql(COMPLEX_SQL).toChangelog()).toEqual(["+I[ACME, 19, 13, null]", "+I[BETA, 18, 16, null]"]);
  });

  it("R-153 match-skip-to-first: the next match begins at B's row", async () => {
    expect(await skipProgram("AFTER MATCH SKIP TO FIRST B")).toEqual(["+I[1, 100, 106]", "+I[1, 105, 107]", "+I[1, 101, 101]", "+I[1, 100, 111]"]);
  });

  it("R-154 match-skip-to-last: the same rows (B is one row)", async () => {
    expect(await skipProgram("AFTER MATCH SKIP TO LAST B")).toEqual(["+I[1, 100, 106]", "+I[1, 105, 107]", "+I[1, 101, 101]", "+I[1, 100, 111]"]);
  });

  it("R-155 match-skip-to-next-row: one match per starting row, in the order they began", async () => {
    expect(await skipProgram("AFTER MATCH SKIP TO NEXT ROW")).toEqual([
      "+I[1, 100, 106]", "+I[1, 102, 106]", "+I[1, 104, 106]", "+I[1, 106, 106]", "+I[1, 105, 107]", "+I[1, 107, 107]", "+I[1, 101, 101]",
      "+I[1, 100, 111]", "+I[1, 110, 111]", "+I[1, 111, 111]",
    ]);
  });

  it("R-156 match-skip-past-last-row: the next match begins after the last row", async () => {
    expect(await skipProgram("AFTER MATCH SKIP PAST LAST ROW")).toEqual(["+I[1, 100, 106]", "+I[1, 107, 107]", "+I[1, 100, 111]"]);
  });
});
