// The same mistake gives the same message through SQL and through the Table API: SQL adds Flink's prefix
// and the position (`SQL validation failed. At line 1, column 15: `), and may add a "did you mean" hint.
import { describe, expect, it } from "vitest";
import { $, ArgumentTrait, DataTypes, ProcessTableFunction, Schema, TableEnvironment, ValidationError, call, tableArg, valueState } from "../../src/index.js";

const Counter = ProcessTableFunction.define({
  name: "Counter",
  args: { input: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE) },
  state: { s: valueState({ n: 0 }) },
  output: DataTypes.INT(),
  eval(ctx, { s }) { s.n++; ctx.collect(s.n); },
});

function env() {
  const e = TableEnvironment.create();
  e.createTemporaryView("Events", e.fromValues(
    Schema.newBuilder().column("name", "STRING").column("ts", "TIMESTAMP_LTZ(3)").watermark("ts", "ts").build(),
    { name: "Bob", ts: new Date(0) },
  ));
  e.createFunction("Counter", Counter);
  return e;
}

function message(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(ValidationError);
    return (e as Error).message;
  }
  throw new Error("no error");
}

describe("SQL and Table API: one message per mistake", () => {
  const any = (t: unknown) => t as {
    partitionBy(...k: unknown[]): { orderBy(...k: unknown[]): { process(f: unknown): unknown }; process(f: unknown): unknown };
    select(...e: unknown[]): unknown; filter(p: unknown): unknown; groupBy(...k: unknown[]): { select(...e: unknown[]): unknown };
  };
  const cases: [string, string, (e: TableEnvironment) => unknown][] = [
    ["PARTITION BY of an unknown column", "SELECT * FROM Counter(TABLE Events PARTITION BY nme)", (e) => any(e.from("Events")).partitionBy($("nme")).process(Counter)],
    ["ORDER BY of an unknown column", "SELECT * FROM Counter(TABLE Events PARTITION BY name ORDER BY tss)",
      (e) => any(e.from("Events")).partitionBy($("name")).orderBy($("tss").asc()).process(Counter)],
    ["an unknown column in SELECT", "SELECT nme FROM Events", (e) => any(e.from("Events")).select($("nme"))],
    ["an unknown column in WHERE", "SELECT * FROM Events WHERE nme = 'x'", (e) => any(e.from("Events")).filter($("nme").isEqual("x"))],
    ["an unknown column in GROUP BY", "SELECT COUNT(*) FROM Events GROUP BY nme", (e) => any(e.from("Events")).groupBy($("nme")).select(call("COUNT"))],
  ];
  for (const [what, sql, api] of cases) {
    it(what, () => {
      const fromSql = message(() => env().executeSql(sql));
      const fromApi = message(() => api(env()));
      expect(fromSql).toMatch(/^SQL validation failed\. At line 1, column \d+: /);
      expect(fromSql.replace(/^SQL validation failed\. At line 1, column \d+: /, "").replace(/; did you mean '[^']*'\?$/, "")).toBe(fromApi);
    });
  }
});
