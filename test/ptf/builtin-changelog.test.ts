// The built-in changelog PTFs FROM_CHANGELOG / TO_CHANGELOG: Flink's programs C-01 … C-07
// with Flink's rows and messages, in SQL and Table API form.
import { describe, expect, it } from "vitest";
import { DataTypes, Row, RowKind, TableRuntimeException, descriptor } from "../../src/index.js";
import type { TableEnvironment } from "../../src/index.js";
import { streamingEnv } from "./support.js";

function cdcStream(env: TableEnvironment, opColumn: string, ...rows: [number, string, string][]): void {
  const type = DataTypes.ROW(DataTypes.FIELD("id", DataTypes.INT()), DataTypes.FIELD(opColumn, DataTypes.STRING()), DataTypes.FIELD("name", DataTypes.STRING()));
  env.createTemporaryView("cdc_stream", env.fromValues(type, ...rows.map((r) => Row.of(...r))) as never);
}

const C01 = ["+I[1, Alice]", "+I[2, Bob]", "-U[1, Alice]", "+U[1, Alice2]", "-D[2, Bob]"];

describe("FROM_CHANGELOG / TO_CHANGELOG (§5)", () => {
  it("C-01 from-changelog-default-op-mapping", async () => {
    const env = streamingEnv();
    cdcStream(env, "op", [1, "INSERT", "Alice"], [2, "INSERT", "Bob"], [1, "UPDATE_BEFORE", "Alice"], [1, "UPDATE_AFTER", "Alice2"], [2, "DELETE", "Bob"]);
    const result = env.executeSql("SELECT * FROM FROM_CHANGELOG(input => TABLE cdc_stream)");
    expect(result.getResolvedSchema().names).toEqual(["id", "name"]);
    expect(await result.toChangelog()).toEqual(C01);
    expect(await env.from("cdc_stream").process("FROM_CHANGELOG").execute().toChangelog()).toEqual(C01);
  });

  it("C-03 from-changelog-custom-op-name", async () => {
    const env = streamingEnv();
    cdcStream(env, "operation", [1, "INSERT", "Alice"], [1, "UPDATE_BEFORE", "Alice"], [1, "UPDATE_AFTER", "Alice2"]);
    const expected = ["+I[1, Alice]", "-U[1, Alice]", "+U[1, Alice2]"];
    expect(await env.executeSql("SELECT * FROM FROM_CHANGELOG(input => TABLE cdc_stream, op => DESCRIPTOR(operation))").toChangelog()).toEqual(expected);
    expect(await env.fromCall("FROM_CHANGELOG", env.from("cdc_stream").asArgument("input"), descriptor("operation").asArgument("op")).execute().toChangelog())
      .toEqual(expected);
  });

  it("C-05 from-changelog-round-trip: TO_CHANGELOG then FROM_CHANGELOG gives the changelog back", async () => {
    const env = streamingEnv();
    const orders = env.fromValues(
      DataTypes.ROW(DataTypes.FIELD("id", DataTypes.INT()), DataTypes.FIELD("name", DataTypes.STRING())),
      Row.of(1, "Alice"), Row.of(2, "Bob"), Row.ofKind(RowKind.UPDATE_BEFORE, 1, "Alice"), Row.ofKind(RowKind.UPDATE_AFTER, 1, "Alice2"), Row.ofKind(RowKind.DELETE, 2, "Bob"),
    );
    env.createTemporaryView("orders", orders as never);
    env.executeSql("CREATE VIEW changelog_view AS SELECT * FROM TO_CHANGELOG(input => TABLE orders)");
    expect(env.from("changelog_view").getResolvedSchema().names).toEqual(["op", "id", "name"]);
    expect(await env.from("changelog_view").execute().toChangelog()).toEqual([
      "+I[INSERT, 1, Alice]", "+I[INSERT, 2, Bob]", "+I[UPDATE_BEFORE, 1, Alice]", "+I[UPDATE_AFTER, 1, Alice2]", "+I[DELETE, 2, Bob]",
    ]);
    expect(await env.executeSql("SELECT * FROM FROM_CHANGELOG(input => TABLE changelog_view)").toChangelog()).toEqual(C01);
    expect(await orders.process("TO_CHANGELOG").process("FROM_CHANGELOG").execute().toChangelog()).toEqual(C01);
  });

  it("C-07 from-changelog-invalid-op-code", async () => {
    const env = streamingEnv();
    cdcStream(env, "op", [1, "UNKNOWN", "Alice"]);
    const run = env.executeSql("SELECT * FROM FROM_CHANGELOG(input => TABLE cdc_stream)").toChangelog();
    await expect(run).rejects.toThrow(TableRuntimeException);
    await expect(env.from("cdc_stream").process("FROM_CHANGELOG").execute().toChangelog()).rejects.toThrow("Received invalid op code 'UNKNOWN'");
  });

  it("planner errors: a missing op column", () => {
    const env = streamingEnv();
    cdcStream(env, "operation", [1, "INSERT", "Alice"]);
    expect(() => env.executeSql("SELECT * FROM FROM_CHANGELOG(input => TABLE cdc_stream)"))
      .toThrow("Invalid op column 'op' for FROM_CHANGELOG. Available columns are: [id, operation, name]");
  });
});
