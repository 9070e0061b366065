import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, openSync, fsyncSync, closeSync, writeSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { join, resolve } from "node:path";
import { ExecutionError } from "../../types/errors.js";
import { checkSnapshot, type JobSnapshot } from "./format.js";

/**
 * Checkpoints and savepoints on disk, laid out as Flink lays them out: a checkpoint directory holds one
 * `chk-<id>` directory per retained checkpoint, a savepoint is a `savepoint-<random>` directory; each
 * holds `_metadata` (JSON of a JobSnapshot). A checkpoint also holds `_shared` (the index retention reads);
 * a savepoint of the disk backend also holds its stores' files (`<store>.kv`, named relative to it, so the
 * savepoint can be moved), while a checkpoint's store files live in the checkpoint directory's `shared/`.
 *
 * Writing is atomic: the file set is written into a hidden temporary directory next to its final place,
 * flushed to disk, and then renamed into place, so a reader (a restarted job) sees a complete checkpoint or
 * none — a job killed while writing leaves only a `.tmp-*` directory, which is ignored and cleaned up.
 */
export const METADATA = "_metadata";

/**
 * A small file beside `_metadata` in each checkpoint directory: the JSON list of the `shared/` files the
 * checkpoint refers to (its `sharedFiles`), so retention learns what the retained checkpoints need without
 * parsing their `_metadata` (with the hashmap backend, all of their state). A checkpoint directory without
 * it (written before it existed) is read from its `_metadata`.
 */
export const SHARED_INDEX = "_shared";

/**
 * A checkpoint or savepoint directory being written: a hidden temporary directory next to its final place.
 * Files may go into `tmp` (a disk backend's store files of a savepoint) before `commitDirectory` writes
 * `_metadata` and renames it into place.
 */
export interface PendingDirectory {
  readonly tmp: string;
  readonly target: string;
}

function beginDirectory(parent: string, name: string): PendingDirectory {
  mkdirSync(parent, { recursive: true });
  const tmp = join(parent, `.tmp-${name}-${randomBytes(4).toString("hex")}`);
  mkdirSync(tmp);
  return { tmp, target: join(parent, name) };
}

function commitDirectory(pending: PendingDirectory, snapshot: JobSnapshot, index: boolean): string {
  const { tmp, target } = pending;
  if (index) writeFileSynced(join(tmp, SHARED_INDEX), (fd) => writeAll(fd, JSON.stringify(snapshot.sharedFiles ?? [])));
  writeFileSynced(join(tmp, METADATA), (fd) => writeSnapshotText(fd, snapshot));
  if (existsSync(target)) rmSync(target, { recursive: true, force: true });
  renameSync(tmp, target);
  return target;
}

/** Removes a directory whose writing failed. */
export function abortDirectory(pending: PendingDirectory): void {
  rmSync(pending.tmp, { recursive: true, force: true });
}

