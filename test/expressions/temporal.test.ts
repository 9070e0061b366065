import { describe, expect, it } from "vitest";
import { $, DataTypes, Row, TimeIntervalUnit as U, ValidationError, lit } from "../../src/index.js";
import { changelog, env, jobError, thrown, types, unchecked, values } from "./support.js";

const F = DataTypes.FIELD;
const times = () => env().fromValues(
  DataTypes.ROW(
    F("ts", DataTypes.TIMESTAMP(3)), F("ltz", DataTypes.TIMESTAMP_LTZ(3)), F("d", DataTypes.DATE()), F("t", DataTypes.TIME(3)),
  ),
  Row.of("2024-01-31 10:15:30.123", new Date(Date.UTC(2024, 0, 31, 10, 15, 30, 123)), "2024-12-30", "10:15:30.123"),
  Row.of(null, null, null, null),
);

describe("extract", () => {
  it("takes every unit from a TIMESTAMP and a TIMESTAMP_LTZ (session time zone UTC)", async () => {
    const units = [U.MILLENNIUM, U.CENTURY, U.DECADE, U.YEAR, U.QUARTER, U.MONTH, U.WEEK, U.DAY, U.HOUR, U.MINUTE, U.SECOND, U.MILLISECOND, U.MICROSECOND, U.NANOSECOND];
    const expected = [3, 21, 202, 2024, 1, 1, 5, 31, 10, 15, 30, 123, 123000, 123000000];
    const ts = times().select(...units.map((u) => $("ts").extract(u)));
    expect(types(ts)).toEqual(Array(units.length).fill("BIGINT"));
    expect(await values(ts)).toEqual([expected, Array(units.length).fill(null)]);
    expect(await values(times().select(...units.map((u) => $("ltz").extract(u))))).toEqual([expected, Array(units.length).fill(null)]);
  });

  it("takes date units from a DATE; WEEK is the ISO week (2024-12-30 is in week 1 of 2025)", async () => {
    const t = times().select(...[U.MILLENNIUM, U.CENTURY, U.DECADE, U.YEAR, U.QUARTER, U.MONTH, U.WEEK, U.DAY].map((u) => $("d").extract(u)));
    expect(await values(t)).toEqual([[3, 21, 202, 2024, 4, 12, 1, 30], Array(8).fill(null)]);
  });

  it("takes time units from a TIME", async () => {
    const t = times().select(...[U.HOUR, U.MINUTE, U.SECOND, U.MILLISECOND].map((u) => $("t").extract(u)));
    expect(await values(t)).toEqual([[10, 15, 30, 123], [null, null, null, null]]);
  });

  it("rejects units a type does not have, as Flink's ExtractInputTypeStrategy", () => {
    const e = thrown(() => times().select($("d").extract(U.HOUR)));
    expect(e).toBeInstanceOf(ValidationError);
    expect(e.message).toBe("extract does not support TimeIntervalUnit HOUR for type DATE in extract(d, 'HOUR'); supported: MILLENNIUM, CENTURY, DECADE, YEAR, QUARTER, MONTH, WEEK, DAY");
    expect(thrown(() => times().select($("t").extract(U.YEAR))).message)
      .toBe("extract does not support TimeIntervalUnit YEAR for type TIME(3) in extract(t, 'YEAR'); supported: HOUR, MINUTE, SECOND, MILLISECOND");
  });
});

describe("floor and ceil to a time unit", () => {
  it("floor to each unit; weeks start on Sunday as in Flink; the type stays", async () => {
    const units = [U.MILLISECOND, U.SECOND, U.MINUTE, U.HOUR, U.DAY, U.WEEK, U.MONTH, U.QUARTER, U.YEAR, U.DECADE, U.CENTURY, U.MILLENNIUM];
    const t = times().select(...units.map((u) => $("ts").floor(u)));
    expect(types(t)).toEqual(Array(units.length).fill("TIMESTAMP(3)"));
    expect(await changelog(t)).toEqual([
      "+I[2024-01-31T10:15:30.123, 2024-01-31T10:15:30, 2024-01-31T10:15, 2024-01-31T10:00, 2024-01-31T00:00, 2024-01-28T00:00, "
      + "2024-01-01T00:00, 2024-01-01T00:00, 2024-01-01T00:00, 2020-01-01T00:00, 2001-01-01T00:00, 2001-01-01T00:00]",
      `+I[${Array(units.length).fill("null").join(", ")}]`,
    ]);
  });

  it("ceil to each unit is the first boundary at or after the value", async () => {
    const units = [U.SECOND, U.MINUTE, U.HOUR, U.DAY, U.WEEK, U.MONTH, U.QUARTER, U.YEAR];
    const t = times().select(...units.map((u) => $("ts").ceil(u)));
    expect(await changelog(t)).toEqual([
      "+I[2024-01-31T10:15:31, 2024-01-31T10:16, 2024-01-31T11:00, 2024-02-01T00:00, 2024-02-04T00:00, 2024-02-01T00:00, 2024-04-01T00:00, 2025-01-01T00:00]",
      `+I[${Array(units.length).fill("null").join(", ")}]`,
    ]);
    const exact = env().fromValues(DataTypes.ROW(F("ts", DataTypes.TIMESTAMP(3).notNull())), Row.of("2024-02-01 00:00:00"));
    expect(await changelog(exact.select($("ts").ceil(U.DAY), $("ts").ceil(U.MONTH), $("ts").floor(U.MONTH)))).toEqual(["+I[2024-02-01T00:00, 2024-02-01T00:00, 2024-02-01T00:00]"]);
  });

  it("works on TIMESTAMP_LTZ, printed as instants", async () => {
    expect(await changelog(times().select($("ltz").floor(U.HOUR)))).toEqual(["+I[2024-01-31T10:00:00Z]", "+I[null]"]);
  });

  it("rejects units without a floor", () => {
    expect(thrown(() => times().select($("ts").floor(U.NANOSECOND))).message).toBe(
      "floor to NANOSECOND is not supported in floorTime(ts, 'NANOSECOND'); supported: MILLISECOND, SECOND, MINUTE, HOUR, DAY, WEEK, MONTH, QUARTER, YEAR, DECADE, CENTURY, MILLENNIUM",
    );
  });
});

