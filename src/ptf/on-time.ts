import { ValidationError } from "../types/errors.js";
import { DataType } from "../types/data-type.js";
import type { Column } from "../types/resolved-schema.js";
import type { BoundValue } from "./call-arguments.js";
import type { ResolvedTableArg } from "./resolved-call.js";
import { ArgumentTrait } from "./traits.js";

/** What the `on_time` argument resolves to: the time column of each table argument and the output column. */
export interface OnTimeResolution {
  /** Per table argument (in order): position of its `on_time` column, or -1. */
  readonly timeColumns: readonly number[];
  /** The `rowtime` output column (PTF rule 3), or undefined without `on_time`. */
  readonly rowtime: Column | undefined;
}

const REQUIRE_MESSAGE = (arg: string) =>
  `Table argument '${arg}' requires a time attribute. Please provide one using the implicit \`on_time\` argument. For example: myFunction(..., on_time => DESCRIPTOR(\`my_timestamp\`)`;

/**
 * Flink's on_time rules (SystemTypeInference): the descriptor names at most one column per table
 * argument; every name must be found in some table; the column must be TIMESTAMP or TIMESTAMP_LTZ with
 * precision ≤ 3; REQUIRE_ON_TIME tables must get one; with several tables all or none. tablestream also
 * requires the column to be a time attribute (a watermark is declared for it), since timers fire on
 * watermarks. The output's `rowtime` is a NOT NULL rowtime attribute of the column's type.
 */
export function resolveOnTime(
  functionName: string, declaredArgCount: number, tables: readonly ResolvedTableArg[], onTime: BoundValue, describeType: () => string,
): OnTimeResolution {
  if (onTime.kind === "table") throw new ValidationError(`Invalid function call to '${functionName}': the \`on_time\` argument takes descriptor("column"), not a table`);
  let names: readonly string[] = [];
  if (onTime.kind === "scalar") {
    if (onTime.node.kind !== "Descriptor") {
      throw new ValidationError(
        `Invalid function call to '${functionName}': Invalid argument type at position ${declaredArgCount}. Data type DESCRIPTOR expected but ${describeType()} passed (argument 'on_time').`,
      );
    }
    names = onTime.node.names;
  }
  const used = new Set<string>();
  const timeColumns: number[] = [];
  const missing: string[] = [];
  const columns: Column[] = [];
  for (const t of tables) {
    let found = -1;
    t.schema.columns.forEach((c, i) => {
      if (!names.includes(c.name)) return;
      if (found >= 0) {
        throw new ValidationError(
          `Ambiguous time attribute found. The \`on_time\` argument must reference at most one column in a table argument. Currently, the columns in \`on_time\` point to both '${t.schema.columns[found]!.name}' and '${c.name}' in table argument '${t.name}'.`,
        );
      }
      found = i;
      const type = c.type;
      if ((type.root !== "TIMESTAMP" && type.root !== "TIMESTAMP_LTZ") || (type.precision ?? 6) > 3) {
        throw new ValidationError(
          `Unsupported data type for time attribute. The \`on_time\` argument must reference a TIMESTAMP or TIMESTAMP_LTZ column (up to precision 3). However, column '${c.name}' in table argument '${t.name}' has data type '${type.withTimeAttribute(undefined)}'.`,
        );
      }
      if (type.timeAttribute !== "ROWTIME") {
        throw new ValidationError(
          `Invalid time attribute declaration. Column '${c.name}' in table argument '${t.name}' of function '${functionName}' is not a time attribute: `
          + "the `on_time` column needs a watermark declaration (Schema.newBuilder()...watermark(\"" + c.name + "\", ...)), since timers fire on watermarks.",
        );
      }
    });
    if (found >= 0) {
      used.add(t.schema.columns[found]!.name);
      columns.push(t.schema.columns[found]!);
    } else if (t.decl.has(ArgumentTrait.REQUIRE_ON_TIME)) {
      throw new ValidationError(REQUIRE_MESSAGE(t.name));
    } else {
      missing.push(t.name);
    }
    timeColumns.push(found);
  }
  if (columns.length > 0 && missing.length > 0) {
    throw new ValidationError(
      `Invalid time attribute declaration. If multiple tables are declared, the \`on_time\` argument must reference a time column for each table argument or none. Missing time attributes for: [${missing.join(", ")}]`,
    );
  }
  const unknown = names.filter((n) => !used.has(n));
  if (unknown.length > 0) {
    throw new ValidationError(
      `Invalid time attribute declaration. Each column in the \`on_time\` argument must reference at least one column in one of the table arguments. Unknown references: [${unknown.join(", ")}]`,
    );
  }
  if (columns.length === 0) return { timeColumns, rowtime: undefined };
  const roots = [...new Set(columns.map((c) => c.type.root))];
  if (roots.length > 1) {
    throw new ValidationError(`Invalid time attribute declaration. All columns in the \`on_time\` argument must reference the same data type kind. But found: [${roots.join(", ")}]`);
  }
  const precision = Math.max(...columns.map((c) => c.type.precision ?? 3));
  return { timeColumns, rowtime: { name: "rowtime", type: new DataType(roots[0]!, false, { precision, timeAttribute: "ROWTIME" }) } };
}
