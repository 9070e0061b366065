// §6 top-N and §7 deduplication (RankTestPrograms, DeduplicationTestPrograms): two-phase restore form
// through SQL, Flink's exact rows (multisets). The ranked rows are state: a row after the restore displaces
// one ranked before it.
import { describe, expect, it } from "vitest";
import { type CatalogueSource, runRestore, sorted } from "./restore-runner.js";

const rankSource = (changelog: boolean): CatalogueSource => ({
  name: "MyTable", columns: "a INT, b VARCHAR, c INT primary key not enforced", changelog,
  before: [[2, "a", 6], [4, "b", 8], [6, "c", 10], [1, "a", 5], [3, "b", 7], [5, "c", 9]],
  after: [[4, "d", 7], [3, "e", 8]],
});
const RANK_SQL = "insert into `sink_t` select * from (select a, b, row_number() over(partition by b order by c) as c from MyTable) where c = 1";

describe("§6 top-N, restored from a savepoint", () => {
  it("R-039 rank-test-retract-strategy: a source declaring updates; the replaced first row is deleted", async () => {
    const r = await runRestore({ sources: [rankSource(true)], sink: { name: "sink_t", columns: "a INT, b VARCHAR, c BIGINT" }, sql: RANK_SQL });
    expect(sorted(r.before)).toEqual(sorted([
      "+I[2, a, 1]", "+I[4, b, 1]", "+I[6, c, 1]", "-D[2, a, 1]", "+I[1, a, 1]", "-D[4, b, 1]", "+I[3, b, 1]", "-D[6, c, 1]", "+I[5, c, 1]",
    ]));
    expect(sorted(r.after)).toEqual(sorted(["+I[4, d, 1]", "+I[3, e, 1]"]));
  });
});

const DEDUP_COLUMNS = "order_id bigint, `user` varchar, product varchar, order_time bigint , event_time as TO_TIMESTAMP(FROM_UNIXTIME(order_time)) , "
  + "watermark for event_time as event_time - INTERVAL '5' second ";

describe("§7 deduplication, restored from a savepoint", () => {
  it("R-042 deduplicate-asc: the first row per product in event time, into an upsert sink", async () => {
    const r = await runRestore({
      sources: [{
        name: "MyTable", columns: DEDUP_COLUMNS,
        before: [[1, "terry", "pen", 1000], [2, "alice", "pen", 2000], [3, "bob", "pen", 3000], [4, "bob", "apple", 4000], [5, "fish", "apple", 5000]],
        after: [[6, "jerry", "pen", 6000], [7, "larry", "apple", 7000], [8, "bill", "banana", 8000], [9, "carol", "apple", 9000]],
      }],
      sink: { name: "MySink", columns: "order_id bigint, `user` varchar, product varchar, order_time bigint, primary key(product) not enforced" },
      sql: `insert into MySink select order_id, user, product, order_time 
FROM (  SELECT *,    ROW_NUMBER() OVER (PARTITION BY product ORDER BY event_time ASC) AS row_num
  FROM MyTable)WHERE row_num = 1`,
    });
    expect(sorted(r.before)).toEqual(sorted(["+I[1, terry, pen, 1000]", "+I[4, bob, apple, 4000]"]));
    expect(r.after).toEqual(["+I[8, bill, banana, 8000]"]);
  });
});
