import { ValidationError } from "../types/errors.js";
import { DataType } from "../types/data-type.js";
import type { CodegenContext } from "./compile.js";
import {
  type Compiled, T, arity, asNumber, category, displayName, isInteger, isInterval, isNullType, isNumeric,
  isString, isTimestamp, literalString, nullSafe, requireArg, where,
} from "./compile-support.js";
import { type CallNode, nodeToString } from "./node.js";
import { type BuiltinFunction, builtin } from "./builtin-function.js";
import { DEFAULT_DATETIME_PATTERN, parseDatetimePattern } from "./datetime-pattern.js";

/**
 * Temporal expressions. TIMESTAMP and TIMESTAMP_LTZ values are `Date`s read in UTC (the session time
 * zone is UTC); DATE is a `YYYY-MM-DD` string, TIME an `HH:mm:ss[.fff]` string; a day-time interval
 * is a number of milliseconds, a year-month interval a number of months.
 */

/** Units EXTRACT accepts per argument type (Flink's ExtractInputTypeStrategy and ExtractCallGen). */
const DATE_UNITS = ["MILLENNIUM", "CENTURY", "DECADE", "YEAR", "QUARTER", "MONTH", "WEEK", "DAY"];
const TIME_UNITS = ["HOUR", "MINUTE", "SECOND", "MILLISECOND"];
const TIMESTAMP_UNITS = [...DATE_UNITS, ...TIME_UNITS, "MICROSECOND", "NANOSECOND"];

/** Units FLOOR / CEIL accept on a timestamp. */
const FIXED_WIDTH: Record<string, number> = { MILLISECOND: 1, SECOND: 1000, MINUTE: 60000, HOUR: 3600000, DAY: 86400000 };
const CALENDAR_UNITS = ["WEEK", "MONTH", "QUARTER", "YEAR", "DECADE", "CENTURY", "MILLENNIUM"];

function unitArg(node: CallNode): string {
  const unit = literalString(node.args[1]);
  if (unit === undefined) throw new ValidationError(`${displayName(node)} needs a TimeIntervalUnit as its second argument in ${nodeToString(node)}`);
  return unit;
}

/** `$("ts").extract(TimeIntervalUnit.HOUR)`: a BIGINT. */
export function compileExtract(node: CallNode, args: Compiled[], ctx: CodegenContext): Compiled {
  arity(node, args, 2);
  const a = args[0]!;
  const unit = unitArg(node);
  const root = a.type.root;
  const allowed = isTimestamp(a.type) ? TIMESTAMP_UNITS : root === "DATE" ? DATE_UNITS : root === "TIME" ? TIME_UNITS : undefined;
  if (allowed === undefined && !isNullType(a.type)) {
    throw new ValidationError(`extract needs a TIMESTAMP, TIMESTAMP_LTZ, DATE or TIME argument, got ${a.type} in ${nodeToString(node)}`);
  }
  if (allowed !== undefined && !allowed.includes(unit)) {
    throw new ValidationError(`extract does not support TimeIntervalUnit ${unit} for type ${a.type} in ${nodeToString(node)}; supported: ${allowed.join(", ")}`);
  }
  const type = T.BIGINT(a.type.isNullable);
  if (isNullType(a.type)) return { type, src: "null" };
  const part = (x: string): string => {
    if (root === "TIME") {
      switch (unit) {
        case "HOUR": return `(+${x}.slice(0,2))`;
        case "MINUTE": return `(+${x}.slice(3,5))`;
        case "SECOND": return `(+${x}.slice(6,8))`;
        default: return `h.timeMillis(${x})`;
      }
    }
    // DATE strings go through the same calendar helpers as timestamps, at midnight UTC
    const d = root === "DATE" ? `h.dateOf(${x})` : x;
    switch (unit) {
      case "YEAR": return `${d}.getUTCFullYear()`;
      case "QUARTER": return `((${d}.getUTCMonth()/3|0)+1)`;
      case "MONTH": return `(${d}.getUTCMonth()+1)`;
      case "DAY": return `${d}.getUTCDate()`;
      case "HOUR": return `${d}.getUTCHours()`;
      case "MINUTE": return `${d}.getUTCMinutes()`;
      case "SECOND": return `${d}.getUTCSeconds()`;
      case "MILLISECOND": return `${d}.getUTCMilliseconds()`;
      case "MICROSECOND": return `(${d}.getUTCMilliseconds()*1000)`;
      case "NANOSECOND": return `(${d}.getUTCMilliseconds()*1000000)`;
      case "WEEK": return `h.isoWeek(${d})`;
      default: return `h.yearUnit(${d}.getUTCFullYear(),${JSON.stringify(unit)})`;
    }
  };
  return { type, src: nullSafe(ctx, [a], ([x]) => part(x!)) };
}

