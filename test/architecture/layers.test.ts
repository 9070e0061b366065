import { mkdtempSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { importEdges } from "./import-graph.js";

/**
 * The one-way rule of docs/architecture.md: every import between top-level folders of src/ goes down
 * the floors, so that no folder imports a higher one and there is no folder cycle. Type-only imports
 * count. ptf, functions and sql share a floor and are ordered inside it (sql may import ptf and
 * functions, functions may import ptf).
 */
const FLOORS = ["types", "expressions", "plan", "ptf", "functions", "sql", "exec", "connectors", "table", "testing", "notebook", "index"] as const;
const SRC = join(import.meta.dirname, "../../src");

function floorOf(folder: string): number {
  const i = (FLOORS as readonly string[]).indexOf(folder);
  if (i < 0) throw new Error(`src/${folder} has no floor: add it to FLOORS here and to the layer map in docs/architecture.md`);
  return i;
}

/** Folder-level cycles (Tarjan's strongly connected components of more than one folder). */
function folderCycles(edges: readonly { fromFolder: string; toFolder: string }[]): string[][] {
  const next = new Map<string, Set<string>>();
  for (const e of edges) if (e.fromFolder !== e.toFolder) {
    if (!next.has(e.fromFolder)) next.set(e.fromFolder, new Set());
    next.get(e.fromFolder)!.add(e.toFolder);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const out: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) { visit(w); low.set(v, Math.min(low.get(v)!, low.get(w)!)); }
      else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      for (let w = stack.pop()!; ; w = stack.pop()!) { scc.push(w); if (w === v) break; }
      if (scc.length > 1) out.push(scc.sort());
    }
  };
  for (const v of next.keys()) if (!index.has(v)) visit(v);
  return out;
}

describe("the import graph of src/", () => {
  const edges = importEdges(SRC);

  it("every top-level folder of src/ has a floor", () => {
    const folders = readdirSync(SRC).filter((n) => statSync(join(SRC, n)).isDirectory());
    for (const f of folders) expect(() => floorOf(f)).not.toThrow();
  });

  it("has no import from a lower floor to a higher one (type-only imports included)", () => {
    const upward = edges
      .filter((e) => e.fromFolder !== e.toFolder && floorOf(e.toFolder) > floorOf(e.fromFolder))
      .map((e) => `${e.from} -> ${e.to}`);
    expect(upward).toEqual([]);
  });

  it("has no cycle between folders", () => {
    expect(folderCycles(edges)).toEqual([]);
  });

  it("sees type-only imports and re-exports", () => {
    expect(edges.some((e) => e.from === "ptf/resolved-call.ts" && e.to === "plan/nodes.ts")).toBe(true); // `import type`
    expect(edges.some((e) => e.from === "table/executor.ts" && e.to === "exec/job-contract.ts")).toBe(true); // `export type ... from`
  });

  it("reports an upward import and a cycle in a small tree", () => {
    const root = mkdtempSync(join(tmpdir(), "layers-"));
    for (const d of ["types", "plan"]) mkdirSync(join(root, d));
    writeFileSync(join(root, "types/a.ts"), 'import type { B } from "../plan/b.js";\nexport type A = B;\n');
    writeFileSync(join(root, "plan/b.ts"), 'export type { A } from "../types/a.js";\nexport type B = number;\n');
    const small = importEdges(root);
    expect(small.filter((e) => floorOf(e.toFolder) > floorOf(e.fromFolder)).map((e) => `${e.from} -> ${e.to}`)).toEqual(["types/a.ts -> plan/b.ts"]);
    expect(folderCycles(small)).toEqual([["plan", "types"]]);
  });
});
