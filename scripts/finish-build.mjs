// Runs after tsup and tsc (npm run build) and makes dist/ right for every consumer:
// - dist/table/table.d.ts gets back the directive that src/table/table.ts has before `class Table<out S,
//   out M>` (declaration emit drops comments; without it a consumer with skipLibCheck: false sees TS2636).
//   It is `@ts-ignore`, not `@ts-expect-error`, so that a compiler that can prove the variance is not
//   told the directive is unused.
// - every .d.ts gets a .d.cts twin whose relative imports name .cjs files, so that `require` consumers
//   (node16/nodenext CJS, .cts files) see CommonJS declarations instead of ESM ones ("masquerading as ESM").
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const dist = join(import.meta.dirname, "..", "dist");

const tablePath = join(dist, "table", "table.d.ts");
const table = readFileSync(tablePath, "utf8");
const classLine = /^export declare class Table<out S /m;
if (!classLine.test(table)) throw new Error(`finish-build: 'export declare class Table<out S' not found in ${tablePath}`);
writeFileSync(tablePath, table.replace(classLine, (m) => `// @ts-ignore TS2636: variance annotations not provable through conditional types (src/table/table.ts)\n${m}`));

let twins = 0;
for (const entry of readdirSync(dist, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !entry.name.endsWith(".d.ts")) continue;
  const file = join(entry.parentPath, entry.name);
  const source = readFileSync(file, "utf8");
  const cjs = source.replace(/((?:from|import)\s*\(?\s*["'])(\.{1,2}\/[^"']*?)\.js(["'])/g, "$1$2.cjs$3");
  writeFileSync(file.replace(/\.d\.ts$/, ".d.cts"), cjs);
  twins++;
}
console.log(`finish-build: Table variance directive restored; ${twins} .d.cts declarations written`);
