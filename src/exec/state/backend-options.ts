import { ValidationError } from "../../types/errors.js";
import { DiskStateBackend } from "./disk-backend.js";
import { HASHMAP_BACKEND, type StateBackend } from "./keyed-store.js";

/**
 * The keyed-state backend a job's configuration asks for, with Flink's keys:
 *
 * - `state.backend.type`: `hashmap` (default: state in memory) or `disk` (embedded SQLite; `rocksdb`, the
 *   name Flink's configurations use for its disk backend, selects it too);
 * - `state.backend.local-dir` (Flink: `state.backend.rocksdb.localdir`): where the job's working directory
 *   goes (the OS temp directory by default);
 * - `state.backend.cache-size` (tablestream's own): values each state entry keeps in its write-back cache
 *   (default 100000);
 * - `execution.checkpointing.incremental` (Flink 1.x: `state.backend.incremental`): checkpoints of the disk
 *   backend write only what changed since the previous one. The hashmap backend always writes full ones,
 *   as Flink's HashMapStateBackend does.
 */
export function stateBackendFor(config: ReadonlyMap<string, string>): StateBackend {
  const type = (config.get("state.backend.type") ?? "hashmap").trim().toLowerCase();
  if (type === "hashmap") return HASHMAP_BACKEND;
  if (type !== "disk" && type !== "rocksdb") {
    throw new ValidationError(`option 'state.backend.type' must be 'hashmap' or 'disk' (also 'rocksdb'), got '${config.get("state.backend.type")}'`);
  }
  const incremental = (config.get("execution.checkpointing.incremental") ?? config.get("state.backend.incremental") ?? "false").trim().toLowerCase();
  if (incremental !== "true" && incremental !== "false") {
    throw new ValidationError(`option 'execution.checkpointing.incremental' must be 'true' or 'false', got '${incremental}'`);
  }
  const cache = config.get("state.backend.cache-size");
  const cacheSize = cache === undefined ? 100_000 : Number(cache.trim());
  if (!Number.isSafeInteger(cacheSize) || cacheSize < 1) {
    throw new ValidationError(`option 'state.backend.cache-size' must be a whole number ≥ 1, got '${cache}'`);
  }
  return new DiskStateBackend({
    localDir: config.get("state.backend.local-dir") ?? config.get("state.backend.rocksdb.localdir"),
    cacheSize,
    incremental: incremental === "true",
  });
}
