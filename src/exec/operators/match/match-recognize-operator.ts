import { CodegenContext, type FunctionResolver, compileExpr } from "../../../expressions/compile.js";
import { nextGeneratedName } from "../../../expressions/codegen.js";
import { type ExprNode, col } from "../../../expressions/node.js";
import type { MatchRecognizeNode } from "../../../plan/nodes/match-recognize.js";
import { ExecutionError } from "../../../types/errors.js";
import { Kind } from "../../../types/row.js";
import { type GroupKeys, createGroupKeys } from "../../aggregates/group-keys.js";
import type { ProcessingTimeService, ProcessingTimeTarget, UsesProcessingTime } from "../../time/processing-time-service.js";
import { EventTimeOperator } from "../../windows/event-time-operator.js";
import { type RowComparator, rowComparator } from "../sort/row-comparator.js";
import { HASHMAP_BACKEND, type KeyedStore, type StateBackend, type StoreFiles, isStoreFiles } from "../../state/keyed-store.js";
import { restoreStore, storeSnapshot } from "../../state/snapshot-store.js";
import { TimeQueue } from "../../windows/time-queue.js";
import { errorWithRow } from "../row-error.js";
import { type Nfa, compileNfa } from "./nfa.js";
import { Navigator, type Step } from "./navigation.js";

/** A partial match: the NFA state it waits in, its first row's number and time, its newest step. */
interface Thread {
  readonly state: number;
  readonly start: number;
  readonly startTime: number;
  readonly last: Step | null;
}

/** A complete match waiting for every partial match that began before it (Flink emits matches in start order). */
interface Completed {
  readonly start: number;
  readonly last: Step;
}

interface Partition {
  /** The partition's first row (its key columns name the partition). */
  readonly keyRow: unknown[];
  threads: Thread[];
  completed: Completed[];
  seq: number;
  /** Order of first appearance (the hashmap backend's gid): a watermark's WITHIN expiry visits partitions in it. */
  readonly ord: number;
}

/** A step as stored: [row, variable, seq, time, index of the previous step or -1]. */
type StoredStep = [unknown[], number, number, number, number];
/** A partial match as stored: [state, start, startTime, index of its newest step or -1]. */
type StoredThread = [number, number, number, number];
/** A complete match as stored: [start, index of its last step]. */
type StoredCompleted = [number, number];
/** A partition in a disk store: its steps shared between its partial matches written once (Flink's SharedBuffer). */
type StoredPartition = [keyRow: unknown[], seq: number, ord: number, steps: StoredStep[], threads: StoredThread[], completed: StoredCompleted[]];
/** A partition in a snapshot (both backends), in order of first appearance. */
interface SnapshotPartition { keyRow: unknown[]; seq: number; steps: StoredStep[]; threads: StoredThread[]; completed: StoredCompleted[] }

/**
 * MATCH_RECOGNIZE (Flink's CepOperator running the NFA of StreamExecMatch), ONE ROW PER MATCH:
 * - event time: a row whose time is not after the watermark is late and dropped (`numLateRecordsDropped`);
 *   other rows wait, sorted by the ORDER BY keys (equal keys in arrival order), until the watermark passes them;
 * - processing time (`ORDER BY proctime`): rows match in arrival order, at once. With secondary keys
 *   (`ORDER BY proctime, price`) they wait as in Flink's CepOperator with a comparator: the rows of one
 *   processing time t are buffered and match sorted by the other keys (equal keys in arrival order) once
 *   time passes t — a timer at t + 1 ms, or a row of a later time, or the end of input;
 * - each released row advances every partial match of its partition by one NFA step and may begin a new one;
 *   DEFINE conditions are generated functions over the row and the navigations they read (navigation.ts);
 * - the first branch of a partial match to complete it decides the match; matches go out in the order they
 *   began, a complete match waiting while a partial match that began earlier is still alive;
 * - after a match, AFTER MATCH SKIP discards partial and waiting matches that begin before the skip target
 *   (PAST LAST ROW: up to the match's last row; TO NEXT ROW: those beginning at its first row; TO FIRST / LAST v:
 *   before v's first / last row);
 * - WITHIN d: a partial match is dropped once a row (or the watermark) is d or more after its first row.
 * State: the rows waiting for the watermark (or, on processing time with secondary keys, for time to pass
 * theirs) by time in a store of the job's state backend, each time's rows in arrival order, and the times
 * that hold rows in a queue in memory (Flink's timers, one per time) — the temporal sort's mechanism
 * (sort/temporal-sort-operator.ts); a release takes the due times in order and sorts each time's rows by
 * the other ORDER BY keys (stably: ties in arrival order). Per partition the partial and waiting matches
 * over shared steps: on the hashmap backend live objects by gid; on a disk backend (a backend with a bounded
 * cache) one store entry per partition key, its steps written once with their links as indexes (Flink's
 * CepOperator keeps its NFAState and SharedBuffer in keyed state) — read when a row of the key matches,
 * written back after. WITHIN over event time keeps the probes of the partitions with partial matches in
 * memory (Flink's per-key timers), so a watermark reads only those.
 */
