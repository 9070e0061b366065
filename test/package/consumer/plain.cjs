// Plain CommonJS: require both entries and run a grouped aggregate.
const { $, EnvironmentSettings, TableEnvironment } = require("tablestream");
const testing = require("tablestream/testing");
const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
const t = env.fromValues("a", "b", "a").as("k");
t.groupBy($("k")).select($("k"), $("k").count().as("n")).execute().toChangelog()
  .then((rows) => console.log(JSON.stringify({ rows, kit: typeof testing.materialize })));
