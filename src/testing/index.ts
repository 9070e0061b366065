/**
 * tablestream/testing: helpers for users' own tests of pipelines — fast-check generators of rows,
 * changelogs, event-time streams and arrival orders; oracles (streaming = batch, arrival order within the
 * watermark delay does not matter, changelogs are well formed); changelog fixtures and failures as table
 * literals (`| op | name | score |`); and a test harness that drives one Process Table Function directly.
 */
export { arbitraryValue, arbitraryRecord, arbitraryRows } from "./arbitraries.js";
export { arbitraryChangelog, arbitraryEventTimeStream, arbitraryArrivalOrder, arbitraryInterleaving } from "./generators.js";
export type { ChangelogOptions, EventTimeOptions } from "./generators.js";
export { materialize, entriesOf, sortRows } from "./changelog.js";
export type { ChangelogEntry } from "./changelog.js";
export { parseTable, formatTable, fromTable, rowsOfTable, tableOf, captureChangelog, diffTables, expectTable, cellsOf } from "./table-literal.js";
export type { CapturedChangelog } from "./table-literal.js";
export type { ParsedTable } from "./table-literal.js";
export { checkStreamingEqualsBatch, checkArrivalOrderInsensitive, checkWellFormed, changelogViolations, ArrivalOrderError } from "./oracles.js";
export type { ArrivalOrderCheck } from "./oracles.js";
export { PtfTestHarness } from "./ptf-harness.js";
export type { PtfHarnessOptions, PtfHarnessSnapshot, HarnessArgs, HarnessKey, HarnessOutput, HarnessState, EntrySnapshot } from "./ptf-harness.js";
export { PipelineHarness } from "./pipeline-harness.js";
export type { PipelineHarnessOptions, PipelineInput, PipelineInputs, PipelineSnapshot, InputRow, InputTables, PendingTimer } from "./pipeline-harness.js";
export { checkRestoreAtAnyRecord, RestoreMismatchError } from "./restore-oracle.js";
export type { RestoreCheck, HarnessStep } from "./restore-oracle.js";
