// Type tests of broadcast tables and broadcast state (issue 16): StateKind, BROADCAST_SEMANTIC_TABLE /
// NOTIFY_STATEFUL_SETS traits, disableSystemArguments, asArgument(...).orderBy(...).
// Checked by `tsc --noEmit` (every @ts-expect-error line must be an error).
import { expectTypeOf } from "vitest";
import {
  $, ArgumentTrait, DataTypes, EnvironmentSettings, ProcessTableFunction, StateKind, TableEnvironment, listView, mapView, scalarArg, tableArg, valueState,
  valueView,
} from "../../src/index.js";
import type { ListView, MapView, PolymorphicRow, ValueView } from "../../src/index.js";

const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
const t = env.fromValues({ name: "Bob", score: 1 });

const Lookup = ProcessTableFunction.define({
  args: { input: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE), rules: tableArg(ArgumentTrait.BROADCAST_SEMANTIC_TABLE, ArgumentTrait.NOTIFY_STATEFUL_SETS) },
  state: { count: valueView(DataTypes.INT()), weights: mapView(DataTypes.STRING(), DataTypes.INT(), { kind: StateKind.BROADCAST }) },
  output: DataTypes.STRING(),
  eval(_ctx, { count, weights }, { input, rules }) {
    expectTypeOf(weights).toEqualTypeOf<MapView<string, number | null>>();
    // keyed state is null while a broadcast row is processed (no key context)
    expectTypeOf(count).toEqualTypeOf<ValueView<number> | null>();
    expectTypeOf(rules).toEqualTypeOf<PolymorphicRow>();
    void input;
  },
});
env.fromCall(Lookup, t.partitionBy($("name")).asArgument("input"), t.asArgument("rules"));

// keyed state of a function with a broadcast argument: nullable in eval, present in onTimer (timers are keyed)
ProcessTableFunction.define({
  args: { input: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE), rule: tableArg(ArgumentTrait.BROADCAST_SEMANTIC_TABLE) },
  state: {
    seen: valueState({ n: 0 }),
    last: valueView(DataTypes.STRING(), { kind: StateKind.PER_SET }),
    shared: valueState({ rules: 0 }, { kind: StateKind.BROADCAST }),
    names: listView(DataTypes.STRING()),
  },
  output: DataTypes.STRING(),
  eval(_ctx, { seen, last, shared, names }) {
    expectTypeOf(seen).toEqualTypeOf<{ n: number } | null>();
    expectTypeOf(last).toEqualTypeOf<ValueView<string> | null>();
    expectTypeOf(names).toEqualTypeOf<ListView<string> | null>();
    expectTypeOf(shared).toEqualTypeOf<{ rules: number }>();
    // @ts-expect-error: keyed state may be null here (a broadcast row)
    last.getValue();
    last?.getValue();
  },
  onTimer(_ctx, { seen, last }) {
    expectTypeOf(seen).toEqualTypeOf<{ n: number }>();
    expectTypeOf(last).toEqualTypeOf<ValueView<string>>();
  },
});

// without a broadcast argument keyed state is never null
ProcessTableFunction.define({
  args: { input: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE) },
  state: { seen: valueState({ n: 0 }) },
  output: DataTypes.STRING(),
  eval(_ctx, { seen }) { expectTypeOf(seen).toEqualTypeOf<{ n: number }>(); },
});

// @ts-expect-error: a listView cannot be broadcast state (as in Flink)
listView(DataTypes.STRING(), { kind: StateKind.BROADCAST });

expectTypeOf(StateKind.BROADCAST).toEqualTypeOf<"BROADCAST">();
// @ts-expect-error: not a state kind
mapView(DataTypes.STRING(), DataTypes.INT(), { kind: "GLOBAL" });

ProcessTableFunction.define({ disableSystemArguments: true, args: { i: scalarArg(DataTypes.INT()) }, output: DataTypes.STRING(), eval() {} });

// ORDER BY without PARTITION BY: the columns are checked
t.asArgument("r").orderBy($("score"));
// @ts-expect-error: not a column of the table
t.asArgument("r").orderBy($("nope"));
