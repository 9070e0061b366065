/**
 * tablestream/testing: helpers for users' own tests of pipelines — fast-check arbitraries for typed rows and
 * changelog invariants (materialize a changelog, compare multisets).
 */
export { arbitraryValue, arbitraryRecord, arbitraryRows } from "./arbitraries.js";
export { materialize, entriesOf, sortRows } from "./changelog.js";
export type { ChangelogEntry } from "./changelog.js";
