/**
 * The contract of one benchmark workload: a Table API plan and a hand-written baseline that do the
 * same work. Add a workload by writing one file under bench/workloads/ and listing it in
 * bench/workloads/index.ts; the harness does the timing, the checks and the report.
 */
import type { Table, TableEnvironment } from "../src/index.js";
import type { Bid, BidData } from "./data.js";
import type { BaselineSink, ColumnSink } from "./sink.js";

/** The bids as a Table: `{ auction, bidder, price, channel, dateTime }`, insert-only. */
export type BidTable = Table<Bid, "append">;

export interface Workload {
  /** "W0" ... as in docs/benchmarks.md. */
  readonly id: string;
  /** The Nexmark query it resembles, for the report ("q1", "GROUP BY", ...). */
  readonly like: string;
  /** One line: what the workload computes. */
  readonly description: string;
  /** Runs the Table API side in batch mode (final results only). */
  readonly batch: boolean;
  /** Minimum ratio table/baseline that counts as PASS for now. */
  readonly gate: number;
  /**
   * Builds the Table API plan over the bids (outside the timed region). `env` is the environment the
   * bids belong to (streaming or batch as `batch` says), for workloads that register views or functions;
   * `data` the bids themselves, for workloads that derive a second input from them (W7's auctions).
   */
  plan(bids: BidTable, env: TableEnvironment, data: BidData): Table<object, "append" | "retract" | "upsert">;
  /**
   * The baseline: a fused for-loop over the row objects with Map state and mutable accumulators,
   * writing the same outputs (same count, same kinds, same values in column order) into `sink`.
   * Returns what must stay reachable after the run for a state measurement (e.g. its Map), or nothing.
   */
  baseline(bids: readonly Bid[], sink: BaselineSink): unknown;
  /**
   * For workloads a columnar consumer suits (projection / filter): the baseline writing the same outputs as
   * columns — per 4096 input rows, typed arrays for the NOT NULL numbers, an array for the rest, filled from
   * the row objects — to compare with `execute().columnBatches()`, which does that work for the Table API.
   */
  columnarBaseline?(bids: readonly Bid[], sink: ColumnSink): void;
  /**
   * For workloads with keyed state: the number of keyed entries the state holds at the end, so the
   * harness reports bytes per entry (heap difference under --expose-gc divided by this count).
   */
  stateEntries?(bids: readonly Bid[]): number;
  /**
   * For workloads whose state is released before the job ends (windows fire at end of input): measures the
   * state itself, mid-run, for both sides (bytes per keyed entry). Called instead of `stateEntries`.
   */
  peakState?(table: Table<object, "append" | "retract" | "upsert">, data: BidData): { entries: number; tableBytes: number; baselineBytes: number };
}
