// docs/testing.md is tested: every block type-checks and runs exactly as shown (checked-page.ts).
import { checkDocPage } from "./checked-page.js";

checkDocPage("testing.md", { run: 9, compileError: 0 });
