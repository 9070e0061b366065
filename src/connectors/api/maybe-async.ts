/**
 * Steps that may or may not be asynchronous: a connector hook returns a value or a Promise, and the next step
 * runs at once when it returned a value. So a writer whose hooks are synchronous (in-process sinks) is prepared
 * for a checkpoint and closed within the job's step, with no Promise and no extra step.
 */

/** `f(v)` now when `v` is a value, after it resolves when it is a Promise. */
export function andThen<T, R>(v: T | Promise<T>, f: (value: T) => R | Promise<R>): R | Promise<R> {
  return isPromise<T>(v) ? v.then(f) : f(v);
}

/** Runs `f`; a throw or a rejection becomes `wrap(error)`. */
export function guarded<R>(f: () => R | Promise<R>, wrap: (e: unknown) => unknown): R | Promise<R> {
  let r: R | Promise<R>;
  try { r = f(); } catch (e) { throw wrap(e); }
  return isPromise<R>(r) ? r.then(undefined, (e: unknown) => { throw wrap(e); }) : r;
}

/** Runs `f` ignoring its failure (closing after a failure must not hide the failure). */
export function quietly(f: () => unknown): void | Promise<void> {
  let r: unknown;
  try { r = f(); } catch { return; }
  if (isPromise(r)) return r.then(() => {}, () => {});
}

export function isPromise<T>(v: unknown): v is Promise<T> {
  return v !== null && typeof v === "object" && typeof (v as { then?: unknown }).then === "function";
}
