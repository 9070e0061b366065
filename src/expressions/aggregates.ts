import { ValidationError } from "../types/errors.js";
import { DataType } from "../types/data-type.js";

/**
 * Built-in aggregate functions: their result types (Flink's rules). The accumulators that compute
 * them live in exec/aggregates.
 */
export const BUILTIN_AGGREGATES = ["COUNT", "SUM", "SUM0", "AVG", "MIN", "MAX", "COLLECT"] as const;

const NUMERIC = ["TINYINT", "SMALLINT", "INT", "BIGINT", "DECIMAL", "FLOAT", "DOUBLE"];

export function aggregateResultType(fn: string, argTypes: readonly DataType[], where: string): DataType {
  const arg = argTypes[0];
  const needNumeric = () => {
    if (!arg || (!NUMERIC.includes(arg.root) && arg.root !== "NULL")) {
      throw new ValidationError(`${fn} needs a NUMERIC argument, got ${arg ?? "nothing"} in ${where}`);
    }
    return arg;
  };
  switch (fn) {
    case "COUNT":
      return new DataType("BIGINT", false);
    case "SUM":
    case "SUM0": {
      const t = needNumeric();
      const nullable = fn === "SUM";
      if (t.root === "DECIMAL") return new DataType("DECIMAL", nullable, { precision: 38, scale: t.scale });
      return t.withNullability(nullable);
    }
    case "AVG": {
      const t = needNumeric();
      if (t.root === "DECIMAL") return new DataType("DECIMAL", true, { precision: 38, scale: Math.max(6, t.scale!) });
      return t.withNullability(true);
    }
    case "MIN":
    case "MAX":
      if (!arg) throw new ValidationError(`${fn} needs an argument in ${where}`);
      if (["ARRAY", "MAP", "ROW"].includes(arg.root)) throw new ValidationError(`${fn} cannot compare values of type ${arg} in ${where}`);
      return arg.withNullability(true);
    case "COLLECT":
      // Flink: MULTISET<T> NOT NULL of the argument's type; NULL values are not collected
      if (!arg) throw new ValidationError(`${fn} needs an argument in ${where}`);
      return new DataType("MULTISET", false, { element: arg });
    default:
      throw new ValidationError(`unknown aggregate function '${fn}' in ${where}`);
  }
}
