import { decodeSnapshotInPlace, encodeSnapshotJson } from "../snapshot-codec.js";

/**
 * Keys and values of a disk store as text, through the snapshot codec (snapshot-codec.ts): the same
 * encoding checkpoints use, so BIGINT, DECIMAL, Date, Map and class fields survive. Keys get a form whose
 * equality is the `Map` key equality of the in-memory backend: a finite number is its decimal text (so
 * 0 and -0 are one key, as in a Map), a string is its JSON string (never mistaken for a number), anything
 * else the codec's JSON.
 */
export function encodeKey(key: unknown): string {
  if (typeof key === "number" && Number.isFinite(key)) return key === 0 ? "0" : String(key);
  if (typeof key === "string") return JSON.stringify(key);
  return encodeSnapshotJson(key);
}

// the parsed text is this call's own: decoded in place, without a copy
export function decodeKey(text: string): unknown {
  return decodeSnapshotInPlace(JSON.parse(text));
}

export function encodeValue(value: unknown): string {
  return encodeSnapshotJson(value);
}

export function decodeValue(text: string): unknown {
  return decodeSnapshotInPlace(JSON.parse(text));
}
