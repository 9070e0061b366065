// docs/tutorial.md is a checked document (test/docs/checked-doc.ts): its blocks compile and print what it shows.
import { describeCheckedDoc } from "./checked-doc.js";

describeCheckedDoc("docs/tutorial.md", { run: 9, compileErrors: 2 });