function writeFileSynced(file: string, write: (fd: number) => void): void {
  const fd = openSync(file, "w");
  try {
    write(fd);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * The JSON of `snapshot`, written piece by piece: the header, then each operator's state text as it is
 * (`stateJson`, already JSON) — never one string of the whole checkpoint, and no second encoding pass.
 */
function writeSnapshotText(fd: number, snapshot: JobSnapshot): void {
  const { operators, ...rest } = snapshot;
  const head = JSON.stringify(rest);
  writeAll(fd, head.slice(0, -1) + (head.length > 2 ? "," : "") + "\"operators\":{");
  let first = true;
  for (const uid of Object.keys(operators)) {
    const { stateJson, state, ...entry } = operators[uid]!;
    const text = JSON.stringify(entry);
    writeAll(fd, (first ? "" : ",") + JSON.stringify(uid) + ":" + text.slice(0, -1) + (text.length > 2 ? "," : "") + "\"state\":");
    writeAll(fd, stateJson ?? JSON.stringify(state) ?? "null");
    writeAll(fd, "}");
    first = false;
  }
  writeAll(fd, "}}");
}

/** writeSync may write less than asked: loop until all of `text` is in the file. */
function writeAll(fd: number, text: string): void {
  const bytes = Buffer.from(text, "utf8");
  for (let off = 0; off < bytes.length;) off += writeSync(fd, bytes, off, bytes.length - off);
}

/** Writes checkpoint `chk-<id>` into `dir` and deletes completed checkpoints beyond the newest `retained`. */
export function writeCheckpoint(dir: string, snapshot: JobSnapshot, retained: number): string {
  const path = commitDirectory(beginDirectory(dir, `chk-${snapshot.checkpointId}`), snapshot, true);
  const ids = checkpointIds(dir);
  for (const id of ids.slice(0, Math.max(0, ids.length - retained))) rmSync(join(dir, `chk-${id}`), { recursive: true, force: true });
  for (const e of readdirSync(dir)) if (e.startsWith(".tmp-chk-")) rmSync(join(dir, e), { recursive: true, force: true });
  deleteUnreferencedShared(dir);
  return path;
}

/** Where a disk backend's store files go: `<checkpoint dir>/shared/` (as Flink's incremental checkpoints). */
export function sharedDirOf(dir: string): string {
  return resolve(dir, SHARED);
}

const SHARED = "shared";

/**
 * Deletes the store files in `shared/` that no retained checkpoint lists any more: an incremental
 * checkpoint lists the earlier files it builds on, so a file goes only when the last checkpoint needing it
 * has gone.
 */
function deleteUnreferencedShared(dir: string): void {
  const shared = join(dir, SHARED);
  if (!existsSync(shared)) return;
  const needed = new Set<string>();
  for (const id of checkpointIds(dir)) for (const f of sharedFilesOf(join(dir, `chk-${id}`))) needed.add(f);
  for (const e of readdirSync(shared)) {
    const f = join(shared, e);
    if (e.endsWith(".kv") && !needed.has(f)) rmSync(f, { force: true });
  }
}

/** The shared files checkpoint directory `chk` lists: from its index, else (an older checkpoint) its `_metadata`. */
export function sharedFilesOf(chk: string): readonly string[] {
  const index = join(chk, SHARED_INDEX);
  if (existsSync(index)) return JSON.parse(readFileSync(index, "utf8")) as string[];
  return (JSON.parse(readFileSync(join(chk, METADATA), "utf8")) as Partial<JobSnapshot>).sharedFiles ?? [];
}

/**
 * Starts a savepoint: a new `savepoint-<random>` directory under `dir`, still hidden. A disk backend's stores
 * write their files into its `tmp` (the savepoint is self-contained); `commitSavepoint` completes it.
 */
export function beginSavepoint(dir: string): PendingDirectory {
  return beginDirectory(dir, `savepoint-${randomBytes(6).toString("hex")}`);
}

/** Writes the savepoint's `_metadata` and moves it into place; returns its path. */
export function commitSavepoint(pending: PendingDirectory, snapshot: JobSnapshot): string {
  return commitDirectory(pending, snapshot, false);
}

/** The ids of the completed checkpoints in `dir`, ascending. */
export function checkpointIds(dir: string): number[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .map((e) => /^chk-(\d+)$/.exec(e))
    .filter((m): m is RegExpExecArray => m !== null && existsSync(join(dir, m[0], METADATA)))
    .map((m) => Number(m[1]))
    .sort((a, b) => a - b);
}

/**
 * Reads the snapshot at `path`: a savepoint or `chk-<id>` directory, its `_metadata` file, or a checkpoint
 * directory (its latest completed checkpoint, as restarting from "the latest checkpoint" does).
 */
export function readSnapshot(path: string): { snapshot: JobSnapshot; path: string } {
  let dir = path;
  if (path.endsWith(METADATA) && existsSync(path)) dir = join(path, "..");
  else if (!existsSync(join(path, METADATA))) {
    const ids = checkpointIds(path);
    if (ids.length === 0) {
      throw new ExecutionError(`execution.savepoint.path '${path}': no savepoint or completed checkpoint there (expected a directory with a ${METADATA} file, or chk-<n> directories)`);
    }
    dir = join(path, `chk-${ids[ids.length - 1]}`);
  }
  const file = join(dir, METADATA);
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new ExecutionError(`cannot read ${file}: ${(e as Error).message}`, { cause: e });
  }
  return { snapshot: checkSnapshot(data, file), path: dir };
}