/** `$("ts").floor(TimeIntervalUnit.HOUR)` / `.ceil(...)`: a timestamp of the same type. */
export function compileFloorCeilTime(node: CallNode, args: Compiled[], ctx: CodegenContext): Compiled {
  arity(node, args, 2);
  const a = args[0]!;
  requireArg(node, 0, a, isTimestamp, "a TIMESTAMP or TIMESTAMP_LTZ");
  const unit = unitArg(node);
  const ceil = node.fn === "ceilTime";
  const width = FIXED_WIDTH[unit];
  if (width === undefined && !CALENDAR_UNITS.includes(unit)) {
    throw new ValidationError(`${ceil ? "ceil" : "floor"} to ${unit} is not supported in ${nodeToString(node)}; supported: ${[...Object.keys(FIXED_WIDTH), ...CALENDAR_UNITS].join(", ")}`);
  }
  if (isNullType(a.type)) return a;
  const fn = ceil ? "ceilTs" : "floorTs";
  const src = width !== undefined
    ? nullSafe(ctx, [a], ([x]) => (width === 1 ? x! : `h.${fn}Fixed(${x},${width})`))
    : nullSafe(ctx, [a], ([x]) => `h.${fn}Calendar(${x},${JSON.stringify(unit)})`);
  return { type: a.type, src };
}

const INTERVAL_FACTORS: Record<string, [number, boolean]> = {
  intervalYears: [12, true], intervalQuarters: [3, true], intervalMonths: [1, true],
  intervalWeeks: [604800000, false], intervalDays: [86400000, false], intervalHours: [3600000, false],
  intervalMinutes: [60000, false], intervalSeconds: [1000, false], intervalMillis: [1, false],
};

export const INTERVAL_FUNCTIONS = Object.keys(INTERVAL_FACTORS);

/**
 * Interval literals `lit(2).hours()`: milliseconds (day-time) or months (year-month). Fractions are
 * allowed for day-time units (`lit(1.5).hours()` is 90 minutes) and rounded to whole milliseconds.
 */
export function compileIntervalOf(node: CallNode, args: Compiled[], ctx: CodegenContext): Compiled {
  arity(node, args, 1);
  const a = args[0]!;
  const [factor, yearMonth] = INTERVAL_FACTORS[node.fn]!;
  requireArg(node, 0, a, yearMonth ? isInteger : isNumeric, yearMonth ? "a whole number (TINYINT..BIGINT)" : "a NUMERIC value");
  const type = new DataType(yearMonth ? "INTERVAL_YEAR_MONTH" : "INTERVAL_DAY_TIME", a.type.isNullable);
  if (isNullType(a.type)) return { type: type.withNullability(true), src: "null" };
  const w = where(ctx, node);
  const value = (x: string): string => (factor === 1 && isInteger(a.type) ? x : `Math.round(${asNumber(a.type, x)}*${factor})`);
  return { type, src: nullSafe(ctx, [a], ([x]) => `h.i64(${value(x!)},${w})`) };
}

/**
 * TIMESTAMP +/- INTERVAL (and INTERVAL + TIMESTAMP, `intervalFirst`). Month arithmetic clamps to the
 * last day of the month (Jan 31 + 1 month = Feb 28/29), as Flink's DateTimeUtils.addMonths.
 */