export class MatchRecognizeOperator extends EventTimeOperator implements UsesProcessingTime, ProcessingTimeTarget {
  private readonly keys: GroupKeys;
  private readonly partitions: Partition[] = [];
  private readonly nfa: Nfa;
  private readonly conditions: (((x: unknown[]) => boolean) | undefined)[];
  private readonly conditionNavs: (readonly number[])[];
  private readonly measure: (x: unknown[]) => unknown[];
  private readonly measureNavs: readonly number[];
  private readonly navigator: Navigator;
  private readonly scratch: unknown[];
  private readonly width: number;
  private readonly timeColumn: number;
  private readonly compare: RowComparator;
  /** Waiting rows by time, each list in arrival order. */
  private readonly waiting: KeyedStore<unknown[][]>;
  /** The times `waiting` holds, earliest first. */
  private readonly times = new TimeQueue<number>();
  /** Processing time with secondary ORDER BY keys: rows wait for time to pass theirs (sorted). */
  private readonly procTimeSorted: boolean;
  private timers: ProcessingTimeService | undefined;
  /** The latest processing time a timer was registered for (rows arrive in time order). */
  private timerFor = -Infinity;
  // the step being explored (fields instead of a closure per row)
  private cur!: Thread;
  private row!: unknown[];
  private rowSeq = 0;
  private rowTime = 0;
  private stamp = 0;
  private readonly visited: number[];
  private next: Thread[] = [];
  private readonly done = new Set<number>();
  private readonly newMatches: Completed[] = [];
  /** The partitions on a disk backend (the key index then only computes probes), else undefined. */
  private readonly store: KeyedStore<StoredPartition> | undefined;
  /** Disk backend: the next partition's `ord` (entries are never deleted, as the hashmap keeps its partitions). */
  private ordinals = 0;
  /** Disk backend, WITHIN over event time: probe → ord of the partitions holding partial matches. */
  private readonly withThreads: Map<unknown, number> | undefined;

  constructor(private readonly node: MatchRecognizeNode, resolveFunction?: FunctionResolver, backend: StateBackend = HASHMAP_BACKEND) {
    const timeColumn = node.orderKeys[0]!.column;
    super(timeColumn, `MATCH_RECOGNIZE ordered by '${node.input.schema.names[timeColumn]}'`);
    this.waiting = backend.createStore<unknown[][]>({ name: "MatchRecognize.rows" });
    if (backend.cacheSize !== undefined) {
      this.store = backend.createStore<StoredPartition>({ name: "MatchRecognize.partitions" });
      if (node.within !== undefined && node.timeAttribute !== "PROCTIME") this.withThreads = new Map();
    }
    const schema = node.input.schema;
    this.width = schema.size;
    this.timeColumn = timeColumn;
    this.keys = createGroupKeys(node.partitionKeys.map((k) => col(schema.names[k]!)), schema, resolveFunction);
    this.compare = rowComparator(node.orderKeys);
    this.procTimeSorted = node.timeAttribute === "PROCTIME" && node.orderKeys.length > 1;
    this.nfa = compileNfa(node.pattern);
    this.visited = new Array<number>(this.nfa.states.length).fill(0);
    const navSchema = node.navigationSchema;
    this.conditions = node.defines.map((d, v) => {
      if (d === undefined) return undefined;
      const ctx = new CodegenContext(navSchema, resolveFunction, "x");
      const c = compileExpr(d, ctx);
      const name = nextGeneratedName(`define_${v}_`);
      return ctx.build<(x: unknown[]) => boolean>(`(function ${name}(x){${ctx.tempDeclarations()}return (${c.src})===true;})`, "match", name);
    });
    this.conditionNavs = node.defines.map((d) => (d === undefined ? [] : navigationsOf(d)));
    const mctx = new CodegenContext(navSchema, resolveFunction, "x");
    const items = [...node.partitionKeys.map((k) => `x[${k}]`), ...node.measures.map((m) => compileExpr(m.expr, mctx).src)];
    const mname = nextGeneratedName("measures");
    this.measure = mctx.build<(x: unknown[]) => unknown[]>(`(function ${mname}(x){${mctx.tempDeclarations()}return [${items.join(",")}];})`, "match", mname);
    this.measureNavs = [...new Set(node.measures.flatMap((m) => navigationsOf(m.expr)))];
    this.navigator = new Navigator(node.navigations, this.width, timeColumn, schema, resolveFunction);
    this.scratch = new Array<unknown>(navSchema.size).fill(null);
  }

