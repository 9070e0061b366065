import { ValidationError } from "../types/errors.js";

/**
 * Java `SimpleDateFormat` patterns, the format argument of FROM_UNIXTIME: `yyyy-MM-dd HH:mm:ss` by
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