export function compileTimestampShift(
  node: CallNode, ts: Compiled, interval: Compiled, subtract: boolean, ctx: CodegenContext, intervalFirst = false,
): Compiled {
  // a shifted processing time is a plain timestamp (Flink materializes the proctime indicator first)
  const shifted = ts.type.timeAttribute === "PROCTIME" ? ts.type.withTimeAttribute(undefined) : ts.type;
  const type = shifted.withNullability(ts.type.isNullable || interval.type.isNullable);
  const w = where(ctx, node);
  const fn = interval.type.root === "INTERVAL_YEAR_MONTH" ? "addMonths" : "addMillis";
  const src = nullSafe(ctx, intervalFirst ? [interval, ts] : [ts, interval], (refs) => {
    const [t, i] = intervalFirst ? [refs[1]!, refs[0]!] : [refs[0]!, refs[1]!];
    return `h.${fn}(${t},${subtract ? `-(${i})` : i},${w})`;
  });
  return { type, src };
}

/** INTERVAL +/- INTERVAL (same kind), INTERVAL * / NUMERIC, NUMERIC * INTERVAL. */
export function compileIntervalArith(node: CallNode, a: Compiled, b: Compiled, ctx: CodegenContext): Compiled {
  const fn = node.fn;
  const nullable = a.type.isNullable || b.type.isNullable;
  const w = where(ctx, node);
  if ((fn === "plus" || fn === "minus") && isInterval(a.type) && (a.type.root === b.type.root || isNullType(b.type))) {
    return { type: a.type.withNullability(nullable), src: nullSafe(ctx, [a, b], ([x, y]) => `h.i64(${x}${fn === "plus" ? "+" : "-"}${y},${w})`) };
  }
  if ((fn === "times" || fn === "dividedBy") && isInterval(a.type) && (isNumeric(b.type) || isNullType(b.type))) {
    const op = fn === "times" ? "*" : "/";
    const check = fn === "dividedBy" ? (y: string) => `h.nonZero(${y},${w}),` : () => "";
    return {
      type: a.type.withNullability(nullable),
      src: nullSafe(ctx, [a, b], ([x, y]) => `(${check(y!)}h.i64(Math.trunc(${x}${op}${asNumber(b.type, y!)}),${w}))`),
    };
  }
  if (fn === "times" && isNumeric(a.type) && isInterval(b.type)) {
    return {
      type: b.type.withNullability(nullable),
      src: nullSafe(ctx, [a, b], ([x, y]) => `h.i64(Math.trunc(${asNumber(a.type, x!)}*${y}),${w})`),
    };
  }
  throw new ValidationError(`${displayName(node)} is not defined for ${category(a.type)} (${a.type}) and ${category(b.type)} (${b.type}) in ${nodeToString(node)}`);
}

/** Temporal built-ins (`EXTRACT`, `FLOOR(t TO unit)` and interval literals have SQL syntax of their own). */
/** The type of `PROCTIME()`: Flink's processing-time indicator, `TIMESTAMP_LTZ(3) NOT NULL *PROCTIME*`. */
export const PROCTIME_TYPE = new DataType<Date>("TIMESTAMP_LTZ", false, { precision: 3, timeAttribute: "PROCTIME" });

/**
 * `PROCTIME()`: the processing time, read from the job's clock (`env.setClock`; the context's clock) when
 * the row is evaluated — at the scan for a computed column, so the value travels with the row and every
 * operator after it sees the same time. It is a time attribute (processing-time windows, deduplication,
 * temporal sort, lookup joins); an expression over it, and a sink, see a plain TIMESTAMP_LTZ(3).
 */
function compileProctime(node: CallNode, args: Compiled[], ctx: CodegenContext): Compiled {
  arity(node, args, 0);
  return { type: PROCTIME_TYPE, src: `new Date(${ctx.constant(ctx.clock ?? Date.now)}())` };
}

/**
 * `FROM_UNIXTIME(seconds [, format])`: the seconds since 1970-01-01 UTC as text in the session time zone
 * (UTC), `yyyy-MM-dd HH:mm:ss` unless a Java datetime pattern is given; NULL if an argument is NULL.
 * A literal format is parsed here, so a bad one is a ValidationError before the job runs.
 */
