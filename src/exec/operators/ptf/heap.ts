/**
 * Binary min-heap steps over a plain array, ordered by `less`: used by the sort buffers of ORDER BY
 * tables (sort-buffer.ts), which order by secondary columns and pass the order in. windows/time-queue.ts
 * keeps its own (time, seq) heap in parallel arrays; the timer service (timers.ts) keeps an indexed heap
 * (entries know their position, so a re-registered timer moves in place).
 */
export type Less<T> = (a: T, b: T) => boolean;

/** Appends `x` and moves it up to its place. */
export function heapPush<T>(h: T[], x: T, less: Less<T>): void {
  h.push(x);
  let i = h.length - 1;
  while (i > 0) {
    const p = (i - 1) >> 1;
    if (!less(h[i]!, h[p]!)) break;
    [h[i], h[p]] = [h[p]!, h[i]!];
    i = p;
  }
}

/** Removes the first element (the heap must not be empty) and returns it. */
export function heapPop<T>(h: T[], less: Less<T>): T {
  const top = h[0]!;
  const last = h.pop()!;
  if (h.length > 0) {
    h[0] = last;
    heapDown(h, 0, less);
  }
  return top;
}

/** Moves the element at `i` down to its place. */
export function heapDown<T>(h: T[], i: number, less: Less<T>): void {
  const n = h.length;
  for (;;) {
    const l = 2 * i + 1;
    const r = l + 1;
    let m = i;
    if (l < n && less(h[l]!, h[m]!)) m = l;
    if (r < n && less(h[r]!, h[m]!)) m = r;
    if (m === i) return;
    [h[i], h[m]] = [h[m]!, h[i]!];
    i = m;
  }
}
