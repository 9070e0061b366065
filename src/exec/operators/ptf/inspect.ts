import type { PtfOperator } from "./ptf-operator.js";

/**
 * Opt-in inspection of running PTF operators for benchmarks and tests (e.g. memory per key): while
 * `track` is true, every PTF operator created is added to `operators`.
 */
export const ptfInspection: { track: boolean; readonly operators: PtfOperator[] } = { track: false, operators: [] };
