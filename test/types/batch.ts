// Type tests of batch vs streaming (issue 9): a batch environment's tables are insert-only through
// aggregates, joins, top-N and set operations (their batch results are final), so a batch aggregate goes to
// an append-only sink by descriptor without a schema written by hand; in streaming the same query updates.
// The quoted text after each error directive is the message (messages.test.ts).
import { expectTypeOf } from "vitest";
import {
  $, ArgumentTrait, type Batch, type ChangelogKind, ChangelogMode, DataTypes, EnvironmentSettings, lit, Over, ProcessTableFunction, Row, Schema, type Table,
  TableDescriptor, TableEnvironment, Tumble, tableArg,
} from "../../src/index.js";
import type { ModeOf, SchemaOf } from "./helpers.js";

/** The changelog kind of a table, as a value to expect on. */
declare function kind<T>(t: T): ModeOf<T>;

const batchEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
const streamEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
expectTypeOf(batchEnv).toEqualTypeOf<TableEnvironment<true>>();
// a helper typed with a streaming environment (or with none) takes a batch one
declare function useEnv(env: TableEnvironment): void;
useEnv(batchEnv);
useEnv(streamEnv);
useEnv(TableEnvironment.create());

const ROWS = DataTypes.ROW(DataTypes.FIELD("product", DataTypes.STRING().notNull()), DataTypes.FIELD("amount", DataTypes.INT().notNull()));
const orders = batchEnv.fromValues(ROWS, Row.of("a", 1), Row.of("b", 2));
const streamOrders = streamEnv.fromValues(ROWS, Row.of("a", 1));
expectTypeOf(kind(orders)).toEqualTypeOf<Batch>();
expectTypeOf(kind(streamOrders)).toEqualTypeOf<"append">();

// ---- final in batch, updating in streaming ----------------------------------------------------------------
const totals = orders.groupBy($("product")).select($("product"), $("amount").sum().as("total"));
expectTypeOf<SchemaOf<typeof totals>>().toEqualTypeOf<{ product: string; total: number | null }>();
expectTypeOf(kind(totals)).toEqualTypeOf<Batch>();
expectTypeOf(kind(streamOrders.groupBy($("product")).select($("product"), $("amount").sum().as("total")))).toEqualTypeOf<"retract">();

expectTypeOf(kind(orders.select($("amount").sum().as("s")))).toEqualTypeOf<Batch>();
expectTypeOf(kind(orders.distinct())).toEqualTypeOf<Batch>();
expectTypeOf(kind(totals.distinct())).toEqualTypeOf<Batch>();
expectTypeOf(kind(orders.unionAll(totals.select($("product"), $("total").ifNull(0).as("amount"))))).toEqualTypeOf<Batch>();
expectTypeOf(kind(orders.orderBy($("amount")).fetch(1))).toEqualTypeOf<Batch>();
expectTypeOf(kind(orders.limit(1, 2))).toEqualTypeOf<Batch>();
expectTypeOf(kind(orders.topN(1, { partitionBy: [$("product")], orderBy: [$("amount").desc()] }))).toEqualTypeOf<Batch>();
expectTypeOf(kind(orders.minus(orders))).toEqualTypeOf<Batch>();
expectTypeOf(kind(orders.intersectAll(orders))).toEqualTypeOf<Batch>();
const others = orders.renameColumns($("product").as("p2"), $("amount").as("a2"));
expectTypeOf(kind(orders.leftOuterJoin(others, $("product").isEqual($("p2"))))).toEqualTypeOf<Batch>();
expectTypeOf(kind(totals.join(others, $("product").isEqual($("p2"))))).toEqualTypeOf<Batch>();
expectTypeOf(kind(streamOrders.limit(1))).toEqualTypeOf<"retract">();

// operations that keep their input's kind keep Batch
expectTypeOf(kind(totals.filter($("total").isGreater(1)).addColumns(lit(1).as("one")).dropColumns($("one")))).toEqualTypeOf<Batch>();

// ---- writing a batch aggregate to an append-only sink by descriptor, without a schema -------------------
const csv = TableDescriptor.forConnector("filesystem").option("path", "/tmp/totals").format("csv").build();
totals.executeInsert(csv);
totals.insertInto(csv);
// a Batch table is an "append" table wherever one is expected
declare function appendOnly<S extends object>(t: Table<S, "append">): void;
appendOnly(totals);
// in streaming the same query updates: a compile error
// @ts-expect-error "an updating table (changelog 'retract') cannot be written to an append-only sink"
streamOrders.groupBy($("product")).select($("product"), $("amount").sum().as("total")).executeInsert(csv);

// ---- sources ---------------------------------------------------------------------------------------------
expectTypeOf(kind(batchEnv.fromValues(1, 2))).toEqualTypeOf<Batch>();
// a table by name: its kind is not known (checked when the plan is built)
expectTypeOf(kind(batchEnv.from("Orders"))).toEqualTypeOf<ChangelogKind>();
const described = batchEnv.from(TableDescriptor.forConnector("datagen").schema(Schema.newBuilder().column("v", "INT").build()).option("number-of-rows", "3").build());
expectTypeOf(kind(described)).toEqualTypeOf<Batch>();
// a changelog source stays updating in batch, and its aggregates are typed as in streaming
const changes = batchEnv.fromChangelogAsyncIterable(Schema.newBuilder().column("v", "INT").build(), [Row.of(1)]);
expectTypeOf(kind(changes)).toEqualTypeOf<"retract">();
expectTypeOf(kind(changes.select($("v").sum().as("s")))).toEqualTypeOf<"retract">();

// ---- windows, over windows, PTFs ------------------------------------------------------------------------
const timed = batchEnv.fromValues(
  Schema.newBuilder().column("ts", "TIMESTAMP(3)").column("v", "INT NOT NULL").watermark("ts", "ts").build(),
  Row.of("2025-01-01 00:00:00", 1),
);
expectTypeOf(kind(timed.window(Tumble.over(lit(1).hours()).on($("ts")).as("w")).groupBy($("w")).select($("v").sum().as("s"))))
  .toEqualTypeOf<Batch>();
expectTypeOf(kind(timed.window(Over.orderBy($("ts")).as("o")).select($("v"), $("v").sum().over($("o")).as("s")))).toEqualTypeOf<Batch>();
// an OVER ordered by another column updates rows in batch too
expectTypeOf(kind(timed.window(Over.orderBy($("v")).as("o")).select($("v"), $("v").count().over($("o")).as("n"))))
  .toEqualTypeOf<"retract">();

const Echo = ProcessTableFunction.define({
  args: { input: tableArg(ArgumentTrait.ROW_SEMANTIC_TABLE) },
  output: DataTypes.STRING(),
  eval(ctx, _s, { input }) { ctx.collect(String(input.product)); },
});
const Retracting = ProcessTableFunction.define({
  args: { input: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE) },
  output: DataTypes.STRING(),
  changelogMode: ChangelogMode.all(),
  eval(ctx) { ctx.collect("x"); },
});
expectTypeOf(kind(totals.process(Echo))).toEqualTypeOf<Batch>();
expectTypeOf(kind(batchEnv.fromCall(Echo, orders))).toEqualTypeOf<Batch>();
expectTypeOf(kind(orders.partitionBy($("product")).process(Retracting))).toEqualTypeOf<"retract">();
