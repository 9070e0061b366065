import { ValidationError } from "../types/errors.js";

/**
 * Java `SimpleDateFormat` patterns, the format argument of FROM_UNIXTIME and UNIX_TIMESTAMP: `yyyy-MM-dd HH:mm:ss` by
 * default. Supported letters: y (year; `yy` two digits), M (month), d (day), H (hour 0-23), h (hour
 * 1-12), a (AM/PM), m (minute), s (second), S (millisecond). Text in single quotes is literal (`''` is one
 * quote); any other non-letter is copied. Other letters are rejected: silently printing them would be
 * wrong data. A pattern is parsed once into tokens (a literal string, or a letter with its width).
 */
export type PatternToken = string | { readonly letter: string; readonly width: number };

const LETTERS = "yMdHhamsS";

export function parseDatetimePattern(pattern: string): readonly PatternToken[] {
  const tokens: PatternToken[] = [];
  let text = "";
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i]!;
    if (c === "'") {
      const end = pattern.indexOf("'", i + 1);
      if (end === i + 1) { text += "'"; i += 2; continue; }
      if (end < 0) throw new ValidationError(`the datetime pattern '${pattern}' has an unclosed quote at position ${i + 1}`);
      text += pattern.slice(i + 1, end);
      i = end + 1;
      continue;
    }
    if (/[A-Za-z]/.test(c)) {
      if (!LETTERS.includes(c)) {
        throw new ValidationError(`the datetime pattern '${pattern}' uses the letter '${c}' at position ${i + 1}; supported: ${LETTERS.split("").join(", ")}`);
      }
      let j = i;
      while (pattern[j] === c) j++;
      if (text !== "") { tokens.push(text); text = ""; }
      tokens.push(Object.freeze({ letter: c, width: j - i }));
      i = j;
      continue;
    }
    text += c;
    i++;
  }
  if (text !== "") tokens.push(text);
  return Object.freeze(tokens);
}

const pad = (n: number, width: number): string => {
  const s = String(Math.abs(n));
  return (n < 0 ? "-" : "") + (s.length >= width ? s : "0".repeat(width - s.length) + s);
};

/** Formats a time, read in UTC (the session time zone). */
export function formatDatetime(d: Date, tokens: readonly PatternToken[]): string {
  let out = "";
  for (const t of tokens) {
    if (typeof t === "string") { out += t; continue; }
    switch (t.letter) {
      case "y": { const y = d.getUTCFullYear(); out += t.width === 2 ? pad(y % 100, 2) : pad(y, t.width); break; }
      case "M": out += pad(d.getUTCMonth() + 1, t.width); break;
      case "d": out += pad(d.getUTCDate(), t.width); break;
      case "H": out += pad(d.getUTCHours(), t.width); break;
      case "h": out += pad(d.getUTCHours() % 12 === 0 ? 12 : d.getUTCHours() % 12, t.width); break;
      case "a": out += d.getUTCHours() < 12 ? "AM" : "PM"; break;
      case "m": out += pad(d.getUTCMinutes(), t.width); break;
      case "s": out += pad(d.getUTCSeconds(), t.width); break;
      default: out += pad(d.getUTCMilliseconds(), t.width); break;
    }
  }
  return out;
}

export const DEFAULT_DATETIME_PATTERN = "yyyy-MM-dd HH:mm:ss";

const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const NUMERIC_LETTERS = "yMdHhmsS";

/**
 * Parses `text` by a pattern as Java's (lenient) `SimpleDateFormat.parse` does, in UTC (the session time
 * zone), for UNIX_TIMESTAMP: literal text must match; a number field takes all its digits, or exactly its
 * width when a number field follows without text in between (`yyyyMMdd`); `yy` with two digits is the year
 * within 80 years before and 20 after now; `a` is AM/PM (any case); fields out of range roll over
 * (month 13 is January of the next year); missing fields are 1970-01-01 00:00:00.000; text after the pattern
 * is ignored. Returns epoch millis, or the (1-based) position where the text stopped matching.
 */
export function parseDatetime(text: string, tokens: readonly PatternToken[]): { readonly millis: number } | { readonly failedAt: number } {
  let year = 1970, month = 1, day = 1, hour = 0, minute = 0, second = 0, milli = 0;
  let pm: boolean | undefined;
  let hour12 = false;
  let at = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (typeof t === "string") {
      if (!text.startsWith(t, at)) return { failedAt: at + 1 };
      at += t.length;
      continue;
    }
    if (t.letter === "a") {
      const s = text.slice(at, at + 2).toUpperCase();
      if (s !== "AM" && s !== "PM") return { failedAt: at + 1 };
      pm = s === "PM";
      at += 2;
      continue;
    }
    const next = tokens[i + 1];
    const abutting = next !== undefined && typeof next !== "string" && NUMERIC_LETTERS.includes(next.letter);
    let end = at;
    if (abutting) {
      while (end < at + t.width && end < text.length && isDigit(text.charCodeAt(end))) end++;
      if (end < at + t.width) return { failedAt: at + 1 };
    } else {
      while (end < text.length && isDigit(text.charCodeAt(end))) end++;
    }
    if (end === at) return { failedAt: at + 1 };
    const n = Number(text.slice(at, end));
    switch (t.letter) {
      case "y": year = t.width <= 2 && end - at === 2 ? twoDigitYear(n) : n; break;
      case "M": month = n; break;
      case "d": day = n; break;
      case "H": hour = n; break;
      case "h": hour = n; hour12 = true; break;
      case "m": minute = n; break;
      case "s": second = n; break;
      default: milli = n; break;
    }
    at = end;
  }
  // h is 1..12 (12 is the start of the half day); without AM/PM it counts as AM
  // (with H the hour of day stands; AM/PM changes nothing)
  if (hour12) hour = (hour % 12) + (pm === true ? 12 : 0);
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  return { millis: d.getTime() + hour * 3_600_000 + minute * 60_000 + second * 1000 + milli };
}

/** A two-digit year in SimpleDateFormat's default century: from 80 years before now to 20 years after. */
function twoDigitYear(yy: number): number {
  const start = new Date().getUTCFullYear() - 80;
  const y = start - (start % 100) + yy;
  return y < start ? y + 100 : y;
}
