import { parseDuration } from "../../ptf/ttl.js";
import { ValidationError } from "../../types/errors.js";

/**
 * The checkpoint options of a job, read from its configuration with Flink's keys:
 *
 * - `execution.checkpointing.interval`: a duration (`10 s`, `500 ms`); a checkpoint is taken between two
 *   records once that much processing time has passed since the last one.
 * - `execution.checkpointing.interval-records` (tablestream's own): a checkpoint every N source records, so
 *   that tests place checkpoints deterministically.
 * - `execution.checkpointing.dir` (Flink 1.x: `state.checkpoints.dir`): the directory checkpoints go to;
 *   required when either interval is set.
 * - `execution.checkpointing.num-retained` (Flink 1.x: `state.checkpoints.num-retained`): how many completed
 *   checkpoints are kept (default 1); older ones are deleted.
 * - `execution.savepoint.path`: a savepoint or checkpoint directory (or a checkpoint root directory: its latest
 *   checkpoint) the job starts from.
 * - `execution.savepoint.ignore-unclaimed-state` (Flink's allowNonRestoredState): state in that snapshot that no
 *   operator of the new job claims is dropped instead of failing the start.
 */
export interface CheckpointOptions {
  readonly intervalMs: number | undefined;
  readonly intervalRecords: number | undefined;
  readonly dir: string | undefined;
  readonly numRetained: number;
  readonly restorePath: string | undefined;
  readonly ignoreUnclaimedState: boolean;
}

export function checkpointOptions(config: ReadonlyMap<string, string>): CheckpointOptions {
  const interval = config.get("execution.checkpointing.interval");
  const records = config.get("execution.checkpointing.interval-records");
  const dir = config.get("execution.checkpointing.dir") ?? config.get("state.checkpoints.dir");
  const retained = config.get("execution.checkpointing.num-retained") ?? config.get("state.checkpoints.num-retained");
  const intervalMs = interval === undefined ? undefined : parseDuration(interval, "option 'execution.checkpointing.interval'");
  if (intervalMs !== undefined && intervalMs <= 0) throw new ValidationError(`option 'execution.checkpointing.interval' must be a positive duration, got '${interval}'`);
  const intervalRecords = records === undefined ? undefined : wholeNumber(records, "execution.checkpointing.interval-records", 1);
  if ((intervalMs !== undefined || intervalRecords !== undefined) && dir === undefined) {
    throw new ValidationError("periodic checkpoints need a directory: set 'execution.checkpointing.dir' (or 'state.checkpoints.dir')");
  }
  const ignore = (config.get("execution.savepoint.ignore-unclaimed-state") ?? "false").trim().toLowerCase();
  if (ignore !== "true" && ignore !== "false") {
    throw new ValidationError(`option 'execution.savepoint.ignore-unclaimed-state' must be 'true' or 'false', got '${ignore}'`);
  }
  return {
    intervalMs, intervalRecords, dir,
    numRetained: retained === undefined ? 1 : wholeNumber(retained, "execution.checkpointing.num-retained", 1),
    restorePath: config.get("execution.savepoint.path"),
    ignoreUnclaimedState: ignore === "true",
  };
}

function wholeNumber(text: string, key: string, min: number): number {
  const n = Number(text.trim());
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(n) || n < min) {
    throw new ValidationError(`option '${key}' must be a whole number ≥ ${min}, got '${text}'`);
  }
  return n;
}
