import type { FunctionResolver } from "../../expressions/compile.js";
import type { FilterNode, PlanNode, ProjectNode, ValuesNode } from "../../plan/nodes.js";
import type { JobSettings } from "../job-contract.js";
import { type ColumnarCalc, type InsertRowConstructor, compileColumnarCalc } from "./columnar-calc.js";

/** A plan the columnar path runs: insert-only Values and the compiled Filter/Project chain above it. */
export interface ColumnarPlan {
  readonly values: ValuesNode;
  readonly calc: ColumnarCalc;
}

/** Options of checkpoints and savepoints (checkpoint/options.ts): with any of them set, the row job runs (and checks them). */
const CHECKPOINT_OPTIONS = ["execution.checkpointing.", "execution.savepoint.", "state.checkpoints."];

/**
 * Whether `plan` can run columnar: a Values node (all inserts, no watermark declaration) under a chain of
 * Filter / Project nodes that `compileColumnarCalc` takes (or nothing), with checkpoints off and no
 * savepoint to start from (a columnar job has no operators whose state or position could be saved).
 * Anything else — retractions, watermarks, other operators, user functions — runs as a row job.
 */
export function columnarPlan(
  plan: PlanNode, settings: JobSettings, resolveFunction?: FunctionResolver, construct?: InsertRowConstructor,
): ColumnarPlan | undefined {
  const config = settings.config;
  for (const key of config.keys()) if (CHECKPOINT_OPTIONS.some((p) => key.startsWith(p))) return undefined;
  const stages: (FilterNode | ProjectNode)[] = [];
  let bottom = plan;
  while (bottom.kind === "Filter" || bottom.kind === "Project") {
    stages.unshift(bottom);
    bottom = bottom.input;
  }
  if (bottom.kind !== "Values" || bottom.watermark !== undefined) return undefined;
  if (bottom.kinds !== undefined && bottom.kinds.some((k) => k !== 0)) return undefined;
  const calc = compileColumnarCalc(stages, bottom.schema, resolveFunction, construct);
  return calc === undefined ? undefined : { values: bottom, calc };
}
