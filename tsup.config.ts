import { defineConfig } from "tsup";

// tsup bundles the JavaScript (ESM + CJS); `tsc -p tsconfig.build.json` emits the .d.ts files,
// because tsup's own declaration build does not work with TypeScript 7.
export default defineConfig({
  entry: { index: "src/index.ts", "testing/index": "src/testing/index.ts" },
  format: ["esm", "cjs"],
  dts: false,
  sourcemap: true,
  clean: true,
  target: "node20",
});
