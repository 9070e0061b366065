import { Variant } from "./variant.js";

/**
 * JSON text to a Variant, with the rules of Flink's `PARSE_JSON` (a Jackson parser feeding the variant
 * builder): strict JSON (no comments, no single quotes, no leading zeros, no NaN, control characters in
 * strings must be escaped); an integer within 64 bits becomes the smallest integer kind, other numbers
 * without an exponent a DECIMAL when they have at most 38 digits and 38 fraction digits, anything else a
 * DOUBLE; object keys are sorted and a duplicate key is an error unless `allowDuplicateKeys` (then the last
 * one wins). Like Flink, only the first JSON value is read: text after it is not looked at, except that a
 * number at the top level must be followed by whitespace or the end.
 */
export class JsonSyntaxError extends Error {
  constructor(readonly reason: string, readonly line: number, readonly column: number) {
    super(`${reason} at line ${line}, column ${column}`);
    this.name = "JsonSyntaxError";
  }
}

const INT8_MIN = -(2n ** 7n), INT8_MAX = 2n ** 7n - 1n;
const INT16_MIN = -(2n ** 15n), INT16_MAX = 2n ** 15n - 1n;
const INT32_MIN = -(2n ** 31n), INT32_MAX = 2n ** 31n - 1n;
const INT64_MIN = -(2n ** 63n), INT64_MAX = 2n ** 63n - 1n;
/** Flink's variant DECIMAL holds up to 38 digits (MAX_DECIMAL16_PRECISION). */
const MAX_DECIMAL_DIGITS = 38;

/** Parses `text`; throws a JsonSyntaxError naming the position (or the duplicate key). */
export function parseJsonVariant(text: string, allowDuplicateKeys: boolean): Variant {
  return new JsonReader(text, allowDuplicateKeys).root();
}

/** The smallest integer kind holding `n` (Flink's appendNumeric). */
export function integerVariant(n: bigint): Variant {
  const kind = n >= INT8_MIN && n <= INT8_MAX ? "TINYINT" : n >= INT16_MIN && n <= INT16_MAX ? "SMALLINT"
    : n >= INT32_MIN && n <= INT32_MAX ? "INT" : "BIGINT";
  return Variant.primitive(kind, n);
}

class JsonReader {
  private pos = 0;

  constructor(private readonly s: string, private readonly allowDuplicateKeys: boolean) {}

  root(): Variant {
    this.skipSpace();
    if (this.pos >= this.s.length) this.fail("Unexpected end of input: no JSON value");
    const c = this.s.charCodeAt(this.pos);
    const v = this.value();
    // Jackson checks what follows a number at the root (it cannot know where the number ends otherwise)
    if ((c === 45 || (c >= 48 && c <= 57)) && this.pos < this.s.length && !isSpace(this.s.charCodeAt(this.pos))) {
      this.fail(`Unexpected character ${this.shown()} after the number`);
    }
    return v;
  }

  private value(): Variant {
    const s = this.s;
    if (this.pos >= s.length) this.fail("Unexpected end of input");
    const c = s.charCodeAt(this.pos);
    switch (c) {
      case 123: return this.object();
      case 91: return this.array();
      case 34: return Variant.primitive("STRING", this.string());
      case 116: this.word("true"); return Variant.primitive("BOOLEAN", true);
      case 102: this.word("false"); return Variant.primitive("BOOLEAN", false);
      case 110: this.word("null"); return Variant.JSON_NULL;
      default:
        if (c === 45 || (c >= 48 && c <= 57)) return this.number();
        return this.fail(`Unexpected character ${this.shown()}: expected a JSON value (object, array, string, number, true, false or null)`);
    }
  }

