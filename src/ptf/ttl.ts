import { ValidationError } from "../types/errors.js";

/**
 * Durations as Flink writes them (`TimeUtils.parseDuration`): a non-negative integer followed by an
 * optional unit label, e.g. `"3 days"`, `"45 min"`, `"1 hour"`, `"60 s"`, `"500ms"`; no unit means
 * milliseconds. Used for state TTL (`valueState(init, { ttl })`) and `table.exec.state.ttl`.
 */
const UNITS: ReadonlyMap<string, number> = new Map([
  ...labels(86_400_000, ["d"], ["day"]),
  ...labels(3_600_000, ["h"], ["hour"]),
  ...labels(60_000, ["min", "m"], ["minute"]),
  ...labels(1_000, ["s"], ["sec", "second"]),
  ...labels(1, ["ms"], ["milli", "millisecond"]),
]);

function labels(ms: number, singular: string[], plural: string[]): [string, number][] {
  return [...singular, ...plural, ...plural.map((p) => `${p}s`)].map((l) => [l, ms]);
}

/** Labels Flink accepts that have no millisecond representation. */
const SUB_MILLI = new Set(["µs", "micro", "micros", "microsecond", "microseconds", "ns", "nano", "nanos", "nanosecond", "nanoseconds"]);

/** Parses a duration to milliseconds; `what` names the setting in the error message. */
export function parseDuration(text: string | number, what: string): number {
  if (typeof text === "number") {
    if (!Number.isSafeInteger(text) || text < 0) {
      throw new ValidationError(`${what}: a duration in milliseconds must be a non-negative integer, got ${text}`);
    }
    return text;
  }
  if (typeof text !== "string") throw new ValidationError(`${what}: expected a duration string such as "1 day", got ${String(text)}`);
  const trimmed = text.trim();
  const m = /^(\d+)\s*(.*)$/.exec(trimmed);
  if (!m) {
    throw new ValidationError(`${what}: '${text}' is not a duration; expected a number with an optional unit, e.g. "3 days", "45 min", "60 s"`);
  }
  const value = Number(m[1]);
  if (!Number.isSafeInteger(value)) throw new ValidationError(`${what}: the value '${m[1]}' is too large`);
  const label = m[2]!.trim().toLowerCase();
  if (label === "") return value;
  const unit = UNITS.get(label);
  if (unit === undefined) {
    if (SUB_MILLI.has(label)) {
      throw new ValidationError(`${what}: '${text}' uses a unit below milliseconds, which state TTL cannot represent`);
    }
    throw new ValidationError(
      `${what}: time unit '${m[2]!.trim()}' in '${text}' is not one of d|day(s), h|hour(s), min|m|minute(s), s|sec(s)|second(s), ms|milli(s)|millisecond(s)`,
    );
  }
  const ms = value * unit;
  if (!Number.isSafeInteger(ms)) throw new ValidationError(`${what}: '${text}' is too large`);
  return ms;
}

/** Renders milliseconds the way Java's Duration.toString does (`PT120H`, `PT5H`, `PT1M30S`), for explain(). */
export function durationString(ms: number): string {
  if (ms === 0) return "PT0S";
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = (ms % 60_000) / 1000;
  return `PT${h ? `${h}H` : ""}${m ? `${m}M` : ""}${s ? `${s}S` : ""}`;
}
