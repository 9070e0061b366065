/**
 * The known name closest to `name` (edit distance, case-insensitive), for "did you mean" hints of an
 * unknown table, column or function; undefined when nothing is close (more than a third of the letters differ).
 */
export function closestName(name: string, known: readonly string[]): string | undefined {
  const target = name.toLowerCase();
  let best: string | undefined;
  let bestDistance = Math.min(name.length, Math.max(1, Math.floor(name.length / 3)) + 1);
  for (const k of known) {
    const d = distance(target, k.toLowerCase());
    if (d < bestDistance) { best = k; bestDistance = d; }
  }
  return best;
}

/** `; did you mean 'x'?` or nothing. */
export function didYouMean(name: string, known: readonly string[]): string {
  const c = closestName(name, known);
  return c === undefined ? "" : `; did you mean '${c}'?`;
}

function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length]!;
}
