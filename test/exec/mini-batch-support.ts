import { expect } from "vitest";

/** The multiset of rows a retract changelog in Flink's notation (`+I[a, 1]`) describes, sorted. */
export function materialize(changelog: readonly string[]): string[] {
  const rows = new Map<string, number>();
  for (const line of changelog) {
    const kind = line.slice(0, 2);
    const row = line.slice(2);
    rows.set(row, (rows.get(row) ?? 0) + (kind === "+I" || kind === "+U" ? 1 : -1));
  }
  return [...rows].filter(([, n]) => n !== 0).flatMap(([r, n]) => { expect(n).toBeGreaterThan(0); return Array<string>(n).fill(r); }).sort();
}

/** Every -U is followed by a +U, and every retraction retracts a row that is there. */
export function checkWellFormed(changelog: readonly string[]): void {
  const live = new Map<string, number>();
  changelog.forEach((line, i) => {
    const kind = line.slice(0, 2);
    const row = line.slice(2);
    if (kind === "-U") expect(changelog[i + 1]?.slice(0, 2), `row ${i + 1}: -U not followed by +U`).toBe("+U");
    if (kind === "-U" || kind === "-D") {
      expect(live.get(row) ?? 0, `row ${i + 1}: ${line} retracts a row that is not there`).toBeGreaterThan(0);
      live.set(row, live.get(row)! - 1);
    } else live.set(row, (live.get(row) ?? 0) + 1);
  });
}
