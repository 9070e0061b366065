/**
 * tablestream/testing: helpers for users' own tests of pipelines — fast-check arbitraries for typed rows and
 * changelog invariants (materialize a changelog, compare multisets), and a test harness that drives one
 * Process Table Function directly (PtfTestHarness).
 */
export { arbitraryValue, arbitraryRecord, arbitraryRows } from "./arbitraries.js";
export { materialize, entriesOf, sortRows } from "./changelog.js";
export type { ChangelogEntry } from "./changelog.js";
export { PtfTestHarness } from "./ptf-harness.js";
export type { PtfHarnessOptions, PtfHarnessSnapshot, HarnessArgs, HarnessKey, HarnessOutput, HarnessState, EntrySnapshot } from "./ptf-harness.js";
