import { formatDouble } from "./format.js";

/**
 * The kinds a VARIANT value keeps (Flink's `Variant.Type`, as far as tablestream produces them): the JSON
 * kinds, with numbers kept exact — an integer is the smallest of TINYINT/SMALLINT/INT/BIGINT that holds it
 * (a JS `bigint`, so 64-bit values beyond 2^53 stay exact), a plain decimal number is a DECIMAL with its
 * scale (`1.50` stays `1.50`), a number in E notation is a DOUBLE.
 */
export type VariantKind =
  | "NULL" | "BOOLEAN" | "TINYINT" | "SMALLINT" | "INT" | "BIGINT" | "DOUBLE" | "DECIMAL" | "STRING" | "ARRAY" | "OBJECT";

/**
 * A VARIANT value: immutable, semi-structured (docs/types.md, "VARIANT"). Made by `PARSE_JSON` /
 * `Variant.parseJson`; printed as compact JSON, objects with their keys sorted (Flink's binary encoding
 * stores object fields sorted by key). A JSON `null` is a Variant of kind NULL, not a SQL NULL.
 */
export class Variant {
  /** The JSON `null` (one instance). */
  static readonly JSON_NULL: Variant = new Variant("NULL", null, undefined);

  private constructor(
    readonly kind: VariantKind,
    /** boolean | bigint (integer kinds) | number (DOUBLE) | string (STRING; DECIMAL as its plain text) | Variant[] | null */
    private readonly value: unknown,
    /** OBJECT only: the keys, sorted, parallel to `value`'s Variant[]. */
    private readonly objectKeys: readonly string[] | undefined,
  ) {
    Object.freeze(this);
  }

  /** @internal a primitive; `integer`s must be bigints in the kind's range, a DECIMAL its plain text. */
  static primitive(kind: Exclude<VariantKind, "ARRAY" | "OBJECT">, value: boolean | bigint | number | string | null): Variant {
    return kind === "NULL" ? Variant.JSON_NULL : new Variant(kind, value, undefined);
  }

  /** @internal an array of elements. */
  static array(elements: readonly Variant[]): Variant {
    return new Variant("ARRAY", Object.freeze(elements.slice()), undefined);
  }

  /** @internal an object; `keys` sorted and distinct, parallel to `values`. */
  static object(keys: readonly string[], values: readonly Variant[]): Variant {
    return new Variant("OBJECT", Object.freeze(values.slice()), Object.freeze(keys.slice()));
  }

  isNull(): boolean { return this.kind === "NULL"; }
  isArray(): boolean { return this.kind === "ARRAY"; }
  isObject(): boolean { return this.kind === "OBJECT"; }
  isPrimitive(): boolean { return this.kind !== "ARRAY" && this.kind !== "OBJECT"; }

  /** Number of elements (ARRAY) or fields (OBJECT); 0 for primitives. */
  get size(): number {
    return this.kind === "ARRAY" || this.kind === "OBJECT" ? (this.value as readonly Variant[]).length : 0;
  }

  /** The sorted keys of an OBJECT (empty for other kinds). */
  get keys(): readonly string[] { return this.objectKeys ?? []; }

  /** An OBJECT's field, or null when this is not an object or has no such key. */
  getField(key: string): Variant | null {
    const keys = this.objectKeys;
    if (keys === undefined) return null;
    let lo = 0;
    let hi = keys.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const k = keys[mid]!;
      if (k === key) return (this.value as readonly Variant[])[mid]!;
      if (k < key) lo = mid + 1;
      else hi = mid - 1;
    }
    return null;
  }

  /** An ARRAY's element at a 0-based index (Flink's `Variant.getElement`), or null when out of range or not an array. */
  getElement(index: number): Variant | null {
    if (this.kind !== "ARRAY") return null;
    const els = this.value as readonly Variant[];
    return Number.isInteger(index) && index >= 0 && index < els.length ? els[index]! : null;
  }

  /**
   * The primitive value: `boolean`, `bigint` (integer kinds), `number` (DOUBLE), `string` (STRING), the plain
   * text of a DECIMAL (exact, scale kept) or `null` (JSON null); for ARRAY and OBJECT, undefined.
   */
  get primitiveValue(): boolean | bigint | number | string | null | undefined {
    return this.kind === "ARRAY" || this.kind === "OBJECT" ? undefined : (this.value as boolean | bigint | number | string | null);
  }

  /** Compact JSON text, as Flink's `Variant.toString` (`{"a":[1,"b"]}`). */
  toJson(): string {
    const out: string[] = [];
    appendJson(this, out);
    return out.join("");
  }

  toString(): string { return this.toJson(); }

  /** Structural equality: the same kinds and values (`1` and `1.0` differ: INT and DECIMAL). */
  equals(other: unknown): boolean {
    if (!(other instanceof Variant)) return false;
    if (this === other) return true;
    if (this.kind !== other.kind) return false;
    if (this.kind === "ARRAY" || this.kind === "OBJECT") {
      const a = this.value as readonly Variant[];
      const b = other.value as readonly Variant[];
      if (a.length !== b.length) return false;
      const ka = this.objectKeys;
      const kb = other.objectKeys;
      for (let i = 0; i < a.length; i++) {
        if (ka !== undefined && ka[i] !== kb![i]) return false;
        if (!a[i]!.equals(b[i])) return false;
      }
      return true;
    }
    return Object.is(this.value, other.value) || this.value === other.value;
  }
}

