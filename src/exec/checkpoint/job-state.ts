import { ExecutionError } from "../../types/errors.js";
import { LAYOUT_PREFIX } from "./state-layout.js";
import type { JobGraph, OwnedOperator } from "../job-graph.js";
import { type Operator, prepareSnapshot } from "../operator.js";
import { decodeSnapshot, decodeSnapshotInPlace, encodeSnapshot, encodeSnapshotJson } from "../snapshot-codec.js";
import { restoringFromDirectory } from "../state/snapshot-store.js";
import { type JobSnapshot, type OperatorStateEntry, type SourceStateEntry, SNAPSHOT_FORMAT, SNAPSHOT_VERSION } from "./format.js";

/**
 * Taking and restoring a job's consistent cut. The job is synchronous and single-threaded, so between two
 * source records nothing is in flight: every operator's state, every source's position and every sink's
 * pending transaction describe the same point of the input. A snapshot taken there and restored into a
 * new job, whose sources continue from the recorded positions, continues the run exactly.
 */

/** An operator that describes its state's schema (field → type), checked when a snapshot is restored. */
export interface DescribesStateSchema {
  stateSchema(): Readonly<Record<string, string>>;
}

/** Operators whose state must be told that a checkpoint is complete (sinks committing their transactions). */
export interface CheckpointListener {
  notifyCheckpointComplete(state: unknown): void;
}

/**
 * Operators whose state can be written and read without copies. `snapshotStateInPlace()` is
 * `snapshotState()` referring to the live state objects rather than to copies of them: the checkpoint
 * writer encodes it at once, between two records (the job is paused at the barrier), so nothing changes
 * under it. `restoreStateOwned(state)` is `restoreState` for state the operator may keep as it is (just
 * decoded from a file, referenced by nobody else). Copies stay the rule for other callers (tests and
 * harnesses keep a snapshot while the operator runs on).
 */
export interface SnapshotsInPlace {
  snapshotStateInPlace(): unknown;
  restoreStateOwned(state: unknown): void;
}

function operatorName(op: Operator): string {
  return (op as object).constructor.name;
}

function stateSchemaOf(o: OwnedOperator): Readonly<Record<string, string>> {
  const own = (o.op as Partial<DescribesStateSchema>).stateSchema;
  if (typeof own === "function") return own.call(o.op);
  return {};
}

/** The state to write for a job at this point (operators without state are left out). */
export function snapshotJob(graph: JobGraph, kind: JobSnapshot["kind"], checkpointId: number): { snapshot: JobSnapshot; raw: Map<Operator, unknown> } {
  const operators: Record<string, OperatorStateEntry> = {};
  const raw = new Map<Operator, unknown>();
  // what operators hold back (mini-batch bundles) goes out first, so the cut lies between whole records
  prepareSnapshot(graph.operators);
  for (const o of graph.owned) {
    const op = o.op as Operator & Partial<SnapshotsInPlace & CheckpointListener>;
    // a listener is handed its snapshot again on completion: it gets the copying form
    const inPlace = op.snapshotStateInPlace !== undefined && op.notifyCheckpointComplete === undefined;
    const state = inPlace ? op.snapshotStateInPlace!() : op.snapshotState();
    if (state === null || state === undefined) continue;
    if (!inPlace) raw.set(o.op, state);
    operators[o.uid] = { operator: operatorName(o.op), schema: stateSchemaOf(o), state: undefined, stateJson: encodeSnapshotJson(state) };
  }
  const sources: Record<string, SourceStateEntry> = {};
  for (const s of graph.sources) {
    sources[s.uid] = {
      source: s.reader.constructor.name,
      position: encodeSnapshot(s.reader.position()),
      watermark: String(s.reader.currentWatermark?.() ?? -Infinity),
      ended: s.done,
    };
  }
  return { snapshot: { format: SNAPSHOT_FORMAT, version: SNAPSHOT_VERSION, kind, checkpointId, operators, sources }, raw };
}

/** Tells the operators that listen (sinks) that the checkpoint holding `raw` is durable. */
export function notifyComplete(graph: JobGraph, raw: ReadonlyMap<Operator, unknown>): void {
  for (const o of graph.owned) {
    const l = o.op as Partial<CheckpointListener>;
    if (typeof l.notifyCheckpointComplete === "function" && raw.has(o.op)) l.notifyCheckpointComplete(raw.get(o.op));
  }
}

