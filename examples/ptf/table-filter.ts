// Seed 000 "Call Syntax": TableFilter called with positional and named arguments, with and without
// the implicit `uid` argument, and fully named through env.fromCall.
import {
  ArgumentTrait, DataTypes, EnvironmentSettings, lit, ProcessTableFunction, Row, scalarArg, TableEnvironment, tableArg,
} from "../../src/index.js";

export const TableFilter = ProcessTableFunction.define({
  name: "TableFilter",
  args: {
    input: tableArg(ArgumentTrait.ROW_SEMANTIC_TABLE),
    threshold: scalarArg(DataTypes.INT().notNull()),
  },
  output: DataTypes.ROW(DataTypes.FIELD("threshold", DataTypes.INT()), DataTypes.FIELD("score", DataTypes.BIGINT())),
  eval(ctx, _state, { input, threshold }) {
    const score = input.score as number;
    if (score > threshold) ctx.collect(Row.of(threshold, score));
  },
});

/** Registers the table `t` (name, score) the seed's calls read from. */
export function setup(env = TableEnvironment.create(EnvironmentSettings.inStreamingMode())): TableEnvironment {
  const t = env.fromValues(
    DataTypes.ROW(DataTypes.FIELD("name", DataTypes.STRING()), DataTypes.FIELD("score", DataTypes.BIGINT())),
    Row.of("Bob", 12), Row.of("Alice", 142), Row.of("Charly", 101), Row.of("Dave", 100),
  );
  env.createTemporaryView("t", t as never);
  return env;
}

/** Every call form of the seed; all of them give the same rows. */
export function tableFilterCalls(env = setup()) {
  return {
    // position-based
    positional: env.from("t").process(TableFilter, 100),
    positionalUid: env.from("t").process(TableFilter, 100, null, "my-ptf"),
    positionalDefaults: env.from("t").process(TableFilter, 100, null, null),
    // name-based
    named: env.from("t").process(TableFilter, lit(100).asArgument("threshold")),
    namedUid: env.from("t").process(TableFilter, lit(100).asArgument("threshold"), lit("my-ptf").asArgument("uid")),
    // fully name-based, including the table itself
    fromCall: env.fromCall(TableFilter, env.from("t").asArgument("input"), lit(100).asArgument("threshold"), lit("my-ptf").asArgument("uid")),
  };
}

/** The seed's SQL call forms (the function registered as "TableFilter"); each gives the same rows as the Table API forms. */
export const TABLE_FILTER_SQL = [
  // position-based
  "SELECT * FROM TableFilter(TABLE t, 100)",
  "SELECT * FROM TableFilter(TABLE t, 100, DEFAULT, 'my-ptf')",
  "SELECT * FROM TableFilter(TABLE t, 100, DEFAULT, DEFAULT)",
  // name-based
  "SELECT * FROM TableFilter(input => TABLE t, threshold => 100)",
  "SELECT * FROM TableFilter(input => TABLE t, threshold => 100, uid => 'my-ptf')",
] as const;

export function tableFilterSql(statement: string, env = setup()) {
  env.createFunction("TableFilter", TableFilter);
  return env.executeSql(statement);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await tableFilterCalls().named.execute().print();
}
