import { defineConfig } from "tsup";

// tsup bundles the JavaScript (ESM + CJS); `tsc -p tsconfig.build.json` emits the .d.ts files,
// because tsup's own declaration build does not work with TypeScript 7.
export default defineConfig({
  entry: { index: "src/index.ts", "testing/index": "src/testing/index.ts", "notebook/index": "src/notebook/index.ts", "arrow/index": "src/table/arrow/index.ts" },
  format: ["esm", "cjs"],
  // shared code goes into chunks both entries load, also for CJS: tablestream/testing must see the same
  // classes as tablestream (PtfTestHarness checks `fn instanceof ProcessTableFunction`, DataType, Row ...)
  splitting: true,
  dts: false,
  sourcemap: true,
  clean: true,
  target: "node20",
});
