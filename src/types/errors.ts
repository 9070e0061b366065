/**
 * Every error tablestream raises is a TableError. Messages name the column, argument or position
 * involved and say what was expected, so that a failing pipeline can be fixed from the message alone.
 */
export class TableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** A program that cannot be planned: unknown columns, wrong types, invalid calls. Raised at the API call. */
export class ValidationError extends TableError {}

/** A failure while a job runs: a value that does not fit its type, division by zero, a user function that threw. */
export class ExecutionError extends TableError {}

/** Raised by user code paths Flink reports as TableRuntimeException (e.g. invalid PTF output). */
export class TableRuntimeException extends ExecutionError {}

/** SQL text (a type string, a computed column, a watermark, a statement) that cannot be parsed; the message gives line and column. */
export class SqlParseError extends ValidationError {}
