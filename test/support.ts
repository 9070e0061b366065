import type { TableResult } from "../src/index.js";

/** Everything `print()` writes, as one string. */
export async function printed(result: TableResult<object>): Promise<string> {
  const lines: string[] = [];
  await result.print((l) => lines.push(l));
  return lines.join("\n");
}

/** The changelog of a result in Flink's notation (`+I[Alice, 35]`). */
export function changelog(result: TableResult<object>): Promise<string[]> {
  return result.toChangelog();
}
