// Flink's MatchRecognizeTestPrograms: their SQL and rows (shared by the one-job and the restore tests).
import { type DataType, DataTypes, Row, Schema, type TableEnvironment } from "../../src/index.js";

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

export const SKIP_BEFORE = [[1, 100], [1, 102], [1, 104], [1, 106], [1, 105], [1, 107], [1, 101], [1, 100]] as const;

export const SKIP_AFTER = [[1, 110], [1, 111], [1, 99]] as const;

export const SKIP_COLUMNS: [string, DataType][] = [["vehicle_id", DataTypes.BIGINT()], ["engine_temperature", DataTypes.INT()]];

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
