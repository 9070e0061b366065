import { setOwn } from "../types/own.js";
import fc from "fast-check";
import { Decimal } from "decimal.js";
import { DataType } from "../types/data-type.js";

/**
 * fast-check arbitraries that produce valid values of Flink data types, for property tests of
 * pipelines: `fc.assert(fc.property(arbitraryRows(rowType), (rows) => ...))`.
 */
export function arbitraryValue(type: DataType): fc.Arbitrary<unknown> {
  const base = arbitraryNonNull(type);
  return type.isNullable ? fc.option(base, { nil: null, freq: 5 }) : base;
}

function arbitraryNonNull(type: DataType): fc.Arbitrary<unknown> {
  switch (type.root) {
    case "CHAR":
    case "VARCHAR":
      return fc.string({ maxLength: Math.min(type.length ?? 20, 20) });
    case "BOOLEAN": return fc.boolean();
    case "TINYINT": return fc.integer({ min: -128, max: 127 });
    case "SMALLINT": return fc.integer({ min: -32768, max: 32767 });
    case "INT": return fc.integer({ min: -2147483648, max: 2147483647 });
    case "BIGINT": return fc.maxSafeInteger();
    case "FLOAT":
    case "DOUBLE": return fc.double({ noNaN: true, noDefaultInfinity: true });
    case "DECIMAL": {
      const p = type.precision!;
      const s = type.scale!;
      const max = 10n ** BigInt(Math.min(p, 15)) - 1n;
      return fc.bigInt({ min: -max, max }).map((n) => new Decimal(n.toString()).div(new Decimal(10).pow(s)).toDecimalPlaces(s));
    }
    case "DATE": return fc.date({ min: new Date("1970-01-01"), max: new Date("2100-12-31"), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
    case "TIME": return fc.integer({ min: 0, max: 86399 }).map((s) => new Date(s * 1000).toISOString().slice(11, 19));
    case "TIMESTAMP":
    case "TIMESTAMP_LTZ": {
      const unit = 10 ** (3 - Math.min(3, type.precision ?? 3));
      return fc.integer({ min: 0, max: 4102444800 }).chain((sec) => fc.integer({ min: 0, max: 999 }).map((ms) => new Date(sec * 1000 + ms - (ms % unit))));
    }
    case "INTERVAL_DAY_TIME":
    case "INTERVAL_YEAR_MONTH": return fc.integer({ min: -1e9, max: 1e9 });
    case "ARRAY": return fc.array(arbitraryValue(type.elementType!), { maxLength: 5 });
    case "MAP": return fc.array(fc.tuple(arbitraryNonNull(type.keyType!), arbitraryValue(type.valueType!)), { maxLength: 5 }).map((es) => new Map(es));
    case "ROW": return arbitraryRecord(type as DataType<object | null>);
    case "NULL": return fc.constant(null);
    default: return fc.constant(null);
  }
}

/** Plain objects of a ROW type (one property per field), typed as the ROW type's values. */
export function arbitraryRecord<T extends object>(rowType: DataType<T | null>): fc.Arbitrary<T> {
  const shape: Record<string, fc.Arbitrary<unknown>> = {};
  for (const f of rowType.fields) setOwn(shape, f.name, arbitraryValue(f.type));
  return fc.record(shape) as unknown as fc.Arbitrary<T>;
}

/** Lists of rows of a ROW type, ready for `env.fromValues(rowType, rows)`. */
export function arbitraryRows<T extends object>(rowType: DataType<T | null>, options: { minLength?: number; maxLength?: number } = {}): fc.Arbitrary<T[]> {
  return fc.array(arbitraryRecord(rowType), { minLength: options.minLength ?? 0, maxLength: options.maxLength ?? 50 });
}
