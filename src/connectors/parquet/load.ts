import { ExecutionError } from "../../types/errors.js";

/**
 * hyparquet and hyparquet-writer are ESM-only optional peer dependencies: loaded with a dynamic import
 * inside the async open, so the CommonJS build of tablestream (and bundles without them) work.
 */
type Hyparquet = typeof import("hyparquet");
type HyparquetWriter = typeof import("hyparquet-writer");

let reader: Promise<Hyparquet> | undefined;
let writer: Promise<HyparquetWriter> | undefined;

function missing(pkg: string, where: string, e: unknown): ExecutionError {
  return new ExecutionError(`${where}: Parquet files need the package '${pkg}' (npm install ${pkg}): ${(e as Error).message}`, { cause: e });
}

export function loadHyparquet(where: string): Promise<Hyparquet> {
  return (reader ??= import("hyparquet").catch((e: unknown) => { reader = undefined; throw missing("hyparquet", where, e); }));
}

export function loadHyparquetWriter(where: string): Promise<HyparquetWriter> {
  return (writer ??= import("hyparquet-writer").catch((e: unknown) => { writer = undefined; throw missing("hyparquet-writer", where, e); }));
}
