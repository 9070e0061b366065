import { decodeSnapshot, encodeSnapshot } from "../exec/snapshot-codec.js";
import { type Operator, prepareSnapshot } from "../exec/operator.js";
import { ValidationError } from "../types/errors.js";

/**
 * The one place the testing kit takes and restores a job's state: today every operator's own
 * `snapshotState()` / `restoreState()`, encoded with the snapshot codec (what a checkpoint stores:
 * plain data that survives `structuredClone` and JSON). When job-level checkpoints exist, these two
 * functions switch to them and the pipeline harness and the restore oracle follow unchanged.
 */

/** One operator's encoded state, with the name it is matched by on restore. */
export interface OperatorState {
  readonly name: string;
  readonly state: unknown;
}

/** The encoded state of every operator of a job, in job-graph order. */
export function checkpointOperators(operators: readonly { readonly name: string; readonly op: Operator }[]): OperatorState[] {
  prepareSnapshot(operators.map((o) => o.op));
  return operators.map(({ name, op }) => ({ name, state: encodeSnapshot(op.snapshotState()) }));
}

/**
 * Hands each operator its state from a checkpoint, before the job opens (Flink's `initializeState`).
 * The job must have the same operators as the one the checkpoint was taken of: same names in the same
 * order (the same program over the same inputs).
 */
export function restoreOperators(operators: readonly { readonly name: string; readonly op: Operator }[], states: readonly OperatorState[], where: string): void {
  const names = operators.map((o) => o.name);
  const saved = states.map((s) => s.name);
  if (names.length !== saved.length || names.some((n, i) => n !== saved[i])) {
    throw new ValidationError(
      `${where}: the snapshot is of another program: it holds the state of the operators [${saved.join(", ")}] but this one runs [${names.join(", ")}]`,
    );
  }
  operators.forEach(({ op }, i) => op.restoreState(decodeSnapshot(states[i]!.state)));
}

/** Size of an operator's checkpointed state in bytes (UTF-16 code units of its JSON form); 0 when it holds none. */
export function checkpointSize(op: Operator): number {
  const s = op.snapshotState();
  if (s === null || s === undefined) return 0;
  return JSON.stringify(encodeSnapshot(s)).length;
}
