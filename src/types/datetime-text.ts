/**
 * The one parser of DATE / TIME / TIMESTAMP / TIMESTAMP_LTZ text, used by every path that turns text into
 * a date-time value: CSV and JSON fields, strings given to `fromValues` / `lit`, SQL `DATE '…'`,
 * `TIME '…'`, `TIMESTAMP '…'` literals and `CAST(… AS DATE/TIME/TIMESTAMP)`. It accepts Flink's text
 * formats (DateTimeUtils' default timestamp formatter `yyyy-[M]M-[d]d[ [H]H:[m]m:[s]s[.fraction]]`, plus a
 * `T` separator, optional seconds and a trailing `Z`, which tablestream accepted before; `[H]H:[m]m[:[s]s[.fraction]]`
 * for times) and refuses out-of-range fields instead of rolling them over:
 * `2025-01-01 25:00:00`, `10:60:00`, `23:59:60`, `2025-02-30` are errors, and years 0000–0099 are those
 * years (JavaScript's `Date.UTC` would read them as 1900–1999). Surrounding whitespace is ignored, as in
 * Flink's casts. Callers decide what to do with fraction digits beyond their precision.
 *
 * Hand-written rather than a library: the rules are a few lines, the paths are hot (CSV, JSON), and
 * general-purpose date libraries are lenient in exactly the places that matter here (rollover, 2-digit years).
 */

export interface TimeOfDay {
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  /** The fraction-of-second digits as written (0–9 digits, no dot). */
  readonly fraction: string;
}

export interface DateTimeText extends TimeOfDay {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  /** Milliseconds since the epoch of the date-time read as UTC (sub-millisecond digits cut off). */
  readonly epochMillis: number;
}

/** A parse result: the value, or why the text is not one. */
export type Parsed<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly reason: string };

const DATE_PART = /^(\d{4})-(\d{1,2})-(\d{1,2})/;
const TIME_PART = /^(\d{1,2}):(\d{1,2})(?::(\d{1,2})(?:\.(\d{0,9}))?)?$/;
const MS_PER_DAY = 86400000;

const bad = <T>(reason: string): Parsed<T> => ({ ok: false, reason });

/** Days in a month of the proleptic Gregorian calendar. */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (no 2-digit-year mapping, unlike Date.UTC). */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function checkDate(year: number, month: number, day: number): string | undefined {
  if (month < 1 || month > 12) return `month ${month} is not in 1..12`;
  if (day < 1 || day > daysInMonth(year, month)) return `day ${day} is not in 1..${daysInMonth(year, month)} of ${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}`;
  return undefined;
}

function timeOf(text: string): Parsed<TimeOfDay> {
  const m = TIME_PART.exec(text);
  if (!m) return bad("expected 'HH:mm[:ss[.fraction]]'");
  const hour = +m[1]!, minute = +m[2]!, second = +(m[3] ?? 0);
  if (hour > 23) return bad(`hour ${hour} is not in 0..23`);
  if (minute > 59) return bad(`minute ${minute} is not in 0..59`);
  if (second > 59) return bad(`second ${second} is not in 0..59`);
  return { ok: true, value: { hour, minute, second, fraction: m[4] ?? "" } };
}

/** A time of day: `[H]H:[m]m[:[s]s[.f…]]`. */
export function parseTimeText(text: string): Parsed<TimeOfDay> {
  return timeOf(text.trim());
}

/**
 * A date-time: `yyyy-[M]M-[d]d`, optionally followed by a space or `T` and a time of day (midnight when
 * absent). With `allowZone`, a trailing `Z` is accepted (the value is UTC either way).
 */
export function parseTimestampText(text: string, allowZone = true): Parsed<DateTimeText> {
  let s = text.trim();
  if (allowZone && s.endsWith("Z")) s = s.slice(0, -1);
  const d = DATE_PART.exec(s);
  if (!d) return bad("expected 'yyyy-MM-dd[ HH:mm[:ss[.fraction]]]'");
  const year = +d[1]!, month = +d[2]!, day = +d[3]!;
  const dateError = checkDate(year, month, day);
  if (dateError !== undefined) return bad(dateError);
  const rest = s.slice(d[0].length);
  let time: TimeOfDay = { hour: 0, minute: 0, second: 0, fraction: "" };
  if (rest !== "") {
    if (rest[0] !== " " && rest[0] !== "T") return bad("expected 'yyyy-MM-dd[ HH:mm[:ss[.fraction]]]'");
    const t = timeOf(rest.slice(1));
    if (!t.ok) return t;
    time = t.value;
  }
  const ms = time.fraction === "" ? 0 : Number(time.fraction.slice(0, 3).padEnd(3, "0"));
  const epochMillis = daysFromCivil(year, month, day) * MS_PER_DAY + ((time.hour * 60 + time.minute) * 60 + time.second) * 1000 + ms;
  return { ok: true, value: { year, month, day, ...time, epochMillis } };
}

/** A date: `yyyy-[M]M-[d]d`, optionally followed by a valid time part (ignored), as Flink's parseDate. */
export function parseDateText(text: string): Parsed<string> {
  const t = parseTimestampText(text, false);
  if (!t.ok) return t;
  const v = t.value;
  return { ok: true, value: `${String(v.year).padStart(4, "0")}-${String(v.month).padStart(2, "0")}-${String(v.day).padStart(2, "0")}` };
}

/** `HH:mm:ss` plus `precision` (≤ 3) fraction digits, from a parsed time (extra digits cut off). */
export function formatTimeOfDay(t: TimeOfDay, precision: number): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  const p = Math.min(precision, 3);
  const base = `${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}`;
  return p === 0 ? base : `${base}.${t.fraction.slice(0, p).padEnd(p, "0")}`;
}
