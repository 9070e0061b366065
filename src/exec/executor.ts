import type { PlanNode } from "../plan/nodes.js";
import type { Executor, Job, JobSettings, JobSink } from "./job-contract.js";
import { LocalJob } from "./job.js";
import type { OperatorTable } from "./operator-table.js";

/** The in-process streaming interpreter, running plans with the given operator factories. */
export function localExecutor(operators: OperatorTable): Executor {
  return {
    createJob(plan: PlanNode, settings: JobSettings, sink: JobSink): Job {
      return new LocalJob(plan, settings, sink, operators, settings.resolveFunction);
    },
  };
}
