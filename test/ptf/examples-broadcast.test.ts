// The broadcast-state example of docs/ptf.md (examples/ptf/broadcast-rules.ts), with its exact output,
// through the Table API and SQL.
import { describe, expect, it } from "vitest";
import { LimitAlerts, broadcastRules } from "../../examples/ptf/broadcast-rules.js";
import { EnvironmentSettings, Row, TableEnvironment } from "../../src/index.js";
import { printed } from "../support.js";

const lines = (...l: string[]) => l.join("\n");

describe("docs/ptf.md: a rules table broadcast to a keyed PTF", () => {
  it("each sensor reports against the limit the broadcast rules set for its kind", async () => {
    const t = broadcastRules();
    expect(t.getResolvedSchema().names).toEqual(["sensor", "EXPR$0"]);
    expect(await printed(t.execute())).toBe(lines(
      "+----+--------------------------------+--------------------------------+",
      "| op |                         sensor |                         EXPR$0 |",
      "+----+--------------------------------+--------------------------------+",
      "| +I |                             s1 | 2 of 3 readings above 50: [... |",
      "| +I |                             s2 | 1 of 2 readings above 10: [12] |",
      "| +I |                             s3 | 0 of 1 readings above no li... |",
      "+----+--------------------------------+--------------------------------+",
      "3 rows in set",
    ));
    expect(await t.execute().toChangelog()).toEqual([
      "+I[s1, 2 of 3 readings above 50: [55, 61]]",
      "+I[s2, 1 of 2 readings above 10: [12]]",
      "+I[s3, 0 of 1 readings above no limit: []]",
    ]);
  });

  it("the same call in SQL", async () => {
    const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    env.createTemporaryView("Readings", env.fromValues(Row.of("s1", "temp", 40), Row.of("s1", "temp", 55)).as("sensor", "kind", "value") as never);
    env.createTemporaryView("Rules", env.fromValues(Row.of("temp", 50)).as("kind", "limit") as never);
    env.createFunction("LimitAlerts", LimitAlerts);
    expect(await env.executeSql("SELECT * FROM LimitAlerts(reading => TABLE Readings PARTITION BY sensor, rule => TABLE Rules)").toChangelog())
      .toEqual(["+I[s1, 1 of 2 readings above 50: [55]]"]);
  });
});
