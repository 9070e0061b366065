import * as arrow from "apache-arrow";
import { ValidationError } from "../../types/errors.js";
import type { DataType } from "../../types/data-type.js";
import { DataTypes } from "../../types/data-types.js";

/**
 * The one type mapping between tablestream and Arrow, both ways (docs/connectors.md lists it).
 * Nested types (ARRAY, MAP, ROW), intervals and binary are not mapped yet: an error names the column.
 */
export function toArrowType(t: DataType, column: string): arrow.DataType {
  switch (t.root) {
    case "BOOLEAN": return new arrow.Bool();
    case "TINYINT": return new arrow.Int8();
    case "SMALLINT": return new arrow.Int16();
    case "INT": return new arrow.Int32();
    case "BIGINT": return new arrow.Int64();
    case "FLOAT": return new arrow.Float32();
    case "DOUBLE": return new arrow.Float64();
    case "CHAR":
    case "VARCHAR": return new arrow.Utf8();
    case "DECIMAL": return new arrow.Decimal(t.scale!, t.precision!, 128);
    case "DATE": return new arrow.DateDay();
    case "TIME": return new arrow.TimeMillisecond();
    case "TIMESTAMP": return new arrow.TimestampMillisecond(null);
    case "TIMESTAMP_LTZ": return new arrow.TimestampMillisecond("UTC");
    default:
      throw new ValidationError(`toArrow: column '${column}' has type ${t}, which has no Arrow mapping yet (supported: BOOLEAN, TINYINT..BIGINT, FLOAT, DOUBLE, CHAR/VARCHAR, DECIMAL, DATE, TIME, TIMESTAMP, TIMESTAMP_LTZ)`);
  }
}

export function fromArrowType(f: arrow.Field, where: string): DataType {
  const t = f.type as arrow.DataType;
  const base = ((): DataType => {
    switch (t.typeId) {
      case arrow.Type.Bool: return DataTypes.BOOLEAN();
      case arrow.Type.Int: {
        const i = t as arrow.Int;
        if (i.isSigned) return i.bitWidth === 8 ? DataTypes.TINYINT() : i.bitWidth === 16 ? DataTypes.SMALLINT() : i.bitWidth === 32 ? DataTypes.INT() : DataTypes.BIGINT();
        return i.bitWidth === 8 ? DataTypes.SMALLINT() : i.bitWidth === 16 ? DataTypes.INT() : DataTypes.BIGINT();
      }
      case arrow.Type.Float: return (t as arrow.Float).precision === arrow.Precision.DOUBLE ? DataTypes.DOUBLE() : DataTypes.FLOAT();
      case arrow.Type.Utf8:
      case arrow.Type.LargeUtf8: return DataTypes.STRING();
      case arrow.Type.Decimal: {
        const d = t as arrow.Decimal;
        if (d.precision > 38 || d.bitWidth > 128) throw new ValidationError(`${where}: DECIMAL(${d.precision}, ${d.scale}) is wider than DECIMAL(38)`);
        return DataTypes.DECIMAL(d.precision, d.scale);
      }
      case arrow.Type.Date: return DataTypes.DATE();
      case arrow.Type.Time: return DataTypes.TIME((t as arrow.Time).unit === arrow.TimeUnit.SECOND ? 0 : 3);
      case arrow.Type.Timestamp: {
        const ts = t as arrow.Timestamp;
        const p = ts.unit === arrow.TimeUnit.SECOND ? 0 : 3;
        return ts.timezone ? DataTypes.TIMESTAMP_LTZ(p) : DataTypes.TIMESTAMP(p);
      }
      case arrow.Type.Dictionary: {
        const v = (t as arrow.Dictionary).dictionary;
        if (v.typeId === arrow.Type.Utf8 || v.typeId === arrow.Type.LargeUtf8) return DataTypes.STRING();
        break;
      }
    }
    throw new ValidationError(`${where}: Arrow type ${t} has no tablestream mapping yet`);
  })();
  return f.nullable ? base : base.notNull();
}
