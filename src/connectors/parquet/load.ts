import { ExecutionError } from "../../types/errors.js";

/**
 * hyparquet and hyparquet-writer are ESM-only optional peer dependencies: loaded with a dynamic import
 * inside the async open, so the CommonJS build of tablestream (and bundles without them) work.
 */
type Hyparquet = typeof import("hyparquet");
type HyparquetWriter = typeof import("hyparquet-writer");

/**
 * A real `import()` in both builds: the CommonJS build's transform turns a literal `import("x")` into
 * `require("x")`, which an ESM-only package fails before Node 20.19. Resolved like a bare import from the
 * process (the package must be installed where the application runs).
 */
const importEsm = new Function("specifier", "return import(specifier)") as <T>(specifier: string) => Promise<T>;

/** The literal import first (ESM build, test runners); in CommonJS, where it is a require, the real import when require refuses ESM. */
const orEsm = <T>(specifier: string) => (e: unknown): Promise<T> =>
  ((e as { code?: string })?.code === "ERR_REQUIRE_ESM" ? importEsm<T>(specifier) : Promise.reject(e));

let reader: Promise<Hyparquet> | undefined;
let writer: Promise<HyparquetWriter> | undefined;

function missing(pkg: string, where: string, e: unknown): ExecutionError {
  return new ExecutionError(`${where}: Parquet files need the package '${pkg}' (npm install ${pkg}): ${(e as Error).message}`, { cause: e });
}

export function loadHyparquet(where: string): Promise<Hyparquet> {
  return (reader ??= import("hyparquet").catch(orEsm<Hyparquet>("hyparquet")).catch((e: unknown) => { reader = undefined; throw missing("hyparquet", where, e); }));
}

export function loadHyparquetWriter(where: string): Promise<HyparquetWriter> {
  return (writer ??= import("hyparquet-writer").catch(orEsm<HyparquetWriter>("hyparquet-writer")).catch((e: unknown) => { writer = undefined; throw missing("hyparquet-writer", where, e); }));
}
