// The run-time half of test/types/expression-rules.ts: the same expressions, planned and run. Where the
// compiler accepts an expression, the run time gives the type family and nullability the compiler
// inferred; where the compiler rejects one (tested there), the run time rejects it too (tested here,
// past the compiler with `unchecked`).
import { describe, expect, it } from "vitest";
import {
  $, AggregateFunction, DataTypes, Decimal, Row, ValidationError, call, coalesce, ifThenElse, lit,
} from "../../src/index.js";
import { changelog, env, thrown, types, unchecked, values } from "./support.js";

const F = DataTypes.FIELD;

const table = () => env().fromValues(
  DataTypes.ROW(
    F("amount", DataTypes.INT().notNull()),
    F("qty", DataTypes.INT()),
    F("price", DataTypes.DECIMAL(10, 2)),
    F("ratio", DataTypes.DOUBLE().notNull()),
    F("product", DataTypes.STRING().notNull()),
    F("paid", DataTypes.BOOLEAN().notNull()),
    F("ts", DataTypes.TIMESTAMP(3)),
    F("dt", DataTypes.INTERVAL("DAY TO SECOND")),
    F("ym", DataTypes.INTERVAL("YEAR TO MONTH").notNull()),
  ),
  Row.of(3, null, "9.99", 0.5, "widget", true, "2024-01-31 10:00:00", 3600000, 1),
  Row.of(-7, 2, null, 2.5, "ab", false, null, null, 14),
);

describe("conditionals mixing DECIMAL and INT have a DECIMAL type", () => {
  it("coalesce, ifThenElse and ifNull convert the integer branch to a Decimal", async () => {
    const r = table().select(
      coalesce($("price"), $("amount")).as("c1"),
      coalesce($("price"), 0).as("c2"),
      coalesce($("price"), $("qty")).as("c3"),
      ifThenElse($("paid"), $("price"), $("amount")).as("i1"),
      $("price").ifNull($("amount")).as("n1"),
      $("amount").ifNull($("price")).as("n3"),
    );
    expect(types(r)).toEqual([
      "DECIMAL(12, 2) NOT NULL", "DECIMAL(12, 2) NOT NULL", "DECIMAL(12, 2)", "DECIMAL(12, 2)", "DECIMAL(12, 2) NOT NULL", "INT NOT NULL",
    ]);
    const rows = await values(r);
    for (const row of rows) for (const v of row.slice(0, 5)) expect(v === null || v instanceof Decimal).toBe(true);
    expect(await changelog(r)).toEqual([
      "+I[9.99, 9.99, 9.99, 9.99, 9.99, 3]",
      "+I[-7.00, 0.00, 2.00, -7.00, -7.00, -7]",
    ]);
    expect(rows[1]![5]).toBe(-7);
  });

  it("rejects branches without a common type, as the compiler does", () => {
    expect(thrown(() => table().select(unchecked(coalesce($("product"), $("amount"))))).message)
      .toBe("the arguments of coalesce(product, amount): types STRING NOT NULL and INT NOT NULL have no common type");
    expect(thrown(() => table().select(unchecked(ifThenElse($("paid"), $("dt"), $("ym"))))).message)
      .toBe("the branches of ifThenElse(paid, dt, ym): types INTERVAL DAY(2) TO SECOND(3) and INTERVAL YEAR(2) TO MONTH NOT NULL have no common type");
  });
});

describe("IN across the numeric family", () => {
  it("compares DECIMAL with INT and DOUBLE items", async () => {
    const r = table().select($("price").in(1, 9.99), $("amount").in(lit(1), $("qty"), $("price")));
    expect(types(r)).toEqual(["BOOLEAN", "BOOLEAN"]);
    expect(await changelog(r)).toEqual(["+I[true, null]", "+I[null, null]"]);
  });
});

