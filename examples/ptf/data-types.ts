// Seed 000 "Data Types": PTFs with scalar arguments only. A scalar output is wrapped into one column
// EXPR$0; ROW<...> gives its fields. A PTF without table arguments runs once (env.fromCall).
import { DataTypes, Decimal, EnvironmentSettings, lit, ProcessTableFunction, Row, scalarArg, TableEnvironment } from "../../src/index.js";

/** Accepts two INT arguments and emits their sum as an implicit ROW<INT>. */
export const AdditionFunction = ProcessTableFunction.define({
  name: "AdditionFunction",
  args: { a: scalarArg(DataTypes.INT().notNull()), b: scalarArg(DataTypes.INT().notNull()) },
  output: DataTypes.INT(),
  eval(ctx, _state, { a, b }) {
    ctx.collect(a + b);
  },
});

/** Produces an explicit ROW<i INT, s STRING> from scalar arguments. */
export const DuplicatorFunction = ProcessTableFunction.define({
  name: "DuplicatorFunction",
  args: { i: scalarArg(DataTypes.INT()), s: scalarArg(DataTypes.STRING()) },
  output: DataTypes.ROW(DataTypes.FIELD("i", DataTypes.INT()), DataTypes.FIELD("s", DataTypes.STRING())),
  eval(ctx, _state, { i, s }) {
    ctx.collect(Row.of(i, s));
    ctx.collect(Row.of(i, s));
  },
});

/** Accepts a DECIMAL(10, 4) and emits it twice as an explicit ROW<d DECIMAL(10, 4)>. */
export const DecimalDuplicatorFunction = ProcessTableFunction.define({
  name: "DecimalDuplicatorFunction",
  args: { d: scalarArg(DataTypes.DECIMAL(10, 4)) },
  output: DataTypes.ROW(DataTypes.FIELD("d", DataTypes.DECIMAL(10, 4))),
  eval(ctx, _state, { d }) {
    ctx.collect({ d });
    ctx.collect({ d });
  },
});

export function dataTypes(env = TableEnvironment.create(EnvironmentSettings.inStreamingMode())) {
  return {
    addition: env.fromCall(AdditionFunction, 40, 2),
    duplicator: env.fromCall(DuplicatorFunction, lit(7).asArgument("i"), lit("seven").asArgument("s")),
    decimal: env.fromCall(DecimalDuplicatorFunction, new Decimal("3.1415")),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const t = dataTypes();
  await t.addition.execute().print();
  await t.duplicator.execute().print();
  await t.decimal.execute().print();
}
