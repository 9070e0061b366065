import { Decimal } from "decimal.js";

/**
 * Canonical identities of SQL values, for use as Map keys: two values get the same key exactly when SQL
 * equality (as GROUP BY and DISTINCT see it) holds. Primitives are their own key; dates key by epoch
 * millis; structured values (DECIMAL, ARRAY, MAP, ROW) by a canonical string.
 */
export function valueKey(v: unknown): unknown {
  if (v === null || typeof v !== "object") return v;
  if (v instanceof Date) return v.getTime();
  return canonical(v);
}

/**
 * One value as a self-delimiting string: each part can be read off the front of a concatenation, so two
 * different tuples never encode to the same string (("a|b", "c") and ("a", "b|c") stay apart).
 */
export function encodeKeyPart(v: unknown): string {
  switch (typeof v) {
    case "number": return `#${v === 0 ? 0 : v};`; // -0 groups with 0 (SQL equality)
    case "string": return `$${v.length}:${v}`;
    case "boolean": return v ? "T" : "F";
    case "object": {
      if (v === null) return "~";
      if (v instanceof Date) return `@${v.getTime()};`;
      const s = canonical(v);
      return `&${s.length}:${s}`;
    }
    case "undefined": return "~";
    default: {
      const s = String(v);
      return `?${s.length}:${s}`;
    }
  }
}

function canonical(v: object): string {
  if (Decimal.isDecimal(v)) return `d${(v as Decimal).toString()}`; // 1.50 and 1.5 are one value
  if (Array.isArray(v)) {
    let s = "[";
    for (const x of v) s += encodeKeyPart(x);
    return s + "]";
  }
  if (v instanceof Map) {
    // map equality ignores insertion order
    const parts: string[] = [];
    for (const [k, x] of v) parts.push(encodeKeyPart(k) + encodeKeyPart(x));
    return `{${parts.sort().join("")}}`;
  }
  if (ArrayBuffer.isView(v)) {
    return `b${Array.from(new Uint8Array(v.buffer, v.byteOffset, v.byteLength)).join(",")};`;
  }
  let s = "(";
  for (const k of Object.keys(v)) s += encodeKeyPart(k) + encodeKeyPart((v as Record<string, unknown>)[k]);
  return s + ")";
}
