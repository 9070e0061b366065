// Type tests of the public connector API (typed options) and of async scalar function calls.
import { expectTypeOf } from "vitest";
import {
  $, AsyncScalarFunction, call, DataTypes, defineConnector, EnvironmentSettings, option, Row, TableEnvironment,
  type OptionValues, type SourceBatch,
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
