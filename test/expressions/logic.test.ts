import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { $, DataTypes, Decimal, Row, ValidationError, and, lit, not, or } from "../../src/index.js";
import { changelog, env, thrown, types, values } from "./support.js";

const F = DataTypes.FIELD;
type B = boolean | null;

/** Reference SQL three-valued logic. */
const and3 = (...xs: B[]): B => (xs.includes(false) ? false : xs.includes(null) ? null : true);
const or3 = (...xs: B[]): B => (xs.includes(true) ? true : xs.includes(null) ? null : false);
const not3 = (x: B): B => (x === null ? null : !x);

const TRUTH: B[] = [true, false, null];
const pairs = TRUTH.flatMap((a) => TRUTH.map((b) => [a, b] as [B, B]));

const bools = (rows: readonly (readonly B[])[]) => env().fromValues(
  DataTypes.ROW(F("a", DataTypes.BOOLEAN()), F("b", DataTypes.BOOLEAN()), F("c", DataTypes.BOOLEAN())),
  ...rows.map((r) => Row.of(r[0] ?? null, r[1] ?? null, r[2] ?? null)),
);

describe("three-valued logic", () => {
  it("AND, OR and NOT follow SQL's truth tables, NULL included", async () => {
    const t = bools(pairs).select($("a").and($("b")), $("a").or($("b")), $("a").not());
    expect(types(t)).toEqual(["BOOLEAN", "BOOLEAN", "BOOLEAN"]);
    expect(await values(t)).toEqual(pairs.map(([a, b]) => [and3(a, b), or3(a, b), not3(a)]));
    // spelled out once, as a reader checks it
    expect(await values(t)).toEqual([
      [true, true, false], [false, true, false], [null, true, false],
      [false, true, true], [false, false, true], [false, null, true],
      [null, true, null], [false, null, null], [null, null, null],
    ]);
  });

  it("n-ary and(...) / or(...) and the functions and, or, not", async () => {
    const triples = TRUTH.flatMap((a) => pairs.map(([b, c]) => [a, b, c] as B[]));
    const t = bools(triples).select(and($("a"), $("b"), $("c")), or($("a"), $("b"), $("c")), not($("a").and($("b").or($("c")))));
    expect(await values(t)).toEqual(triples.map(([a, b, c]) => [and3(a!, b!, c!), or3(a!, b!, c!), not3(and3(a!, or3(b!, c!)))]));
  });

  it("NOT NULL operands give a NOT NULL result", () => {
    const t = env().fromValues(DataTypes.ROW(F("x", DataTypes.BOOLEAN().notNull()), F("y", DataTypes.BOOLEAN().notNull())), Row.of(true, false));
    expect(types(t.select($("x").and($("y")), $("x").or(lit(null, DataTypes.BOOLEAN())), $("x").not()))).toEqual(["BOOLEAN NOT NULL", "BOOLEAN", "BOOLEAN NOT NULL"]);
  });

  it("matches a reference implementation on random rows and random expression shapes (property)", async () => {
    const bool = fc.constantFrom<B>(true, false, null);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(bool, bool, bool), { minLength: 1, maxLength: 12 }), async (rows) => {
        const t = bools(rows).select(
          $("a").and($("b").not()).or($("c")),
          or($("a").and($("b")), $("b").and($("c")), $("c").not()),
          $("a").isTrue().or($("b").isNotFalse()).and($("c").isNull().not()),
          $("a").or($("b")).and($("a").not().or($("c"))),
        );
        const expected = rows.map(([a, b, c]) => [
          or3(and3(a, not3(b)), c),
          or3(and3(a, b), and3(b, c), not3(c)),
          and3(or3(a === true, b !== false), c !== null),
          and3(or3(a, b), or3(not3(a), c)),
        ]);
        expect(await values(t)).toEqual(expected);
        // a filter keeps exactly the rows whose condition is TRUE
        const kept = await values(bools(rows).filter($("a").or($("b").and($("c")))));
        expect(kept).toEqual(rows.filter(([a, b, c]) => or3(a, and3(b, c)) === true));
      }),
      { numRuns: 150 },
    );
  });

  it("IS [NOT] NULL / TRUE / FALSE are never NULL", async () => {
    const t = bools(TRUTH.map((x) => [x])).select(
      $("a").isNull(), $("a").isNotNull(), $("a").isTrue(), $("a").isFalse(), $("a").isNotTrue(), $("a").isNotFalse(),
    );
    expect(types(t)).toEqual(Array(6).fill("BOOLEAN NOT NULL"));
    expect(await values(t)).toEqual([
      [false, true, true, false, false, true],
      [false, true, false, true, true, false],
      [true, false, false, false, true, true],
    ]);
  });

  it("logical operators need BOOLEAN operands", () => {
    const t = env().fromValues(DataTypes.ROW(F("n", DataTypes.INT())), Row.of(1));
    // @ts-expect-error an INT is not a BOOLEAN
    const e = thrown(() => t.filter($("n").and(true)));
    expect(e).toBeInstanceOf(ValidationError);
    expect(e.message).toBe("and expects a BOOLEAN for argument 1, got INT in and(n, true)");
  });
});

