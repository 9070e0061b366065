import { readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/**
 * The import graph of src/, folder by folder: every `import` / `export ... from` (type-only ones too, and
 * dynamic `import("...")` types) between files in different top-level folders of src/.
 */
export interface ImportEdge {
  readonly from: string;
  readonly to: string;
  readonly fromFolder: string;
  readonly toFolder: string;
}

const IMPORT = /(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

export function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sourceFiles(p));
    else if (p.endsWith(".ts")) out.push(p);
  }
  return out;
}

/** The top-level folder of a file under src/ (`index` for src/index.ts). */
export function folderOf(srcRoot: string, file: string): string {
  const rel = relative(srcRoot, file).split(/[\\/]/);
  return rel.length === 1 ? rel[0]!.replace(/\.ts$/, "") : rel[0]!;
}

export function importEdges(srcRoot: string): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const file of sourceFiles(srcRoot)) {
    const text = readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[1] ?? m[2]!;
      if (!spec.startsWith(".")) continue;
      const target = resolve(dirname(file), spec.replace(/\.js$/, ".ts"));
      edges.push({
        from: relative(srcRoot, file), to: relative(srcRoot, target),
        fromFolder: folderOf(srcRoot, file), toFolder: folderOf(srcRoot, target),
      });
    }
  }
  return edges;
}
