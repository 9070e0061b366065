// Query evolution: a PTF keeps its state across a savepoint while the query around it changes. Version 1
// tracks each customer's spending and is stopped with a savepoint; version 2 filters its input differently
// and formats the output differently, but calls the PTF with the same uid, so the totals continue.
import {
  $, ArgumentTrait, CollectionSink, DataTypes, EnvironmentSettings, ProcessTableFunction, Row, Schema, TableEnvironment, concat, lit, tableArg, valueState,
} from "../../src/index.js";
import type { PositionalRow, Table } from "../../src/index.js";

/** Running total and order count per customer (value state, checkpointed under the call's uid). */
export const SpendTracker = ProcessTableFunction.define({
  name: "SpendTracker",
  args: { order: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE) },
  state: { spend: valueState<{ total: number | null; orders: number | null }>({ total: null, orders: null }) },
  output: DataTypes.ROW(DataTypes.FIELD("total", DataTypes.INT()), DataTypes.FIELD("orders", DataTypes.INT())),
  eval(ctx, { spend }, { order }) {
    spend.total = (spend.total ?? 0) + (order as unknown as { amount: number }).amount;
    spend.orders = (spend.orders ?? 0) + 1;
    ctx.collect({ total: spend.total, orders: spend.orders });
  },
});

const ORDERS = Schema.newBuilder().column("customer", DataTypes.STRING()).column("amount", DataTypes.INT()).build();
const REPORT = Schema.newBuilder().column("customer", DataTypes.STRING()).column("report", DataTypes.STRING()).build();
type Orders = Table<{ customer: string | null; amount: number | null }>;

/** Version 1: every order with a positive amount. */
function version1(orders: Orders) {
  const tracked = orders.filter($("amount").isGreater(0)).partitionBy($("customer")).asArgument("order");
  return orders.env.fromCall(SpendTracker, tracked, lit("spend-tracker").asArgument("uid"))
    .select($("customer"), $("total").cast(DataTypes.STRING()).as("report"));
}

/** Version 2: test customers filtered out upstream, a different report downstream; the same uid. */
function version2(orders: Orders) {
  const tracked = orders.filter($("amount").isGreater(0).and($("customer").isNotEqual("test"))).partitionBy($("customer")).asArgument("order");
  return orders.env.fromCall(SpendTracker, tracked, lit("spend-tracker").asArgument("uid"))
    .select($("customer"), concat($("total").cast(DataTypes.STRING()), " in ", $("orders").cast(DataTypes.STRING()), " orders").as("report"));
}

/** Yields the rows, then waits: an unbounded source that is still running when the savepoint is taken. */
async function* stillRunning(rows: readonly PositionalRow[]): AsyncGenerator<PositionalRow> {
  for (const r of rows) yield r;
  await new Promise<void>(() => { /* until the job is stopped */ });
}

/** Runs version 1, stops it with a savepoint in `dir`, runs version 2 from it; returns the report sink. */
export async function queryEvolution(dir: string): Promise<CollectionSink> {
  const sink = new CollectionSink();
  const env = (config: Record<string, string> = {}) => {
    const e = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    for (const [k, v] of Object.entries(config)) e.getConfig().set(k, v);
    e.createTemporaryTable("reports", sink.descriptor(REPORT));
    return e;
  };

  const v1 = env();
  const before = [Row.of("ann", 30), Row.of("bob", 5), Row.of("ann", 12)];
  const job = version1(v1.fromAsyncIterable(ORDERS, stillRunning(before), { name: "orders" })).executeInsert("reports");
  while (sink.size < before.length) await new Promise((r) => setTimeout(r, 1));
  const savepoint = await job.getJobClient().stopWithSavepoint(dir);

  const v2 = env({ "execution.savepoint.path": savepoint });
  const after = [Row.of("bob", 20), Row.of("test", 99), Row.of("ann", 8)];
  await version2(v2.fromAsyncIterable(ORDERS, after, { name: "orders" })).executeInsert("reports").await();
  return sink;
}
