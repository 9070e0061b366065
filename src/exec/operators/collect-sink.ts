import { col } from "../../expressions/node.js";
import type { JobSink } from "../job-contract.js";
import type { ChangelogMode } from "../../plan/changelog-mode.js";
import { Kind } from "../../types/row.js";
import type { ResolvedSchema } from "../../types/resolved-schema.js";
import { growFloat64 } from "../aggregates/accumulator.js";
import { type GroupKeys, createGroupKeys } from "../aggregates/group-keys.js";
import type { MetricGroup } from "../metrics.js";
import { BaseOperator, type RowObjectConstructor, type RowObjectReceiver } from "../operator.js";
import type { RowObjectSink } from "../columnar/columnar-job.js";
import { anchorFirst } from "../shape-anchors.js";

/**
 * The end of a job: hands every record to the consumer of the TableResult.
 *
 * With `materialize` (batch mode over an updating plan, e.g. a projection of a changelog given to
 * fromValues), the changelog is applied to a table instead and its final rows are emitted as inserts at
 * end of input, so a batch result is always insert-only.
 */
export class CollectSinkOperator extends BaseOperator {
  ended = false;
  /** Records received (`Collect.numRecordsIn`); with `materialize`, changelog records before materializing. */
  private recordsIn = 0;
  private readonly table: MaterializedRows | undefined;
  /** Row objects straight from the operator in front (a sink that makes row objects, no materializing). */
  private readonly rows: RowObjectDelivery | null;

  constructor(private readonly sink: JobSink, materialize?: { readonly schema: ResolvedSchema; readonly mode: ChangelogMode }) {
    super(1);
    if (materialize) this.table = new MaterializedRows(materialize.schema, materialize.mode);
    this.rows = this.table === undefined && sink.rowObjects !== undefined ? new RowObjectDelivery(sink.rowObjects) : null;
  }

  setMetrics(group: MetricGroup): void {
    group.gauge("numRecordsIn", () => this.recordsIn + (this.rows?.count ?? 0));
  }

  /**
   * The consumer's row objects, when it makes them (`batches()`, `forEachBatch()`, `toArray()`) and the
   * changelog reaches it as it is: the operator in front builds each output row once, with the consumer's
   * constructor, instead of a positional record that is then copied into a row object.
   */
  rowObjectReceiver(): RowObjectReceiver | null {
    return this.rows;
  }

  processElement(_input: number, kind: number, row: unknown[]): void {
    this.recordsIn++;
    if (this.table) this.table.apply(kind, row);
    else this.sink.record(kind, row);
  }

  protected override onWatermark(wm: number): void {
    this.sink.watermark?.(wm);
  }

  protected override onEndOfInput(): void {
    if (this.table) this.table.forEach((row) => this.sink.record(Kind.INSERT, row));
    this.ended = true;
  }
}

/** Hands row objects to the sink and counts them (`Collect.numRecordsIn`). */
class RowObjectDelivery implements RowObjectReceiver {
  readonly C0: RowObjectConstructor;
  readonly C1: RowObjectConstructor;
  readonly C2: RowObjectConstructor;
  readonly C3: RowObjectConstructor;
  count = 0;

  constructor(private readonly sink: RowObjectSink) {
    [this.C0, this.C1, this.C2, this.C3] = sink.constructors;
    // the first one of the process stays alive for its shape (exec/shape-anchors.ts)
    anchorFirst(this);
  }

  add(row: object): void {
    this.count++;
    this.sink.add(row);
  }
}

/**
 * The final table of a changelog. A retract changelog is a multiset of rows: +I/+U add a copy, -U/-D remove
 * one (a row not present is ignored). An upsert changelog (+U without -U, with an upsert key) holds one row
 * per key: +I/+U replace it, -D removes it (also a key-only -D).
 */
export class MaterializedRows {
  private readonly keys: GroupKeys;
  private readonly upsert: boolean;
  private counts = new Float64Array(16);
  private readonly rows: (readonly unknown[] | undefined)[] = [];
  private nextId = 0;

  constructor(schema: ResolvedSchema, mode: ChangelogMode) {
    this.upsert = mode.kinds.includes(Kind.UPDATE_AFTER) && !mode.kinds.includes(Kind.UPDATE_BEFORE) && (mode.upsertKeys?.length ?? 0) > 0;
    this.keys = createGroupKeys((this.upsert ? mode.upsertKeys! : schema.names).map(col), schema);
  }

  apply(kind: number, row: readonly unknown[]): void {
    let gid = this.keys.find(row);
    if (kind === Kind.INSERT || kind === Kind.UPDATE_AFTER) {
      if (gid < 0) {
        gid = this.nextId++;
        if (gid >= this.counts.length) this.counts = growFloat64(this.counts, gid + 1);
        this.counts[gid] = 0;
        this.keys.add(gid);
      }
      if (this.upsert) {
        this.counts[gid] = 1;
        this.rows[gid] = row;
      } else this.counts[gid]!++;
    } else if (gid >= 0 && (this.upsert || --this.counts[gid]! === 0)) {
      this.keys.remove(gid); // ids are not reused: rows go out in gid order, the order of first appearance
      this.rows[gid] = undefined;
    }
  }

  /** Each row as often as it is present, in order of first appearance. */
  forEach(f: (row: unknown[]) => void): void {
    this.keys.forEachGroup((gid) => {
      if (this.upsert) {
        f(this.rows[gid]!.slice());
        return;
      }
      for (let i = 0; i < this.counts[gid]!; i++) f(this.keys.currentValues());
    });
  }
}
