import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  $, ArgumentTrait, CollectionSink, DataTypes, EnvironmentSettings, ProcessTableFunction, Row, ScalarFunction, Schema, TableEnvironment,
  ValidationError, call, lit, tableArg, valueState,
} from "../../src/index.js";
import type { PositionalRow } from "../../src/index.js";
import { checkoutSplit } from "../../examples/table-api/statement-set-checkout.js";
import { fanOut } from "../../examples/table-api/statement-set-fan-out.js";

const streaming = () => TableEnvironment.create(EnvironmentSettings.inStreamingMode());

describe("seed 000: statement sets with PTFs (Table API form)", () => {
  it("fan-out: one PTF call (uid 'same') read by two inserts runs as one stateful operator, split by a filter", async () => {
    const { set, bob, alice } = fanOut(["same", "same"]);
    const plan = set.explain();
    // the PTF is printed once and referred to by the second sink
    expect(plan.match(/Process\(/g)).toHaveLength(1);
    expect(plan).toContain("uid=[same]");
    expect(plan).toContain("Reused(reference_id=[1])");
    await set.execute().await();
    expect(bob.changelog()).toEqual(["+I[Bob, Hello Bob, your 1 time?]", "+I[Bob, Hello Bob, your 2 time?]"]);
    expect(alice.changelog()).toEqual(["+I[Alice, Hello Alice, your 1 time?]"]);
  });

  it("fan-out with two uids: two stateful operators consuming the shared table t", async () => {
    const { set, bob, alice } = fanOut(["ptf1", "ptf2"]);
    const plan = set.explain();
    expect(plan.match(/Process\(/g)).toHaveLength(2);
    // the shared input t is printed once
    expect(plan.match(/Values\(/g)).toHaveLength(1);
    await set.execute().await();
    expect(bob.changelog()).toEqual(["+I[Bob, Hello Bob, your 1 time?]", "+I[Bob, Hello Bob, your 2 time?]"]);
    expect(alice.changelog()).toEqual(["+I[Alice, Hello Alice, your 1 time?]"]);
  });

  it("shopping cart: the Checkouts view (uid 'cart-processor') split into EmailNotifications and CheckoutEvents", async () => {
    const { set, emails, checkouts } = checkoutSplit();
    expect(set.explain().match(/Process\(/g)).toHaveLength(1);
    const result = set.execute();
    await result.await();
    expect(result.getResolvedSchema().names).toEqual([
      "default_catalog.default_database.EmailNotifications", "default_catalog.default_database.CheckoutEvents",
    ]);
    expect(emails.changelog()).toEqual(["+I[Bob, REMINDER, {1=1}, 2025-03-27T12:00:12Z]", "+I[Alice, REMINDER, {1=1}, 2025-03-27T12:00:22Z]"]);
    expect(checkouts.changelog()).toEqual(["+I[Bob, CHECKOUT, {2=1, 5=1}, 2025-03-27T12:01:50Z]"]);
  });
});

/** A PTF that counts its evaluations in `calls.n`, to see how many operators a job ran. */
function countingPtf(calls: { n: number }) {
  return ProcessTableFunction.define({
    name: "Counting",
    args: { input: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE) },
    state: { s: valueState({ seen: 0 }) },
    output: DataTypes.INT(),
    eval(ctx, { s }) {
      calls.n++;
      s.seen++;
      ctx.collect(s.seen);
    },
  });
}

function names(env: TableEnvironment) {
  return env.fromValues("Bob", "Alice", "Bob", "Bob").as("name");
}

const NAME_N = Schema.newBuilder().column("name", "STRING").column("n", "INT").build();

describe("StatementSet: one job for several sinks", () => {
  it("PTF calls with one uid are one operator: each row is evaluated once, whatever the number of sinks", async () => {
    const env = streaming();
    const calls = { n: 0 };
    const F = countingPtf(calls);
    const [a, b, c] = [new CollectionSink(), new CollectionSink(), new CollectionSink()];
    const t = names(env);
    const call = () => t.partitionBy($("name")).process(F, lit("counter").asArgument("uid"));
    await env.createStatementSet()
      .addInsert(a.descriptor(NAME_N), call().filter($("name").isEqual("Bob")))
      .addInsert(b.descriptor(NAME_N), call().filter($("name").isEqual("Alice")))
      .add(call().insertInto(c.descriptor(NAME_N)))
      .execute().await();
    expect(calls.n).toBe(4);
    expect(a.changelog()).toEqual(["+I[Bob, 1]", "+I[Bob, 2]", "+I[Bob, 3]"]);
    expect(b.changelog()).toEqual(["+I[Alice, 1]"]);
    expect(c.changelog()).toEqual(["+I[Bob, 1]", "+I[Alice, 1]", "+I[Bob, 2]", "+I[Bob, 3]"]);
  });

  it("a PTF uid used by two different calls in one set is an error naming the uid", () => {
    const env = streaming();
    const F = countingPtf({ n: 0 });
    const t = names(env);
    const set = env.createStatementSet()
      .addInsert(new CollectionSink().descriptor(NAME_N), t.partitionBy($("name")).process(F, lit("x").asArgument("uid")))
      .addInsert(new CollectionSink().descriptor(NAME_N), names(env).partitionBy($("name")).process(F, lit("x").asArgument("uid")));
    expect(() => set.execute()).toThrow(/Duplicate unique identifier 'x'/);
  });

  it("a shared sub-plan (one Table used by two inserts) is computed once", async () => {
    const env = streaming();
    let evaluated = 0;
    const Tag = ScalarFunction.define({
      name: "tag", args: [DataTypes.STRING().notNull()], result: DataTypes.STRING().notNull(),
      eval: (s) => { evaluated++; return `<${s}>`; },
    });
    const tagged = names(env).select($("name"), call(Tag, $("name")).as("tagged"));
    const schema = Schema.newBuilder().column("name", "STRING").column("tagged", "STRING").build();
    const [x, y] = [new CollectionSink(), new CollectionSink()];
    const set = env.createStatementSet()
      .addInsert(x.descriptor(schema), tagged.filter($("name").isEqual("Bob")))
      .addInsert(y.descriptor(schema), tagged);
    expect(set.explain()).toContain("Reused(reference_id=[1])");
    await set.execute().await();
    expect(evaluated).toBe(4);
    expect(x.changelog()).toEqual(["+I[Bob, <Bob>]", "+I[Bob, <Bob>]", "+I[Bob, <Bob>]"]);
    expect(y.changelog()).toEqual(["+I[Bob, <Bob>]", "+I[Alice, <Alice>]", "+I[Bob, <Bob>]", "+I[Bob, <Bob>]"]);
  });

  it("explain() prints one tree per sink, in the order added", () => {
    const env = streaming();
    const t = env.fromValues(DataTypes.ROW(DataTypes.FIELD("a", DataTypes.INT())), Row.of(1));
    const schema = Schema.newBuilder().column("a", "INT").build();
    env.createTemporaryTable("first", new CollectionSink().descriptor(schema));
    env.createTemporaryTable("second", new CollectionSink().descriptor(schema));
    const plan = env.createStatementSet().addInsert("first", t).addInsert("second", t.filter($("a").isGreater(0))).explain();
    expect(plan).toBe([
      "== Logical Plan ==",
      "Sink(table=[first], connector=[collection], fields=[a], changelogMode=[I]) -> [a: INT]",
      "+- Values(rows=1, reuse_id=[1], changelogMode=[I]) -> [a: INT]",
      "",
      "Sink(table=[second], connector=[collection], fields=[a], changelogMode=[I]) -> [a: INT]",
      "+- Filter(condition=[greaterThan(a, 0)], changelogMode=[I]) -> [a: INT]",
      "   +- Reused(reference_id=[1])",
    ].join("\n"));
  });

  it("execute() empties the set; an empty set is an error; a table of another environment is rejected", async () => {
    const env = streaming();
    const sink = new CollectionSink();
    const set = env.createStatementSet().addInsert(sink.descriptor(Schema.newBuilder().column("f0", "INT").build()), env.fromValues(1, 2));
    expect(set.size).toBe(1);
    const result = set.execute();
    expect(set.size).toBe(0);
    await result.await();
    expect(sink.changelog()).toEqual(["+I[1]", "+I[2]"]);
    expect(() => set.execute()).toThrow(ValidationError);
    expect(() => set.execute()).toThrow(/statement set is empty/);
    expect(() => set.addInsert("x", streaming().fromValues(1))).toThrow(/another TableEnvironment/);
  });

  it("the sinks' checks apply per insert: an updating table into an append-only sink names the sink", () => {
    const env = streaming();
    const counts = names(env).groupBy($("name")).select($("name"), $("name").count().as("n"));
    const appendOnly = new CollectionSink().descriptor(Schema.newBuilder().column("name", "STRING").column("n", "BIGINT").build(), { "sink.changelog-mode": "insert-only" });
    expect(() => env.createStatementSet().addInsert(appendOnly as never, counts)).toThrow(/is append-only/);
  });

  it("the result has one column per sink holding -1, suffixed when a table is written twice", async () => {
    const env = streaming();
    const sink = new CollectionSink();
    env.createTemporaryTable("out", sink.descriptor(Schema.newBuilder().column("f0", "INT").build()));
    const result = env.createStatementSet().addInsert("out", env.fromValues(1)).addInsert("out", env.fromValues(2)).execute();
    await result.await();
    expect(result.getResolvedSchema().names).toEqual(["default_catalog.default_database.out", "default_catalog.default_database.out_1"]);
    expect(await result.toArray()).toEqual([{ "default_catalog.default_database.out": -1, "default_catalog.default_database.out_1": -1 }]);
    expect(sink.changelog().sort()).toEqual(["+I[1]", "+I[2]"]);
  });
});

describe("property: a statement set gives each sink exactly what two separate jobs would", () => {
  const KV = DataTypes.ROW(DataTypes.FIELD("k", DataTypes.STRING()), DataTypes.FIELD("v", DataTypes.INT()));
  const rowsArb = fc.array(fc.tuple(fc.constantFrom("a", "b", "c", null), fc.option(fc.integer({ min: -5, max: 5 }))), { maxLength: 25 });
  const SUMS = Schema.newBuilder().column("k", "STRING").column("total", "INT").build();
  const KVS = Schema.newBuilder().column("k", "STRING").column("v", "INT").build();

  function queries(env: TableEnvironment, rows: readonly [string | null, number | null][]) {
    const t = env.fromValues(KV, rows.map((r): PositionalRow => Row.of(r[0], r[1])));
    const positive = t.filter($("v").isGreater(0));
    return {
      sums: positive.groupBy($("k")).select($("k"), $("v").sum().as("total")),
      positives: positive.select($("k"), $("v")),
    };
  }

  it("holds for random inputs (sums by key with retractions, and a filter)", async () => {
    await fc.assert(fc.asyncProperty(rowsArb, async (rows) => {
      const together = { sums: new CollectionSink(), positives: new CollectionSink() };
      const env = streaming();
      const q = queries(env, rows);
      await env.createStatementSet()
        .addInsert(together.sums.descriptor(SUMS), q.sums)
        .addInsert(together.positives.descriptor(KVS), q.positives)
        .execute().await();

      const apart = { sums: new CollectionSink(), positives: new CollectionSink() };
      await queries(streaming(), rows).sums.executeInsert(apart.sums.descriptor(SUMS)).await();
      await queries(streaming(), rows).positives.executeInsert(apart.positives.descriptor(KVS)).await();

      expect(together.sums.changelog()).toEqual(apart.sums.changelog());
      expect(together.positives.changelog()).toEqual(apart.positives.changelog());
    }), { numRuns: 40 });
  });
});
