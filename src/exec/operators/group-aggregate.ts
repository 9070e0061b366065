import type { FunctionResolver } from "../../expressions/compile.js";
import { stateLayout, typesOf } from "../checkpoint/state-layout.js";
import type { AggregateNode } from "../../plan/nodes.js";
import type { AggregateLayout, AggregateOptions } from "../aggregates/aggregate-layout.js";
import { DirectOutput } from "../aggregates/downstream.js";
import { type GroupTtl, compileGroupAggregate } from "../aggregates/group-aggregate-code.js";
import type { GroupColumns } from "../aggregates/group-columns.js";
import type { KeyIndex } from "../aggregates/key-index.js";
import { BaseOperator, type Output } from "../operator.js";
import { ValidationError } from "../../types/errors.js";
import type { KeyedStateTtl } from "../state-ttl.js";
import type { MiniBatchBundle, MiniBatchSpec } from "../aggregates/mini-batch.js";
import { type LocalBundle, compileLocalBundle } from "../aggregates/local-bundle.js";
import type { UdfAccumulator } from "../udf/aggregate-accumulator.js";
import type { GroupEntry, SpillingIndex } from "../aggregates/spilling-index.js";
import { isStoreFiles, type StateBackend, type StoreFiles } from "../state/keyed-store.js";
import { restoreStore, storeSnapshot } from "../state/snapshot-store.js";

export { udfAccumulator } from "../aggregates/aggregate-layout.js";

/**
 * Unbounded GROUP BY with Flink's changelog (GroupAggFunction):
 * - the first row of a group emits `+I[key, aggs]`;
 * - a later row that changes the result emits `-U[old]` then `+U[new]`; one that leaves it unchanged emits nothing;
 * - the retraction of a group's last row emits `-D[last result]` and drops the group (a later row starts it anew with `+I`);
 * - a retraction for a group that does not exist is ignored.
 * In batch mode nothing is emitted until end of input, then one `+I` per group in order of first appearance;
 * a global aggregate (no keys) over no rows still gives its one row (COUNT 0, SUM NULL).
 *
 * The per-record path is ONE function generated for this operator instance (as CalcOperator does for
 * projections): key evaluation and index probe, argument evaluation, the accumulator updates (built-in
 * ones as typed-array updates, see AggregateLayout), the comparison of old and new values, and the output
 * rows as array literals of this query's shape. Nothing in it is shared with other operators, so a
 * process running many queries does not make its property accesses megamorphic. State is column-wise: a
 * group is a dense id (gid) into GroupColumns, found through a key index chosen by key type (KeyIndex).
 *
 * With mini-batch (`table.exec.mini-batch.*`, aggregates/mini-batch.ts) records are folded as they come and
 * the changes are emitted once per group per bundle. In two phases (`spec.twoPhase`, plan/agg-phase.ts) a
 * local bundle (aggregates/local-bundle.ts) collects records per key first and hands each key on once per
 * local bundle; the operator's own bundle (the global phase) then counts keys handed on, not records, and
 * emits when it holds `size` of them, as Flink's MiniBatchGlobalGroupAggFunction does.
 *
 * A key or argument expression that fails on a record (`$("a").dividedBy(0).sum()`) fails the job with
 * the record named, as in CalcOperator (row-error.ts).
 */
export class GroupAggregateOperator extends BaseOperator {
  private readonly layout: AggregateLayout;
  private readonly index: KeyIndex;
  /** The index again when the groups live in a disk store (`state.backend.type = disk`), else undefined. */
  private readonly spill: SpillingIndex | undefined;
  private readonly cols: GroupColumns;
  /** Where the generated code delivers its records. */
  private readonly down = new DirectOutput(this);
  /** The generated per-record function, installed as this instance's own `processElement`. */
  override readonly processElement: (input: number, kind: number, row: unknown[]) => void;
  /** Generated: emits every group as `+I` (batch end of input). */
  private readonly emitAll: (out: Output) => void;
  /** Idle-state retention (`table.exec.state.ttl`, state-ttl.ts); undefined without TTL. */
  private readonly ttl: KeyedStateTtl | undefined;
  /** The open mini-batch bundle and its flush, with mini-batch. */
  private readonly bundle: MiniBatchBundle | undefined;
  private readonly flush: (() => void) | undefined;
  /** The local phase, in two phases: its bundle and per-record function (processElement then). */
  private readonly local: LocalBundle | undefined;
  private readonly fold: ((input: number, kind: number, row: unknown[]) => void) | undefined;
  /** The one-element list `merge` gets, reused. */
  private readonly mergeArgument: object[] = [];
  /** The global bundle's size in keys handed on, in two phases. */
  private readonly globalSize: number;
  /** The state's layout (checked on restore): key types and the aggregate list. */
  private readonly layoutText: Readonly<Record<string, string>>;