  processElement(_input: number, kind: number, row: unknown[]): void {
    // processing time: rows match in arrival order, at the PROCTIME() value the row was read with (the job clock)
    if (this.procTimeSorted) { this.bufferProcTime(row); return; }
    if (this.node.timeAttribute === "PROCTIME") { this.match(row, this.rowtime(row), kind); return; }
    const t = this.rowtime(row);
    if (t <= this.currentWatermark) {
      this.numLateRecordsDropped++;
      return;
    }
    this.wait(row, t);
  }

  /** The row waits with the other rows of its time (arrival order). */
  private wait(row: unknown[], t: number): void {
    const rows = this.waiting.get(t);
    if (rows !== undefined) rows.push(row);
    else {
      this.waiting.set(t, [row]);
      this.times.push(t, t);
    }
  }

  /** A row at processing time t first releases the rows of earlier times, then waits, sorted, with the rows of t. */
  private bufferProcTime(row: unknown[]): void {
    const t = this.rowtime(row);
    if (this.times.size > 0 && this.times.peekTime() < t) this.release(t - 1);
    this.wait(row, t);
    if (t > this.timerFor) this.registerTimer(t);
  }

  bindProcessingTime(service: ProcessingTimeService): void {
    if (this.procTimeSorted) this.timers = service;
  }

  /** The job clock passed a time rows wait at: they match, sorted. */
  onProcessingTime(now: number): void {
    this.release(now - 1);
  }

  private registerTimer(t: number): void {
    const timers = this.timers;
    if (timers === undefined) return;
    this.timerFor = t;
    timers.register(this, t + 1);
  }

  protected override onWatermark(wm: number): void {
    // processing time: an (event-time) watermark releases nothing, but the end of input releases every row
    if (!this.procTimeSorted || wm === Infinity) this.release(wm);
    // on processing time an (event-time) watermark says nothing about WITHIN: partial matches expire with rows
    if (this.node.within !== undefined && wm !== Infinity && this.node.timeAttribute !== "PROCTIME") {
      if (this.store !== undefined) this.expireStored(this.store, this.withThreads!, wm);
      else for (const p of this.partitions) if (p.threads.length > 0) { this.expire(p, wm); this.emitReady(p); }
    }
    this.out.watermark(wm);
  }

  /** The waiting rows with a time at or before `upTo` match, in order. */
  private release(upTo: number): void {
    const times = this.times;
    while (times.size > 0 && times.peekTime() <= upTo) {
      const t = times.pop();
      const rows = this.waiting.get(t)!;
      this.waiting.delete(t);
      if (rows.length > 1) rows.sort(this.compare);
      for (let i = 0; i < rows.length; i++) this.match(rows[i]!, t, Kind.INSERT);
    }
  }

  /** The waiting rows in release order (both backends), or on a disk backend during a checkpoint its store's files. */
  private pendingSnapshot(): unknown {
    const files = storeSnapshot(this.waiting);
    if (files !== undefined) return files;
    const out: unknown[][] = [];
    for (const [t] of this.times.entries()) for (const r of this.waiting.get(t)!.slice().sort(this.compare)) out.push(r.slice());
    return out;
  }

  private restorePending(pending: unknown): void {
    if (isStoreFiles(pending)) {
      restoreStore(pending, this.waiting, undefined, (rows) => rows, 0);
      const times: number[] = [];
      for (const t of this.waiting.keys()) times.push(t as number);
      times.sort((a, b) => a - b);
      for (const t of times) this.times.push(t, t);
    } else {
      for (const r of pending as unknown[][]) this.wait(r.slice(), this.rowtime(r));
    }
    // processing time: the timers of the restored rows, one per distinct time
    if (this.procTimeSorted) for (const [t] of this.times.entries()) if (t > this.timerFor) this.registerTimer(t);
  }

