// §22 changelog normalize (ChangelogNormalizeTestPrograms): an upsert/CDC source with duplicate events
// (`table.exec.source.cdc-events-duplicate`) is normalized by its key; the normalized rows are state.
import { describe, expect, it } from "vitest";
import { STATE_BACKENDS } from "../support/state-backends.js";
import { type CatalogueSource, kind, runRestore } from "./restore-runner.js";

const SOURCE: CatalogueSource = {
  name: "source_t", columns: "a VARCHAR, b INT NOT NULL, c VARCHAR, PRIMARY KEY(a) NOT ENFORCED", changelog: true,
  before: [kind("+I", "one", 1, "a"), kind("+I", "two", 2, "b"), kind("-U", "one", 1, "a"), kind("+U", "one", 1, "aa"), kind("+I", "three", 3, "c"),
    kind("-D", "two", 2, "b"), kind("-U", "three", 3, "c"), kind("+U", "three", 3, "cc")],
  after: [kind("+I", "four", 4, "d"), kind("+I", "five", 5, "e"), kind("-U", "four", 4, "d"), kind("+U", "four", 4, "dd"), kind("+I", "six", 6, "f"), kind("-D", "six", 6, "f")],
};
const BEFORE = ["+I[one, 1, a]", "+I[two, 2, b]", "-U[one, 1, a]", "+U[one, 1, aa]", "+I[three, 3, c]", "-D[two, 2, b]", "-U[three, 3, c]", "+U[three, 3, cc]"];
const AFTER = ["+I[four, 4, d]", "+I[five, 5, e]", "-U[four, 4, d]", "+U[four, 4, dd]", "+I[six, 6, f]", "-D[six, 6, f]"];
const program = (config: Record<string, string>) => ({
  sources: [SOURCE], sink: { name: "sink_t", columns: "a VARCHAR, b INT, c VARCHAR" }, sql: "INSERT INTO sink_t SELECT a, b, c FROM source_t",
  config: { "table.exec.source.cdc-events-duplicate": "true", ...config },
});

// the normalized rows are keyed state: the same rows with them in memory and in the disk backend's store
describe.each(STATE_BACKENDS.map((b) => [b.name, b.options] as const))("§22 changelog normalize, restored from a savepoint (%s backend)", (_name, backend) => {
  it("R-146 changelog-normalize-source", async () => {
    expect(await runRestore(program({ ...backend }))).toEqual({ before: BEFORE, after: AFTER });
  });

  it("R-147 changelog-normalize-source-mini-batch (bundles of 2)", async () => {
    const r = await runRestore(program({ ...backend, "table.exec.mini-batch.enabled": "true", "table.exec.mini-batch.allow-latency": "10 s", "table.exec.mini-batch.size": "2" }));
    expect([...r.before].sort()).toEqual([...BEFORE].sort());
    expect([...r.after].sort()).toEqual([...AFTER].sort());
  });
});