const people = () => env().fromValues(
  DataTypes.ROW(
    F("name", DataTypes.STRING()), F("age", DataTypes.INT()), F("score", DataTypes.DECIMAL(4, 1)),
    F("born", DataTypes.DATE()), F("seen", DataTypes.TIMESTAMP(3)),
  ),
  Row.of("Alice", 35, "9.5", "1990-05-01", "2024-01-01 10:00:00"),
  Row.of("Bob", 17, "7.0", "2007-12-24", "2024-01-01 09:59:59.999"),
  Row.of(null, null, null, null, null),
);

describe("comparisons", () => {
  it("=, <>, <, <=, >, >= on numbers; NULL compares as NULL", async () => {
    const t = people().select(
      $("age").isEqual(35), $("age").isNotEqual(35), $("age").isLess(18), $("age").isLessOrEqual(17), $("age").isGreater(17), $("age").isGreaterOrEqual(35),
    );
    expect(types(t)).toEqual(Array(6).fill("BOOLEAN"));
    expect(await values(t)).toEqual([
      [true, false, false, false, true, true], [false, true, true, true, false, false], [null, null, null, null, null, null],
    ]);
  });

  it("compares strings, dates, timestamps and DECIMAL with integers exactly", async () => {
    const t = people().select(
      $("name").isLess("Bob"), $("born").isGreater("2000-01-01"), $("seen").isGreaterOrEqual($("seen").floor("HOUR")),
      $("score").isEqual(7), $("score").isGreater(9.25), $("score").isEqual(new Decimal("9.50")),
    );
    expect(await values(t)).toEqual([
      [true, false, true, false, true, true], [false, true, true, true, false, false], [null, null, null, null, null, null],
    ]);
  });

  it("cannot compare values of different families", () => {
    // @ts-expect-error a STRING is compared with a NUMERIC
    const e = thrown(() => people().filter($("name").isEqual(1)));
    expect(e).toBeInstanceOf(ValidationError);
    expect(e.message).toBe("cannot compare STRING with NUMERIC in equals(name, 1)");
  });
});

describe("in", () => {
  const nums = () => env().fromValues(DataTypes.ROW(F("x", DataTypes.INT())), Row.of(1), Row.of(3), Row.of(null));

  it("is TRUE on a match, else NULL if the value or a list item is NULL, else FALSE", async () => {
    const t = nums().select($("x").in(1, 2), $("x").in(1, null), $("x").in(lit(1), $("x").plus(1)));
    expect(types(t)).toEqual(["BOOLEAN", "BOOLEAN", "BOOLEAN"]);
    expect(await values(t)).toEqual([[true, true, true], [false, null, false], [null, null, null]]);
  });

  it("NOT NULL value and literal list give a NOT NULL result; strings use one set lookup", async () => {
    const t = env().fromValues(DataTypes.ROW(F("s", DataTypes.STRING().notNull())), Row.of("INSERT"), Row.of("DELETE"));
    const r = t.select($("s").in("INSERT", "UPDATE_AFTER"));
    expect(types(r)).toEqual(["BOOLEAN NOT NULL"]);
    expect(await changelog(r)).toEqual(["+I[true]", "+I[false]"]);
  });

  it("list items must be comparable with the value", () => {
    // @ts-expect-error a STRING in an INT list
    const e = thrown(() => nums().select($("x").in(1, "two")));
    expect(e.message).toBe("cannot compare NUMERIC with STRING in in(x, 1, 'two')");
  });
});

describe("between", () => {
  const nums = () => env().fromValues(DataTypes.ROW(F("x", DataTypes.INT())), Row.of(4), Row.of(6), Row.of(null));
  const NULL_INT = () => lit(null, DataTypes.INT());

  it("is inclusive, and NOT BETWEEN its complement", async () => {
    const t = nums().select($("x").between(4, 5), $("x").notBetween(4, 5), $("x").between(5, 4));
    expect(await values(t)).toEqual([[true, false, false], [false, true, false], [null, null, null]]);
  });

  it("with a NULL bound is x >= lo AND x <= hi in three-valued logic: 6 BETWEEN NULL AND 5 is FALSE", async () => {
    const t = nums().select($("x").between(NULL_INT(), 5), $("x").notBetween(NULL_INT(), 5), $("x").between(5, NULL_INT()));
    expect(types(t)).toEqual(["BOOLEAN", "BOOLEAN", "BOOLEAN"]);
    expect(await values(t)).toEqual([[null, null, false], [false, true, null], [null, null, null]]);
  });

  it("evaluates its operand once", async () => {
    const t = env().fromValues(DataTypes.ROW(F("x", DataTypes.INT().notNull())), Row.of(10)).select($("x").dividedBy(2).between(4, 5));
    expect(types(t)).toEqual(["BOOLEAN NOT NULL"]);
    expect(await values(t)).toEqual([[true]]);
  });
});
