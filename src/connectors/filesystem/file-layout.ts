import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import type { DataType } from "../../types/data-type.js";
import { ExecutionError } from "../../types/errors.js";
import { discoverPartitions, escapePathName, parsePartitionValue, partitionPath, unescapePathName } from "./partitions.js";

/**
 * Which files a file-based scan reads and which partition each one is in: shared by the text formats
 * (reader.ts) and Parquet (../parquet/reader.ts), so both list, prune and type partitions one way.
 */

/** Files under a path: the file itself, or every visible file below a directory (sorted; `.`/`_` names skipped, as Flink). */
export function listFiles(path: string, table: string, connector = "filesystem"): string[] {
  let st;
  try {
    st = statSync(path);
  } catch {
    throw new ExecutionError(`${connector} table '${table}': path '${path}' does not exist`);
  }
  if (st.isFile()) return [resolve(path)];
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      if (name.startsWith(".") || name.startsWith("_")) continue;
      const p = join(dir, name);
      const s = statSync(p);
      if (s.isDirectory()) walk(p);
      else if (s.isFile()) out.push(resolve(p));
    }
  };
  walk(path);
  return out;
}

/**
 * The files a scan reads and, for a `PARTITIONED BY` table, where the partition values go: the partitions are
 * discovered below the path (or were pruned by the planner, `pushdown.partitions`), their files listed in order,
 * and each file's partition values typed from the schema (partitions.ts).
 */
export interface FileLayout {
  readonly files: string[];
  /** Positions in the row of the files' columns. */
  readonly slots: readonly number[];
  /** Positions in the row of the partition keys (-1 for a key the row does not carry: a projected scan). */
  readonly keyIndex: readonly number[];
  /**
   * A file's partition values, typed, read from its directory names below the path — or undefined when the
   * file is not in a partition the scan reads (not `k=v/` for every key, or pruned). By path rather than by
   * position in `files`, because a watching source appends files and a restore reorders them.
   */
  readonly valuesOf: (file: string) => readonly unknown[] | undefined;
}

export const NO_PARTITION_VALUES: readonly unknown[] = Object.freeze([]);

/** What a layout is computed from: the table's path, its columns (in row order) and partition keys. */
export interface LayoutInput {
  readonly path: string;
  readonly tableName: string;
  /** The connector named in errors. */
  readonly connector?: string;
  /** The columns of a row, in order (a projected scan may leave partition keys out: their values are not typed). */
  readonly columns: readonly { readonly name: string; readonly type: DataType }[];
  readonly partitionKeys: readonly string[];
  /** `partition.default-name` (NULL's directory name). */
  readonly defaultName: string;
  /** The partitions left by pruning; undefined when the planner pruned none (every `k=v/` directory counts). */
  readonly partitions?: readonly Readonly<Record<string, string>>[];
}

export function fileLayout(input: LayoutInput): FileLayout {
  const { path, tableName, columns, partitionKeys: keys, defaultName } = input;
  const connector = input.connector ?? "filesystem";
  if (keys.length === 0) {
    return { files: listFiles(path, tableName, connector), slots: columns.map((_c, i) => i), keyIndex: [], valuesOf: () => NO_PARTITION_VALUES };
  }
  const keyIndex = keys.map((k) => columns.findIndex((c) => c.name === k));
  const partitions = input.partitions !== undefined
    ? input.partitions.map((spec) => ({ dir: join(path, partitionPath(keys, keys.map((k) => spec[k]!))), spec }))
    : discoverPartitions(path, keys);
  // the partitions the scan reads, by directory: the pruned list, or (no pruning) any k=v/ directory, also new ones
  const allowed = input.partitions !== undefined ? new Set(partitions.map((p) => resolve(p.dir))) : undefined;
  const root = resolve(path);
  const byDir = new Map<string, readonly unknown[] | undefined>();
  const valuesOf = (file: string): readonly unknown[] | undefined => {
    const dir = dirname(file);
    if (byDir.has(dir)) return byDir.get(dir);
    let typed: readonly unknown[] | undefined;
    const levels = relative(root, dir).split(sep);
    if (levels.length === keys.length && (allowed === undefined || allowed.has(dir))) {
      const texts = keys.map((k, i) => {
        const prefix = `${escapePathName(k)}=`;
        return levels[i]!.startsWith(prefix) ? unescapePathName(levels[i]!.slice(prefix.length)) : undefined;
      });
      if (texts.every((t) => t !== undefined)) {
        typed = keys.map((k, i) => (keyIndex[i]! < 0 ? null : parsePartitionValue(tableName, k, columns[keyIndex[i]!]!.type, texts[i]!, defaultName)));
      }
    }
    byDir.set(dir, typed);
    return typed;
  };
  const files: string[] = [];
  for (const p of partitions) {
    if (!existsSync(p.dir)) continue;
    for (const f of listFiles(p.dir, tableName, connector)) files.push(f);
  }
  return { files, slots: columns.map((_c, i) => i).filter((i) => !keyIndex.includes(i)), keyIndex, valuesOf };
}
