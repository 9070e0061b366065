// MATCH_RECOGNIZE in SQL: Flink's MatchRecognizeTestPrograms (R-149 .. R-156) with their exact rows, run in one job
// over the rows before and after the restore (test/sql/match-recognize-restore.test.ts runs them in two phases).
// Flink's programs order by PROCTIME(), which tablestream does not have yet: they run here ordered by an event-time
// column that ascends in arrival order with a zero-delay watermark, which is the same order (see docs/sql.md).
import { describe, expect, it } from "vitest";
import { DataTypes, EnvironmentSettings, Row, Schema, TableEnvironment } from "../../src/index.js";

const streaming = () => TableEnvironment.create(EnvironmentSettings.inStreamingMode());

/** A view `name` of `rows` (arrival order) with an appended `proctime` rowtime column ascending by one second per row. */
export function arrivalOrdered(env: TableEnvironment, name: string, columns: readonly [string, ReturnType<typeof DataTypes.INT>][], rows: readonly (readonly unknown[])[]): void {
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