  constructor(node: AggregateNode, private readonly batch: boolean, retractableInput: boolean, resolveFunction?: FunctionResolver,
    options: AggregateOptions = {}, ttl?: GroupTtl, miniBatch?: MiniBatchSpec, backend?: StateBackend) {
    super(1);
    const keyCount = node.groupKeys.length;
    this.layoutText = stateLayout({
      keys: typesOf(node.schema, node.schema.types.slice(0, keyCount).map((_, i) => i)),
      aggregates: `[${node.aggCalls.map((c) => `${c.udf ? c.name : c.fn}${c.distinct ? " DISTINCT" : ""}(${c.argTypes.map(String).join(", ")}): ${c.type}`).join(", ")}]`,
    });
    // in two phases the global bundle never ends by itself: flushLocal counts the keys handed on
    const twoPhase = !batch && miniBatch?.twoPhase === true;
    const globalSpec = twoPhase ? { size: Infinity, latency: Infinity, clock: miniBatch!.clock } : miniBatch;
    const code = compileGroupAggregate(node, batch, retractableInput, this.down, resolveFunction,
      twoPhase ? { ...options, mergeUserAccumulators: true } : options, ttl, globalSpec, backend);
    this.ttl = code.ttl;
    this.bundle = code.bundle;
    this.flush = code.flush;
    this.layout = code.layout;
    this.index = code.index;
    this.spill = code.spill;
    this.cols = code.cols;
    // an own property rather than a method calling it: one call less per record, and the caller's
    // (megamorphic) dispatch lands on this query's code directly
    this.processElement = code.processElement;
    this.emitAll = code.emitAll;
    this.globalSize = miniBatch?.size ?? 0;
    if (twoPhase) {
      const local = compileLocalBundle(node, miniBatch!, () => this.localFull(), code.layout.merged, resolveFunction);
      this.local = local.bundle;
      this.fold = code.processElement;
      this.processElement = local.process;
    }
  }

  /** The local bundle is full or due: hand it on; a due bundle (allow-latency) ends the global one too, as Flink's mini-batch marker does. */
  private localFull(): void {
    const due = this.local!.count < this.local!.spec.size;
    this.flushLocal();
    if (due) this.flush!();
  }

  /** Hands each key of the local bundle on to the global phase, in Flink's order; the global bundle emits whenever it holds `size` keys. */
  private flushLocal(): void {
    const local = this.local;
    if (local === undefined || local.count === 0) return;
    const b = this.bundle!;
    const fold = this.fold!;
    const order = local.order();
    const records = local.records;
    local.clear();
    let handed = b.records;
    const merged = this.layout.merged;
    for (const l of order) {
      const rs = records[l]!;
      b.current = -1;
      for (let j = 0; j < rs.length; j += 2) fold(0, rs[j] as number, rs[j + 1] as unknown[]);
      // the key's local accumulators merged into its group (Flink's global merge), after the fold has
      // kept the group's result before the bundle; none when every record was an ignored retraction
      if (merged.length > 0 && b.current >= 0) this.mergeLocal(b.current, l);
      b.records = ++handed;
      if (handed >= this.globalSize) {
        this.flush!();
        handed = 0;
      }
    }
  }

  /** Merges local key `l`'s accumulators into group `g` with the user functions' `merge(acc, [local])`. */
  private mergeLocal(g: number, l: number): void {
    const merged = this.layout.merged;
    const local = this.local!;
    const one = this.mergeArgument;
    for (let i = 0; i < merged.length; i++) {
      one[0] = local.accs[i]!.accumulatorOf(l);
      (this.cols.accs[merged[i]!.accumulator] as UdfAccumulator).merge(g, one);
    }
    one.length = 0;
  }

  stateSchema(): Readonly<Record<string, string>> {
    return this.layoutText;
  }

  /** The final watermark ends the open bundle first, so that no change follows it. */
  protected override onWatermark(wm: number): void {
    if (wm === Infinity && this.flush !== undefined) {
      this.flushLocal();
      this.flush();
    }
    this.out.watermark(wm);
  }

  override prepareSnapshotPreBarrier(): boolean {
    if (this.bundle === undefined || (this.bundle.records === 0 && (this.local === undefined || this.local.count === 0))) return false;
    this.flushLocal();
    this.flush!();
    return true;
  }

  protected override onEndOfInput(): void {
    if (this.batch) this.emitAll(this.out);
    this.flushLocal();
    this.flush?.();
    this.out.endInput();
  }

  /** Number of live groups (benchmarks report state size per group). */
  groupCount(): number {
    return this.index.size;
  }

  /** Keys held in state, for a progress display: the live groups. */
  stateKeys(): number {
    return this.index.size;
  }