  private object(): Variant {
    this.pos++; // {
    const keys: string[] = [];
    const values: Variant[] = [];
    this.skipSpace();
    if (this.s.charCodeAt(this.pos) === 125) {
      this.pos++;
      return Variant.object(keys, values);
    }
    for (;;) {
      this.skipSpace();
      if (this.s.charCodeAt(this.pos) !== 34) this.fail(`Unexpected character ${this.shown()}: expected a double-quoted field name`);
      const key = this.string();
      this.skipSpace();
      if (this.s.charCodeAt(this.pos) !== 58) this.fail(`Unexpected character ${this.shown()}: expected ':' after the field name`);
      this.pos++;
      this.skipSpace();
      const v = this.value();
      keys.push(key);
      values.push(v);
      this.skipSpace();
      const c = this.s.charCodeAt(this.pos);
      if (c === 44) { this.pos++; continue; }
      if (c === 125) { this.pos++; break; }
      this.fail(`Unexpected character ${this.shown()}: expected ',' or '}' in an object`);
    }
    return this.sortedObject(keys, values);
  }

  /** Sorts the fields by key (UTF-16 order, as Java's String.compareTo); a duplicate fails or the last one wins. */
  private sortedObject(keys: string[], values: Variant[]): Variant {
    const order = keys.map((_, i) => i);
    // stable: among equal keys the one written last sorts last
    order.sort((a, b) => (keys[a]! < keys[b]! ? -1 : keys[a]! > keys[b]! ? 1 : a - b));
    const k: string[] = [];
    const v: Variant[] = [];
    for (const i of order) {
      if (k.length > 0 && k[k.length - 1] === keys[i]) {
        if (!this.allowDuplicateKeys) throw new JsonSyntaxError(`VARIANT_DUPLICATE_KEY: duplicate field name '${keys[i]}'`, 1, 1);
        v[v.length - 1] = values[i]!;
        continue;
      }
      k.push(keys[i]!);
      v.push(values[i]!);
    }
    return Variant.object(k, v);
  }

  private array(): Variant {
    this.pos++; // [
    const els: Variant[] = [];
    this.skipSpace();
    if (this.s.charCodeAt(this.pos) === 93) {
      this.pos++;
      return Variant.array(els);
    }
    for (;;) {
      this.skipSpace();
      els.push(this.value());
      this.skipSpace();
      const c = this.s.charCodeAt(this.pos);
      if (c === 44) { this.pos++; continue; }
      if (c === 93) { this.pos++; break; }
      this.fail(`Unexpected character ${this.shown()}: expected ',' or ']' in an array`);
    }
    return Variant.array(els);
  }

  private string(): string {
    const s = this.s;
    this.pos++; // opening quote
    let out = "";
    let from = this.pos;
    for (;;) {
      if (this.pos >= s.length) this.fail("Unexpected end of input in a string");
      const c = s.charCodeAt(this.pos);
      if (c === 34) {
        out += s.slice(from, this.pos);
        this.pos++;
        return out;
      }
      if (c < 0x20) this.fail(`Illegal unquoted character (code ${c}): has to be escaped using backslash to be included in a string`);
      if (c !== 92) { this.pos++; continue; }
      out += s.slice(from, this.pos);
      const e = s[this.pos + 1];
      switch (e) {
        case '"': out += '"'; break;
        case "\\": out += "\\"; break;
        case "/": out += "/"; break;
        case "b": out += "\b"; break;
        case "f": out += "\f"; break;
        case "n": out += "\n"; break;
        case "r": out += "\r"; break;
        case "t": out += "\t"; break;
        case "u": {
          const hex = s.slice(this.pos + 2, this.pos + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) { this.pos += 2; this.fail("Unexpected character in a \\u escape: expected 4 hex digits"); }
          out += String.fromCharCode(parseInt(hex, 16));
          this.pos += 4;
          break;
        }
        default:
          this.pos++;
          this.fail(`Unrecognized character escape ${this.shown()}`);
      }
      this.pos += 2;
      from = this.pos;
    }
  }

