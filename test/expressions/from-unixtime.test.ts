import { describe, expect, it } from "vitest";
import { $, DataTypes, ExecutionError, Row, ValidationError, fromUnixtime } from "../../src/index.js";
import { changelog, env, jobError, thrown, types, unchecked } from "./support.js";

const F = DataTypes.FIELD;
const setup = () => {
  const e = env();
  const t = e.fromValues(
    DataTypes.ROW(F("s", DataTypes.BIGINT()), F("fmt", DataTypes.STRING()), F("n", DataTypes.INT().notNull())),
    Row.of(1505404800, "MMdd-yyyy", 0),
    Row.of(1000, null, -1),
    Row.of(null, "yyyy", 1700000000),
  );
  e.createTemporaryView("T", t);
  return { e, t };
};

describe("FROM_UNIXTIME(seconds [, format])", () => {
  it("formats seconds since the epoch in UTC, 'yyyy-MM-dd HH:mm:ss' by default; NULL in, NULL out (SQL)", async () => {
    const { e } = setup();
    const r = e.sqlQuery("SELECT FROM_UNIXTIME(s), FROM_UNIXTIME(s, 'MMdd-yyyy'), FROM_UNIXTIME(s, fmt), FROM_UNIXTIME(n, 'yy/M/d h:mm:ss.SSS a ''at'' HH') FROM T");
    expect(types(r)).toEqual(["STRING", "STRING", "STRING", "STRING NOT NULL"]);
    expect(await changelog(r)).toEqual([
      "+I[2017-09-14 16:00:00, 0914-2017, 0914-2017, 70/1/1 12:00:00.000 AM at 00]",
      "+I[1970-01-01 00:16:40, 0101-1970, null, 69/12/31 11:59:59.000 PM at 23]",
      "+I[null, null, null, 23/11/14 10:13:20.000 PM at 22]",
    ]);
  });

  it("is the Table API's fromUnixtime()", async () => {
    const { t } = setup();
    const r = t.select(fromUnixtime($("s")).as("a"), fromUnixtime($("n"), $("fmt")).as("b"));
    expect(await changelog(r)).toEqual(["+I[2017-09-14 16:00:00, 0101-1970]", "+I[1970-01-01 00:16:40, null]", "+I[null, 2023]"]);
  });

  it("rejects a non-integer number of seconds, a bad literal pattern and a wrong arity by name", () => {
    const { e, t } = setup();
    expect(thrown(() => t.select(unchecked(fromUnixtime($("fmt"))))).message).toMatch(/fromUnixtime expects a whole number of seconds .* for argument 1, got STRING in fromUnixtime\(fmt\)/);
    const bad = thrown(() => e.sqlQuery("SELECT FROM_UNIXTIME(s, 'yyyy-QQ') FROM T"));
    expect(bad).toBeInstanceOf(ValidationError);
    expect(bad.message).toMatch(/uses the letter 'Q' at position 6/);
    expect(() => e.sqlQuery("SELECT FROM_UNIXTIME() FROM T")).toThrow(/FROM_UNIXTIME/);
  });

  it("fails the job naming the call when a format column holds an unsupported pattern", async () => {
    const e = env();
    e.createTemporaryView("U", e.fromValues(DataTypes.ROW(F("s", DataTypes.BIGINT()), F("fmt", DataTypes.STRING())), Row.of(1, "EEE")));
    const err = await jobError(e.sqlQuery("SELECT FROM_UNIXTIME(s, fmt) FROM U"));
    expect(err).toBeInstanceOf(ExecutionError);
    expect(err.message).toMatch(/letter 'E'.*FROM_UNIXTIME|letter 'E'.*fromUnixtime/);
  });
});