/**
 * Restores `snapshot` into a job whose operators are open and which has processed nothing yet: operator
 * state by uid (after checking kind and schema), source positions, and the watermarks replayable sources had
 * emitted (re-emitted before any record, so operators see the same event-time progress as the interrupted
 * job; operators' own watermarks are not state, as in Flink). Sources that had ended are ended again.
 * State in the snapshot that no operator claims fails the restore unless `ignoreUnclaimed`.
 */
export function restoreJob(graph: JobGraph, snapshot: JobSnapshot, path: string, ignoreUnclaimed: boolean): void {
  const claimed = new Set<string>();
  for (const o of graph.owned) {
    const entry = snapshot.operators[o.uid];
    if (entry === undefined) continue;
    claimed.add(o.uid);
    const name = operatorName(o.op);
    if (entry.operator !== name) {
      throw new ExecutionError(`cannot restore the state of uid '${o.uid}' from ${path}: it was written by a ${entry.operator}, and uid '${o.uid}' is now a ${name} (${o.node.kind}); give the new operator another uid, or start without that state`);
    }
    const now = stateSchemaOf(o);
    const dropped: string[] = [];
    for (const [field, type] of Object.entries(entry.schema)) {
      const t = now[field];
      if (t === undefined) { dropped.push(field); continue; }
      if (t !== type && field.startsWith(LAYOUT_PREFIX)) {
        const what = field.slice(LAYOUT_PREFIX.length);
        throw new ExecutionError(`incompatible state for uid '${o.uid}' (${name}) in ${path}: the state layout changed (${what}: ${type} in the snapshot, ${t} now); `
          + "an operator whose keys, aggregates or rows changed type cannot take over the old state");
      }
      if (t !== type) {
        throw new ExecutionError(`incompatible state for uid '${o.uid}' in ${path}: state '${field}' was ${type} in the snapshot and is ${t} now; a state's type cannot change across a restore (rename the state to start it fresh)`);
      }
    }
    if (dropped.length > 0 && !ignoreUnclaimed) {
      throw new ExecutionError(`the snapshot at ${path} holds state ${dropped.map((f) => `'${f}'`).join(", ")} of uid '${o.uid}' that the job no longer declares; set 'execution.savepoint.ignore-unclaimed-state' = 'true' to drop it`);
    }
    try {
      // the snapshot was just read from its file and is restored once: decoding may reuse its arrays and
      // objects, and the operator may keep them
      // (a savepoint names its store files relative to its directory)
      const op = o.op as Operator & Partial<SnapshotsInPlace>;
      const state = decodeSnapshotInPlace(entry.state);
      restoringFromDirectory(path, () => (op.restoreStateOwned !== undefined ? op.restoreStateOwned(state) : op.restoreState(state)));
    } catch (e) {
      throw new ExecutionError(`cannot restore the state of uid '${o.uid}' (${name}) from ${path}: ${(e as Error).message}`, { cause: e });
    }
  }
  const restoredSources: { entry: SourceStateEntry; index: number }[] = [];
  graph.sources.forEach((s, index) => {
    const entry = snapshot.sources[s.uid];
    if (entry === undefined) return;
    claimed.add(s.uid);
    s.reader.seek(decodeSnapshot(entry.position));
    restoredSources.push({ entry, index });
  });
  const unclaimed = [
    ...Object.entries(snapshot.operators).filter(([uid]) => !claimed.has(uid)).map(([uid, e]) => `'${uid}' (${e.operator})`),
    ...Object.entries(snapshot.sources).filter(([uid]) => !claimed.has(uid)).map(([uid, e]) => `'${uid}' (source ${e.source})`),
  ];
  if (unclaimed.length > 0 && !ignoreUnclaimed) {
    throw new ExecutionError(
      `cannot map the state in ${path} to this job: no operator of it has uid ${unclaimed.join(", ")} (the query changed at or upstream of those operators, or they were removed). `
      + "Set 'execution.savepoint.ignore-unclaimed-state' = 'true' to start without that state.",
    );
  }
  // event-time progress of the replayable sources, before any record flows
  for (const { entry, index } of restoredSources) {
    const s = graph.sources[index]!;
    if (s.reader.replayable === false) continue;
    if (entry.ended) {
      s.done = true;
      s.emitter.out.watermark(Infinity);
      s.emitter.out.endInput();
      continue;
    }
    const wm = Number(entry.watermark);
    if (wm > -Infinity) s.emitter.out.watermark(wm);
  }
}