  /** Disk backend: the partitions with partial matches, in order of first appearance, expire at the watermark. */
  private expireStored(store: KeyedStore<StoredPartition>, withThreads: Map<unknown, number>, wm: number): void {
    if (withThreads.size === 0) return;
    const due = [...withThreads].sort((a, b) => a[1] - b[1]);
    for (const [probe] of due) {
      const p = fromStored(store.get(probe)!);
      this.expire(p, wm);
      this.emitReady(p);
      store.set(probe, toStored(p));
      if (p.threads.length === 0) withThreads.delete(probe);
    }
  }

  /** One NFA step of the row's partition. */
  private match(row: unknown[], time: number, kind: number): void {
    let gid: number;
    try {
      gid = this.keys.find(row);
    } catch (e) {
      throw errorWithRow(e, kind, row, this.node.input.schema);
    }
    const store = this.store;
    if (store !== undefined) {
      // read the key's partition, step it, write it back (not on an error: the job fails)
      const probe = this.keys.currentProbe();
      const stored = store.get(probe);
      const p: Partition = stored === undefined ? { keyRow: row, threads: [], completed: [], seq: 0, ord: this.ordinals++ } : fromStored(stored);
      this.step(p, row, time, kind);
      store.set(probe, toStored(p));
      const withThreads = this.withThreads;
      if (withThreads !== undefined) {
        if (p.threads.length > 0) withThreads.set(probe, p.ord);
        else withThreads.delete(probe);
      }
      return;
    }
    let p: Partition;
    if (gid < 0) {
      gid = this.partitions.length;
      this.keys.add(gid);
      p = { keyRow: row, threads: [], completed: [], seq: 0, ord: gid };
      this.partitions.push(p);
    } else p = this.partitions[gid]!;
    this.step(p, row, time, kind);
  }

  /** Advances the partition's partial matches by the row, begins a new one, emits the matches now ready. */
  private step(p: Partition, row: unknown[], time: number, kind: number): void {
    if (this.node.within !== undefined) this.expire(p, time);
    this.row = row;
    this.rowSeq = p.seq++;
    this.rowTime = time;
    const next = this.next;
    const threads = p.threads;
    try {
      for (let i = 0; i < threads.length; i++) this.advance(threads[i]!);
      this.advance({ state: this.nfa.start, start: this.rowSeq, startTime: time, last: null });
    } catch (e) {
      next.length = 0;
      this.done.clear();
      this.newMatches.length = 0;
      throw e instanceof ExecutionError ? e : errorWithRow(e, kind, row, this.node.input.schema);
    }
    const done = this.done;
    if (done.size > 0) {
      let w = 0;
      for (let i = 0; i < next.length; i++) if (!done.has(next[i]!.start)) next[w++] = next[i]!;
      next.length = w;
      done.clear();
    }
    // swap the thread lists: the old one becomes the next step's buffer
    threads.length = 0;
    p.threads = next;
    this.next = threads;
    if (this.newMatches.length > 0) {
      for (const m of this.newMatches) insertByStart(p.completed, m);
      this.newMatches.length = 0;
    }
    if (p.completed.length > 0) this.emitReady(p);
  }

  /** Explores a partial match's edges on the current row, in preference order. */
  private advance(t: Thread): void {
    this.cur = t;
    this.stamp++;
    this.explore(t.state);
  }

  /** Whether some TAKE edge reachable from `state` took the row (a greedy split's exit is blocked then). */
  private explore(state: number): boolean {
    const visited = this.visited;
    if (visited[state] === this.stamp) return false;
    visited[state] = this.stamp;
    const s = this.nfa.states[state]!;
    switch (s.kind) {
      case "final": return false;
      case "split": {
        const took = this.explore(s.first);
        if (took && s.blocked) return true;
        return this.explore(s.second) || took;
      }
      case "take": {
        const t = this.cur;
        const v = s.variable;
        const cond = this.conditions[v];
        if (cond !== undefined) {
          const x = this.scratch;
          const row = this.row;
          for (let i = 0; i < this.width; i++) x[i] = row[i];
          const navs = this.conditionNavs[v]!;
          if (navs.length > 0) this.navigator.fill(x, navs, t.last, row, v);
          if (!cond(x)) return false;
        }
        const start = t.last === null ? this.rowSeq : t.start;
        if (this.done.has(start)) return true;
        const step: Step = { row: this.row, variable: v, seq: this.rowSeq, time: this.rowTime, prev: t.last };
        if (this.nfa.completes[s.next]) {
          this.newMatches.push({ start, last: step });
          this.done.add(start);
        } else {
          this.next.push({ state: s.next, start, startTime: t.last === null ? this.rowTime : t.startTime, last: step });
        }
        return true;
      }
    }
  }

