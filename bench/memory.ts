/** Memory probes shared by the harness and the workloads that measure state size (needs --expose-gc). */

/** JS heap plus memory outside it (typed-array backing stores live there). */
export function usedMemory(): number {
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
}

/** usedMemory() after two full garbage collections. */
export function usedBytesAfterGc(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error("memory probes need node --expose-gc (npm run bench passes it)");
  gc();
  gc();
  return usedMemory();
}

let kept: unknown;
/** Keeps a value reachable up to this call (so the GC cannot drop state before it is measured). */
export function keep(v: unknown): void {
  kept = v;
  kept = undefined;
}
