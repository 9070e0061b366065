// Seed 000 "Greeting with Memory": a set-semantics table argument. Rows of one name go to one virtual
// processor with its own state, a counter that starts at 0 for each new name.
import { $, ArgumentTrait, DataTypes, EnvironmentSettings, ProcessTableFunction, TableEnvironment, tableArg, valueState } from "../../src/index.js";

export const GreetingWithMemory = ProcessTableFunction.define({
  name: "GreetingWithMemory",
  args: { input: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE) },
  state: { state: valueState({ counter: 0 }) },
  output: DataTypes.STRING(),
  eval(ctx, { state }, { input }) {
    state.counter++;
    ctx.collect(`Hello ${input.name}, your ${state.counter} time?`);
  },
});

export function greetingWithMemory(env = TableEnvironment.create(EnvironmentSettings.inStreamingMode())) {
  return env.fromValues("Bob", "Alice", "Bob").as("name").partitionBy($("name")).process(GreetingWithMemory);
}

/** The seed's SQL form: PARTITION BY in the call gives each name its own counter. */
export function greetingWithMemorySql(env = TableEnvironment.create(EnvironmentSettings.inStreamingMode())) {
  env.executeSql("CREATE VIEW Names(name) AS VALUES ('Bob'), ('Alice'), ('Bob')");
  env.createFunction("GreetingWithMemory", GreetingWithMemory);
  return env.executeSql("SELECT * FROM GreetingWithMemory(TABLE Names PARTITION BY name)");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await greetingWithMemory().execute().print();
}