/** Whether a value is a Variant (for checks of values handed in by users). */
export function isVariant(v: unknown): v is Variant {
  return v instanceof Variant;
}

function appendJson(v: Variant, out: string[]): void {
  switch (v.kind) {
    case "OBJECT": {
      out.push("{");
      const keys = v.keys;
      for (let i = 0; i < keys.length; i++) {
        if (i > 0) out.push(",");
        out.push(quoteJson(keys[i]!), ":");
        appendJson(v.getField(keys[i]!)!, out);
      }
      out.push("}");
      return;
    }
    case "ARRAY": {
      out.push("[");
      for (let i = 0; i < v.size; i++) {
        if (i > 0) out.push(",");
        appendJson(v.getElement(i)!, out);
      }
      out.push("]");
      return;
    }
    case "NULL": out.push("null"); return;
    case "STRING": out.push(quoteJson(v.primitiveValue as string)); return;
    case "DOUBLE": {
      const d = v.primitiveValue as number;
      // JSON has no literal for NaN or infinity: Flink's lenient printing quotes Java's text
      out.push(Number.isFinite(d) ? formatDouble(d) : `"${formatDouble(d)}"`);
      return;
    }
    default: out.push(String(v.primitiveValue));
  }
}

const SHORT_ESCAPES: Record<number, string> = { 8: "\\b", 9: "\\t", 10: "\\n", 12: "\\f", 13: "\\r", 34: '\\"', 92: "\\\\" };

/** A JSON string literal as Jackson writes it: `"` and `\` and control characters escaped, nothing else. */
export function quoteJson(s: string): string {
  let needs = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 34 || c === 92) { needs = true; break; }
  }
  if (!needs) return `"${s}"`;
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 34 || c === 92) out += SHORT_ESCAPES[c] ?? `\\u${c.toString(16).toUpperCase().padStart(4, "0")}`;
    else out += s[i];
  }
  return out + '"';
}

/**
 * A Variant as plain JSON data that keeps every kind (checkpoints, snapshot-codec.ts): `[kind, value]` for
 * primitives (integers as decimal text, a DOUBLE as a number or, when not finite, its text), `["ARRAY",
 * [elements]]` and `["OBJECT", [keys], [values]]`. JSON text alone would not do: `100.0` reads back as a DECIMAL.
 */
export function variantToData(v: Variant): unknown {
  switch (v.kind) {
    case "ARRAY": {
      const els: unknown[] = [];
      for (let i = 0; i < v.size; i++) els.push(variantToData(v.getElement(i)!));
      return ["ARRAY", els];
    }
    case "OBJECT": return ["OBJECT", v.keys.slice(), v.keys.map((k) => variantToData(v.getField(k)!))];
    case "DOUBLE": {
      const d = v.primitiveValue as number;
      return ["DOUBLE", Number.isFinite(d) && !Object.is(d, -0) ? d : String(d)];
    }
    case "TINYINT": case "SMALLINT": case "INT": case "BIGINT": return [v.kind, String(v.primitiveValue)];
    default: return [v.kind, v.primitiveValue];
  }
}

/** The inverse of variantToData. */
export function variantFromData(d: unknown): Variant {
  const [kind, a, b] = d as [VariantKind, unknown, unknown];
  switch (kind) {
    case "ARRAY": return Variant.array((a as unknown[]).map(variantFromData));
    case "OBJECT": return Variant.object(a as string[], (b as unknown[]).map(variantFromData));
    case "DOUBLE": return Variant.primitive("DOUBLE", Number(a));
    case "TINYINT": case "SMALLINT": case "INT": case "BIGINT": return Variant.primitive(kind, BigInt(a as string));
    default: return Variant.primitive(kind, a as string | boolean | null);
  }
}
