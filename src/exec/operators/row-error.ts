import { ExecutionError, TableError } from "../../types/errors.js";
import { KIND_SHORT } from "../../types/row.js";
import { toJavaString } from "../../types/format.js";
import type { ResolvedSchema } from "../../types/resolved-schema.js";
import { describeThrown, thrownIs } from "../../types/describe-thrown.js";

/**
 * The error an operator rethrows when a generated expression fails on a record (division by zero,
 * overflow, a bad CAST, a failing UDF): the original message with the record in Flink's notation
 * appended, e.g. "Division by zero in `dividedBy(score, 0)` (row +I[Bob, 12])". TableErrors keep their
 * class; anything else becomes an ExecutionError naming the input columns.
 *
 * Operators call this from a `catch` around the generated call only (never around the emission of
 * output, so an error raised downstream is not annotated twice). The try block costs nothing while
 * nothing throws, and the row is rendered only on the error path.
 */
export function errorWithRow(e: unknown, kind: number, row: readonly unknown[], schema: ResolvedSchema): Error {
  const types = schema.types;
  const shown = `${KIND_SHORT[kind]}[${row.map((v, i) => toJavaString(types[i]!, v)).join(", ")}]`;
  if (thrownIs(e, TableError)) {
    const Ctor = e.constructor as new (message: string, options?: { cause?: unknown }) => TableError;
    return new Ctor(`${e.message} (row ${shown})`, { cause: e });
  }
  const message = describeThrown(e, true);
  return new ExecutionError(`expression evaluation failed over the columns [${schema.names.join(", ")}]: ${message} (row ${shown})`, { cause: e });
}
