import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    reporters: ["default"],
    // property tests run hundreds of jobs; on a loaded 2-core CI machine the 5 s default is a coin toss.
    // No test asserts a time, so a generous limit only stops a test that hangs.
    testTimeout: 60_000,
  },
});
