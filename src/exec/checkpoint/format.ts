import { ExecutionError } from "../../types/errors.js";

/**
 * What a checkpoint or savepoint holds: the state of every stateful operator and the position of every
 * source, each under the stable identity (uid) of the plan node it belongs to. Values are in the snapshot
 * codec's encoding (snapshot-codec.ts), so the whole object is JSON.
 *
 * The format is versioned: `version` names the layout of this object; a reader refuses a version it does not
 * know instead of guessing (a newer tablestream wrote it).
 */
export const SNAPSHOT_FORMAT = "tablestream-snapshot";
export const SNAPSHOT_VERSION = 1;

export interface OperatorStateEntry {
  /** The operator class that wrote the state: a uid now naming an operator of another kind is an error. */
  readonly operator: string;
  /** The state's schema, field name → type (see `stateSchemaOf`), checked against the new job's operator. */
  readonly schema: Readonly<Record<string, string>>;
  /** The operator's `snapshotState()`, encoded (what a reader finds in the file). */
  readonly state: unknown;
  /**
   * In a snapshot being written: `state` already as JSON text (encodeSnapshotJson), which the writer puts in
   * the file as `state` — a million keys' state is written without building its encoded tree first.
   */
  readonly stateJson?: string;
}

export interface SourceStateEntry {
  /** The source's name for messages (`Values`, `filesystem[orders]`). */
  readonly source: string;
  /** The reader's `position()`, encoded. */
  readonly position: unknown;
  /** The last watermark the source emitted (a number; -Infinity before its first, as the string "-Infinity"). */
  readonly watermark: number | string;
  /** Whether the source had ended (emitted end of input). */
  readonly ended: boolean;
}

export interface JobSnapshot {
  readonly format: typeof SNAPSHOT_FORMAT;
  readonly version: number;
  readonly kind: "checkpoint" | "savepoint";
  /** Checkpoints of one job count up from 1; a job restored from one continues the count. */
  readonly checkpointId: number;
  readonly operators: Readonly<Record<string, OperatorStateEntry>>;
  readonly sources: Readonly<Record<string, SourceStateEntry>>;
  /**
   * Files outside the checkpoint's own directory that its state refers to (a disk backend's store files
   * under `<checkpoint dir>/shared/`, including the earlier ones an incremental checkpoint builds on).
   */
  readonly sharedFiles?: readonly string[];
}

/** Checks that `data` (parsed from `file`) is a snapshot this version can read. */
export function checkSnapshot(data: unknown, file: string): JobSnapshot {
  const s = data as Partial<JobSnapshot> | null;
  if (s === null || typeof s !== "object" || s.format !== SNAPSHOT_FORMAT) {
    throw new ExecutionError(`${file} is not a tablestream checkpoint or savepoint`);
  }
  if (s.version !== SNAPSHOT_VERSION) {
    throw new ExecutionError(`${file} has snapshot format version ${String(s.version)}; this tablestream reads version ${SNAPSHOT_VERSION}`);
  }
  if (typeof s.operators !== "object" || typeof s.sources !== "object" || typeof s.checkpointId !== "number") {
    throw new ExecutionError(`${file} is a damaged snapshot (operators, sources or checkpointId missing)`);
  }
  return s as JobSnapshot;
}

export function encodeWatermark(wm: number): number | string {
  return Number.isFinite(wm) ? wm : String(wm);
}

export function decodeWatermark(wm: number | string): number {
  return typeof wm === "number" ? wm : Number(wm);
}
