// Type tests of the public connector API (typed options) and of async scalar function calls.
import { expectTypeOf } from "vitest";
import {
  $, AsyncScalarFunction, call, DataTypes, defineConnector, EnvironmentSettings, option, Row, TableEnvironment,
  type ConnectorColumn, type JsonValue, type OptionValues, type PartitionSpec, type SinkBucketing, type SourceBatch,
} from "../../src/index.js";
import type { SchemaOf } from "./helpers.js";

// ---- options are typed by their declarations ------------------------------------------------------
const decls = {
  url: option.string({ required: true }),
  "batch-size": option.int({ default: 100, min: 1 }),
  timeout: option.duration(),
  mode: option.enum(["append", "upsert"], { default: "append" }),
  verbose: option.boolean({ default: false }),
};
type Values = OptionValues<typeof decls>;
expectTypeOf<Values["url"]>().toEqualTypeOf<string>();
expectTypeOf<Values["batch-size"]>().toEqualTypeOf<number>();
expectTypeOf<Values["timeout"]>().toEqualTypeOf<number | undefined>();
expectTypeOf<Values["mode"]>().toEqualTypeOf<"append" | "upsert">();
expectTypeOf<Values["verbose"]>().toEqualTypeOf<boolean>();

defineConnector({
  name: "typed",
  options: decls,
  source: {
    createReader: (ctx) => {
      expectTypeOf(ctx.options.url).toEqualTypeOf<string>();
      expectTypeOf(ctx.options.mode).toEqualTypeOf<"append" | "upsert">();
      // @ts-expect-error an undeclared option is not in ctx.options
      void ctx.options.password;
      return { read: (): SourceBatch | null => null, position: () => 0, close() {} };
    },
  },
});

defineConnector({
  name: "bad-reader",
  options: {},
  source: {
    // @ts-expect-error a reader needs position() and close()
    createReader: () => ({ read: () => null }),
  },
});

// ---- table layout: partitioning, bucketing, partition pruning, writable metadata ----------------------
defineConnector({
  name: "layout",
  options: decls,
  source: {
    partitions: {
      list: (table) => {
        expectTypeOf(table.options.url).toEqualTypeOf<string>();
        expectTypeOf(table.partitionKeys).toEqualTypeOf<readonly string[]>();
        return [{ dt: "2024-01-01" }];
      },
    },
    createReader: (ctx) => {
      expectTypeOf(ctx.partitions).toEqualTypeOf<readonly PartitionSpec[] | undefined>();
      return { read: (): SourceBatch | null => null, position: () => 0, close() {} };
    },
  },
  sink: {
    partitioning: true,
    bucketing: true,
    metadata: { headers: DataTypes.STRING() },
    createWriter: (ctx) => {
      expectTypeOf(ctx.staticPartition).toEqualTypeOf<PartitionSpec>();
      expectTypeOf(ctx.distribution).toEqualTypeOf<SinkBucketing | undefined>();
      expectTypeOf(ctx.metadata[0]!.type.root).toBeString();
      // @ts-expect-error the static partition is read-only
      ctx.staticPartition["dt"] = "x";
      return { write: () => {}, close() {} };
    },
  },
});

defineConnector({
  name: "bad-layout",
  options: {},
  sink: {
    // @ts-expect-error partitioning is declared with a boolean
    partitioning: "yes",
    createWriter: () => ({ write: () => {}, close() {} }),
  },
});

defineConnector({
  name: "bad-partitions",
  options: {},
  source: {
    // @ts-expect-error partition values are text
    partitions: { list: () => [{ dt: 20240101 }] },
    createReader: () => ({ read: (): SourceBatch | null => null, position: () => 0, close() {} }),
  },
});

// the hooks the built-in connectors use are public: option patterns, the job's clock, valid rows, attachments, step hand-over
defineConnector({
  name: "generated",
  options: { "rows-per-second": option.int({ default: 10, min: 1 }) },
  optionPatterns: ["fields.#.kind"],
  source: {
    validRows: true,
    createReader: (ctx) => {
      expectTypeOf(ctx.clock).toEqualTypeOf<() => number>();
      expectTypeOf(ctx.attachment).toEqualTypeOf<{ readonly attachmentOf: string } | undefined>();
      return { read: (): SourceBatch | null => ({ rows: [[ctx.clock()]] }), position: () => null, close() {} };
    },
  },
  sink: { handOver: "step", partitioning: true, bucketing: true, createWriter: () => ({ write() {}, close() {} }) },
});

