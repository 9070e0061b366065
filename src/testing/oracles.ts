import fc from "fast-check";
import { EnvironmentSettings, TableEnvironment } from "../table/table-environment.js";
import type { ChangelogKind, Table } from "../table/table.js";
import type { RowKind } from "../types/row.js";
import type { ResolvedSchema } from "../types/resolved-schema.js";
import { captureChangelog, formatTable, diffTables } from "./table-literal.js";
import { arbitraryArrivalOrder } from "./generators.js";

/**
 * Oracles: checks a user calls in one line, each throwing an Error that shows the tables involved (as
 * table literals, with a diff) when the check fails. Inside a fast-check property they make a failing
 * property report its shrunk counterexample readably; `checkTableProperty` formats the counterexample
 * input as a table too.
 */

const capture = (table: Table<object, ChangelogKind>) => captureChangelog(table);

/** The violations of a changelog: retractions of rows that are not there, `-U` not followed by `+U`. */
export function changelogViolations(rows: readonly { kind: RowKind; cells: readonly (string | null)[] }[]): string[] {
  const live = new Map<string, number>();
  const problems: string[] = [];
  rows.forEach((r, i) => {
    const key = JSON.stringify(r.cells);
    if (r.kind === "+I" || r.kind === "+U") {
      live.set(key, (live.get(key) ?? 0) + 1);
      return;
    }
    const n = live.get(key) ?? 0;
    if (n === 0) problems.push(`row ${i + 1}: ${r.kind} retracts [${r.cells.join(", ")}], which is not in the table`);
    else if (n === 1) live.delete(key);
    else live.set(key, n - 1);
    if (r.kind === "-U" && rows[i + 1]?.kind !== "+U") problems.push(`row ${i + 1}: -U is not followed by its +U`);
  });
  return problems;
}

/** The table a changelog describes: a multiset of rows, sorted for comparison. */
function materialized(rows: readonly { kind: RowKind; cells: readonly (string | null)[] }[]): (string | null)[][] {
  const live = new Map<string, { cells: readonly (string | null)[]; n: number }>();
  for (const r of rows) {
    const key = JSON.stringify(r.cells);
    const e = live.get(key);
    if (r.kind === "+I" || r.kind === "+U") live.set(key, { cells: r.cells, n: (e?.n ?? 0) + 1 });
    else if (e) { if (e.n === 1) live.delete(key); else e.n--; }
  }
  const out: (string | null)[][] = [];
  for (const { cells, n } of live.values()) for (let i = 0; i < n; i++) out.push([...cells]);
  return out.sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
}

const asTable = (schema: ResolvedSchema, rows: readonly (readonly (string | null)[])[]) =>
  formatTable(schema.names, rows.map((cells) => ({ cells })), false);

/** Throws unless the table's changelog is well formed (every retraction retracts a row that was emitted). */
export async function checkWellFormed(table: Table<object, ChangelogKind>): Promise<void> {
  const c = await capture(table);
  const problems = changelogViolations(c.rows);
  if (problems.length > 0) {
    throw new Error(`the changelog is not well formed:\n${problems.join("\n")}\n\n${formatTable(c.schema.names, c.rows)}`);
  }
}

/**
 * Builds the same program in a streaming and a batch environment and throws unless the streaming changelog,
 * materialized, equals the batch result (as multisets). The program gets the environment to read its
 * inputs from: `checkStreamingEqualsBatch((env) => env.fromValues(...).groupBy(...).select(...))`.
 */
export async function checkStreamingEqualsBatch(program: (env: TableEnvironment) => Table<object, ChangelogKind>): Promise<void> {
  const streaming = await capture(program(TableEnvironment.create(EnvironmentSettings.inStreamingMode())));
  const batch = await capture(program(TableEnvironment.create(EnvironmentSettings.inBatchMode())));
  const problems = changelogViolations(streaming.rows);
  if (problems.length > 0) throw new Error(`the streaming changelog is not well formed:\n${problems.join("\n")}\n\n${formatTable(streaming.schema.names, streaming.rows)}`);
  const wantRows = materialized(batch.rows);
  const gotRows = materialized(streaming.rows);
  if (JSON.stringify(wantRows) !== JSON.stringify(gotRows)) {
    const diff = diffTables(asTable(batch.schema, wantRows), asTable(streaming.schema, gotRows));
    throw new Error(`the materialized streaming result differs from the batch result (- batch, + streaming):\n${diff}\n\nstreaming changelog:\n${formatTable(streaming.schema.names, streaming.rows)}`);
  }
}

export interface ArrivalOrderCheck<T> {
  /** The rows in event-time order (the reference arrival order). */
  readonly rows: readonly T[];
  readonly timeOf: (row: T) => number;
  /** The watermark delay the program declares: rows may overtake each other by less than this. */
  readonly delayMs: number;
  /** Builds the program over rows arriving in the given order. */
  readonly program: (env: TableEnvironment, rows: readonly T[]) => Table<object, ChangelogKind>;
  /** How many arrival orders to try: 50 by default. */
  readonly runs?: number;
  readonly seed?: number;
}

/**
 * Throws unless every arrival order within the watermark delay gives the same final (materialized) result
 * as the rows in event-time order — the property an event-time program must have. The failure shows the
 * smallest arrival order fast-check found and the two results as a diff.
 */
export async function checkArrivalOrderInsensitive<T>(check: ArrivalOrderCheck<T>): Promise<void> {
  const run = async (rows: readonly T[]) => {
    const c = await capture(check.program(TableEnvironment.create(EnvironmentSettings.inStreamingMode()), rows));
    return { schema: c.schema, table: materialized(c.rows) };
  };
  const reference = await run(check.rows);
  const want = asTable(reference.schema, reference.table);
  const same = JSON.stringify(reference.table);
  const outcome = await fc.check(fc.asyncProperty(arbitraryArrivalOrder(check.rows, check.timeOf, check.delayMs), async (order) => {
    const got = await run(order);
    return JSON.stringify(got.table) === same;
  }), { numRuns: check.runs ?? 50, ...(check.seed !== undefined ? { seed: check.seed } : {}) });
  if (!outcome.failed) return;
  const order = outcome.counterexample![0] as T[];
  const got = await run(order);
  throw new ArrivalOrderError(
    `the result depends on the arrival order within the watermark delay (${check.delayMs} ms); arriving as\n`
    + `${order.map((r, i) => `  ${i + 1}. ${describe(r)}`).join("\n")}\n`
    + `gives (- in event-time order, + in this order):\n${diffTables(want, asTable(got.schema, got.table))}`,
    order);
}

/** The failure of `checkArrivalOrderInsensitive`, with the (shrunk) arrival order that shows it. */
export class ArrivalOrderError<T> extends Error {
  constructor(message: string, readonly counterexample: readonly T[]) {
    super(message);
    this.name = "ArrivalOrderError";
  }
}

function describe(row: unknown): string {
  if (row === null || typeof row !== "object") return String(row);
  return Object.entries(row).map(([k, v]) => `${k}=${v instanceof Date ? v.toISOString() : String(v)}`).join(", ");
}
