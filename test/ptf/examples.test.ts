// The seed's PTF examples (examples/ptf), each with its exact printed output.
import { describe, expect, it } from "vitest";
import { concatNonKeys } from "../../examples/ptf/concat-non-keys.js";
import { countingFunctions } from "../../examples/ptf/counting-functions.js";
import { dataTypes } from "../../examples/ptf/data-types.js";
import { generators } from "../../examples/ptf/generators.js";
import { greeting, greetingByName, greetingSql } from "../../examples/ptf/greeting.js";
import { greetingWithMemory, greetingWithMemorySql } from "../../examples/ptf/greeting-with-memory.js";
import { largeHistory } from "../../examples/ptf/large-history.js";
import { TABLE_FILTER_SQL, tableFilterCalls, tableFilterSql } from "../../examples/ptf/table-filter.js";
import { thresholdFunction } from "../../examples/ptf/threshold-function.js";
import { printed } from "../support.js";

const lines = (...l: string[]) => l.join("\n");

describe("seed 000: motivating examples", () => {
  const greetingOut = lines(
    "+----+--------------------------------+",
    "| op |                         EXPR$0 |",
    "+----+--------------------------------+",
    "| +I |                     Hello Bob! |",
    "| +I |                   Hello Alice! |",
    "| +I |                     Hello Bob! |",
    "+----+--------------------------------+",
    "3 rows in set",
  );

  it("Greeting: row semantics, inline and registered", async () => {
    expect(await printed(greeting().execute())).toBe(greetingOut);
    expect(await printed(greetingByName().execute())).toBe(greetingOut);
    // the seed's SQL form prints the same table
    expect(await printed(greetingSql())).toBe(greetingOut);
  });

  it("Greeting with Memory: set semantics, a counter per name (Table API and SQL)", async () => {
    const out = lines(
      "+----+--------------------------------+--------------------------------+",
      "| op |                           name |                         EXPR$0 |",
      "+----+--------------------------------+--------------------------------+",
      "| +I |                            Bob |        Hello Bob, your 1 time? |",
      "| +I |                          Alice |      Hello Alice, your 1 time? |",
      "| +I |                            Bob |        Hello Bob, your 2 time? |",
      "+----+--------------------------------+--------------------------------+",
      "3 rows in set",
    );
    expect(await printed(greetingWithMemory().execute())).toBe(out);
    expect(await printed(greetingWithMemorySql())).toBe(out);
  });
});

describe("seed 000: call syntax", () => {
  it("TableFilter: every positional and named form gives the same rows", async () => {
    const calls = tableFilterCalls();
    for (const [form, table] of Object.entries(calls)) {
      expect(await table.execute().toChangelog(), form).toEqual(["+I[100, 142]", "+I[100, 101]"]);
    }
    for (const sql of TABLE_FILTER_SQL) {
      const result = tableFilterSql(sql);
      expect(result.getResolvedSchema().toShortString(), sql).toBe("[threshold: INT, score: BIGINT]");
      expect(await result.toChangelog(), sql).toEqual(["+I[100, 142]", "+I[100, 101]"]);
    }
    expect(calls.named.getResolvedSchema().toShortString()).toBe("[threshold: INT, score: BIGINT]");
    expect(calls.fromCall.explain()).toContain("invocation=[TableFilter(TABLE(#0), 100, DEFAULT(), 'my-ptf')], uid=[my-ptf]");
    expect(await printed(tableFilterCalls().positional.execute())).toBe(lines(
      "+----+-------------+----------------------+",
      "| op |   threshold |                score |",
      "+----+-------------+----------------------+",
      "| +I |         100 |                  142 |",
      "| +I |         100 |                  101 |",
      "+----+-------------+----------------------+",
      "2 rows in set",
    ));
  });
});