// the hooks the ported filesystem and async-iterable connectors use: replay, earlier checkpoints, metrics, own format
defineConnector({
  name: "ported",
  options: { format: option.enum(["csv", "json"], { required: true }) },
  source: {
    replayable: false,
    legacyPosition: (stored) => (typeof stored === "number" ? stored : null),
    partitions: { list: () => [], defaultName: (table) => table.options.format },
    createReader: (ctx) => {
      expectTypeOf(ctx.options.format).toEqualTypeOf<"csv" | "json">();
      expectTypeOf(ctx.physicalColumns).toEqualTypeOf<readonly ConnectorColumn[]>();
      expectTypeOf(ctx.metrics.scope).toEqualTypeOf<string>();
      ctx.metrics.gauge("numSkippedRecords", () => 0);
      // @ts-expect-error a gauge reads a number
      ctx.metrics.gauge("numSkippedRecords", () => "0");
      return { read: (): SourceBatch | null => null, position: () => null, close() {} };
    },
  },
  sink: {
    legacyCommittables: (stored: JsonValue) => [stored],
    createWriter: () => ({ write() {}, close() {} }),
  },
});

defineConnector({
  name: "bad-replayable",
  options: {},
  // @ts-expect-error replayable is a boolean
  source: { replayable: "no", createReader: () => ({ read: () => null, position: () => null, close() {} }) },
});

defineConnector({
  name: "bad-hand-over",
  options: {},
  // @ts-expect-error handOver is "batch" or "step"
  sink: { handOver: "row", createWriter: () => ({ write() {}, close() {} }) },
});

// @ts-expect-error an enum default must be one of its values
option.enum(["a", "b"], { default: "c" });

// ---- async scalar functions: typed like scalar functions ------------------------------------------
const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
const t = env.fromValues(DataTypes.ROW(DataTypes.FIELD("id", DataTypes.INT().notNull()), DataTypes.FIELD("ip", DataTypes.STRING())), Row.of(1, "x"));

const Geo = AsyncScalarFunction.define({
  args: [DataTypes.STRING().notNull()],
  result: DataTypes.STRING().notNull(),
  eval: async (ip, signal) => {
    expectTypeOf(ip).toEqualTypeOf<string>();
    expectTypeOf(signal).toEqualTypeOf<AbortSignal>();
    return ip.toUpperCase();
  },
});
const geo = t.select($("id"), call(Geo, $("ip")).as("country"));
// a nullable argument for a NOT NULL parameter makes the result nullable, as for scalar functions
expectTypeOf<SchemaOf<typeof geo>>().toEqualTypeOf<{ id: number; country: string | null }>();

AsyncScalarFunction.define({
  args: [DataTypes.INT()],
  result: DataTypes.INT(),
  // @ts-expect-error eval must return a Promise
  eval: (x) => x,
});

// @ts-expect-error an INT argument for a STRING parameter
t.select(call(Geo, $("id")));

// ---- lookup sources: filter pushdown -------------------------------------------------------------
defineConnector({
  name: "typed-lookup",
  options: { "filterable-fields": option.string() },
  lookup: {
    acceptFilter: (f, table) => {
      expectTypeOf(f.op).toEqualTypeOf<"=" | "<>" | "<" | "<=" | ">" | ">=" | "IS NULL" | "IS NOT NULL" | "IN" | "OR">();
      expectTypeOf(table.options["filterable-fields"]).toEqualTypeOf<string | undefined>();
      return (table.options["filterable-fields"] ?? "").split(";").includes(f.column);
    },
    createReader: (ctx) => {
      expectTypeOf(ctx.filters[0]!.column).toEqualTypeOf<string>();
      // @ts-expect-error the pushed filters are read-only
      ctx.filters.push({ column: "x", op: "=" });
      return { lookup: () => [] };
    },
  },
});

defineConnector({
  name: "bad-lookup-filter",
  options: {},
  // @ts-expect-error acceptFilter answers with a boolean
  lookup: { acceptFilter: () => "yes", createReader: () => ({ lookup: () => [] }) },
});