  /** WITHIN: drops the partial matches whose first row is `within` or more before `now`. */
  private expire(p: Partition, now: number): void {
    const within = this.node.within!;
    let w = 0;
    const ts = p.threads;
    for (let i = 0; i < ts.length; i++) if (now - ts[i]!.startTime < within) ts[w++] = ts[i]!;
    ts.length = w;
  }

  /** Emits the waiting matches no earlier partial match can precede any more, applying AFTER MATCH SKIP. */
  private emitReady(p: Partition): void {
    while (p.completed.length > 0) {
      const m = p.completed[0]!;
      if (p.threads.length > 0 && p.threads[0]!.start < m.start) return;
      p.completed.shift();
      this.emit(m);
      // prune: starts up to `through` (inclusive) are discarded
      let through: number;
      const after = this.node.after;
      if (after.kind === "PAST_LAST_ROW") through = m.last.seq;
      else if (after.kind === "TO_NEXT_ROW") through = m.start;
      else {
        let target = -1;
        for (let s: Step | null = m.last; s !== null; s = s.prev) {
          if (s.variable !== after.variable) continue;
          target = s.seq;
          if (after.kind === "TO_LAST") break;
        }
        if (target === m.start) throw new ExecutionError(`Could not skip to first element of a match: AFTER MATCH SKIP TO ${after.kind === "TO_FIRST" ? "FIRST" : "LAST"} ${this.node.variables[after.variable]} would begin the next match where this one began`);
        through = target < 0 ? m.start : target - 1;
      }
      p.threads = p.threads.filter((t) => t.start > through);
      p.completed = p.completed.filter((c) => c.start > through);
    }
  }

  private emit(m: Completed): void {
    const x = this.scratch;
    const row = m.last.row;
    for (let i = 0; i < this.width; i++) x[i] = row[i];
    if (this.measureNavs.length > 0) this.navigator.fill(x, this.measureNavs, m.last, null, -1);
    this.out.record(Kind.INSERT, this.measure(x));
  }

  override snapshotState(): unknown {
    const partitions: SnapshotPartition[] = [];
    const store = this.store;
    if (store !== undefined) {
      const files = storeSnapshot(store);
      if (files !== undefined) return { numLateRecordsDropped: this.numLateRecordsDropped, pending: this.pendingSnapshot(), partitions: files };
      const stored: StoredPartition[] = [];
      for (const [, sp] of store) if (sp[4].length > 0 || sp[5].length > 0) stored.push(sp);
      stored.sort((x, y) => x[2] - y[2]);
      for (const sp of stored) partitions.push(snapshotOf(toStored(fromStored(sp))));
    } else {
      for (const p of this.partitions) if (p.threads.length > 0 || p.completed.length > 0) partitions.push(snapshotOf(toStored(p)));
    }
    return { numLateRecordsDropped: this.numLateRecordsDropped, pending: this.pendingSnapshot(), partitions };
  }

  override restoreState(state: unknown): void {
    const s = state as { numLateRecordsDropped: number; pending: unknown; partitions: SnapshotPartition[] | StoreFiles };
    this.numLateRecordsDropped = s.numLateRecordsDropped;
    this.restorePending(s.pending);
    const store = this.store;
    let partitions = s.partitions;
    if (isStoreFiles(partitions)) {
      if (store !== undefined) {
        restoreStore(partitions, store, undefined, (p) => p, 0);
        this.ordinals = store.size;
        const withThreads = this.withThreads;
        if (withThreads !== undefined) for (const [probe, sp] of store) if (sp[4].length > 0) withThreads.set(probe, sp[2]);
        return;
      }
      const read = new Map<unknown, StoredPartition>();
      restoreStore(partitions, read, undefined, (p) => p, 0);
      partitions = [...read.values()].sort((x, y) => x[2] - y[2]).map(snapshotOf);
    }
    for (const given of partitions) {
      const sp = snapshotOf([given.keyRow, given.seq, 0, given.steps, given.threads, given.completed]);
      if (this.keys.find(sp.keyRow) >= 0 || (store !== undefined && store.has(this.keys.currentProbe()))) {
        throw new ExecutionError("MATCH_RECOGNIZE: a snapshot holds one partition twice");
      }
      if (store !== undefined) {
        const ord = this.ordinals++;
        store.set(this.keys.currentProbe(), [sp.keyRow, sp.seq, ord, sp.steps, sp.threads, sp.completed]);
        if (this.withThreads !== undefined && sp.threads.length > 0) this.withThreads.set(this.keys.currentProbe(), ord);
        continue;
      }
      const gid = this.partitions.length;
      this.keys.add(gid);
      const p = fromStored([sp.keyRow, sp.seq, gid, sp.steps, sp.threads, sp.completed]);
      this.partitions.push(p);
    }
  }
}

