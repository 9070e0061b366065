// Type tests of connector tables (issue 3): a table read from a descriptor is typed by its schema, and
// writing an updating table into a sink the compiler knows to be append-only is a compile error.
import { expectTypeOf } from "vitest";
import { $, CollectionSink, DataTypes, EnvironmentSettings, Row, Schema, TableDescriptor, TableEnvironment } from "../../src/index.js";
import type { ModeOf, SchemaOf } from "./helpers.js";

const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
const schema = Schema.newBuilder()
  .column("ts", "TIMESTAMP_LTZ(3)")
  .column("random", DataTypes.INT())
  .columnByExpression("name", "IF(random % 2 = 0, 'Bob', 'Alice')")
  .watermark("ts", "ts - INTERVAL '1' SECOND")
  .build();

const names = env.from(TableDescriptor.forConnector("datagen").schema(schema).option("number-of-rows", "3").build());
expectTypeOf<SchemaOf<typeof names>>().toEqualTypeOf<{ ts: Date | null; random: number | null; name: unknown }>();
expectTypeOf<ModeOf<typeof names>>().toEqualTypeOf<"append">();

const files = TableDescriptor.forConnector("filesystem").schema(schema).option("path", "/tmp/x").format("csv").build();
const printer = TableDescriptor.forConnector("print").build();
const counts = names.groupBy($("random")).select($("random"), $("ts").count().as("n"));

// an append-only table may go anywhere
names.executeInsert(files);
names.insertInto(printer);
// an updating table may go to print, blackhole, a collection sink, or a table by name (checked when planned)
counts.executeInsert(printer);
counts.executeInsert(new CollectionSink().descriptor(schema));
counts.executeInsert("out");
// @ts-expect-error an updating table (changelog 'retract') cannot be written to an append-only sink
counts.executeInsert(files);
// @ts-expect-error an updating table (changelog 'retract') cannot be written to an append-only sink
counts.insertInto(TableDescriptor.forConnector("filesystem").option("path", "/tmp/y").format("json").build());

// Parquet files are append-only too; a jdbc table's sink depends on its primary key (checked when planned)
const parquetFiles = TableDescriptor.forConnector("parquet").schema(schema).option("path", "/tmp/p").build();
names.executeInsert(parquetFiles);
// @ts-expect-error an updating table (changelog 'retract') cannot be written to an append-only sink
counts.executeInsert(parquetFiles);
counts.executeInsert(TableDescriptor.forConnector("jdbc").option("url", "jdbc:sqlite:x.db").option("table-name", "t").build());

// a table of unknown changelog (from a name) is checked when planned
const unknownMode = env.from("Names");
unknownMode.executeInsert(files);

// executeInsert returns Flink's insert result: awaitable, cancellable
const r = names.executeInsert(printer);
expectTypeOf(r.await()).toEqualTypeOf<Promise<void>>();
expectTypeOf(r.getJobClient().cancel()).toEqualTypeOf<Promise<void>>();
void Row;

// metadata columns (columnByMetadata) are columns of the table's type like physical ones
const withFile = Schema.newBuilder()
  .column("id", DataTypes.INT())
  .columnByMetadata("path", DataTypes.STRING().notNull(), "file.path", true)
  .columnByMetadata("file.size", "BIGINT")
  .build();
const read = env.from(TableDescriptor.forConnector("filesystem").schema(withFile).option("path", "/tmp/x").format("csv").build());
expectTypeOf<SchemaOf<typeof read>>().toEqualTypeOf<{ id: number | null; path: string; "file.size": number | null }>();
// @ts-expect-error a metadata column's name must be new
Schema.newBuilder().column("id", DataTypes.INT()).columnByMetadata("id", DataTypes.STRING());

// DISTRIBUTED BY / PARTITIONED BY keep the descriptor's schema and sink kinds
const bucketed = TableDescriptor.forConnector("filesystem").schema(schema).distributedByHash(3, "random").partitionedBy("name").build();
expectTypeOf(bucketed).toEqualTypeOf(files);
TableDescriptor.forConnector("collection").distributedInto(4).distributedBy("a").distributedByRange(2, "a", "b");
// @ts-expect-error a bucket count is a number
TableDescriptor.forConnector("collection").distributedInto("4");
// @ts-expect-error partition keys are column names
TableDescriptor.forConnector("collection").partitionedBy(1);
