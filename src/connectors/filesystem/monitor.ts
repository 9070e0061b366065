import { ValidationError } from "../../types/errors.js";
import { parseDuration } from "../datagen/duration.js";
import type { ConnectorTable } from "../connector-spec.js";
import { listFiles } from "./file-layout.js";

/** Longest a poll of a watching source waits before returning, so a cancelled job stops promptly. */
const MAX_WAIT_MS = 50;

/** `source.monitor-interval` of a table in milliseconds (> 0), or undefined when the source is bounded. */
export function monitorInterval(table: ConnectorTable): number | undefined {
  const text = table.options.get("source.monitor-interval");
  if (text === undefined) return undefined;
  const ms = parseDuration(text, `filesystem table '${table.tableName}': option 'source.monitor-interval'`);
  if (ms <= 0) throw new ValidationError(`filesystem table '${table.tableName}': option 'source.monitor-interval' must be greater than 0, got '${text}'`);
  return ms;
}

/**
 * Flink's continuous file monitoring (`source.monitor-interval`): the directory is listed again every
 * interval, and the files not assigned before are read next, in name order — each file once, however long the
 * job runs. Files are identified by their path; a file that grows after it was read is not read again (write
 * files under a hidden name, `.x` or `_x`, and rename them into place, as the filesystem sink does). The files
 * assigned so far are part of the reader's position, so a restored job skips them and reads only new ones.
 */
export class DirectoryMonitor {
  private readonly seen = new Set<string>();
  private nextScan = 0;
  private waiter: { timer: ReturnType<typeof setTimeout>; resolve: () => void } | undefined;

  constructor(private readonly path: string, private readonly table: string, private readonly intervalMs: number, private readonly clock: () => number = Date.now) {}

  /** Marks files as assigned (the initial listing, or the files a restored position names). */
  assigned(files: readonly string[]): void {
    for (const f of files) this.seen.add(f);
    this.nextScan = this.clock() + this.intervalMs;
  }

  /**
   * New files, once the interval since the last listing has passed (an empty array before, or when none
   * appeared); they are marked assigned.
   */
  poll(): string[] {
    const now = this.clock();
    if (now < this.nextScan) return [];
    this.nextScan = now + this.intervalMs;
    const fresh = listFiles(this.path, this.table).filter((f) => !this.seen.has(f));
    for (const f of fresh) this.seen.add(f);
    return fresh;
  }

  /** A Promise resolving when the next listing is due (at most MAX_WAIT_MS from now), or when `close()` is called. */
  wait(): Promise<void> {
    const ms = Math.max(1, Math.min(MAX_WAIT_MS, this.nextScan - this.clock()));
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => { this.waiter = undefined; resolve(); }, ms);
      this.waiter = { timer, resolve };
    });
  }

  close(): void {
    const w = this.waiter;
    this.waiter = undefined;
    if (w) { clearTimeout(w.timer); w.resolve(); }
  }
}
