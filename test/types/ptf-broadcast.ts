// Type tests of broadcast tables and broadcast state (issue 16): StateKind, BROADCAST_SEMANTIC_TABLE /
// NOTIFY_STATEFUL_SETS traits, disableSystemArguments, asArgument(...).orderBy(...).
// Checked by `tsc --noEmit` (every @ts-expect-error line must be an error).
import { expectTypeOf } from "vitest";
import {
  $, ArgumentTrait, DataTypes, EnvironmentSettings, ProcessTableFunction, StateKind, TableEnvironment, mapView, scalarArg, tableArg, valueView,
} from "../../src/index.js";
import type { MapView, PolymorphicRow, ValueView } from "../../src/index.js";

const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
const t = env.fromValues({ name: "Bob", score: 1 });

const Lookup = ProcessTableFunction.define({
  args: { input: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE), rules: tableArg(ArgumentTrait.BROADCAST_SEMANTIC_TABLE, ArgumentTrait.NOTIFY_STATEFUL_SETS) },
  state: { count: valueView(DataTypes.INT()), weights: mapView(DataTypes.STRING(), DataTypes.INT(), { kind: StateKind.BROADCAST }) },
  output: DataTypes.STRING(),
  eval(_ctx, { count, weights }, { input, rules }) {
    expectTypeOf(weights).toEqualTypeOf<MapView<string, number | null>>();
    expectTypeOf(count).toEqualTypeOf<ValueView<number>>();
    expectTypeOf(rules).toEqualTypeOf<PolymorphicRow>();
    void input;
  },
});
env.fromCall(Lookup, t.partitionBy($("name")).asArgument("input"), t.asArgument("rules"));

expectTypeOf(StateKind.BROADCAST).toEqualTypeOf<"BROADCAST">();
// @ts-expect-error: not a state kind
mapView(DataTypes.STRING(), DataTypes.INT(), { kind: "GLOBAL" });

ProcessTableFunction.define({ disableSystemArguments: true, args: { i: scalarArg(DataTypes.INT()) }, output: DataTypes.STRING(), eval() {} });

// ORDER BY without PARTITION BY: the columns are checked
t.asArgument("r").orderBy($("score"));
// @ts-expect-error: not a column of the table
t.asArgument("r").orderBy($("nope"));