/** A partition as plain data: each step written once, links as indexes (a snapshot's and a disk store's form). */
function toStored(p: Partition): StoredPartition {
  const index = new Map<Step, number>();
  const steps: StoredStep[] = [];
  const threads: StoredThread[] = new Array<StoredThread>(p.threads.length);
  for (let i = 0; i < p.threads.length; i++) {
    const t = p.threads[i]!;
    threads[i] = [t.state, t.start, t.startTime, stepRef(t.last, index, steps)];
  }
  const completed: StoredCompleted[] = new Array<StoredCompleted>(p.completed.length);
  for (let i = 0; i < p.completed.length; i++) completed[i] = [p.completed[i]!.start, stepRef(p.completed[i]!.last, index, steps)];
  return [p.keyRow, p.seq, p.ord, steps, threads, completed];
}

/** The index of a step in `steps`, written there (after its predecessors) if it is not yet. */
function stepRef(s: Step | null, index: Map<Step, number>, steps: StoredStep[]): number {
  if (s === null) return -1;
  const known = index.get(s);
  if (known !== undefined) return known;
  const prev = stepRef(s.prev, index, steps);
  index.set(s, steps.push([s.row, s.variable, s.seq, s.time, prev]) - 1);
  return steps.length - 1;
}

/** The live partition of its plain form (steps linked again, shared as before). */
function fromStored(sp: StoredPartition): Partition {
  const [keyRow, seq, ord, stored, storedThreads, storedCompleted] = sp;
  const steps: Step[] = new Array<Step>(stored.length);
  for (let i = 0; i < stored.length; i++) {
    const [row, variable, sq, time, prev] = stored[i]!;
    steps[i] = { row, variable, seq: sq, time, prev: prev < 0 ? null : steps[prev]! };
  }
  const threads: Thread[] = new Array<Thread>(storedThreads.length);
  for (let i = 0; i < storedThreads.length; i++) {
    const [state, start, startTime, last] = storedThreads[i]!;
    threads[i] = { state, start, startTime, last: last < 0 ? null : steps[last]! };
  }
  const completed: Completed[] = new Array<Completed>(storedCompleted.length);
  for (let i = 0; i < storedCompleted.length; i++) completed[i] = { start: storedCompleted[i]![0], last: steps[storedCompleted[i]![1]]! };
  return { keyRow, seq, ord, threads, completed };
}

/** A snapshot's partition: copies of the rows (the live ones stay with the operator). */
function snapshotOf([keyRow, seq, , steps, threads, completed]: StoredPartition): SnapshotPartition {
  return { keyRow: keyRow.slice(), seq, steps: steps.map(([row, v, sq, t, prev]): StoredStep => [row.slice(), v, sq, t, prev]), threads, completed };
}

/** The navigation slots (`$nav<i>` columns after the input's) an expression reads. */
function navigationsOf(e: ExprNode): number[] {
  const out = new Set<number>();
  const walk = (n: ExprNode): void => {
    switch (n.kind) {
      case "Column": { const m = /^\$nav(\d+)$/.exec(n.name); if (m !== null) out.add(Number(m[1])); break; }
      case "Call": n.args.forEach(walk); break;
      case "Alias": case "Sort": case "Argument": walk(n.expr); break;
      default:
    }
  };
  walk(e);
  return [...out].sort((a, b) => a - b);
}

function insertByStart(list: Completed[], m: Completed): void {
  let i = list.length;
  while (i > 0 && list[i - 1]!.start > m.start) i--;
  list.splice(i, 0, m);
}
