import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * The one funnel every generated function goes through (expressions, Calc, edges, PTF state and rows,
 * UDF adapters, row converters). It
 * - names each source `//# sourceURL=tablestream/<operator>/<name>.js`, so profilers and stack traces
 *   show what a frame is;
 * - dumps every source to a directory when the environment variable `TABLESTREAM_DUMP_CODEGEN=<dir>` is
 *   set (one file per distinct source, named like its sourceURL) — for debugging generated code;
 * - compiles each distinct source text once per process: a factory (`new Function(params, body)`) is
 *   cached by its text, so identical plans reuse the same compiled code in every job, and V8's warm code
 *   is found again. This needs generated text to depend only on the plan: names inside a job come from a
 *   per-job `CodegenNames` (never a process-global counter).
 *
 * Contract between fragments: every factory receives its run-time values as named parameters (`params`)
 * and returns the generated function; nothing generated reads globals.
 */
const factories = new Map<string, (...args: unknown[]) => unknown>();

function dumpDir(): string | undefined {
  const d = typeof process !== "undefined" ? process.env?.TABLESTREAM_DUMP_CODEGEN : undefined;
  return d === undefined || d === "" ? undefined : d;
}

/**
 * Compiles `body` (a function body ending in `return ...`) with `params` and calls it with `args`.
 * `site` names the operator or component (`calc`, `edge`, `ptf-state` ...), `name` the function within it.
 */
export function generate<T>(site: string, name: string, params: readonly string[], body: string, args: readonly unknown[]): T {
  const url = `tablestream/${site}/${name}.js`;
  const text = `${body}\n//# sourceURL=${url}`;
  const key = `${params.join(",")}\n${text}`;
  let factory = factories.get(key);
  if (factory === undefined) {
    // eslint-disable-next-line @typescript-eslint/no-implied-eval
    factory = new Function(...params, text) as (...args: unknown[]) => unknown;
    factories.set(key, factory);
    const dir = dumpDir();
    if (dir !== undefined) {
      const file = join(dir, `${site}--${name}.js`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(file, `// (${params.join(", ")})\n${text}\n`);
    }
  }
  return factory(...args) as T;
}

/** Number of distinct generated sources compiled in this process (tests and the bench read it). */
export function generatedSourceCount(): number {
  return factories.size;
}

/**
 * Names of generated functions within one job: `edge0`, `edge1`, `calc0` ... counted per job, so that
 * two jobs built from the same plan generate the same texts (and share their compiled code), while two
 * edges of one job still get functions of their own (their own type feedback).
 */
export class CodegenNames {
  private readonly counts = new Map<string, number>();

  next(prefix: string): string {
    const n = this.counts.get(prefix) ?? 0;
    this.counts.set(prefix, n + 1);
    return `${prefix}${n}`;
  }
}

let current: CodegenNames | undefined;

/** Runs `build` (a job graph being built) with a fresh naming scope; generated names restart for each job. */
export function withCodegenNames<T>(build: () => T): T {
  const outer = current;
  current = new CodegenNames();
  try {
    return build();
  } finally {
    current = outer;
  }
}

/** The next name for `prefix` in the job being built (outside a job: a process-wide fallback scope). */
export function nextGeneratedName(prefix: string): string {
  return (current ??= new CodegenNames()).next(prefix);
}

/** A name for a function by its shape: a short hash of its text (the same text, the same name). */
export function shapeName(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return `fn-${(h >>> 0).toString(36)}`;
}

/**
 * `new Function(...params, body)` through the funnel, for sites that call the factory themselves:
 * named by its shape, cached by its text, dumped with the others.
 */
export function codegenFunction(site: string, ...paramsAndBody: string[]): (...args: unknown[]) => unknown {
  const body = paramsAndBody[paramsAndBody.length - 1]!;
  const params = paramsAndBody.slice(0, -1);
  return (...args: unknown[]) => generate(site, shapeName(body), params, body, args);
}
