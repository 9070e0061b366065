// Seed 000 "Ordering", its SQL script as written: a watermarked datagen table, CREATE FUNCTION naming the
// implementation by class, and the ORDER BY call. tablestream cannot load 'org.example.OrderedProcessor'
// from a jar: CREATE FUNCTION resolves the class name's last segment against the functions registered in
// the environment, so the TypeScript implementation is registered first (docs/sql.md, CREATE FUNCTION).
import { EnvironmentSettings, TableEnvironment } from "../../src/index.js";
import { OrderedProcessor } from "../ptf/ordered-processor.js";

export const ORDERED_PROCESSOR_SCRIPT = [
  `CREATE TABLE Events (
name STRING,
score INT,
ts TIMESTAMP_LTZ(3),
WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH (
'connector' = 'datagen'
);`,
  "CREATE FUNCTION OrderedProcessor AS 'org.example.OrderedProcessor';",
  `SELECT * FROM OrderedProcessor(
input => TABLE Events
PARTITION BY name
ORDER BY (ts ASC, score DESC)
);`,
];

/**
 * Runs the script; datagen's timestamps come from the environment's clock, which `clock` replaces (one
 * millisecond per reading here) so that the watermark advances and the sorted rows come out.
 */
export function orderedProcessorScript(env = TableEnvironment.create(EnvironmentSettings.inStreamingMode())) {
  let now = Date.UTC(2025, 2, 26, 16, 0, 0);
  env.setClock(() => now++);
  env.createTemporaryFunction("OrderedProcessor", OrderedProcessor);
  const [create, fn, select] = ORDERED_PROCESSOR_SCRIPT as [string, string, string];
  env.executeSql(create);
  env.executeSql(fn);
  return env.executeSql(select);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = orderedProcessorScript();
  let n = 0;
  for await (const row of result.collect()) {
    console.log(row);
    if (++n === 3) break;
  }
}
