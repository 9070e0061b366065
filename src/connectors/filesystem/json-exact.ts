import { setOwn } from "../../types/own.js";

/**
 * JSON Lines numbers read exactly. `JSON.parse` turns every number into a double, which silently drops
 * digits (`12345678901234567890.12`). A line is parsed with `JSON.parse` (fast, native) unless it holds a
 * number a double may not keep: a run of 16 or more digits (a double keeps 15 significant digits exactly)
 * or an exponent of 3 or more digits. Those lines go through the small parser below, which keeps such a
 * number as a `JsonNumber` carrying the text as written; the decoders read DECIMAL and BIGINT values from
 * that text, and quote it in errors.
 */
export class JsonNumber {
  constructor(readonly text: string) {}
  toJSON(): number { return Number(this.text); }
}

/** A number a double may not hold exactly: 16+ digits (a `.` may sit between them) or an exponent of 3+ digits. */
const RISKY = /[0-9][0-9.]{15}|[eE][+-]?[0-9]{3}/;

/** RISKY.test(text) as one pass over the characters (a regex costs as much as JSON.parse here). */
function hasRiskyNumber(text: string): boolean {
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c >= 48 && c <= 57) || (c === 46 && run > 0)) {
      if (++run >= 16) return true;
    } else {
      // an exponent: e/E, an optional sign and 3 digits
      if ((c === 101 || c === 69) && run > 0 && RISKY.test(text.slice(i, i + 5))) return true;
      run = 0;
    }
  }
  return false;
}

/**
 * Parses one JSON text, keeping risky numbers (or, with `allNumbers`, every number) as JsonNumber.
 * Syntax errors are JSON.parse's (with their positions).
 */
export function parseJsonLine(text: string, allNumbers = false): unknown {
  if (!allNumbers && !hasRiskyNumber(text)) return JSON.parse(text);
  JSON.parse(text); // validates the syntax, so the parser below may assume well-formed input
  return new ExactParser(text, allNumbers).value();
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const STRING = /"(?:[^"\\]|\\.)*"/y;

class ExactParser {
  private i = 0;
  constructor(private readonly s: string, private readonly allNumbers: boolean) {}

  private ws(): void {
    const s = this.s;
    while (this.i < s.length) {
      const c = s.charCodeAt(this.i);
      if (c !== 32 && c !== 9 && c !== 10 && c !== 13) break;
      this.i++;
    }
  }

  value(): unknown {
    this.ws();
    const s = this.s;
    const c = s[this.i];
    if (c === "{") {
      this.i++;
      const out: Record<string, unknown> = {};
      this.ws();
      if (s[this.i] === "}") { this.i++; return out; }
      for (;;) {
        this.ws();
        const key = this.string();
        this.ws();
        this.i++; // :
        // `__proto__` becomes an own property, as JSON.parse makes it
        setOwn(out, key, this.value());
        this.ws();
        if (s[this.i++] === "}") return out;
      }
    }
    if (c === "[") {
      this.i++;
      const out: unknown[] = [];
      this.ws();
      if (s[this.i] === "]") { this.i++; return out; }
      for (;;) {
        out.push(this.value());
        this.ws();
        if (s[this.i++] === "]") return out;
      }
    }
    if (c === "\"") return this.string();
    if (s.startsWith("true", this.i)) { this.i += 4; return true; }
    if (s.startsWith("false", this.i)) { this.i += 5; return false; }
    if (s.startsWith("null", this.i)) { this.i += 4; return null; }
    NUMBER.lastIndex = this.i;
    const m = NUMBER.exec(s)!;
    this.i += m[0].length;
    return this.allNumbers || RISKY.test(m[0]) ? new JsonNumber(m[0]) : Number(m[0]);
  }

  private string(): string {
    STRING.lastIndex = this.i;
    const m = STRING.exec(this.s)!;
    this.i += m[0].length;
    const raw = m[0];
    return raw.includes("\\") ? JSON.parse(raw) as string : raw.slice(1, -1);
  }
}