function compileFromUnixtime(node: CallNode, args: Compiled[], ctx: CodegenContext): Compiled {
  if (args.length < 1 || args.length > 2) {
    throw new ValidationError(`${displayName(node)} takes 1 or 2 arguments (seconds [, format]), got ${args.length} in ${nodeToString(node)}`);
  }
  requireArg(node, 0, args[0]!, isInteger, "a whole number of seconds (TINYINT..BIGINT)");
  if (args[1] !== undefined) requireArg(node, 1, args[1], isString, "a STRING format");
  const type = T.STRING(args.some((a) => a.type.isNullable));
  if (args.some((a) => isNullType(a.type))) return { type: type.withNullability(true), src: "null" };
  const w = where(ctx, node);
  const format = args[1] === undefined ? DEFAULT_DATETIME_PATTERN : literalString(node.args[1]);
  if (format !== undefined) {
    const tokens = literalPattern(node, format);
    const t = ctx.constant(tokens);
    return { type, src: nullSafe(ctx, [args[0]!], ([s]) => `h.fromUnixtime(${s},${t},${w})`) };
  }
  return { type, src: nullSafe(ctx, args, ([s, f]) => `h.fromUnixtimeText(${s},${f},${w})`) };
}

/**
 * `UNIX_TIMESTAMP()`: the job clock's time (as `PROCTIME()` reads it, per record) in whole seconds since
 * 1970-01-01 UTC, BIGINT NOT NULL. `UNIX_TIMESTAMP(text [, format])`: the date-time text read by the Java
 * pattern (`yyyy-MM-dd HH:mm:ss` by default; SimpleDateFormat's lenient rules, datetime-pattern.ts) in the
 * session time zone (UTC), in seconds; BIGINT, NULL if an argument is NULL. A literal format is parsed here
 * (a bad one is a ValidationError); a text the pattern does not match fails the job naming it (Flink returns
 * Long.MIN_VALUE, outside tablestream's BIGINT range).
 */
function compileUnixTimestamp(node: CallNode, args: Compiled[], ctx: CodegenContext): Compiled {
  if (args.length > 2) {
    throw new ValidationError(`${displayName(node)} takes 0, 1 or 2 arguments ([text [, format]]), got ${args.length} in ${nodeToString(node)}`);
  }
  if (args.length === 0) return { type: T.BIGINT(false), src: `Math.floor(${ctx.constant(ctx.clock ?? Date.now)}()/1000)` };
  requireArg(node, 0, args[0]!, isString, "a STRING date-time text");
  if (args[1] !== undefined) requireArg(node, 1, args[1], isString, "a STRING format");
  const type = T.BIGINT(args.some((a) => a.type.isNullable));
  if (args.some((a) => isNullType(a.type))) return { type: type.withNullability(true), src: "null" };
  const w = where(ctx, node);
  const format = args[1] === undefined ? DEFAULT_DATETIME_PATTERN : literalString(node.args[1]);
  if (format !== undefined) {
    const tokens = literalPattern(node, format);
    return { type, src: nullSafe(ctx, [args[0]!], ([s]) => `h.unixTimestamp(${s},${ctx.constant(tokens)},${ctx.constant(format)},${w})`) };
  }
  return { type, src: nullSafe(ctx, args, ([s, f]) => `h.unixTimestampText(${s},${f},${w})`) };
}

/** A literal Java date-time pattern parsed at compile time; a bad one is a ValidationError naming the call. */
function literalPattern(node: CallNode, format: string): ReturnType<typeof parseDatetimePattern> {
  try {
    return parseDatetimePattern(format);
  } catch (e) {
    throw new ValidationError(`${(e as Error).message} in ${nodeToString(node)}`);
  }
}

export const TEMPORAL_BUILTINS: readonly BuiltinFunction[] = [
  builtin("proctime", compileProctime, ["PROCTIME", 0]),
  builtin("fromUnixtime", compileFromUnixtime, ["FROM_UNIXTIME", 1, 2]),
  builtin("unixTimestamp", compileUnixTimestamp, ["UNIX_TIMESTAMP", 0, 2]),
  builtin("extract", compileExtract),
  builtin("floorTime", compileFloorCeilTime),
  builtin("ceilTime", compileFloorCeilTime),
  ...INTERVAL_FUNCTIONS.map((name) => builtin(name, compileIntervalOf)),
];
