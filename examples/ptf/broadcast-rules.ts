// Broadcast state: a rules table is broadcast to a PTF partitioned by sensor. Every rule row reaches
// every virtual processor and writes broadcast state (one map shared by all sensors); the rows of the
// readings table only read it. Readings are kept per sensor; when the input ends, each sensor reports
// the readings above the limit of its kind. Because the report waits for the end of both tables
// (a timer at end of input), it does not depend on how the two tables' rows interleave.
import {
  $, ArgumentTrait, DataTypes, EnvironmentSettings, ProcessTableFunction, Row, StateKind, TableEnvironment, listView, mapView, tableArg, valueView,
} from "../../src/index.js";

export const LimitAlerts = ProcessTableFunction.define({
  name: "LimitAlerts",
  args: {
    reading: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE),
    rule: tableArg(ArgumentTrait.BROADCAST_SEMANTIC_TABLE),
  },
  state: {
    kind: valueView(DataTypes.STRING()),                                              // per sensor
    values: listView(DataTypes.INT()),                                                 // per sensor
    limits: mapView(DataTypes.STRING(), DataTypes.INT(), { kind: StateKind.BROADCAST }), // shared
  },
  output: DataTypes.STRING(),
  eval(ctx, { kind, values, limits }, { reading, rule }) {
    if (rule !== null) {
      // a broadcast row: no key context (kind and values are null here), limits is writable
      limits.put(rule.kind as string, rule.limit as number);
      return;
    }
    // a main row: the keyed state of the sensor is there
    kind!.setValue(reading!.kind as string);
    values!.add(reading!.value as number);
    ctx.timeContext("millis").registerOnTime(Infinity);                                // at end of input
  },
  onTimer(ctx, { kind, values, limits }) {
    const limit = limits.get(kind.getValue()!);
    const all = values.getList();
    const above = limit === null ? [] : all.filter((v) => v > limit);
    ctx.collect(`${above.length} of ${all.length} readings above ${limit ?? "no limit"}: [${above.join(", ")}]`);
  },
});

export function broadcastRules(env = TableEnvironment.create(EnvironmentSettings.inStreamingMode())) {
  const readings = env.fromValues(
    Row.of("s1", "temp", 40), Row.of("s2", "pressure", 7), Row.of("s1", "temp", 55),
    Row.of("s3", "humidity", 90), Row.of("s1", "temp", 61), Row.of("s2", "pressure", 12),
  ).as("sensor", "kind", "value");
  const rules = env.fromValues(Row.of("temp", 50), Row.of("pressure", 10)).as("kind", "limit");
  env.createFunction("LimitAlerts", LimitAlerts);
  // SQL: SELECT * FROM LimitAlerts(reading => TABLE Readings PARTITION BY sensor, rule => TABLE Rules)
  return env.fromCall("LimitAlerts", readings.partitionBy($("sensor")).asArgument("reading"), rules.asArgument("rule"));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await broadcastRules().execute().print();
}
