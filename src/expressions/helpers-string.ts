import { ExecutionError } from "../types/errors.js";

/**
 * Run-time helpers for string functions, with Flink's semantics (BinaryStringDataUtil and
 * SqlFunctionUtils). Lengths and positions count code points, as Flink counts characters.
 */

function fail(msg: string): never {
  throw new ExecutionError(msg);
}

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");

const likeCache = new Map<string, RegExp>();

/**
 * A SQL LIKE pattern as an anchored RegExp: `%` any sequence, `_` one character. With an escape
 * character, it must be followed by `%`, `_` or itself (anything else, or a trailing escape, is an
 * error, as in Flink's SqlLikeUtils). Without one, `\` is an ordinary character.
 */
export function likeToRegExp(pattern: string, escape: string | null = null): RegExp {
  const key = escape === null ? pattern : `${escape}\u0000${pattern}`;
  let re = likeCache.get(key);
  if (re) return re;
  let src = "";
  const chars = [...pattern];
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    if (ch === escape) {
      const next = chars[i + 1];
      if (next === undefined) throw new Error(`invalid escape sequence in LIKE pattern '${pattern}': '${escape}' at the end`);
      if (next !== "%" && next !== "_" && next !== escape) {
        throw new Error(`invalid escape sequence in LIKE pattern '${pattern}': '${escape}${next}' (the escape character may precede only %, _ or itself)`);
      }
      src += escapeRe(next);
      i++;
    } else if (ch === "%") {
      src += "[\\s\\S]*";
    } else if (ch === "_") {
      src += ".";
    } else {
      src += escapeRe(ch);
    }
  }
  re = new RegExp(`^${src}$`, "u");
  if (likeCache.size < 1000) likeCache.set(key, re);
  return re;
}

function codePoints(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) { n--; i++; }
    }
  }
  return n;
}

/** Whether a string has surrogate pairs (code points beyond the BMP); most strings do not. */
const hasSurrogates = (s: string): boolean => /[\ud800-\udfff]/.test(s);

/** INITCAP word starts: a letter at the start or after a character that is neither letter nor digit. */
const WORD_START = /(^|[^\p{L}\p{N}])(\p{L})/gu;

export const stringHelpers = {
  like(s: string, pattern: string, escape: string | null, where: string): boolean {
    let re: RegExp;
    try {
      re = likeToRegExp(pattern, escape);
    } catch (e) {
      return fail(`${(e as Error).message} in ${where}`);
    }
    return re.test(s);
  },
  charLength(s: string): number {
    return codePoints(s);
  },
  /** REVERSE: code points in reverse order (a surrogate pair stays one character). */
  reverse(s: string): string {
    if (!hasSurrogates(s)) {
      let out = "";
      for (let i = s.length - 1; i >= 0; i--) out += s[i];
      return out;
    }
    return Array.from(s).reverse().join("");
  },
  /**
   * Flink's SUBSTRING(s FROM start [FOR len]) (BinaryStringDataUtil.substringSQL): positions are
   * 1-based; 0 counts as 1; a negative start counts from the end (and past the beginning gives '');
   * a negative length gives NULL.
   */
  substring(s: string, start: number, len?: number): string | null {
    if (len !== undefined && len < 0) return null;
    if (s.length === 0) return "";
    const cps = hasSurrogates(s) ? Array.from(s) : undefined;
    const n = cps ? cps.length : s.length;
    let from: number;
    if (start > 0) {
      from = start - 1;
      if (from >= n) return "";
    } else if (start < 0) {
      from = n + start;
      if (from < 0) return "";
    } else {
      from = 0;
    }
    const to = len === undefined || n - from < len ? n : from + len;
    return cps ? cps.slice(from, to).join("") : s.slice(from, to);
  },
  /** TRIM with the space character: only U+0020 is removed, as Flink. */
  trimSpaces(s: string, leading: boolean, trailing: boolean): string {
    let a = 0;
    let b = s.length;
    if (leading) while (a < b && s.charCodeAt(a) === 32) a++;
    if (trailing) while (b > a && s.charCodeAt(b - 1) === 32) b--;
    return a === 0 && b === s.length ? s : s.slice(a, b);
  },
  /** TRIM(BOTH chars FROM s): removes every character that occurs in `chars`. */
  trim(s: string, chars: string, leading: boolean, trailing: boolean): string {
    const cps = Array.from(s);
    const set = new Set(Array.from(chars));
    let a = 0;
    let b = cps.length;
    if (leading) while (a < b && set.has(cps[a]!)) a++;
    if (trailing) while (b > a && set.has(cps[b - 1]!)) b--;
    return cps.slice(a, b).join("");
  },
  /** INITCAP: the first letter of each word (a run of letters and digits) upper case, the rest lower case. */
  initCap(s: string): string {
    return s.toLowerCase().replace(WORD_START, (_m, p: string, c: string) => p + c.toUpperCase());
  },
  repeat(s: string, n: number, where: string): string {
    if (n <= 0 || s.length === 0) return "";
    if (s.length * n > 0x1fffffe8) fail(`repeat in ${where}: the result would have ${s.length * n} characters, more than a string can hold`);
    return s.repeat(n);
  },
  /** LPAD as Flink (Java chars): shortened to `n` when longer; NULL for a negative length or an empty pad. */
  lpad(s: string, n: number, pad: string): string | null {
    if (n < 0 || pad === "") return null;
    if (s.length >= n) return s.slice(0, n);
    const need = n - s.length;
    return pad.repeat(Math.ceil(need / pad.length)).slice(0, need) + s;
  },
  rpad(s: string, n: number, pad: string): string | null {
    if (n < 0 || pad === "") return null;
    if (s.length >= n) return s.slice(0, n);
    const need = n - s.length;
    return s + pad.repeat(Math.ceil(need / pad.length)).slice(0, need);
  },
  /** POSITION(needle IN haystack): 1-based code point position, 0 if absent, 1 for an empty needle. */
  position(needle: string, haystack: string): number {
    const i = haystack.indexOf(needle);
    if (i <= 0) return i + 1;
    return hasSurrogates(haystack) ? codePoints(haystack.slice(0, i)) + 1 : i + 1;
  },
  /** REPLACE as Java's String.replace: every occurrence; an empty search inserts the replacement around every character. */
  replace(s: string, search: string, replacement: string): string {
    if (search === "") return replacement + Array.from(s).join(replacement) + (s.length > 0 ? replacement : "");
    return s.split(search).join(replacement);
  },
};
