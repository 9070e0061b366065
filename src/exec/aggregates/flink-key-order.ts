import type { DataType } from "../../types/data-type.js";

/**
 * The order in which Flink's local (mini-batch) aggregate hands its bundle on: a `java.util.HashMap` keyed by
 * the grouping key as a BinaryRowData, iterated bucket by bucket. Which keys of a bundle reach the global
 * aggregate before the global bundle is full decides what the global aggregate emits, so Flink's
 * rows can only be matched by handing keys on in the same order.
 *
 * - BinaryRowData.hashCode: 32-bit murmur3 (seed 42) over the row's bytes word by word, then fmix with
 *   the length. The row is a header (8 bytes: the row kind, 0 = INSERT, then one null bit per field from
 *   bit 8, rounded up to 8-byte words), an 8-byte slot per field (a fixed-size value little-endian; a string
 *   of up to 7 UTF-8 bytes inline with its length | 0x80 in the top byte; a longer one as offset << 32 | length
 *   pointing into a variable part padded with zeros to a word), then the variable part.
 * - HashMap: bucket = (h ^ h >>> 16) & (capacity - 1); a bucket keeps insertion order; the capacity starts at
 *   16, doubles when the map holds more than 3/4 of it, and is kept by `clear()` (so it is the largest any
 *   bundle of the operator needed).
 *
 * Keys of types without a byte layout here (DECIMAL, TIMESTAMP with more than millisecond precision, nested
 * types ...) have no Flink order: `keyHasher` returns undefined and the bundle goes in order of first touch.
 */
export type KeyHasher = (values: readonly unknown[]) => number;

const FIXED = new Set(["BOOLEAN", "TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE", "DATE", "CHAR", "VARCHAR", "TIMESTAMP", "TIMESTAMP_LTZ"]);

/** The BinaryRowData hash of key rows of these types, or undefined when a type has no layout here. */
export function keyHasher(types: readonly DataType[]): KeyHasher | undefined {
  for (const t of types) {
    if (!FIXED.has(t.root)) return undefined;
    if ((t.root === "TIMESTAMP" || t.root === "TIMESTAMP_LTZ") && (t.precision ?? 6) > 3) return undefined;
  }
  const roots = types.map((t) => t.root);
  const header = Math.floor((types.length + 63 + 8) / 64) * 8;
  return (values) => binaryRowHash(roots, header, values);
}

const encoder = new TextEncoder();

function binaryRowHash(roots: readonly string[], header: number, values: readonly unknown[]): number {
  const n = roots.length;
  const fixed = header + 8 * n;
  const strings: (Uint8Array | undefined)[] = new Array<Uint8Array | undefined>(n);
  let variable = 0;
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if ((roots[i] === "CHAR" || roots[i] === "VARCHAR") && v !== null && v !== undefined) {
      const b = encoder.encode(String(v));
      strings[i] = b;
      if (b.length > 7) variable += (b.length + 7) & ~7;
    }
  }
  const bytes = new Uint8Array(fixed + variable);
  const view = new DataView(bytes.buffer);
  let cursor = fixed;
  for (let i = 0; i < n; i++) {
    const v = values[i];
    const at = header + 8 * i;
    if (v === null || v === undefined) {
      const bit = i + 8;
      bytes[bit >>> 3]! |= 1 << (bit & 7);
      continue;
    }
    switch (roots[i]) {
      case "BOOLEAN": bytes[at] = v ? 1 : 0; break;
      case "TINYINT": view.setInt8(at, Number(v)); break;
      case "SMALLINT": view.setInt16(at, Number(v), true); break;
      case "INT": view.setInt32(at, Number(v), true); break;
      case "DATE": view.setInt32(at, epochDay(String(v)), true); break;
      case "BIGINT": view.setBigInt64(at, BigInt(v as number | bigint), true); break;
      case "FLOAT": view.setFloat32(at, Number(v), true); break;
      case "DOUBLE": view.setFloat64(at, Number(v), true); break;
      case "TIMESTAMP": case "TIMESTAMP_LTZ": view.setBigInt64(at, BigInt((v as Date).getTime()), true); break;
      default: {
        const b = strings[i]!;
        if (b.length <= 7) {
          bytes.set(b, at);
          bytes[at + 7] = b.length | 0x80;
        } else {
          bytes.set(b, cursor);
          view.setInt32(at, b.length, true);
          view.setInt32(at + 4, cursor, true);
          cursor += (b.length + 7) & ~7;
        }
      }
    }
  }
  return murmurWords(view, bytes.length);
}

function epochDay(iso: string): number {
  return Math.floor(Date.parse(`${iso}T00:00:00Z`) / 86_400_000);
}

const rotl = (x: number, r: number) => (x << r) | (x >>> (32 - r));

/** Flink's MurmurHashUtil.hashUnsafeBytesByWords (seed 42) over a little-endian byte row. */
export function murmurWords(view: DataView, length: number): number {
  let h = 42;
  for (let i = 0; i < length; i += 4) {
    let k = Math.imul(view.getInt32(i, true), 0xcc9e2d51 | 0);
    k = Math.imul(rotl(k, 15), 0x1b873593);
    h ^= k;
    h = (Math.imul(rotl(h, 13), 5) + (0xe6546b64 | 0)) | 0;
  }
  h ^= length;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b | 0);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35 | 0);
  return h ^ (h >>> 16);
}

/** The bucket of a hash in a java.util.HashMap of `capacity` (a power of two). */
export function hashMapBucket(hash: number, capacity: number): number {
  return (hash ^ (hash >>> 16)) & (capacity - 1);
}

/** The capacity a java.util.HashMap of `capacity` grows to when it holds `size` entries. */
export function hashMapCapacity(capacity: number, size: number): number {
  let c = capacity;
  while (size > c * 0.75) c *= 2;
  return c;
}
