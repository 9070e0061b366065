import { ValidationError } from "../../types/errors.js";

const UNITS: Record<string, number> = {
  ms: 1, milli: 1, millis: 1, millisecond: 1, milliseconds: 1,
  s: 1000, sec: 1000, secs: 1000, second: 1000, seconds: 1000,
  min: 60000, m: 60000, minute: 60000, minutes: 60000,
  h: 3600000, hour: 3600000, hours: 3600000,
  d: 86400000, day: 86400000, days: 86400000,
};

/** Flink's Duration option format: `1000` (ms), `500 ms`, `1 s`, `10min`, `2 h`, `1 d`. */
export function parseDuration(text: string, what: string): number {
  const m = /^\s*(\d+)\s*([a-z]*)\s*$/i.exec(text);
  const unit = m?.[2]?.toLowerCase() ?? "";
  const factor = unit === "" ? 1 : UNITS[unit];
  if (!m || factor === undefined) {
    throw new ValidationError(`${what} must be a duration such as '1000', '500 ms', '1 s', '10 min', '2 h', got '${text}'`);
  }
  return Number(m[1]) * factor;
}