describe("mod", () => {
  it("takes exact numbers", async () => {
    const r = table().select($("amount").mod(3), $("price").mod(2), $("qty").mod($("amount")));
    expect(types(r)).toEqual(["INT NOT NULL", "DECIMAL(10, 2)", "INT"]);
    expect(await changelog(r)).toEqual(["+I[0, 1.99, null]", "+I[-1, null, 2]"]);
  });

  it("rejects a DOUBLE operand: a DOUBLE column at the API call, a visibly DOUBLE one also at compile time", () => {
    const e = thrown(() => table().select($("ratio").mod(2)));
    expect(e).toBeInstanceOf(ValidationError);
    expect(e.message).toBe("mod needs exact numeric operands (TINYINT, SMALLINT, INT, BIGINT, DECIMAL), got DOUBLE NOT NULL and INT NOT NULL in mod(ratio, 2); cast DOUBLE/FLOAT operands first");
    for (const x of [$("amount").mod(2.5), $("amount").sqrt().mod(2), $("amount").plus(0.5).round().mod(2), lit(7.5).mod($("amount"))]) {
      expect(thrown(() => table().select(unchecked(x))).message).toMatch(/^mod needs exact numeric operands \(TINYINT, SMALLINT, INT, BIGINT, DECIMAL\), got .*DOUBLE/);
    }
  });
});

describe("interval and timestamp arithmetic", () => {
  it("interval × number, number × interval, interval / number, interval ± interval, timestamp ± interval, interval + timestamp", async () => {
    const r = table().select(
      $("dt").times(2).as("a"),
      lit(2).times($("ym")).as("b"),
      $("amount").times(lit(1).hours()).as("c"),
      $("dt").dividedBy($("qty")).as("d"),
      $("ym").minus($("ym")).as("f"),
      lit(90).minutes().negate().abs().as("g"),
      $("ts").plus(lit(1).hours()).as("h"),
      $("ts").minus($("ym")).as("i"),
      lit(1).days().plus($("ts")).as("j"),
    );
    expect(types(r)).toEqual([
      "INTERVAL DAY(2) TO SECOND(3)", "INTERVAL YEAR(2) TO MONTH NOT NULL", "INTERVAL DAY(2) TO SECOND(3) NOT NULL",
      "INTERVAL DAY(2) TO SECOND(3)", "INTERVAL YEAR(2) TO MONTH NOT NULL", "INTERVAL DAY(2) TO SECOND(3) NOT NULL",
      "TIMESTAMP(3)", "TIMESTAMP(3)", "TIMESTAMP(3)",
    ]);
    expect(await changelog(r)).toEqual([
      "+I[PT2H, P2M, PT3H, null, P0D, PT1H30M, 2024-01-31T11:00, 2023-12-31T10:00, 2024-02-01T10:00]",
      "+I[null, P2Y4M, PT-7H, null, P0D, PT1H30M, null, null, null]",
    ]);
  });

  it("rejects what the compiler rejects", () => {
    const cases: [ReturnType<typeof unchecked>, string][] = [
      [unchecked($("dt").plus($("ym"))), "plus is not defined for INTERVAL (INTERVAL DAY(2) TO SECOND(3)) and INTERVAL (INTERVAL YEAR(2) TO MONTH NOT NULL) in plus(dt, ym)"],
      [unchecked($("dt").times($("dt"))), "times is not defined for INTERVAL (INTERVAL DAY(2) TO SECOND(3)) and INTERVAL (INTERVAL DAY(2) TO SECOND(3)) in times(dt, dt)"],
      [unchecked(lit(2).dividedBy($("dt"))), "dividedBy is not defined for NUMERIC (INT NOT NULL) and INTERVAL (INTERVAL DAY(2) TO SECOND(3)) in dividedBy(2, dt)"],
      [unchecked($("ym").plus(1)), "plus is not defined for INTERVAL (INTERVAL YEAR(2) TO MONTH NOT NULL) and NUMERIC (INT NOT NULL) in plus(ym, 1)"],
      [unchecked($("dt").mod(2)), "mod is not defined for INTERVAL (INTERVAL DAY(2) TO SECOND(3)) and NUMERIC (INT NOT NULL) in mod(dt, 2)"],
      [unchecked(lit(1).hours().minus($("ts"))), "minus is not defined for INTERVAL (INTERVAL DAY(2) TO SECOND(3) NOT NULL) and TIMESTAMP (TIMESTAMP(3)) in minus(intervalHours(1), ts)"],
      [unchecked($("ts").plus(1)), "plus needs NUMERIC operands, got TIMESTAMP and NUMERIC in plus(ts, 1)"],
      [unchecked($("dt").isLess($("ym"))), "cannot compare INTERVAL DAY(2) TO SECOND(3) with INTERVAL YEAR(2) TO MONTH NOT NULL in lessThan(dt, ym)"],
      [unchecked($("dt").extract("HOUR")), "extract needs a TIMESTAMP, TIMESTAMP_LTZ, DATE or TIME argument, got INTERVAL DAY(2) TO SECOND(3) in extract(dt, 'HOUR')"],
    ];
    for (const [x, message] of cases) {
      const e = thrown(() => table().select(x));
      expect(e).toBeInstanceOf(ValidationError);
      expect(e.message).toBe(message);
    }
  });
});