  private number(): Variant {
    const s = this.s;
    const start = this.pos;
    if (s.charCodeAt(this.pos) === 45) this.pos++;
    const intStart = this.pos;
    if (!isDigit(s.charCodeAt(this.pos))) this.fail(`Unexpected character ${this.shown()}: expected a digit after '-'`);
    if (s.charCodeAt(this.pos) === 48 && isDigit(s.charCodeAt(this.pos + 1))) {
      this.pos++;
      this.fail("Invalid numeric value: leading zeroes not allowed");
    }
    while (isDigit(s.charCodeAt(this.pos))) this.pos++;
    const intEnd = this.pos;
    let fracStart = -1;
    if (s.charCodeAt(this.pos) === 46) {
      this.pos++;
      fracStart = this.pos;
      if (!isDigit(s.charCodeAt(this.pos))) this.fail(`Unexpected character ${this.shown()}: expected a digit after the decimal point`);
      while (isDigit(s.charCodeAt(this.pos))) this.pos++;
    }
    const fracEnd = this.pos;
    let exponent = false;
    const e = s.charCodeAt(this.pos);
    if (e === 101 || e === 69) {
      exponent = true;
      this.pos++;
      const sign = s.charCodeAt(this.pos);
      if (sign === 43 || sign === 45) this.pos++;
      if (!isDigit(s.charCodeAt(this.pos))) this.fail(`Unexpected character ${this.shown()}: expected a digit in the exponent`);
      while (isDigit(s.charCodeAt(this.pos))) this.pos++;
    }
    const text = s.slice(start, this.pos);
    if (exponent) return Variant.primitive("DOUBLE", Number(text));
    const negative = intStart > start;
    if (fracStart < 0) {
      const n = BigInt(text);
      if (n >= INT64_MIN && n <= INT64_MAX) return integerVariant(n);
    }
    // a DECIMAL when its digits fit (Flink's tryParseDecimal), kept as BigDecimal.toPlainString prints it
    const intDigits = s.slice(intStart, intEnd);
    const fracDigits = fracStart < 0 ? "" : s.slice(fracStart, fracEnd);
    const unscaled = (intDigits + fracDigits).replace(/^0+/, "");
    if (fracDigits.length <= MAX_DECIMAL_DIGITS && Math.max(unscaled.length, 1) <= MAX_DECIMAL_DIGITS) {
      const sign = negative && unscaled.length > 0 ? "-" : "";
      return Variant.primitive("DECIMAL", fracDigits === "" ? sign + intDigits : `${sign}${intDigits}.${fracDigits}`);
    }
    return Variant.primitive("DOUBLE", Number(text));
  }

  private word(w: string): void {
    if (this.s.startsWith(w, this.pos) && !isWordChar(this.s.charCodeAt(this.pos + w.length))) {
      this.pos += w.length;
      return;
    }
    let end = this.pos;
    while (end < this.s.length && isWordChar(this.s.charCodeAt(end))) end++;
    this.fail(`Unrecognized token '${this.s.slice(this.pos, Math.max(end, this.pos + 1))}': was expecting (JSON String, Number, Array, Object or token 'null', 'true' or 'false')`);
  }

  private skipSpace(): void {
    while (this.pos < this.s.length && isSpace(this.s.charCodeAt(this.pos))) this.pos++;
  }

  private shown(): string {
    if (this.pos >= this.s.length) return "end of input";
    const cp = this.s.codePointAt(this.pos)!;
    return `'${String.fromCodePoint(cp)}' (code ${cp})`;
  }

  private fail(reason: string): never {
    let line = 1;
    let lineStart = 0;
    for (let i = 0; i < this.pos && i < this.s.length; i++) {
      if (this.s.charCodeAt(i) === 10) { line++; lineStart = i + 1; }
    }
    throw new JsonSyntaxError(reason, line, this.pos - lineStart + 1);
  }
}

const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isSpace = (c: number): boolean => c === 32 || c === 9 || c === 10 || c === 13;
const isWordChar = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || isDigit(c) || c === 95;
