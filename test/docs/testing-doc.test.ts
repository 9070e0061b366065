// docs/testing.md is a checked document (test/docs/checked-doc.ts): its blocks compile and print what it shows.
import { describeCheckedDoc } from "./checked-doc.js";

describeCheckedDoc("docs/testing.md", { run: 5, compileErrors: 0 });
