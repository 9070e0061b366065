// A .cts file: compiled to CommonJS, it loads tablestream through `require` and its .d.cts declarations.
import { $, DataTypes, EnvironmentSettings, Row, TableEnvironment } from "tablestream";

const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
const t = env.fromValues(DataTypes.ROW(DataTypes.FIELD("x", DataTypes.INT().notNull())), Row.of(1), Row.of(2));
const doubled = t.select($("x").times(2).as("y"));
doubled.execute().toChangelog().then((rows) => console.log(JSON.stringify(rows)));
