import { describe, expect, it } from "vitest";
import { DataTypes, Decimal } from "../../src/index.js";
import {
  formatDayTimeInterval, formatDouble, formatDuration, formatFloat, formatInstant, formatLocalDateTime, formatLocalTime, formatPeriod,
  formatYearMonthInterval, toJavaString, toSqlString,
} from "../../src/types/format.js";

/**
 * Java-style rendering, which Flink's test oracles (`+I[Bob, 12]`) and CAST(... AS STRING) depend on.
 * Expected strings are what the JDK prints.
 */
describe("Double.toString", () => {
  it("plain notation in [1e-3, 1e7) with at least one fraction digit", () => {
    expect([42, 100, 0.001, 0.1, 1234567, 9999999.999, 2.5, -17.25, 0.30000000000000004].map(formatDouble))
      .toEqual(["42.0", "100.0", "0.001", "0.1", "1234567.0", "9999999.999", "2.5", "-17.25", "0.30000000000000004"]);
  });

  it("computerized scientific notation outside it", () => {
    expect([1e7, 1.2345678e7, 1e-4, 0.00012345, 1e21, 1e23, -3e-10, Number.MAX_VALUE, Number.MIN_VALUE].map(formatDouble))
      .toEqual(["1.0E7", "1.2345678E7", "1.0E-4", "1.2345E-4", "1.0E21", "1.0E23", "-3.0E-10", "1.7976931348623157E308", "4.9E-324"]);
  });

  it("zeros and non-finite values", () => {
    expect([0, -0, NaN, Infinity, -Infinity].map(formatDouble)).toEqual(["0.0", "-0.0", "NaN", "Infinity", "-Infinity"]);
  });
});

describe("Float.toString", () => {
  it("prints the shortest digits that identify the float", () => {
    expect([0.1, 1.5, 1e7, 16777217, 3.4028234663852886e38, 1.401298464324817e-45, 0.001, 1 / 3].map(formatFloat))
      .toEqual(["0.1", "1.5", "1.0E7", "1.6777216E7", "3.4028235E38", "1.4E-45", "0.001", "0.33333334"]);
  });
});

describe("temporal values", () => {
  it("Instant.toString for TIMESTAMP_LTZ: seconds always, milliseconds when not zero", () => {
    expect(formatInstant(new Date(0))).toBe("1970-01-01T00:00:00Z");
    expect(formatInstant(new Date(1))).toBe("1970-01-01T00:00:00.001Z");
    expect(formatInstant(new Date(99999))).toBe("1970-01-01T00:01:39.999Z");
  });

  it("LocalDateTime.toString for TIMESTAMP: seconds omitted when seconds and millis are zero", () => {
    expect(formatLocalDateTime(new Date(Date.UTC(2025, 0, 1, 1)))).toBe("2025-01-01T01:00");
    expect(formatLocalDateTime(new Date(Date.UTC(2020, 9, 10, 0, 0, 5)))).toBe("2020-10-10T00:00:05");
    expect(formatLocalDateTime(new Date(Date.UTC(2020, 9, 10, 0, 0, 0, 100)))).toBe("2020-10-10T00:00:00.100");
  });

  it("LocalTime.toString for TIME", () => {
    expect(["10:30:00", "10:30:05", "10:30:05.100", "00:00:00.000"].map(formatLocalTime)).toEqual(["10:30", "10:30:05", "10:30:05.100", "00:00"]);
  });

  it("Duration and Period for intervals; SQL style for CAST and printing", () => {
    expect([1000, 9000000, 250, 90000, 259200000, -1500, 0].map(formatDuration)).toEqual(["PT1S", "PT2H30M", "PT0.25S", "PT1M30S", "PT72H", "PT-1.5S", "PT0S"]);
    expect([12, 14, 1, 0, -14].map(formatPeriod)).toEqual(["P1Y", "P1Y2M", "P1M", "P0D", "P-1Y-2M"]);
    expect([3600000, 90061001, -1000].map(formatDayTimeInterval)).toEqual(["+0 01:00:00.000", "+1 01:01:01.001", "-0 00:00:01.000"]);
    expect([14, -3].map(formatYearMonthInterval)).toEqual(["+1-02", "-0-03"]);
  });
});

describe("values of a known type", () => {
  it("toSqlString (CAST AS STRING, the tableau printer)", () => {
    expect(toSqlString(DataTypes.BOOLEAN(), true)).toBe("TRUE");
    expect(toSqlString(DataTypes.DOUBLE(), 1e7)).toBe("1.0E7");
    expect(toSqlString(DataTypes.FLOAT(), 0.1)).toBe("0.1");
    expect(toSqlString(DataTypes.DECIMAL(10, 3), new Decimal("1.5"))).toBe("1.500");
    expect(toSqlString(DataTypes.TIMESTAMP(3), new Date(Date.UTC(2025, 2, 27, 7, 38, 31, 134)))).toBe("2025-03-27 07:38:31.134");
    expect(toSqlString(DataTypes.TIMESTAMP(6), new Date(Date.UTC(2025, 2, 27, 7, 38, 31, 134)))).toBe("2025-03-27 07:38:31.134000");
    expect(toSqlString(DataTypes.TIMESTAMP_LTZ(0), new Date(Date.UTC(2025, 2, 27)))).toBe("2025-03-27 00:00:00");
    expect(toSqlString(DataTypes.ARRAY(DataTypes.INT()), [1, null])).toBe("[1, NULL]");
    expect(toSqlString(DataTypes.INT(), null)).toBe(null);
  });

  it("toJavaString (Row.toString in Flink's test oracles)", () => {
    expect(toJavaString(DataTypes.BOOLEAN(), false)).toBe("false");
    expect(toJavaString(DataTypes.DOUBLE(), 42)).toBe("42.0");
    expect(toJavaString(DataTypes.DECIMAL(5, 2), new Decimal("1.5"))).toBe("1.50");
    expect(toJavaString(DataTypes.TIME(0), "08:05:00")).toBe("08:05");
    expect(toJavaString(DataTypes.MAP(DataTypes.STRING(), DataTypes.INT()), new Map([["A", 1], ["B", 2]]))).toBe("{A=1, B=2}");
    expect(toJavaString(DataTypes.ROW(DataTypes.FIELD("name", DataTypes.STRING()), DataTypes.FIELD("n", DataTypes.INT())), { name: "Bob", n: 12 })).toBe("+I[Bob, 12]");
    expect(toJavaString(DataTypes.INTERVAL("DAY TO SECOND"), 1000)).toBe("PT1S");
    expect(toJavaString(undefined, 2.5)).toBe("2.5");
  });
});
