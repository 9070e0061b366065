// SQL's nested field access (`t.col.field`) and the names of a temporal table function's columns that the
// left side of LATERAL TABLE has too (Flink suffixes them: currency0, rowtime0).
import { describe, expect, it } from "vitest";
import { $, DataTypes, EnvironmentSettings, Row, Schema, TableEnvironment } from "../../src/index.js";

const streaming = () => TableEnvironment.create(EnvironmentSettings.inStreamingMode());

describe("nested field access in SQL", () => {
  const env = () => {
    const e = streaming();
    const type = DataTypes.ROW(DataTypes.FIELD("id", DataTypes.INT()),
      DataTypes.FIELD("r", DataTypes.ROW(DataTypes.FIELD("currency", DataTypes.STRING()), DataTypes.FIELD("inner", DataTypes.ROW(DataTypes.FIELD("n", DataTypes.INT()))))));
    e.createTemporaryView("t", e.fromValues(type, Row.of(1, { currency: "usd", inner: { n: 7 } }), Row.of(2, null)) as never);
    return e;
  };

  it("t.col.field reads a ROW column's field, also two levels deep; a NULL row gives NULL", async () => {
    expect(await env().executeSql("SELECT t.id, upper(t.r.currency), t.r.inner.n FROM t").toChangelog()).toEqual(["+I[1, USD, 7]", "+I[2, null, null]"]);
  });

  it("an unknown field is an error naming it", () => {
    expect(() => env().sqlQuery("SELECT t.r.curency FROM t")).toThrow(/has no field "curency"/);
  });
});

describe("LATERAL TABLE of a temporal table function whose columns the left side has too", () => {
  it("the function's columns are suffixed and t.col still names the function's own column", async () => {
    const e = streaming();
    const orders = Schema.newBuilder().column("currency", DataTypes.STRING()).column("amount", DataTypes.BIGINT())
      .column("rowtime", DataTypes.TIMESTAMP(3)).watermark("rowtime", "rowtime").build();
    const rates = Schema.newBuilder().column("currency", DataTypes.STRING()).column("rate", DataTypes.BIGINT())
      .column("rowtime", DataTypes.TIMESTAMP(3)).watermark("rowtime", "rowtime").build();
    e.createTemporaryView("Orders", e.fromValues(orders, Row.of("Euro", 2, new Date(5000))) as never);
    e.createTemporaryFunction("Rates", e.fromValues(rates, Row.of("Euro", 114, new Date(1000)), Row.of("USD", 3, new Date(1000)))
      .createTemporalTableFunction($("rowtime"), $("currency")));
    const sql = "SELECT * FROM Orders AS o, LATERAL TABLE (Rates(o.rowtime)) AS r WHERE o.currency = r.currency";
    expect(e.sqlQuery(sql).getResolvedSchema().names).toEqual(["currency", "amount", "rowtime", "currency0", "rate", "rowtime0"]);
    expect(await e.executeSql(sql).toChangelog()).toEqual(["+I[Euro, 2, 1970-01-01T00:00:05, Euro, 114, 1970-01-01T00:00:01]"]);
  });
});