describe("substring / lpad / rpad are nullable unless literals rule out their NULL result", () => {
  it("types follow the literals", async () => {
    const r = table().select(
      $("product").substring(1, 3), $("product").substring(2), $("product").substring(1, lit(3)),
      $("product").substring(1, $("amount")), $("product").substring(1, -1),
      $("product").lpad(5, "*"), $("product").rpad(lit(4), lit("-")), $("product").lpad($("amount"), "*"), $("product").rpad(5, ""),
    );
    expect(types(r)).toEqual([
      "STRING NOT NULL", "STRING NOT NULL", "STRING NOT NULL",
      "STRING", "STRING",
      "STRING NOT NULL", "STRING NOT NULL", "STRING", "STRING",
    ]);
    // NOT NULL arguments, NULL results: a negative length, an empty pad
    expect(await changelog(r)).toEqual([
      "+I[wid, idget, wid, wid, null, widge, widg, wid, null]",
      "+I[ab, b, ab, null, null, ***ab, ab--, null, null]",
    ]);
  });
});

describe("SUM0", () => {
  it("has the argument's type, NOT NULL", async () => {
    const r = table().groupBy($("paid")).select($("paid"), $("amount").sum0(), $("qty").sum0(), $("price").sum0());
    expect(types(r)).toEqual(["BOOLEAN NOT NULL", "INT NOT NULL", "INT NOT NULL", "DECIMAL(38, 2) NOT NULL"]);
    expect(await changelog(r)).toEqual(["+I[true, 3, 0, 9.99]", "+I[false, -7, 2, 0.00]"]);
    expect(thrown(() => table().select(unchecked($("product").sum0()))).message).toMatch(/^SUM0 needs a NUMERIC argument, got STRING NOT NULL in /);
  });
});

describe("an aggregate function called by name", () => {
  it("makes a global aggregate an updating table, which its type does not show (docs/typing.md, Limits)", async () => {
    const e = env();
    e.createFunction("my_sum", AggregateFunction.define({
      name: "my_sum",
      args: [DataTypes.INT().notNull()],
      result: DataTypes.INT().notNull(),
      createAccumulator: () => ({ sum: 0 }),
      accumulate(acc, v) { acc.sum += v; },
      getValue: (acc) => acc.sum,
    }));
    const t = e.fromValues(DataTypes.ROW(F("v", DataTypes.INT().notNull())), Row.of(1), Row.of(2)).select(call("my_sum", $("v")).as("s"));
    expect(t.changelogMode()).toBe("[I,UB,UA]");
    expect(await changelog(t)).toEqual(["+I[1]", "-U[1]", "+U[3]"]);
  });
});
