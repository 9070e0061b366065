// docs/joins.md is tested: every block type-checks and runs (or fails to compile) exactly as shown (checked-page.ts).
import { checkDocPage } from "./checked-page.js";

checkDocPage("joins.md", { run: 5, compileError: 1 });
