import type { Executor } from "../exec/job-contract.js";
import { LOCAL_EXECUTOR } from "./wiring.js";

export type { Executor, Job, JobSettings, JobSink, MetricsSnapshot, StepResult } from "../exec/job-contract.js";

/** The executor the Table API runs its jobs on: the in-process interpreter, wired in table/wiring.ts. */
export function getExecutor(): Executor {
  return LOCAL_EXECUTOR;
}