  /**
   * The groups as `{ keys, rows, accs, written? }[]` (the same with both backends; savepoints always), or —
   * on the disk backend during a checkpoint — the files its store wrote; with an open mini-batch bundle,
   * `{ groups, bundle }`.
   */
  override snapshotState(): unknown {
    const groups = this.groupsSnapshot();
    const b = this.bundle;
    const local = this.local !== undefined && this.local.count > 0 ? this.local.records.slice() : undefined;
    if ((b === undefined || b.records === 0) && local === undefined) return groups;
    // the open bundles are state too: the groups the global one touched with their results before it, and
    // its record count (keys handed on, in two phases); the local one's records per key in order of first touch
    return {
      groups,
      ...(b !== undefined && b.records > 0 ? { bundle: { records: b.records, touched: b.gids.map((_g, i) => ({ keys: b.keys[i], before: b.befores[i] })) } } : {}),
      ...(local !== undefined ? { local } : {}),
    };
  }

  private groupsSnapshot(): GroupEntry[] | StoreFiles {
    const spill = this.spill;
    if (spill !== undefined) {
      spill.writeBack();
      const files = storeSnapshot(spill.store);
      if (files !== undefined) return files;
      const out: GroupEntry[] = [];
      for (const [, e] of spill.store) out.push(e);
      return out;
    }
    const groups: GroupEntry[] = [];
    const ttl = this.ttl;
    this.index.forEachGroup((gid, key) => groups.push({
      keys: this.index.valuesOf(key), ...this.layout.snapshot(this.cols, gid), ...(ttl ? { written: ttl.timeOf(gid) } : {}),
    }));
    return groups;
  }

  override restoreState(state: unknown): void {
    // with TTL a group keeps the time of its last write; one from a checkpoint without TTL starts at the restore
    const now = this.ttl?.now() ?? 0;
    const withBundle = !Array.isArray(state) && !isStoreFiles(state)
      ? state as { groups: GroupEntry[] | StoreFiles; bundle?: { records: number; touched: { keys: unknown[]; before: unknown[] | null }[] }; local?: unknown[][] }
      : undefined;
    this.restoreGroups((withBundle?.groups ?? state) as GroupEntry[] | StoreFiles, now);
    if (withBundle === undefined) return;
    const b = this.bundle;
    if (b === undefined) {
      throw new ValidationError("a snapshot taken with mini-batch holds an open bundle; restore it with table.exec.mini-batch.enabled = true");
    }
    if (withBundle.bundle !== undefined) {
      for (const t of withBundle.bundle.touched) {
        const probe = this.index.probeOf(this.index.keyOf(t.keys));
        b.add(this.index.get(probe), t.before, probe, t.keys);
      }
      b.records = withBundle.bundle.records;
      b.started = b.spec.clock();
    }
    if (withBundle.local === undefined) return;
    if (this.local === undefined) {
      throw new ValidationError("a snapshot taken with a two-phase aggregate holds an open local bundle; restore it with table.exec.mini-batch.enabled = true and table.optimizer.agg-phase-strategy other than ONE_PHASE");
    }
    // the records go through the local phase again, each key's in their order (none is due: the bundle starts now)
    for (const rs of withBundle.local) for (let j = 0; j < rs.length; j += 2) this.processElement(0, rs[j] as number, rs[j + 1] as unknown[]);
  }

  /**
   * Groups from a snapshot: inline entries, or a disk backend's checkpoint files — into the store on the
   * disk backend (loaded when a record reaches them), into the columns on the hashmap backend.
   */
  private restoreGroups(groups: GroupEntry[] | StoreFiles, now: number): void {
    const spill = this.spill;
    const withTime = this.ttl !== undefined;
    if (isStoreFiles(groups)) {
      if (spill !== undefined) {
        restoreStore(groups, spill.store, undefined, (e) => withTime ? stamped(e as GroupEntry, now) : e, now);
        spill.recount();
        return;
      }
      const read = new Map<unknown, GroupEntry>();
      restoreStore(groups, read, undefined, (e) => e, now);
      groups = [...read.values()];
    }
    if (spill !== undefined) {
      for (const g of groups) spill.restored(withTime ? stamped(g, now) : g);
      return;
    }
    for (const g of groups) {
      const gid = this.cols.alloc();
      const key = this.index.keyOf(g.keys);
      const probe = this.index.probeOf(key);
      this.index.add(probe, key, gid);
      this.layout.restore(this.cols, gid, g);
      this.ttl?.created(gid, probe, g.written ?? now);
    }
  }
}

/** A group from a checkpoint taken without TTL starts its TTL at the restore. */
function stamped(e: GroupEntry, now: number): GroupEntry {
  if (e.written === undefined) e.written = now;
  return e;
}
