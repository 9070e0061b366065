import type { Executor, Job, JobSettings, JobSink } from "../table/executor.js";
import type { PlanNode } from "../plan/nodes.js";
import { LocalJob } from "./job.js";

/** The in-process streaming interpreter. */
export const localExecutor: Executor = {
  createJob(plan: PlanNode, settings: JobSettings, sink: JobSink): Job {
    return new LocalJob(plan, settings, sink, settings.resolveFunction);
  },
};
