// docs/tutorial.md is tested: every block type-checks and runs (or fails to compile) exactly as shown (checked-page.ts).
import { checkDocPage } from "./checked-page.js";

checkDocPage("tutorial.md", { run: 9, compileError: 2 });
