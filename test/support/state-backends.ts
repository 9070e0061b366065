// Runs a program on both keyed-state backends and checks that they agree: the state tests of the
// in-memory backend are the disk backend's tests too. The disk backend runs with a write-back cache of
// two entries, so values go through the database (write back, read again) all the time.
import { afterAll, beforeAll, describe, expect } from "vitest";

export interface BackendCase {
  readonly name: "hashmap" | "disk";
  /** Options to set on the job's configuration. */
  readonly options: Readonly<Record<string, string>>;
}

export const HASHMAP: BackendCase = { name: "hashmap", options: {} };
export const DISK: BackendCase = { name: "disk", options: { "state.backend.type": "disk", "state.backend.cache-size": "2" } };
export const STATE_BACKENDS: readonly BackendCase[] = [HASHMAP, DISK];

/**
 * Runs `program` once per backend (with the backend's options to apply), expects equal results, and
 * returns the result (for the test's own exact assertions). A program that throws on one backend must
 * throw the same message on the other.
 */
export async function onBothBackends<T>(program: (options: Readonly<Record<string, string>>, backend: BackendCase) => Promise<T> | T): Promise<T> {
  const results: ({ ok: true; value: T } | { ok: false; error: unknown })[] = [];
  for (const b of STATE_BACKENDS) {
    try {
      results.push({ ok: true, value: await program(b.options, b) });
    } catch (error) {
      results.push({ ok: false, error });
    }
  }
  const [mem, disk] = results as [typeof results[0], typeof results[0]];
  if (!mem.ok) {
    expect(disk.ok ? "no error" : String(disk.error), "the disk backend fails as the hashmap backend does").toBe(String(mem.error));
    throw mem.error;
  }
  if (!disk.ok) throw disk.error;
  expect(disk.value, "the disk backend gives the hashmap backend's result").toEqual(mem.value);
  return mem.value;
}

let active: BackendCase = HASHMAP;

/** The options of the backend the current suite runs on (the environments the suite makes apply them). */
export function activeBackendOptions(): Readonly<Record<string, string>> {
  return active.options;
}

/**
 * Runs the tests `body` defines once per backend, as `<title> (hashmap backend)` and `<title> (disk
 * backend)`: environments made through helpers that read `activeBackendOptions()` use that backend. Each
 * run asserts the suite's own exact rows.
 */
export function backendSuite(title: string, body: (backend: BackendCase) => void): void {
  describe.each(STATE_BACKENDS.map((b) => [b.name, b] as const))(`${title} (%s backend)`, (_name, b) => {
    beforeAll(() => { active = b; });
    afterAll(() => { active = HASHMAP; });
    body(b);
  });
}
