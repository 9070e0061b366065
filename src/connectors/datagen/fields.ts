import { Decimal } from "decimal.js";
import { ValidationError } from "../../types/errors.js";
import { type DataType, MAX_LENGTH } from "../../types/data-type.js";
import { parseDuration } from "./duration.js";
import { Random } from "./random.js";

/**
 * Per-field generators of the datagen connector, configured by Flink's options:
 * `fields.<f>.kind` = `random` (default) or `sequence`; random: `min`, `max` (numbers), `length`
 * (strings: default 100; collections: default 3), `var-len`, `max-past` (timestamps: up to this long before
 * now), `null-rate`; sequence: `start`, `end` (required; the table ends after `end`).
 */
export const FIELD_OPTIONS = ["kind", "min", "max", "max-past", "length", "var-len", "start", "end", "null-rate"] as const;

export type Generator = () => unknown;

export interface FieldGenerator {
  readonly next: Generator;
  /** Sequence fields: continue after `n` values (restoring a position). */
  readonly skip?: (n: number) => void;
  /** Rows a sequence field can produce (Infinity for random fields). */
  readonly limit: number;
  readonly rng: Random;
}

const INT_RANGE: Record<string, readonly [number, number]> = {
  TINYINT: [-128, 127], SMALLINT: [-32768, 32767], INT: [-2147483648, 2147483647],
  BIGINT: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
};
const FLOAT_MAX = 3.4028234663852886e38;
const FLOAT_MIN = 1.401298464324817e-45;
const DAY = 86400000;

/** Where the field options come from: a datagen table's name and its options as given (TableContext). */
export interface DatagenTable {
  readonly tableName: string;
  readonly rawOptions: ReadonlyMap<string, string>;
}

class FieldOptions {
  constructor(private readonly table: DatagenTable, readonly field: string) {}
  key(o: string): string { return `fields.${this.field}.${o}`; }
  get(o: string): string | undefined { return this.table.rawOptions.get(this.key(o)); }
  fail(o: string, why: string): never {
    throw new ValidationError(`datagen table '${this.table.tableName}': option '${this.key(o)}' ${why}`);
  }
  number(o: string, fallback: number): number {
    const v = this.get(o);
    if (v === undefined) return fallback;
    const n = Number(v.trim());
    if (v.trim() === "" || !Number.isFinite(n)) this.fail(o, `must be a number, got '${v}'`);
    return n;
  }
  integer(o: string, fallback: number, lo: number, hi: number): number {
    const n = this.number(o, fallback);
    if (!Number.isInteger(n) || n < lo || n > hi) this.fail(o, `must be a whole number in [${lo}, ${hi}] for this column's type, got '${this.get(o)}'`);
    return n;
  }
  bool(o: string): boolean {
    const v = this.get(o);
    if (v === undefined) return false;
    if (!/^(true|false)$/i.test(v.trim())) this.fail(o, `must be 'true' or 'false', got '${v}'`);
    return v.trim().toLowerCase() === "true";
  }
  /** Options given but meaningless for the field's kind/type are errors (not silently ignored). */
  only(allowed: readonly string[], what: string): void {
    for (const o of FIELD_OPTIONS) {
      if (!allowed.includes(o) && this.get(o) !== undefined) this.fail(o, `does not apply to ${what}`);
    }
  }
}

/** Builds the generator of one physical column. */
export function fieldGenerator(table: DatagenTable, name: string, type: DataType, seed: string, clock: () => number): FieldGenerator {
  const f = new FieldOptions(table, name);
  const rng = new Random(`${seed}\u0000${name}`);
  const kind = f.get("kind") ?? "random";
  if (kind !== "random" && kind !== "sequence") f.fail("kind", `must be 'random' or 'sequence', got '${kind}'`);
  if (kind === "sequence") {
    f.only(["kind", "start", "end"], "a sequence field");
    const { next, limit, skip } = sequence(f, type);
    return { next, limit, rng, skip };
  }
  const nullRate = f.number("null-rate", 0);
  if (nullRate < 0 || nullRate > 1) f.fail("null-rate", `must be between 0 and 1, got '${f.get("null-rate")}'`);
  if (nullRate > 0 && !type.isNullable) f.fail("null-rate", `cannot be used with the NOT NULL column '${name}' (${type})`);
  const base = random(f, type, rng, clock, true);
  const next = nullRate > 0 ? () => (rng.nextDouble() < nullRate ? null : base()) : base;
  return { next, limit: Infinity, rng };
}

function sequence(f: FieldOptions, type: DataType): { next: Generator; limit: number; skip: (n: number) => void } {
  const root = type.root;
  const isInt = root in INT_RANGE;
  const isString = root === "CHAR" || root === "VARCHAR";
  if (!isInt && !isString && root !== "FLOAT" && root !== "DOUBLE" && root !== "DECIMAL") {
    f.fail("kind", `'sequence' is supported for numeric and string columns, not ${type}`);
  }
  if (f.get("start") === undefined) f.fail("start", "is required for a sequence field (Could not find required property for sequence generator)");
  if (f.get("end") === undefined) f.fail("end", "is required for a sequence field (Could not find required property for sequence generator)");
  const [lo, hi] = INT_RANGE[isInt ? root : "BIGINT"]!;
  const start = f.integer("start", 0, lo, hi);
  const end = f.integer("end", 0, lo, hi);
  if (end < start) f.fail("end", `must not be less than start (${start}), got '${end}'`);
  let cur = start;
  const limit = end - start + 1;
  const skip = (n: number) => { cur = start + n; };
  if (isString) return { next: () => String(cur++), limit, skip };
  if (root === "DECIMAL") return { next: () => new Decimal(cur++), limit, skip };
  return { next: () => cur++, limit, skip };
}

