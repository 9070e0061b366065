import { getOwn } from "../../../types/own.js";
import { helpers } from "../../../expressions/helpers.js";
import { isResolvedPtfCall, type ResolvedPtfCall } from "../../../ptf/resolved-call.js";
import { duplicateUidMessage } from "../../../ptf/uid.js";
import { ValidationError } from "../../../types/errors.js";
import type { JobSettings } from "../../../table/executor.js";
import { INSERT_ONLY, registerProcessModeDeriver } from "../../../plan/changelog-mode.js";
import type { PlanNode, ProcessNode } from "../../../plan/nodes.js";
import { registerProcessInputNeeds, registerProcessRequirement } from "../../../plan/normalize-upserts.js";
import { type Emitter, connect, registerOperatorFactory } from "../../job-graph.js";
import { GeneratorSource } from "./generator-source.js";
import { PtfOperator } from "./ptf-operator.js";

/**
 * Plugs PTFs into the planner and the job graph: the changelog mode of a Process node (the function's
 * declared output mode) and the operator factory. The factory also enforces uid uniqueness
 * per job (PTF rule 14): two calls with the same uid are one operator if the calls are
 * identical (fan-out), an error otherwise.
 */

/** Per job (keyed by its settings object): uid -> the call and emitter that own it. */
const uidsPerJob = new WeakMap<JobSettings, Map<string, { node: ProcessNode; emitter: Emitter }>>();

let installed = false;

/**
 * Installs the PTF runtime (an explicit call from index.ts rather than an import for its side effects, which
 * bundlers drop under `"sideEffects": false`). Idempotent.
 */
export function installPtfRuntime(): void {
  if (installed) return;
  installed = true;
  // the function's declared output mode, resolved when the call was planned (src/ptf/updating-output.ts)
  registerProcessModeDeriver((node) => {
    const call = (node as ProcessNode).call;
    return isResolvedPtfCall(call) ? call.outputMode : INSERT_ONLY;
  });
  // what the consumer needs decides a call's output mode (getRequiredChangelogMode), see plan/normalize-upserts.ts
  registerProcessRequirement((node, consumer) => {
    if (!isResolvedPtfCall(node.call)) return node;
    const call = node.call.withRequiredMode(consumer);
    return call === node.call ? node : { ...node, call };
  });
  // a table argument delivered as retractions needs them from its input (a keyed source is normalized)
  registerProcessInputNeeds((node, i) => isResolvedPtfCall(node.call) && node.call.tables.some((t) => t.inputIndex === i && t.delivery.needsRetractions));
  registerOperatorFactory("Process", (node, ctx, build) => {
    const p = node as ProcessNode;
    const call = p.call;
    if (!isResolvedPtfCall(call)) throw new ValidationError(`Process node ${p.id} carries no resolved PTF call`);
    let uids = uidsPerJob.get(ctx.settings);
    if (uids === undefined) uidsPerJob.set(ctx.settings, (uids = new Map()));
    if (call.uid !== undefined) {
      const owner = uids.get(call.uid);
      if (owner !== undefined) {
        if (sameCall(owner.node, p)) return owner.emitter;
        throw new ValidationError(duplicateUidMessage(call.uid, !call.explicitUid && !(owner.node.call as ResolvedPtfCall).explicitUid));
      }
    }
    let emitter: Emitter;
    if (p.inputs.length === 0) {
      emitter = { outputs: [], out: undefined as never };
      ctx.addSource(new GeneratorSource(call), emitter);
    } else {
      const op = new PtfOperator(call, ctx.settings);
      p.inputs.forEach((input, i) => connect(build(input), op, i));
      emitter = op as PtfOperator & Emitter;
    }
    if (call.uid !== undefined) uids.set(call.uid, { node: p, emitter });
    return emitter;
  });
}

/** Identical calls: same function, same inputs (by plan identity), same PARTITION BY, same scalar values. */
function sameCall(a: ProcessNode, b: ProcessNode): boolean {
  const x = a.call as ResolvedPtfCall;
  const y = b.call as ResolvedPtfCall;
  if (x.fn !== y.fn || a.inputs.length !== b.inputs.length) return false;
  if (!a.inputs.every((n: PlanNode, i) => n === b.inputs[i])) return false;
  if (!x.tables.every((t, i) => t.partitionKeys.join(",") === y.tables[i]!.partitionKeys.join(","))) return false;
  if (!x.tables.every((t, i) => JSON.stringify(t.orderBy) === JSON.stringify(y.tables[i]!.orderBy))) return false;
  const names = Object.keys(x.scalars);
  return names.every((n) => {
    const u = getOwn(x.scalars, n);
    const v = getOwn(y.scalars, n);
    return u === v || (u !== null && v !== null && typeof u === "object" && helpers.eq(u, v));
  });
}