describe("intervals and timestamp arithmetic", () => {
  it("interval literals are milliseconds or months, typed INTERVAL", async () => {
    const t = times().select(
      lit(2).hours(), lit(1.5).hours(), lit(3).days(), lit(1).weeks(), lit(90).seconds(), lit(5).minutes(), lit(250).millis(),
      lit(1).years(), lit(2).quarters(), lit(14).months(),
    );
    expect(types(t)).toEqual([...Array(7).fill("INTERVAL DAY(2) TO SECOND(3) NOT NULL"), ...Array(3).fill("INTERVAL YEAR(2) TO MONTH NOT NULL")]);
    expect((await values(t))[0]).toEqual([7200000, 5400000, 259200000, 604800000, 90000, 300000, 250, 12, 6, 14]);
    expect((await changelog(t))[0]).toBe("+I[PT2H, PT1H30M, PT72H, PT168H, PT1M30S, PT5M, PT0.25S, P1Y, P6M, P1Y2M]");
  });

  it("a timestamp plus / minus a day-time interval", async () => {
    const t = times().select($("ts").plus(lit(2).hours()), $("ts").minus(lit(1).days()), $("ltz").plus(lit(500).millis()));
    expect(types(t)).toEqual(["TIMESTAMP(3)", "TIMESTAMP(3)", "TIMESTAMP_LTZ(3)"]);
    expect(await changelog(t)).toEqual(["+I[2024-01-31T12:15:30.123, 2024-01-30T10:15:30.123, 2024-01-31T10:15:30.623Z]", "+I[null, null, null]"]);
  });

  it("month arithmetic clamps to the end of the month (Jan 31 + 1 month is Feb 29 in 2024, Feb 28 in 2023)", async () => {
    const t = env().fromValues(DataTypes.ROW(F("ts", DataTypes.TIMESTAMP(3).notNull())),
      Row.of("2024-01-31 10:00:00"), Row.of("2023-01-31 00:00:00"), Row.of("2024-03-31 23:59:59.999"), Row.of("2024-02-29 12:00:00"));
    const r = t.select($("ts").plus(lit(1).months()), $("ts").minus(lit(1).months()), $("ts").plus(lit(1).years()), $("ts").plus(lit(13).months()));
    expect(await changelog(r)).toEqual([
      "+I[2024-02-29T10:00, 2023-12-31T10:00, 2025-01-31T10:00, 2025-02-28T10:00]",
      "+I[2023-02-28T00:00, 2022-12-31T00:00, 2024-01-31T00:00, 2024-02-29T00:00]",
      "+I[2024-04-30T23:59:59.999, 2024-02-29T23:59:59.999, 2025-03-31T23:59:59.999, 2025-04-30T23:59:59.999]",
      "+I[2024-03-29T12:00, 2024-01-29T12:00, 2025-02-28T12:00, 2025-03-29T12:00]",
    ]);
  });

  it("intervals add up, and an interval plus a timestamp is a timestamp", async () => {
    const t = times().select(lit(1).hours().plus(lit(30).minutes()), unchecked(lit(1).days().plus($("ts"))), lit(1).years().minus(lit(1).months()));
    expect(types(t)).toEqual(["INTERVAL DAY(2) TO SECOND(3) NOT NULL", "TIMESTAMP(3)", "INTERVAL YEAR(2) TO MONTH NOT NULL"]);
    expect(await changelog(t)).toEqual(["+I[PT1H30M, 2024-02-01T10:15:30.123, P11M]", "+I[PT1H30M, null, P11M]"]);
  });

  it("year-month intervals need whole numbers; a timestamp out of range fails the job", async () => {
    expect(thrown(() => times().select(lit(1.5).months())).message).toBe("intervalMonths expects a whole number (TINYINT..BIGINT) for argument 1, got DOUBLE NOT NULL in intervalMonths(1.5)");
    const far = env().fromValues(DataTypes.ROW(F("ts", DataTypes.TIMESTAMP(3).notNull())), Row.of("2024-01-01 00:00:00"));
    expect((await jobError(far.select($("ts").plus(lit(100000000).days())))).message)
      .toBe("timestamp overflow in `plus(ts, intervalDays(100000000))`: the result is outside the range of a timestamp (row +I[2024-01-01T00:00])");
  });
});
