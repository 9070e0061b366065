import { parseDuration } from "../../ptf/ttl.js";
import { ValidationError } from "../../types/errors.js";
import type { JobSettings } from "../job-contract.js";

/**
 * Flink's mini-batch group aggregation (`table.exec.mini-batch.enabled`, `.allow-latency`, `.size`;
 * MiniBatchGroupAggFunction): input records are folded into their groups' accumulators as they come, but the
 * changes are emitted per *bundle*, one per group: a bundle ends when it holds `size` records, when
 * `allow-latency` of processing time passed since its first record (checked every 128 records), or at end
 * of input. For each group the bundle touched, in order of first touch: a new group with rows emits `+I`;
 * a group that had a result and has no rows left emits `-D` of that result; otherwise `-U old`/`+U new`
 * when the result changed, nothing when it did not. The final result is the one without mini-batch; only
 * fewer intermediate changes are emitted (docs/semantics.md "Mini-batch").
 */
export interface MiniBatchSpec {
  readonly size: number;
  readonly latency: number;
  readonly clock: () => number;
  /** Two phases (plan/agg-phase.ts): a local bundle in front of the aggregate (local-bundle.ts). */
  readonly twoPhase?: boolean;
}

/** The mini-batch settings of a job, or undefined when off (always off in batch mode, which emits once at the end anyway). */
export function miniBatchOf(settings: Pick<JobSettings, "batch" | "config" | "clock">): MiniBatchSpec | undefined {
  const enabled = settings.config.get("table.exec.mini-batch.enabled");
  if (enabled === undefined || enabled === "false") return undefined;
  if (enabled !== "true") throw new ValidationError(`table.exec.mini-batch.enabled: expected 'true' or 'false', got '${enabled}'`);
  const latencyText = settings.config.get("table.exec.mini-batch.allow-latency");
  const sizeText = settings.config.get("table.exec.mini-batch.size");
  // Flink: "Mini-batch latency must be greater than 0" / "Mini-Batch size must be greater than 0"
  const latency = latencyText === undefined ? 0 : parseDuration(latencyText, "table.exec.mini-batch.allow-latency");
  if (!(latency > 0)) {
    throw new ValidationError(`table.exec.mini-batch.allow-latency must be greater than 0 when table.exec.mini-batch.enabled is true (got ${latencyText === undefined ? "nothing" : `'${latencyText}'`})`);
  }
  const size = sizeText === undefined ? NaN : Number(sizeText);
  if (!Number.isSafeInteger(size) || size <= 0) {
    throw new ValidationError(`table.exec.mini-batch.size must be a positive integer when table.exec.mini-batch.enabled is true (got ${sizeText === undefined ? "nothing" : `'${sizeText}'`})`);
  }
  if (settings.batch) return undefined;
  return { size, latency, clock: settings.clock };
}

/**
 * The groups one bundle touched, in order of first touch: their gid, their result before the bundle
 * (null for a group the bundle created), the probe (to remove an emptied group) and the key values (for
 * the emitted rows). Generated code reads and writes the fields directly.
 */
export class MiniBatchBundle {
  readonly gids: number[] = [];
  readonly befores: (unknown[] | null)[] = [];
  readonly probes: unknown[] = [];
  readonly keys: unknown[][] = [];
  /** Records folded since the bundle started. */
  records = 0;
  /**
   * The group the last record folded reached (-1: none, the record was an ignored retraction); the
   * two-phase global aggregate reads it to merge a key's local accumulators into that group.
   */
  current = -1;
  /** Processing time of the bundle's first record. */
  started = 0;
  private marks = new Uint8Array(64);

  constructor(readonly spec: MiniBatchSpec) {}

  has(g: number): boolean {
    return g < this.marks.length && this.marks[g] === 1;
  }

  add(g: number, before: unknown[] | null, probe: unknown, key: unknown[]): void {
    if (g >= this.marks.length) {
      const m = new Uint8Array(Math.max(g + 1, this.marks.length * 2));
      m.set(this.marks);
      this.marks = m;
    }
    this.marks[g] = 1;
    this.gids.push(g);
    this.befores.push(before);
    this.probes.push(probe);
    this.keys.push(key);
  }

  /** Whether the bundle waited `allow-latency` since its first record. */
  due(): boolean {
    return this.spec.clock() - this.started >= this.spec.latency;
  }

  clear(): void {
    for (const g of this.gids) this.marks[g] = 0;
    this.gids.length = 0;
    this.befores.length = 0;
    this.probes.length = 0;
    this.keys.length = 0;
    this.records = 0;
  }
}
