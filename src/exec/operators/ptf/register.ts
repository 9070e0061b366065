import { getOwn } from "../../../types/own.js";
import { helpers } from "../../../expressions/helpers.js";
import { isResolvedPtfCall, type ResolvedPtfCall } from "../../../ptf/resolved-call.js";
import { duplicateUidMessage } from "../../../ptf/uid.js";
import { ValidationError } from "../../../types/errors.js";
import type { JobSettings } from "../../job-contract.js";
import type { PlanNode, ProcessNode } from "../../../plan/nodes.js";
import { type Emitter, type OperatorFactory, connect, sourceEmitter } from "../../operator-table.js";
import { GeneratorSource } from "./generator-source.js";
import { PtfOperator } from "./ptf-operator.js";

/**
 * The operator factory of PTF calls (Process nodes). It also enforces uid uniqueness
 * per job (PTF rule 14): two calls with the same uid are one operator if the calls are
 * identical (fan-out), an error otherwise.
 */

/** Per job (keyed by its settings object): uid -> the call and emitter that own it. */
const uidsPerJob = new WeakMap<JobSettings, Map<string, { node: ProcessNode; emitter: Emitter }>>();

/** The operator factory of Process nodes (in exec/core-operators.ts). */
export const processOperator: OperatorFactory<ProcessNode> = (p, ctx, build) => {
  const call = p.call;
  if (!isResolvedPtfCall(call)) throw new ValidationError(`Process node ${p.id} carries no resolved PTF call`);
  let uids = uidsPerJob.get(ctx.settings);
  if (uids === undefined) uidsPerJob.set(ctx.settings, (uids = new Map()));
  if (call.uid !== undefined) {
    const owner = uids.get(call.uid);
    if (owner !== undefined) {
      if (sameCall(owner.node, p)) return owner.emitter;
      throw new ValidationError(duplicateUidMessage(call.uid, !call.explicitUid && !owner.node.call.explicitUid));
    }
  }
  let emitter: Emitter;
  if (p.inputs.length === 0) {
    emitter = sourceEmitter();
    ctx.addSource(new GeneratorSource(call), emitter);
  } else {
    const op = new PtfOperator(call, ctx.settings);
    p.inputs.forEach((input, i) => connect(build(input), op, i));
    emitter = op as PtfOperator & Emitter;
  }
  if (call.uid !== undefined) uids.set(call.uid, { node: p, emitter });
  return emitter;
};

/** Identical calls: same function, same inputs (by plan identity), same PARTITION BY, same scalar values. */
function sameCall(a: ProcessNode, b: ProcessNode): boolean {
  const x = a.call;
  const y = b.call;
  if (!isResolvedPtfCall(x) || !isResolvedPtfCall(y)) return false;
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