function random(f: FieldOptions, type: DataType, rng: Random, clock: () => number, top: boolean): Generator {
  const root = type.root;
  const where = top ? `column '${f.field}' (${type})` : `nested values of ${type}`;
  const opts = (allowed: string[]) => { if (top) f.only(["kind", "null-rate", ...allowed], where); };
  if (root in INT_RANGE) {
    opts(["min", "max"]);
    const [lo, hi] = INT_RANGE[root]!;
    const min = top ? f.integer("min", lo, lo, hi) : lo;
    const max = top ? f.integer("max", hi, lo, hi) : hi;
    if (max < min) f.fail("max", `must not be less than min (${min})`);
    return () => rng.nextInt(min, max);
  }
  switch (root) {
    case "FLOAT":
    case "DOUBLE": {
      opts(["min", "max"]);
      const min = top ? f.number("min", root === "FLOAT" ? FLOAT_MIN : Number.MIN_VALUE) : 0;
      const max = top ? f.number("max", root === "FLOAT" ? FLOAT_MAX : Number.MAX_VALUE) : 1;
      if (max < min) f.fail("max", `must not be less than min (${min})`);
      const span = max - min;
      return root === "FLOAT" ? () => Math.fround(min + rng.nextDouble() * span) : () => min + rng.nextDouble() * span;
    }
    case "DECIMAL": {
      opts(["min", "max"]);
      const p = type.precision!;
      const s = type.scale!;
      const limit = new Decimal(10).pow(p - s).minus(new Decimal(10).pow(-s));
      const min = top && f.get("min") !== undefined ? new Decimal(f.number("min", 0)) : limit.neg();
      const max = top && f.get("max") !== undefined ? new Decimal(f.number("max", 0)) : limit;
      if (max.lt(min)) f.fail("max", `must not be less than min (${min.toString()})`);
      if (max.gt(limit) || min.lt(limit.neg())) f.fail(max.gt(limit) ? "max" : "min", `is outside the range of ${type}`);
      const span = max.minus(min);
      return () => min.plus(span.times(rng.nextDouble())).toDecimalPlaces(s, Decimal.ROUND_DOWN);
    }
    case "BOOLEAN":
      opts([]);
      return () => rng.nextBoolean();
    case "CHAR":
    case "VARCHAR": {
      opts(["length", "var-len"]);
      const typeLen = type.length ?? MAX_LENGTH;
      const length = top ? f.integer("length", Math.min(100, typeLen), 0, MAX_LENGTH) : Math.min(100, typeLen);
      if (length > typeLen) f.fail("length", `must not exceed the length of ${type}, got '${length}'`);
      if (root === "CHAR") return () => rng.nextHex(length);
      return top && f.bool("var-len") ? () => rng.nextHex(rng.nextInt(1, Math.max(1, length))) : () => rng.nextHex(length);
    }
    case "TIMESTAMP":
    case "TIMESTAMP_LTZ": {
      opts(["max-past"]);
      const maxPast = top && f.get("max-past") !== undefined ? parseDuration(f.get("max-past")!, `option '${f.key("max-past")}'`) : 0;
      const unit = 10 ** (3 - Math.min(3, type.precision ?? 6));
      return () => {
        const t = clock() - (maxPast > 0 ? rng.nextInt(0, maxPast) : 0);
        return new Date(unit === 1 ? t : t - (((t % unit) + unit) % unit));
      };
    }
    case "DATE": {
      opts(["max-past"]);
      const maxPastDays = top && f.get("max-past") !== undefined ? Math.floor(parseDuration(f.get("max-past")!, `option '${f.key("max-past")}'`) / DAY) : 0;
      return () => new Date(Math.floor(clock() / DAY) * DAY - (maxPastDays > 0 ? rng.nextInt(0, maxPastDays) : 0) * DAY).toISOString().slice(0, 10);
    }
    case "TIME": {
      opts([]);
      const p = Math.min(3, type.precision ?? 0);
      return () => {
        const ms = rng.nextInt(0, DAY - 1);
        const iso = new Date(ms).toISOString().slice(11, 23);
        return p === 0 ? iso.slice(0, 8) : iso.slice(0, 9 + p);
      };
    }
    case "ARRAY": {
      opts(["length"]);
      const n = top ? f.integer("length", 3, 0, 1_000_000) : 3;
      const el = random(f, type.elementType!, rng, clock, false);
      return () => { const a = new Array<unknown>(n); for (let i = 0; i < n; i++) a[i] = el(); return a; };
    }
    case "MAP": {
      opts(["length"]);
      const n = top ? f.integer("length", 3, 0, 1_000_000) : 3;
      const k = random(f, type.keyType!, rng, clock, false);
      const v = random(f, type.valueType!, rng, clock, false);
      return () => { const m = new Map(); for (let i = 0; i < n; i++) m.set(k(), v()); return m; };
    }
    case "ROW": {
      opts([]);
      const gens = type.fields.map((x) => [x.name, random(f, x.type, rng, clock, false)] as const);
      return () => { const o: Record<string, unknown> = {}; for (const [n, g] of gens) o[n] = g(); return o; };
    }
    default:
      return f.fail("kind", `cannot generate values of type ${type}`);
  }
}
