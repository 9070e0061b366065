/**
 * Typed connector options: a connector declares each option it reads once (key, type, default, meaning)
 * and receives the parsed values typed by that declaration. Unknown keys and malformed values are
 * ValidationErrors naming the option and the table and listing the valid options.
 */

/** The declaration of one option; build it with the `option.*` helpers. */
export interface OptionDecl<T> {
  /** What the value is, for messages and docs: `int ≥ 1`, `'true' | 'false'`, `one of [a, b]`. */
  readonly typeName: string;
  /** Parses the string value; throws an Error whose message says what is wrong (the caller adds key and table). */
  readonly parse: (text: string) => T;
  /** Whether the option must be given. */
  readonly required: boolean;
  /** The value when the option is absent (undefined for optional options without a default). */
  readonly defaultValue: T | undefined;
  /** One sentence for docs and error messages. */
  readonly description: string;
  /** Whether the value is a secret (passwords): never printed by explain() or in messages. */
  readonly secret: boolean;
}

/** A connector's option declarations, keyed by option name (`"path"`, `"sink.batch.max-size"`). */
export type OptionDecls = { readonly [key: string]: OptionDecl<unknown> };

type HasValue<D> = D extends OptionDecl<infer _T> ? (D extends { readonly required: true } ? true : D extends { readonly defaultValue: undefined } ? false : true) : false;

/**
 * The parsed options a connector receives for declarations `O`: required options and options with a
 * default are always present; the rest may be undefined.
 */
export type OptionValues<O extends OptionDecls> = {
  readonly [K in keyof O]: O[K] extends OptionDecl<infer T> ? (HasValue<O[K]> extends true ? T : T | undefined) : never;
};

interface DeclInit<T> {
  /** One sentence for docs and error messages. */
  readonly description?: string;
  /** The value when the option is absent. */
  readonly default?: T;
  /** Whether the option must be given (an option with a default never needs to be). */
  readonly required?: boolean;
  /** Never print the value (passwords). */
  readonly secret?: boolean;
}

type Decl<T, I> = I extends { readonly required: true } ? OptionDecl<T> & { readonly required: true }
  : I extends { readonly default: T } ? OptionDecl<T> & { readonly defaultValue: T }
  : OptionDecl<T> & { readonly defaultValue: undefined };

function decl<T, I extends DeclInit<T>>(typeName: string, parse: (text: string) => T, init: I | undefined): Decl<T, I> {
  return Object.freeze({
    typeName, parse,
    required: init?.required === true,
    defaultValue: init?.default,
    description: init?.description ?? "",
    secret: init?.secret === true,
  }) as unknown as Decl<T, I>;
}

function parseInt(min: number, max: number) {
  return (text: string): number => {
    const t = text.trim();
    const n = Number(t);
    if (!/^[-+]?\d+$/.test(t) || !Number.isSafeInteger(n)) throw new Error(`must be a whole number, got '${text}'`);
    if (n < min || n > max) throw new Error(`must be a whole number ${rangeText(min, max)}, got '${text}'`);
    return n;
  };
}

/** `≥ 1`, `≤ 9`, `in [1, 9]`: the bounds an int option declared. */
function rangeText(min: number, max: number): string {
  if (min !== Number.MIN_SAFE_INTEGER && max !== Number.MAX_SAFE_INTEGER) return `in [${min}, ${max}]`;
  return min !== Number.MIN_SAFE_INTEGER ? `≥ ${min}` : `≤ ${max}`;
}

const DURATION_UNITS: Readonly<Record<string, number>> = {
  "": 1, ms: 1, milli: 1, millis: 1, millisecond: 1, milliseconds: 1,
  s: 1000, sec: 1000, secs: 1000, second: 1000, seconds: 1000,
  min: 60_000, mins: 60_000, minute: 60_000, minutes: 60_000, m: 60_000,
  h: 3_600_000, hour: 3_600_000, hours: 3_600_000,
  d: 86_400_000, day: 86_400_000, days: 86_400_000,
};

/** Flink's Duration text: `1000` (ms), `500 ms`, `10 s`, `1 min`, `2 h`, `1 d`. */
export function parseDurationText(text: string): number {
  const m = /^\s*(\d+)\s*([a-z]*)\s*$/i.exec(text);
  const unit = m ? DURATION_UNITS[m[2]!.toLowerCase()] : undefined;
  if (!m || unit === undefined) throw new Error(`must be a duration such as '500 ms', '10 s', '1 min', got '${text}'`);
  return Number(m[1]) * unit;
}

/** Builders of option declarations: `option.int({ default: 100, min: 1 })`. */
export const option = {
  /** Any text. */
  string<const I extends DeclInit<string>>(init?: I): Decl<string, I> {
    return decl("string", (t) => t, init);
  },
  /** A whole number, within `[min, max]` when given. */
  int<const I extends DeclInit<number> & { readonly min?: number; readonly max?: number }>(init?: I): Decl<number, I> {
    const min = init?.min ?? Number.MIN_SAFE_INTEGER;
    const max = init?.max ?? Number.MAX_SAFE_INTEGER;
    const name = init?.min !== undefined && init?.max !== undefined ? `int in [${min}, ${max}]` : init?.min !== undefined ? `int ≥ ${min}` : init?.max !== undefined ? `int ≤ ${max}` : "int";
    return decl(name, parseInt(min, max), init);
  },
  /** A decimal number (`0.5`, `1e3`). */
  double<const I extends DeclInit<number>>(init?: I): Decl<number, I> {
    return decl("double", (t) => {
      const n = Number(t.trim());
      if (t.trim() === "" || !Number.isFinite(n)) throw new Error(`must be a number, got '${t}'`);
      return n;
    }, init);
  },
  /** `true` or `false` (any case). */
  boolean<const I extends DeclInit<boolean>>(init?: I): Decl<boolean, I> {
    return decl("'true' | 'false'", (t) => {
      const l = t.trim().toLowerCase();
      if (l !== "true" && l !== "false") throw new Error(`must be 'true' or 'false', got '${t}'`);
      return l === "true";
    }, init);
  },
  /** A duration in milliseconds, written as Flink writes durations (`500 ms`, `10 s`, `1 min`). */
  duration<const I extends DeclInit<number>>(init?: I): Decl<number, I> {
    return decl("duration", parseDurationText, init);
  },
  /** One of the given values (compared case-sensitively, as Flink's enum options after upper-casing are). */
  enum<const V extends readonly [string, ...string[]], const I extends DeclInit<V[number]>>(values: V, init?: I): Decl<V[number], I> {
    return decl(`one of [${values.join(", ")}]`, (t) => {
      if (!values.includes(t)) throw new Error(`must be one of [${values.join(", ")}], got '${t}'`);
      return t as V[number];
    }, init);
  },
} as const;
