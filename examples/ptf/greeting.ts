// Seed 000 "Greeting": a PTF with a row-semantics table argument. Each row is processed on its own;
// the result is never stateful.
import { ArgumentTrait, DataTypes, EnvironmentSettings, ProcessTableFunction, TableEnvironment, tableArg } from "../../src/index.js";

export const Greeting = ProcessTableFunction.define({
  name: "Greeting",
  args: { input: tableArg(ArgumentTrait.ROW_SEMANTIC_TABLE) },
  output: DataTypes.STRING(),
  eval(ctx, _state, { input }) {
    ctx.collect(`Hello ${input.name}!`);
  },
});

/** Calls the PTF inline (without registration), as the seed's Table API snippet does. */
export function greeting(env = TableEnvironment.create(EnvironmentSettings.inStreamingMode())) {
  return env.fromValues("Bob", "Alice", "Bob").as("name").process(Greeting);
}

/** The same with the function registered first, then called by name. */
export function greetingByName(env = TableEnvironment.create(EnvironmentSettings.inStreamingMode())) {
  env.createFunction("Greeting", Greeting);
  return env.fromValues("Bob", "Alice", "Bob").as("name").process("Greeting");
}

/** The seed's SQL form: the view and the function registered upfront, then called from SQL. */
export function greetingSql(env = TableEnvironment.create(EnvironmentSettings.inStreamingMode())) {
  env.executeSql("CREATE VIEW Names(name) AS VALUES ('Bob'), ('Alice'), ('Bob')");
  env.createFunction("Greeting", Greeting);
  return env.executeSql("SELECT * FROM Greeting(TABLE Names)");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await greeting().execute().print();
}
