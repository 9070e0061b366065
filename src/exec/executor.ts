import type { PlanNode } from "../plan/nodes.js";
import type { Executor, Job, JobSettings, JobSink } from "./job-contract.js";
import { LocalJob } from "./job.js";
import { columnarPlan } from "./columnar/columnar-plan.js";
import { ColumnarValuesJob, type ColumnarSink } from "./columnar/columnar-job.js";
import type { OperatorTable } from "./operator-table.js";

/** The in-process streaming interpreter, running plans with the given operator factories. */
export function localExecutor(operators: OperatorTable): Executor {
  return {
    createJob(plan: PlanNode, settings: JobSettings, sink: JobSink): Job {
      if (sink.columns !== undefined || sink.rowObjects !== undefined) {
        // a columnar or row-object consumer over Values → Filter/Project: no records, operators or edges (exec/columnar/)
        const c = columnarPlan(plan, settings, settings.resolveFunction, sink.rowObjects?.construct);
        if (c !== undefined) {
          return new ColumnarValuesJob(c.values, c.calc, sink as ColumnarSink, (s) => new LocalJob(plan, settings, s, operators, settings.resolveFunction));
        }
      }
      return new LocalJob(plan, settings, sink, operators, settings.resolveFunction);
    },
  };
}
