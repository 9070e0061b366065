import { EnvironmentSettings, type Expression, type ResolvedSchema, TableEnvironment, type TableResult } from "../../src/index.js";

/**
 * An expression the compiler does not check, for tests of the run-time checks behind the type-level
 * ones (and of combinations the type level does not model).
 */
export const unchecked = (e: Expression<unknown>): Expression<never> => e as Expression<never>;

/** Any table, whatever its schema and changelog kind. */
interface AnyTable {
  execute(): TableResult<object>;
  getResolvedSchema(): ResolvedSchema;
}

/** A streaming environment per test. */
export const env = (): TableEnvironment => TableEnvironment.create(EnvironmentSettings.inStreamingMode());

/** The changelog of a table in Flink's notation (`+I[Bob, 12]`), values rendered as Java's toString. */
export function changelog(t: AnyTable): Promise<string[]> {
  return t.execute().toChangelog();
}

/** The column types of a table as Flink prints them (`INT NOT NULL`, `DECIMAL(11, 4)`). */
export function types(t: AnyTable): string[] {
  return t.getResolvedSchema().types.map(String);
}

/** The rows of a bounded table as arrays of JS values. */
export async function values(t: AnyTable): Promise<unknown[][]> {
  const rows = await t.execute().toArray();
  return rows.map((r) => Object.values(r));
}

/** The error a job fails with (the promise must reject). */
export async function jobError(t: AnyTable): Promise<Error> {
  try {
    await t.execute().toArray();
  } catch (e) {
    return e as Error;
  }
  throw new Error("expected the job to fail");
}

/** The error a synchronous call throws. */
export function thrown(f: () => unknown): Error {
  try {
    f();
  } catch (e) {
    return e as Error;
  }
  throw new Error("expected an error");
}
