import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Executes every teaching notebook in docs/notebooks headless (tslab kernel through Debian's nbclient) and
 * compares its outputs with the stored ones (scripts/notebooks.py). The notebooks import the built package
 * ("tablestream", "tablestream/notebook"), so `npm test` builds first. CI installs the Jupyter packages;
 * elsewhere the suite is skipped when they are missing (and says so), but never under CI.
 */
const root = join(import.meta.dirname, "..", "..");
const python = "/usr/bin/python3";
const dir = join(root, "docs", "notebooks");
const notebooks = readdirSync(dir).filter((f) => f.endsWith(".ipynb")).sort();
const hasJupyter = existsSync(python) && spawnSync(python, ["-c", "import nbclient, nbformat, ipykernel"]).status === 0;
if (!hasJupyter && !process.env.CI) console.warn("notebook tests skipped: install python3-nbclient python3-ipykernel jupyter-client (Debian) to run them");

describe.skipIf(!hasJupyter && !process.env.CI)("teaching notebooks", () => {
  it("has the built package to import", () => {
    expect(existsSync(join(root, "dist", "notebook", "index.cjs")), "run `npm run build` first").toBe(true);
    // the notebooks import "tablestream" by name: the package resolves to this repository
    const self = join(root, "node_modules", "tablestream");
    if (!existsSync(self)) symlinkSync("..", self);
  });

  it("lists the lessons", () => {
    expect(notebooks).toEqual([
      "01-table-api-basics.ipynb", "02-changelog-and-retractions.ipynb", "03-event-time-and-windows.ipynb",
      "04-ptf-state.ipynb", "05-timers.ipynb", "06-multiple-tables.ipynb", "07-updating-tables.ipynb",
    ]);
  });

  for (const nb of notebooks) {
    it(`${nb} runs top to bottom with its stored outputs`, () => {
      let out = "";
      try {
        out = execFileSync(python, [join(root, "scripts", "notebooks.py"), "--check", join(dir, nb)], { encoding: "utf8", stdio: "pipe" });
      } catch (e) {
        const err = e as { stdout?: string; stderr?: string };
        expect.fail(`${nb} failed:\n${err.stdout ?? ""}${err.stderr ?? ""}`);
      }
      expect(out).toBe("");
    }, 300_000);
  }
});

describe("teaching notebooks, as documents", () => {
  for (const nb of notebooks) {
    it(`${nb} is a TypeScript lesson with exercises and hidden solutions`, async () => {
      const { readFileSync } = await import("node:fs");
      const doc = JSON.parse(readFileSync(join(dir, nb), "utf8")) as {
        metadata: { kernelspec: { name: string } };
        cells: { cell_type: string; source: string[]; metadata: { tags?: string[]; jupyter?: { source_hidden?: boolean } } }[];
      };
      expect(doc.metadata.kernelspec.name).toBe("tslab");
      expect(doc.cells[0]!.source[0]).toMatch(/^# Lesson \d — /);
      expect(doc.cells.some((c) => c.cell_type === "markdown" && c.source.join("").includes("## Exercises"))).toBe(true);
      const solutions = doc.cells.filter((c) => c.metadata.tags?.includes("solution"));
      expect(solutions.length).toBeGreaterThan(0);
      for (const s of solutions) expect(s.metadata.jupyter?.source_hidden).toBe(true);
    });
  }
});
