// MATCH_RECOGNIZE in SQL: Flink's MatchRecognizeTestPrograms (R-149 .. R-156) with their exact rows, run in one job
// over the rows before and after the restore (test/sql/match-recognize-restore.test.ts runs them in two phases).
// Flink's programs order by PROCTIME(), which tablestream does not have yet: they run here ordered by an event-time
// column that ascends in arrival order with a zero-delay watermark, which is the same order (see docs/sql.md).
import { describe, expect, it } from "vitest";
import { type DataType, DataTypes, EnvironmentSettings, Row, Schema, TableEnvironment } from "../../src/index.js";

const streaming = () => TableEnvironment.create(EnvironmentSettings.inStreamingMode());

/** A view `name` of `rows` (arrival order) with an appended `proctime` rowtime column ascending by one second per row. */
export function arrivalOrdered(env: TableEnvironment, name: string, columns: readonly [string, DataType][], rows: readonly (readonly unknown[])[]): void {
  let b = Schema.newBuilder();
  for (const [n, t] of columns) b = b.column(n, t) as never;
  const schema = b.column("proctime", DataTypes.TIMESTAMP(3)).watermark("proctime", "proctime").build();
  env.createTemporaryView(name, env.fromValues(schema, ...rows.map((r, i) => Row.of(...r, new Date(Date.UTC(2020, 9, 10) + i * 1000)))) as never);
}

/** MatchRecognizeTestPrograms' event-time source: `ts` strings, a 2-second watermark on `rowtime`. */
export const EVENT_TIME_BEFORE: readonly (readonly unknown[])[] = [
  ["2020-10-10 00:00:01", 10, 3], ["2020-10-10 00:00:01", 8, 2], ["2020-10-10 00:00:01", 9, 1], ["2020-10-10 00:00:04", 7, 4],
  ["2020-10-10 00:00:07", 8, 5], ["2020-10-10 00:00:06", 5, 6], ["2020-10-10 00:00:12", 3, 7], ["2020-10-10 00:00:08", 4, 8],
  ["2020-10-10 00:00:16", 4, 9], ["2020-10-10 00:00:32", 7, 10], ["2020-10-10 00:00:34", 5, 11],
];
export const EVENT_TIME_AFTER: readonly (readonly unknown[])[] = [
  ["2020-10-10 00:00:33", 9, 12], ["2020-10-10 00:00:41", 3, 13], ["2020-10-10 00:00:42", 11, 16], ["2020-10-10 00:00:43", 12, 15], ["2020-10-10 00:00:44", 13, 14],
];
export const EVENT_TIME_SCHEMA = Schema.newBuilder().column("ts", DataTypes.STRING()).column("price", DataTypes.INT()).column("sequence_num", DataTypes.INT())
  .columnByExpression("rowtime", "TO_TIMESTAMP(`ts`)").watermark("rowtime", "`rowtime` - INTERVAL '2' SECOND").build();

export const eventTimeSql = (orderBy: string) => `SELECT * FROM MyEventTimeTable MATCH_RECOGNIZE (
   ${orderBy}
  MEASURES
    FIRST(DOWN.price) as first,
    LAST(DOWN.price) as last,
    UP.price as up
  ONE ROW PER MATCH
  AFTER MATCH SKIP PAST LAST ROW
  PATTERN (DOWN{2,} UP)
  DEFINE
    DOWN AS price < LAST(DOWN.price, 1) OR LAST(DOWN.price, 1) IS NULL,
    UP AS price > LAST(DOWN.price)
) AS T`;

function eventTimeEnv(): TableEnvironment {
  const env = streaming();
  env.createTemporaryView("MyEventTimeTable", env.fromValues(EVENT_TIME_SCHEMA, ...[...EVENT_TIME_BEFORE, ...EVENT_TIME_AFTER].map((r) => Row.of(...r))) as never);
  return env;
}

describe("MATCH_RECOGNIZE: Flink's programs", () => {
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
export const SKIP_BEFORE = [[1, 100], [1, 102], [1, 104], [1, 106], [1, 105], [1, 107], [1, 101], [1, 100]] as const;
export const SKIP_AFTER = [[1, 110], [1, 111], [1, 99]] as const;
export const SKIP_COLUMNS: [string, DataType][] = [["vehicle_id", DataTypes.BIGINT()], ["engine_temperature", DataTypes.INT()]];

async function skipProgram(after: string): Promise<string[]> {
  const env = streaming();
  arrivalOrdered(env, "MyTable", SKIP_COLUMNS, [...SKIP_BEFORE, ...SKIP_AFTER]);
  return env.executeSql(SKIP_SQL(after)).toChangelog();
}

export const SIMPLE_SQL = `SELECT T.aid, T.bid, T.cid
     FROM MyTable MATCH_RECOGNIZE (
             ORDER BY proctime
             MEASURES
             \`A"\`.id AS aid,
             l.id AS bid,
             C.id AS cid
             PATTERN (\`A"\` l C)
             DEFINE
                 \`A"\` AS name = 'a',
                 l AS name = 'b',
                 C AS name = 'c'
     ) AS T`;
export const SIMPLE_ROWS = [[1, "a"], [2, "z"], [3, "b"], [4, "c"], [5, "d"], [6, "a"], [7, "b"], [8, "c"], [9, "a"], [10, "b"], [11, "c"]] as const;
export const COMPLEX_SQL = `SELECT * FROM MyTable MATCH_RECOGNIZE (
  PARTITION BY symbol
  ORDER BY proctime
  MEASURES
    FIRST(DOWN.price) as first,
    LAST(DOWN.price) as last,
    FIRST(DOWN.price, 5) as nullPrice
  ONE ROW PER MATCH
  AFTER MATCH SKIP PAST LAST ROW
  PATTERN (DOWN{2,} UP)
  DEFINE
    DOWN AS price < LAST(DOWN.price, 1) OR LAST(DOWN.price, 1) IS NULL,
    UP AS price > LAST(DOWN.price)
) AS T`;
export const COMPLEX_ROWS = [["ACME", 1, 19, 1], ["BETA", 2, 18, 1], ["ACME", 3, 17, 2], ["ACME", 4, 13, 3], ["BETA", 5, 16, 2], ["ACME", 6, 20, 4], ["BETA", 7, 22, 4]] as const;
export const COMPLEX_COLUMNS: [string, DataType][] = [["symbol", DataTypes.STRING()], ["tstamp", DataTypes.BIGINT()], ["price", DataTypes.INT()], ["tax", DataTypes.INT()]];

describe("MATCH_RECOGNIZE: Flink's programs in arrival order", () => {
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