describe("seed 000: data types, arguments, context", () => {
  it("AdditionFunction and the DuplicatorFunctions (also DECIMAL(10, 4))", async () => {
    const t = dataTypes();
    expect(await printed(t.addition.execute())).toBe(lines(
      "+----+-------------+",
      "| op |      EXPR$0 |",
      "+----+-------------+",
      "| +I |          42 |",
      "+----+-------------+",
      "1 row in set",
    ));
    expect(await printed(t.duplicator.execute())).toBe(lines(
      "+----+-------------+--------------------------------+",
      "| op |           i |                              s |",
      "+----+-------------+--------------------------------+",
      "| +I |           7 |                          seven |",
      "| +I |           7 |                          seven |",
      "+----+-------------+--------------------------------+",
      "2 rows in set",
    ));
    expect(await printed(t.decimal.execute())).toBe(lines(
      "+----+--------------+",
      "| op |            d |",
      "+----+--------------+",
      "| +I |       3.1415 |",
      "| +I |       3.1415 |",
      "+----+--------------+",
      "2 rows in set",
    ));
    expect(t.decimal.getResolvedSchema().toShortString()).toBe("[d: DECIMAL(10, 4)]");
  });

  it("ThresholdFunction: a named input_table and a scalar threshold", async () => {
    expect(await printed(thresholdFunction().execute())).toBe(lines(
      "+----+--------------------------------+-------------+",
      "| op |                       customer |      EXPR$0 |",
      "+----+--------------------------------+-------------+",
      "| +I |                          Alice |          50 |",
      "| +I |                            Bob |          20 |",
      "| +I |                         Charly |          10 |",
      "+----+--------------------------------+-------------+",
      "3 rows in set",
    ));
  });

  it("ConcatNonKeysFunction: the non-key columns via the context", async () => {
    expect(await printed(concatNonKeys().execute())).toBe(lines(
      "+----+--------------------------------+--------------------------------+",
      "| op |                           name |                         EXPR$0 |",
      "+----+--------------------------------+--------------------------------+",
      "| +I |                            Bob |                      London, 3 |",
      "| +I |                          Alice |                      Berlin, 7 |",
      "| +I |                            Bob |                       Paris, 1 |",
      "+----+--------------------------------+--------------------------------+",
      "3 rows in set",
    ));
  });
});

describe("seed 000: state", () => {
  const seen = lines(
    "+----+--------------------------------+--------------------------------+",
    "| op |                           name |                         EXPR$0 |",
    "+----+--------------------------------+--------------------------------+",
    "| +I |                            Bob |                   Seen rows: 1 |",
    "| +I |                          Alice |                   Seen rows: 1 |",
    "| +I |                            Bob |                   Seen rows: 2 |",
    "| +I |                            Bob |                   Seen rows: 3 |",
    "| +I |                          Alice |                   Seen rows: 2 |",
    "+----+--------------------------------+--------------------------------+",
    "5 rows in set",
  );

  it("CountingFunction with a defaulted counter", async () => {
    expect(await printed(countingFunctions().counting.execute())).toBe(seen);
  });

  it("CountingFunction with a ROW state (count starts as null)", async () => {
    expect(await printed(countingFunctions().row.execute())).toBe(seen);
  });

  it("CountingFunction waiting for a second event", async () => {
    expect(await countingFunctions().waiting.execute().toChangelog()).toEqual([
      "+I[Bob, Event 1: +I[Bob, 1] and Event 2: +I[Bob, 3]]",
      "+I[Bob, Event 1: +I[Bob, 1] and Event 2: +I[Bob, 4]]",
      "+I[Alice, Event 1: +I[Alice, 2] and Event 2: +I[Alice, 5]]",
    ]);
  });

  it("CountingFunction with TTL that clears its state after the second event", async () => {
    expect(await countingFunctions().ttl.execute().toChangelog()).toEqual([
      "+I[Bob, Event 1: +I[Bob, 1] and Event 2: +I[Bob, 3]]",
      "+I[Alice, Event 1: +I[Alice, 2] and Event 2: +I[Alice, 5]]",
    ]);
  });

  it("LargeHistoryFunction: a MapView of event counts per user", async () => {
    expect(await printed(largeHistory().execute())).toBe(lines(
      "+----+--------------------------------+--------------------------------+",
      "| op |                         userId |                         EXPR$0 |",
      "+----+--------------------------------+--------------------------------+",
      "| +I |                             u1 |           Anomaly detected: e1 |",
      "| +I |                             u1 |           Anomaly detected: e1 |",
      "+----+--------------------------------+--------------------------------+",
      "2 rows in set",
    ));
  });
});

describe("seed 000: generators", () => {
  it("OrderGenerator and PaymentGenerator run once each and give structured columns", async () => {
    const { orders, payments } = generators();
    expect(await printed(orders.execute())).toBe(lines(
      "+----+--------------------------------+--------------------------------+-------------+--------------------------------+",
      "| op |                         amount |                       currency |          id |                         userId |",
      "+----+--------------------------------+--------------------------------+-------------+--------------------------------+",
      "| +I |                          23.46 |                            USD |     1000001 |                            Bob |",
      "| +I |                           6.99 |                            USD |     1000021 |                            Bob |",
      "| +I |                           0.79 |                            EUR |     1000601 |                          Alice |",
      "| +I |                          100.6 |                            EUR |     1000703 |                         Charly |",
      "+----+--------------------------------+--------------------------------+-------------+--------------------------------+",
      "4 rows in set",
    ));
    expect(await printed(payments.execute())).toBe(lines(
      "+----+-------------+-------------+",
      "| op |          id |     orderId |",
      "+----+-------------+-------------+",
      "| +I |   999997870 |     1000001 |",
      "| +I |   999997870 |     1000001 |",
      "| +I |   999993331 |     1000021 |",
      "| +I |   999994111 |     1000601 |",
      "+----+-------------+-------------+",
      "4 rows in set",
    ));
  });
});
