import { SqlParseError } from "./errors.js";

/**
 * A SqlParseError whose message names what was being parsed, the line and column, and shows the text:
 * `cannot parse watermark expression 'ts - INTERVAL 1' at line 1, column 15: expected a string, got '1'`.
 */
export function sqlParseError(message: string, src: string, pos: number, what: string): SqlParseError {
  const before = src.slice(0, pos);
  const line = before.split("\n").length;
  const column = pos - before.lastIndexOf("\n");
  return new SqlParseError(`cannot parse ${what} '${src}' at line ${line}, column ${column}: ${message}`);
}
