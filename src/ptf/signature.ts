import type { DataType } from "../types/data-type.js";
import type { ResolvedSchema } from "../types/resolved-schema.js";

/**
 * Renders a call's argument types the way Flink's SQL validator (Calcite) reports a call that matches
 * no signature: `f(<RecordType(CHAR(3) name, BOOLEAN isValid)>, <NUMERIC>, <COLUMN_LIST>, <CHARACTER>)`.
 * Tables show their row type, scalars their type family.
 */
export type SignatureArg =
  | { readonly kind: "table"; readonly schema: ResolvedSchema }
  | { readonly kind: "scalar"; readonly type: DataType };

export function noMatchMessage(functionName: string, args: readonly SignatureArg[]): string {
  return `No match found for function signature ${functionName}(${args.map(renderArg).join(", ")})`;
}

function renderArg(a: SignatureArg): string {
  if (a.kind === "table") {
    return `<RecordType(${a.schema.columns.map((c) => `${calciteType(c.type)} ${c.name}`).join(", ")})>`;
  }
  return `<${family(a.type)}>`;
}

/** Calcite's SQL type name of a data type, without nullability. */
export function calciteType(t: DataType): string {
  switch (t.root) {
    case "CHAR": return `CHAR(${t.length})`;
    case "VARCHAR": return `VARCHAR(${t.length})`;
    case "INT": return "INTEGER";
    case "DECIMAL": return `DECIMAL(${t.precision}, ${t.scale})`;
    case "TIME": return `TIME(${t.precision})`;
    case "TIMESTAMP": return `TIMESTAMP(${t.precision})`;
    case "TIMESTAMP_LTZ": return `TIMESTAMP_WITH_LOCAL_TIME_ZONE(${t.precision})`;
    case "ARRAY": return `${calciteType(t.elementType!)} ARRAY`;
    case "MAP": return `(${calciteType(t.keyType!)}, ${calciteType(t.valueType!)}) MAP`;
    case "ROW": return `RecordType(${t.fields.map((f) => `${calciteType(f.type)} ${f.name}`).join(", ")})`;
    case "INTERVAL_DAY_TIME": return "INTERVAL DAY TO SECOND";
    case "INTERVAL_YEAR_MONTH": return "INTERVAL YEAR TO MONTH";
    default: return t.root;
  }
}

/** Calcite's type family (SqlTypeFamily) of a scalar type. */
function family(t: DataType): string {
  switch (t.root) {
    case "CHAR": case "VARCHAR": return "CHARACTER";
    case "TINYINT": case "SMALLINT": case "INT": case "BIGINT": case "DECIMAL": case "FLOAT": case "DOUBLE": return "NUMERIC";
    case "DESCRIPTOR": return "COLUMN_LIST";
    case "TIMESTAMP_LTZ": return "TIMESTAMP_WITH_LOCAL_TIME_ZONE";
    case "ROW": return "ROW";
    default: return t.root;
  }
}
