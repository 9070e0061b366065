// Seed 000 / 004 "Multiple Tables": a custom join. Two set-semantics tables, co-partitioned by the
// customer's name, share one virtual processor per name; each eval call gets a row of exactly one of
// them (the other argument is null). A purchase is remembered in state; a visit is greeted with it.
import { $, ArgumentTrait, DataTypes, EnvironmentSettings, ProcessTableFunction, Row, TableEnvironment, tableArg, valueState } from "../../src/index.js";

export const GreetingWithLastPurchase = ProcessTableFunction.define({
  name: "GreetingWithLastPurchase",
  args: { visit: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE), purchase: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE) },
  state: { state: valueState<{ lastItem: string | null }>({ lastItem: null }) },
  output: DataTypes.STRING(),
  eval(ctx, { state }, { visit, purchase }) {
    if (purchase !== null) {
      // a row of table Purchases
      state.lastItem = purchase.item as string;
    } else if (visit !== null) {
      // a row of table Visits
      if (state.lastItem === null) ctx.collect(`Hello ${visit.name}, let me know if I can help!`);
      else ctx.collect(`Hello ${visit.name}, here to buy ${state.lastItem} again?`);
    }
  },
});

export function greetingWithLastPurchase(env = TableEnvironment.create(EnvironmentSettings.inStreamingMode())) {
  const visits = env.fromValues("Bob", "Alice", "Bob").as("name");
  const purchases = env.fromValues(DataTypes.ROW(DataTypes.FIELD("customer", DataTypes.STRING()), DataTypes.FIELD("item", DataTypes.STRING())), Row.of("Alice", "milk"));
  env.createFunction("Greeting", GreetingWithLastPurchase);
  // SQL: SELECT * FROM Greeting(TABLE Visits PARTITION BY name, TABLE Purchases PARTITION BY customer)
  return env.fromCall("Greeting", visits.partitionBy($("name")), purchases.partitionBy($("customer")));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await greetingWithLastPurchase().execute().print();
}
