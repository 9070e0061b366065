import { sqlParseError } from "./sql-parse-error.js";

/**
 * Tokens of the small SQL subset tablestream reads from strings: data types (`DECIMAL(10, 2)`,
 * `ROW<a INT>`) and scalar expressions (computed columns, watermarks). Keywords are not special here:
 * they arrive as identifiers and the parsers compare them case-insensitively.
 */
export type TokenKind = "ident" | "quoted" | "number" | "string" | "op" | "eof";

export interface Token {
  readonly kind: TokenKind;
  /** Identifier / operator text as written; the unquoted text of `quoted` identifiers and strings. */
  readonly text: string;
  /** 0-based offset in the source, for error messages. */
  readonly pos: number;
}

const OPERATORS = ["<>", "!=", "<=", ">=", "||", "=", "<", ">", "+", "-", "*", "/", "%", "(", ")", ",", ".", "[", "]", ";"];
const IDENT_START = /[A-Za-z_\p{L}]/u;
const IDENT_PART = /[A-Za-z0-9_$\p{L}]/u;

/** Splits `src` into tokens; an `eof` token ends the list. Unknown characters raise a SqlParseError naming the position. */
export function tokenize(src: string, what: string, extraOperators: readonly string[] = []): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const ch = src[i]!;
    if (/\s/.test(ch)) { i++; continue; }
    if (ch === "-" && src[i + 1] === "-") { // line comment
      while (i < src.length && src[i] !== "\n") i++;
      continue;
    }
    if (ch === "/" && src[i + 1] === "*") {
      const close = src.indexOf("*/", i + 2);
      if (close < 0) throw sqlParseError(`unterminated comment`, src, i, what);
      if (src[i + 2] === "+") {
        // a hint comment `/*+ NAME(...)`: its text is tokenized between the tokens '/*+' and the comment's end
        out.push({ kind: "op", text: "/*+", pos: i });
        // (positions stay those of the whole text: the part before the hint is blanked)
        out.push(...tokenize(" ".repeat(i + 3) + src.slice(i + 3, close), what).filter((t) => t.kind !== "eof"));
        out.push({ kind: "op", text: "*/", pos: close });
      }
      i = close + 2;
      continue;
    }
    const start = i;
    if (ch === "'") {
      let text = "";
      i++;
      for (;;) {
        if (i >= src.length) throw sqlParseError(`unterminated string literal`, src, start, what);
        if (src[i] === "'") {
          if (src[i + 1] === "'") { text += "'"; i += 2; continue; }
          i++;
          break;
        }
        text += src[i++];
      }
      out.push({ kind: "string", text, pos: start });
      continue;
    }
    if (ch === "`" || ch === '"') {
      // inside a quoted identifier the doubled quote character stands for itself (`a``b` is a`b), as in Flink
      let text = "";
      i++;
      for (;;) {
        const close = src.indexOf(ch, i);
        if (close < 0) throw sqlParseError(`unterminated quoted identifier`, src, start, what);
        text += src.slice(i, close);
        i = close + 1;
        if (src[i] !== ch) break;
        text += ch;
        i++;
      }
      out.push({ kind: "quoted", text, pos: start });
      continue;
    }
    if (/[0-9]/.test(ch) || (ch === "." && /[0-9]/.test(src[i + 1] ?? ""))) {
      const m = /^(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?/.exec(src.slice(i))!;
      out.push({ kind: "number", text: m[0], pos: start });
      i += m[0].length;
      continue;
    }
    if (IDENT_START.test(ch)) {
      while (i < src.length && IDENT_PART.test(src[i]!)) i++;
      out.push({ kind: "ident", text: src.slice(start, i), pos: start });
      continue;
    }
    const op = OPERATORS.find((o) => src.startsWith(o, i)) ?? extraOperators.find((o) => src.startsWith(o, i));
    if (!op) throw sqlParseError(`unexpected character '${ch}'`, src, start, what);
    out.push({ kind: "op", text: op, pos: start });
    i += op.length;
  }
  out.push({ kind: "eof", text: "", pos: src.length });
  return out;
}

/** A cursor over tokens with the helpers both parsers need. */
export class TokenStream {
  private i = 0;
  constructor(readonly src: string, readonly tokens: readonly Token[], readonly what: string) {}

  /** `extraOperators`: characters only some grammars read (MATCH_RECOGNIZE's `{ } ? |` in statements). */
  static of(src: string, what: string, extraOperators?: readonly string[]): TokenStream {
    return new TokenStream(src, tokenize(src, what, extraOperators), what);
  }

  peek(offset = 0): Token {
    return this.tokens[Math.min(this.i + offset, this.tokens.length - 1)]!;
  }

  next(): Token {
    const t = this.peek();
    if (this.i < this.tokens.length - 1) this.i++;
    return t;
  }

  /** Whether the next token is the keyword (case-insensitive, unquoted) `kw`. */
  isKeyword(kw: string, offset = 0): boolean {
    const t = this.peek(offset);
    return t.kind === "ident" && t.text.toUpperCase() === kw;
  }

  isOp(op: string, offset = 0): boolean {
    const t = this.peek(offset);
    return t.kind === "op" && t.text === op;
  }

  acceptKeyword(kw: string): boolean {
    if (!this.isKeyword(kw)) return false;
    this.next();
    return true;
  }

  acceptOp(op: string): boolean {
    if (!this.isOp(op)) return false;
    this.next();
    return true;
  }

  expectKeyword(kw: string): void {
    if (!this.acceptKeyword(kw)) this.fail(`expected ${kw}`);
  }

  expectOp(op: string): void {
    if (!this.acceptOp(op)) this.fail(`expected '${op}'`);
  }

  /** An identifier, plain or quoted; returns its text. */
  identifier(what = "an identifier"): string {
    const t = this.peek();
    if (t.kind !== "ident" && t.kind !== "quoted") this.fail(`expected ${what}`);
    this.next();
    return t.text;
  }

  integer(what: string): number {
    const t = this.peek();
    if (t.kind !== "number" || !/^\d+$/.test(t.text)) this.fail(`expected ${what}`);
    this.next();
    return Number(t.text);
  }

  atEnd(): boolean {
    return this.peek().kind === "eof";
  }

  expectEnd(): void {
    if (!this.atEnd()) this.fail("unexpected input");
  }

  /** Raises a SqlParseError with `message` as it is, at a token (e.g. a value out of range). */
  raise(message: string, at: Token): never {
    throw sqlParseError(message, this.src, at.pos, this.what);
  }

  /** Raises a SqlParseError at the current token: `expected X, got 'Y'`. */
  fail(message: string, at: Token = this.peek()): never {
    const got = at.kind === "eof" ? "end of input" : `'${at.kind === "string" ? `'${at.text}'` : at.text}'`;
    throw sqlParseError(`${message}, got ${got}`, this.src, at.pos, this.what);
  }
}
