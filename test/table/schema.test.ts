import { describe, expect, it } from "vitest";
import { ValuesReader } from "../../src/exec/sources/values-reader.js";
import type { Output } from "../../src/exec/operator.js";
import {
  $, DataTypes, Row, Schema, SqlParseError, TableEnvironment, Tumble, ValidationError, lit,
} from "../../src/index.js";
import type { ValuesNode } from "../../src/plan/nodes.js";

const names = () => Schema.newBuilder()
  .column("ts", "TIMESTAMP_LTZ(3)")
  .column("random", DataTypes.INT())
  .columnByExpression("name", "IF(random % 2 = 0, 'Bob', 'Alice')")
  .watermark("ts", "ts - INTERVAL '1' SECOND")
  .build();

class Recorder implements Output {
  readonly events: string[] = [];
  record(_k: number, row: unknown[]): void { this.events.push(`row ${(row[0] as Date).getTime()}`); }
  watermark(wm: number): void { this.events.push(`wm ${wm}`); }
  endInput(): void { this.events.push("end"); }
}

describe("Schema", () => {
  it("declares physical and computed columns, a watermark and a primary key; prints as Flink does", () => {
    const s = Schema.newBuilder()
      .column("id", "BIGINT")
      .column("ts", DataTypes.TIMESTAMP(3))
      .columnByExpression("next", $("id").plus(1))
      .watermark("ts", $("ts").minus(lit(2).seconds()))
      .primaryKey("id")
      .build();
    expect(s.toString()).toBe([
      "(",
      "  `id` BIGINT,",
      "  `ts` TIMESTAMP(3),",
      "  `next` AS plus(id, 1),",
      "  WATERMARK FOR `ts` AS minus(ts, intervalSeconds(2)),",
      "  CONSTRAINT `PK_id` PRIMARY KEY (`id`) NOT ENFORCED",
      ")",
    ].join("\n"));
    const env = TableEnvironment.create();
    const t = env.fromValues(s, Row.of(1, new Date(5000)));
    expect(t.getResolvedSchema().toString()).toBe([
      "(",
      "  `id` BIGINT NOT NULL,",
      "  `ts` TIMESTAMP(3) *ROWTIME*,",
      "  `next` BIGINT NOT NULL",
      ")",
    ].join("\n"));
    expect((t.node as ValuesNode).watermark).toEqual({ rowtimeColumn: "ts", delayMillis: 2000, emit: "on-event" });
  });

  it("evaluates computed columns for fromValues (the seed's Names table)", async () => {
    const env = TableEnvironment.create();
    const t = env.fromValues(names(), Row.of(new Date(0), 1), { ts: new Date(1000), random: 2 }, Row.of(new Date(2000), null));
    expect(t.getResolvedSchema().toString()).toBe("(\n  `ts` TIMESTAMP_LTZ(3) *ROWTIME*,\n  `random` INT,\n  `name` VARCHAR(5) NOT NULL\n)");
    expect(await t.execute().toArray()).toEqual([
      { ts: new Date(0), random: 1, name: "Alice" },
      { ts: new Date(1000), random: 2, name: "Bob" },
      { ts: new Date(2000), random: null, name: "Alice" },
    ]);
  });

  it("emits per-record watermarks by default and every N records on request", () => {
    const env = TableEnvironment.create();
    const rows = [0, 3000, 2000, 5000, 4000, 6000].map((ms, i) => Row.of(new Date(ms), i));
    const perRecord = new Recorder();
    new ValuesReader(env.fromValues(names(), ...rows).node as ValuesNode).poll(perRecord, 100);
    expect(perRecord.events).toEqual([
      "row 0", "wm -1000", "row 3000", "wm 2000", "row 2000", "row 5000", "wm 4000", "row 4000", "row 6000", "wm 5000", "wm Infinity", "end",
    ]);
    env.getConfig().set("scan.watermark.emit.strategy", "on-periodic").set("scan.watermark.emit.interval-records", "2");
    const node = env.fromValues(names(), ...rows).node as ValuesNode;
    expect(node.watermark).toEqual({ rowtimeColumn: "ts", delayMillis: 1000, emit: "periodic", intervalRecords: 2 });
    const periodic = new Recorder();
    new ValuesReader(node).poll(periodic, 100);
    expect(periodic.events).toEqual([
      "row 0", "row 3000", "wm 2000", "row 2000", "row 5000", "wm 4000", "row 4000", "row 6000", "wm 5000", "wm Infinity", "end",
    ]);
    env.getConfig().set("scan.watermark.emit.strategy", "sometimes");
    expect(() => env.fromValues(names(), ...rows)).toThrow(
      new ValidationError("option 'scan.watermark.emit.strategy' must be 'on-event' or 'on-periodic', got 'sometimes'"));
  });

  it("takes the minimum watermark over the inputs of a union", async () => {
    // the fast input alone would move the watermark past the slow input's rows and drop them as late
    const env = TableEnvironment.create();
    const fast = env.fromValues(names(), ...[0, 10, 20, 30, 40, 50].map((s) => Row.of(new Date(s * 1000), 1)));
    const slow = env.fromValues(names(), ...[1, 2, 3, 4, 5, 6].map((s) => Row.of(new Date(s * 1000), 2)));
    const rows = await fast.unionAll(slow)
      .window(Tumble.over(lit(10).seconds()).on($("ts")).as("w"))
      .groupBy($("w")).select($("w").start().as("s"), $("random").count().as("n"))
      .execute().toChangelog();
    expect(rows).toEqual([
      "+I[1970-01-01T00:00, 7]", "+I[1970-01-01T00:00:10, 1]", "+I[1970-01-01T00:00:20, 1]",
      "+I[1970-01-01T00:00:30, 1]", "+I[1970-01-01T00:00:40, 1]", "+I[1970-01-01T00:00:50, 1]",
    ]);
  });

  it("rejects what Flink rejects, naming the column", () => {
    expect(() => Schema.newBuilder().column("a", "INT").column("a" as string, "INT")).toThrow(
      new ValidationError("column: column 'a' is declared twice in [a]"));
    const env = TableEnvironment.create();
    const intTime = Schema.newBuilder().column("t", "INT").watermark("t" as never, "t").build();
    expect(() => env.fromValues(intTime, Row.of(1))).toThrow(new ValidationError(
      "Invalid data type of time field for watermark definition. The field must be of type TIMESTAMP(p) or TIMESTAMP_LTZ(p), the supported precision 'p' is from 0 to 3, but the time field type is INT (column 't')"));
    const micro = Schema.newBuilder().column("t", DataTypes.TIMESTAMP(6)).watermark("t", "t").build();
    expect(() => env.fromValues(micro, Row.of(new Date(0)))).toThrow(/but the time field type is TIMESTAMP\(6\)/);
    const odd = Schema.newBuilder().column("t", "TIMESTAMP(3)").watermark("t", "t + INTERVAL '1' SECOND").build();
    expect(() => env.fromValues(odd, Row.of(new Date(0)))).toThrow(new ValidationError(
      "watermark for 't': the expression must be 't' or 't - INTERVAL ...' (bounded out-of-orderness), got t + INTERVAL '1' SECOND"));
    const unknown = Schema.newBuilder().column("a", "INT").columnByExpression("b", "c + 1").build();
    expect(() => env.fromValues(unknown, Row.of(1))).toThrow(new ValidationError(
      "computed column 'b' AS c + 1: column 'c' is not in [a] (computed columns may use the physical columns [a])"));
    expect(() => Schema.newBuilder().column("a", "INT").columnByExpression("b", "a +")).toThrow(new SqlParseError(
      "cannot parse computed column 'b' 'a +' at line 1, column 4: expected an expression, got end of input"));
    expect(() => Schema.newBuilder().column("a", "INT").columnByExpression("b", "a + 1").primaryKey("b")).toThrow(new ValidationError(
      "primaryKey: column 'b' is a computed column; a primary key must be declared on physical columns"));
    expect(() => env.fromValues(names(), { ts: new Date(0), name: "x" })).toThrow(new ValidationError(
      "fromValues row 1: column 'name' is a computed column and cannot be given a value of [ts, random]"));
    expect(() => env.fromValues(names(), Row.of(new Date(0)))).toThrow(new ValidationError(
      "fromValues row 1: has 1 values but the schema has 2 physical columns [ts, random]"));
  });
});
