import { isAbsolute, resolve } from "node:path";
import { ExecutionError } from "../../types/errors.js";
import { isStoreFiles, type KeyedStore, type StoreFiles } from "./keyed-store.js";
import { readStoreFiles } from "./store-files.js";

/** A value state's files: its values' and, with TTL, its write times'. */
export interface ValueStateFiles extends StoreFiles {
  readonly times?: readonly string[];
}

interface Checkpointable {
  checkpoint(): StoreFiles | undefined;
}

function filesOf(store: KeyedStore<unknown>): StoreFiles | undefined {
  return store instanceof Map ? undefined : (store as unknown as Partial<Checkpointable>).checkpoint?.();
}

/**
 * A state entry's part of a checkpoint or savepoint when its stores are on disk and one is being taken: the
 * files the stores wrote (and, for an incremental checkpoint, the earlier ones it builds on). Undefined
 * otherwise — the entries are then inlined, as with the hashmap backend. A savepoint's files are in its own
 * directory, so it stays self-contained and portable (either backend restores it).
 */
export function storeSnapshot(map: KeyedStore<unknown>, times?: KeyedStore<number>): ValueStateFiles | undefined {
  const values = filesOf(map);
  if (values === undefined) return undefined;
  if (times === undefined) return values;
  return { $storeFiles: values.$storeFiles, times: filesOf(times)!.$storeFiles };
}

/** The directory of the snapshot being restored: a savepoint names its store files relative to it. */
let restoringFrom: string | undefined;

/**
 * Runs `restore` (the operators' restoreState calls) with store file names relative to `dir`, the
 * directory of the savepoint or checkpoint being restored (checkpoints name their shared files absolutely).
 */
export function restoringFromDirectory<T>(dir: string, restore: () => T): T {
  const outer = restoringFrom;
  restoringFrom = dir;
  try {
    return restore();
  } finally {
    restoringFrom = outer;
  }
}

function located(files: readonly string[]): readonly string[] {
  const dir = restoringFrom;
  if (dir === undefined || files.every(isAbsolute)) return files;
  return files.map((f) => resolve(dir, f));
}

/**
 * Loads a state entry from the files of a checkpoint into its stores — of either backend: a job may start
 * with the hashmap backend from a checkpoint the disk backend wrote. A value state without TTL times in the
 * checkpoint starts its TTL now, as for inlined entries.
 */
export function restoreStore(
  files: unknown, map: KeyedStore<unknown>, times: KeyedStore<number> | undefined, revive: (v: unknown) => unknown, now: number,
): void {
  if (!isStoreFiles(files)) throw new ExecutionError("the state entry in the checkpoint is neither a list of entries nor a list of state files (a damaged checkpoint)");
  readStoreFiles(located(files.$storeFiles), (k, v) => {
    if (v === undefined) map.delete(k);
    else map.set(k, revive(v));
  });
  if (times === undefined) return;
  const t = (files as ValueStateFiles).times;
  if (t !== undefined) {
    readStoreFiles(located(t), (k, v) => {
      if (v === undefined) times.delete(k);
      else times.set(k, v as number);
    });
  } else {
    for (const k of map.keys()) times.set(k, now);
  }
}
