import { describe, expect, it } from "vitest";
import { $, DataTypes, type PositionalRow, Row, RowKind, Schema, type TableEnvironment, ValidationError, call, ifThenElse } from "../../src/index.js";
import { batch, sorted, streaming } from "./fixtures.js";
import { backendSuite } from "../support/state-backends.js";

/** TemporalJoinTestPrograms fixtures: ORDERS and the versioned RatesHistory (before rows, then after rows). */
const ORDERS_SCHEMA = Schema.newBuilder()
  .column("amount", DataTypes.BIGINT())
  .column("order_currency", DataTypes.STRING())
  .column("order_time", DataTypes.STRING())
  .columnByExpression("rowtime", "TO_TIMESTAMP(order_time)")
  .watermark("rowtime", "`rowtime`")
  .build();
const RATES_SCHEMA = Schema.newBuilder()
  .column("currency", DataTypes.STRING())
  .column("rate", DataTypes.BIGINT())
  .column("rate_time", DataTypes.STRING())
  .columnByExpression("rate_rowtime", "TO_TIMESTAMP(rate_time)")
  .watermark("rate_rowtime", "`rate_rowtime`")
  .build();
const ORDERS = [
  Row.of(2, "Euro", "2020-10-10 00:00:42"), Row.of(1, "USD", "2020-10-10 00:00:43"), Row.of(50, "Yen", "2020-10-10 00:00:44"),
  Row.of(3, "Euro", "2020-10-10 00:00:45"),
  Row.of(1, "Euro", "2020-10-10 00:00:58"), Row.of(1, "USD", "2020-10-10 00:00:58"),
];
const RATES = [
  Row.of("USD", 102, "2020-10-10 00:00:41"), Row.of("Euro", 114, "2020-10-10 00:00:41"), Row.of("Yen", 1, "2020-10-10 00:00:41"),
  Row.of("Euro", 116, "2020-10-10 00:00:45"), Row.of("Euro", 119, "2020-10-10 00:00:47"),
  Row.of("USD", 103, "2020-10-10 00:00:58"), Row.of("Euro", 120, "2020-10-10 00:00:59"),
];
const AMOUNTS = ["+I[102]", "+I[228]", "+I[348]", "+I[50]", "+I[103]", "+I[119]"];

const setup = (env: TableEnvironment, rates: readonly PositionalRow<readonly [string, number, string]>[] = RATES) => {
  const orders = env.fromValues(ORDERS_SCHEMA, ORDERS);
  const history = env.fromValues(RATES_SCHEMA, rates);
  return { orders, rates: history.createTemporalTableFunction($("rate_rowtime"), $("currency")) };
};

backendSuite("temporal joins", () => {
  describe("temporal joins: Flink's programs", () => {
    it("R-021 temporal-join-temporal-function: LATERAL TABLE (Rates(o.rowtime)) WHERE o.currency = r.currency", async () => {
      const { orders, rates } = setup(streaming());
      const q = orders.joinLateral(call(rates, $("rowtime")), $("order_currency").isEqual($("currency")))
        .select($("amount").times($("rate")).as("amount"));
      expect(q.changelogMode()).toBe("[I]");
      expect(sorted(await q.execute().toChangelog())).toEqual(sorted(AMOUNTS));
    });

    it("R-019 temporal-join-table-join-nested-key: the left key is an expression (CASE over the currency)", async () => {
      // Flink's program reads the currency from a nested ROW (`o.nested_row.currency`); the Table API here has no
      // field access on ROW values yet, so the nested field is a top-level column with the same values
      const env = streaming();
      const nested = env.fromValues(ORDERS_SCHEMA, [
        Row.of(2, "Euro", "2020-10-10 00:00:42"), Row.of(1, "usd", "2020-10-10 00:00:43"), Row.of(50, "Yen", "2020-10-10 00:00:44"),
        Row.of(3, "Euro", "2020-10-10 00:00:45"),
        Row.of(1, "Euro", "2020-10-10 00:00:58"), Row.of(1, "usd", "2020-10-10 00:00:58"),
      ]);
      const { rates } = setup(env);
      const key = ifThenElse($("order_currency").isEqual("usd"), $("order_currency").upperCase(), $("order_currency"));
      const q = nested.joinLateral(call(rates, $("rowtime")), key.isEqual($("currency"))).select($("amount").times($("rate")).as("amount"));
      expect(q.explain()).toContain("leftKeys=[ifThenElse(equals(order_currency, 'usd'), upper(order_currency), order_currency)]");
      expect(sorted(await q.execute().toChangelog())).toEqual(sorted(AMOUNTS));
    });
  });

  describe("temporal joins: rules", () => {
    it("batch mode gives the same rows (R-021 in batch)", async () => {
      const { orders, rates } = setup(batch());
      const q = orders.joinLateral(call(rates, $("rowtime")), $("order_currency").isEqual($("currency"))).select($("amount").times($("rate")).as("amount"));
      expect(sorted(await q.execute().toChangelog())).toEqual(sorted(AMOUNTS));
    });

    it("a left outer temporal join pads orders without a valid version; a delete ends a version", async () => {
      const env = streaming();
      const rates = [
        Row.of("Euro", 114, "2020-10-10 00:00:41"), Row.ofKind(RowKind.DELETE, "Euro", 114, "2020-10-10 00:00:44"),
        Row.of("USD", 102, "2020-10-10 00:00:44"),
      ];
      const { orders, rates: fn } = setup(env, rates);
      const q = orders.leftOuterJoinLateral(call(fn, $("rowtime")), $("order_currency").isEqual($("currency")))
        .select($("amount"), $("order_currency"), $("rate"));
      expect(sorted(await q.execute().toChangelog())).toEqual(sorted([
        "+I[2, Euro, 114]", "+I[1, USD, null]", "+I[50, Yen, null]", "+I[3, Euro, null]", "+I[1, Euro, null]", "+I[1, USD, 102]",
      ]));
    });

    it("emits each order when the watermark passes its time, in time order, keeping the order's time attribute", async () => {
      const { orders, rates } = setup(streaming());
      const q = orders.joinLateral(call(rates, $("rowtime")), $("order_currency").isEqual($("currency")));
      expect(q.getResolvedSchema().columns.filter((c) => c.type.timeAttribute === "ROWTIME").map((c) => c.name)).toEqual(["rowtime"]);
      expect(q.explain()).toContain("TemporalJoin(joinType=[InnerJoin], asOf=[rowtime], version=[rate_rowtime], leftKeys=[order_currency], rightKeys=[currency]");
      const times = (await q.select($("order_time")).execute().toChangelog());
      expect(times).toEqual([...times].sort());
    });

    it("needs an equality on the primary key and a rowtime argument", () => {
      const { orders, rates } = setup(streaming());
      expect(() => orders.joinLateral(call(rates, $("rowtime")), $("amount").isGreater(1))).toThrow(ValidationError);
      expect(() => orders.joinLateral(call(rates, $("rowtime")), $("amount").isGreater(1))).toThrow(/primary key \[currency\].*missing 'currency'/);
      expect(() => orders.joinLateral(call(rates, $("order_time") as never), $("order_currency").isEqual($("currency")))).toThrow(/not a time attribute/);
      const env = streaming();
      const t = env.fromValues(DataTypes.ROW(DataTypes.FIELD("k", DataTypes.STRING()), DataTypes.FIELD("ts", DataTypes.TIMESTAMP(3))), []);
      expect(() => t.createTemporalTableFunction($("ts"), $("k"))).toThrow(/'ts' is not a rowtime attribute/);
    });
  });
});
