import { ExecutionError } from "../types/errors.js";
import { type PatternToken, formatDatetime, parseDatetime, parseDatetimePattern } from "./datetime-pattern.js";

/**
 * Run-time helpers for temporal expressions. Timestamps are `Date`s read in UTC (the session time
 * zone); DATE values are `YYYY-MM-DD` strings, TIME values `HH:mm:ss[.fff]` strings.
 */

const DAY = 86400000;
/** The largest time a JS Date can hold (±100,000,000 days around 1970). */
const MAX_TIME = 8.64e15;

const mod = (a: number, b: number): number => ((a % b) + b) % b;

/** Date.UTC for any year (Date.UTC itself maps years 0..99 to 1900..1999); months may overflow. */
function utc(year: number, month: number, day: number): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month, day);
  return d.getTime();
}

function checked(t: number, where: string): Date {
  if (!(Math.abs(t) <= MAX_TIME)) throw new ExecutionError(`timestamp overflow in ${where}: the result is outside the range of a timestamp`);
  return new Date(t);
}

function daysInMonth(year: number, month: number): number {
  return month === 1 ? ((year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28)
    : month === 3 || month === 5 || month === 8 || month === 10 ? 30 : 31;
}

/** The start of the calendar period (WEEK from Sunday, as Flink) containing epoch millis `t`. */
function calendarFloor(t: number, unit: string): number {
  const d = new Date(t);
  const y = d.getUTCFullYear();
  switch (unit) {
    case "WEEK": {
      const day = Math.floor(t / DAY);
      return (day - mod(day + 4, 7)) * DAY; // 1970-01-01 was a Thursday; weeks start on Sunday
    }
    case "MONTH": return utc(y, d.getUTCMonth(), 1);
    case "QUARTER": return utc(y, d.getUTCMonth() - (d.getUTCMonth() % 3), 1);
    case "YEAR": return utc(y, 0, 1);
    case "DECADE": return utc(y - mod(y, 10), 0, 1);
    case "CENTURY": return utc(y - mod(y - 1, 100), 0, 1);
    case "MILLENNIUM": return utc(y - mod(y - 1, 1000), 0, 1);
    default: throw new ExecutionError(`unknown time unit ${unit}`);
  }
}

/** The start of the next period after the period starting at `f`. */
function calendarNext(f: number, unit: string): number {
  if (unit === "WEEK") return f + 7 * DAY;
  const d = new Date(f);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  switch (unit) {
    case "MONTH": return utc(y, m + 1, 1);
    case "QUARTER": return utc(y, m + 3, 1);
    case "YEAR": return utc(y + 1, 0, 1);
    case "DECADE": return utc(y + 10, 0, 1);
    case "CENTURY": return utc(y + 100, 0, 1);
    default: return utc(y + 1000, 0, 1);
  }
}

/** Parsed FROM_UNIXTIME formats that arrive as data (a literal format is parsed once, at compile time). */
const patternCache = new Map<string, readonly PatternToken[]>();

function patternOf(format: string, where: string): readonly PatternToken[] {
  let tokens = patternCache.get(format);
  if (tokens === undefined) {
    try {
      tokens = parseDatetimePattern(format);
    } catch (e) {
      throw new ExecutionError(`${(e as Error).message} in ${where}`);
    }
    if (patternCache.size > 256) patternCache.clear();
    patternCache.set(format, tokens);
  }
  return tokens;
}

export const temporalHelpers = {
  /** FROM_UNIXTIME(seconds, literal format): the seconds since the epoch as text, in UTC. */
  fromUnixtime(seconds: number, tokens: readonly PatternToken[], where: string): string {
    return formatDatetime(checked(seconds * 1000, where), tokens);
  },
  /** FROM_UNIXTIME(seconds, format) with a format column. */
  fromUnixtimeText(seconds: number, format: string, where: string): string {
    return formatDatetime(checked(seconds * 1000, where), patternOf(format, where));
  },
  /** UNIX_TIMESTAMP(text, literal format): the seconds since the epoch of a date-time text (UTC), truncated as Java's long division. */
  unixTimestamp(text: string, tokens: readonly PatternToken[], format: string, where: string): number {
    const r = parseDatetime(text, tokens);
    if ("failedAt" in r) {
      // Flink returns Long.MIN_VALUE here, which no BIGINT value of tablestream (±(2^53-1)) can hold
      throw new ExecutionError(`cannot parse '${text}' with the pattern '${format}' (it stops matching at position ${r.failedAt}) in ${where}; `
        + "Flink returns Long.MIN_VALUE (-9223372036854775808) for it, which lies outside the BIGINT range [-(2^53-1), 2^53-1]");
    }
    return Math.trunc(checked(r.millis, where).getTime() / 1000) + 0;
  },
  /** UNIX_TIMESTAMP(text, format) with a format column. */
  unixTimestampText(text: string, format: string, where: string): number {
    return temporalHelpers.unixTimestamp(text, patternOf(format, where), format, where);
  },
  /** ISO-8601 week of the year (weeks start on Monday; week 1 holds the first Thursday), as EXTRACT(WEEK). */
  isoWeek(d: Date): number {
    const day = Math.floor(d.getTime() / DAY);
    const dow = mod(day + 3, 7); // Monday = 0
    const thursday = day - dow + 3;
    const year = new Date(thursday * DAY).getUTCFullYear();
    const jan1 = Math.floor(utc(year, 0, 1) / DAY);
    return Math.floor((thursday - jan1) / 7) + 1;
  },
  /** EXTRACT(DECADE / CENTURY / MILLENNIUM) from a year, as Calcite's DateTimeUtils. */
  yearUnit(year: number, unit: string): number {
    switch (unit) {
      case "DECADE": return Math.floor(year / 10);
      case "CENTURY": return year > 0 ? Math.floor((year + 99) / 100) : Math.ceil((year - 99) / 100);
      default: return year > 0 ? Math.floor((year + 999) / 1000) : Math.ceil((year - 999) / 1000);
    }
  },
  /** A DATE string as a Date at midnight UTC. */
  dateOf(s: string): Date {
    return new Date(utc(+s.slice(0, 4), +s.slice(5, 7) - 1, +s.slice(8, 10)));
  },
  /** The millisecond part of a TIME string (`12:30:45.123` -> 123), as EXTRACT(MILLISECOND FROM time). */
  timeMillis(s: string): number {
    return s.length > 9 ? +s.slice(9, 12).padEnd(3, "0") : 0;
  },
  floorTsFixed(d: Date, width: number): Date {
    const t = d.getTime();
    const r = mod(t, width);
    return r === 0 ? d : new Date(t - r);
  },
  /** The smallest multiple of `width` at or after the time. */
  ceilTsFixed(d: Date, width: number): Date {
    const t = d.getTime();
    const r = mod(t, width);
    return r === 0 ? d : new Date(t - r + width);
  },
  floorTsCalendar(d: Date, unit: string): Date {
    const f = calendarFloor(d.getTime(), unit);
    return f === d.getTime() ? d : new Date(f);
  },
  /** The first period start at or after the time (see docs/expressions.md on how this differs from Flink). */
  ceilTsCalendar(d: Date, unit: string): Date {
    const t = d.getTime();
    const f = calendarFloor(t, unit);
    return f === t ? d : new Date(calendarNext(f, unit));
  },
  /** Timestamp + months, clamping the day to the last day of the resulting month (Flink's addMonths). */
  addMonths(d: Date, months: number, where: string): Date {
    const t = d.getTime();
    const millisOfDay = mod(t, DAY);
    const day0 = new Date(t - millisOfDay);
    const m0 = day0.getUTCMonth() + months;
    const year = day0.getUTCFullYear() + Math.floor(m0 / 12);
    const month = mod(m0, 12);
    const day = Math.min(day0.getUTCDate(), daysInMonth(year, month));
    return checked(utc(year, month, day) + millisOfDay, where);
  },
  addMillis(d: Date, ms: number, where: string): Date {
    return checked(d.getTime() + ms, where);
  },
};
