import type { FunctionResolver } from "../../expressions/compile.js";
import type { WindowAggregateNode, WindowProperty } from "../../plan/nodes.js";
import { Kind } from "../../types/row.js";
import { type GroupKeys, createGroupKeys } from "../aggregates/group-keys.js";
import { errorWithRow } from "./row-error.js";
import { type KeyedStore, type StateBackend, type StoreFiles, isStoreFiles } from "../state/keyed-store.js";
import { restoreStore, storeSnapshot } from "../state/snapshot-store.js";
import { AggregateSet, type ArgumentReader, argumentReader } from "../windows/aggregate-set.js";
import { EventTimeOperator, windowProperty } from "../windows/event-time-operator.js";
import { TimeQueue } from "../windows/time-queue.js";

/**
 * A session of one key: [start, end) with end = last row time + gap, and the aggregate arguments of its rows.
 * It has one entry in the firing queue, at the end it had when queued; a session that grew since is
 * re-queued at its new end when that entry comes due (no queue traffic per row).
 */
interface SessionState {
  start: number;
  end: number;
  /** The arguments of each row, `argCount` values per row (merging two sessions concatenates these). */
  args: unknown[];
  /** False once fired or merged into another session; its queue entry is then skipped. */
  live: boolean;
  key: KeyState;
}

/** A key with open sessions; `row` is a row of the key, used to address it in the key index again. */
interface KeyState {
  gid: number;
  keyValues: unknown[];
  row: unknown[];
  sessions: SessionState[];
}

/** A session in a key's store entry (disk backend): `id` names it in the firing queue. */
interface StoredSession {
  id: number;
  start: number;
  end: number;
  args: unknown[];
}

/** A key's entry in the disk backend's store (by the key's probe): its values, a row of it, its open sessions. */
interface StoredKey {
  keyValues: unknown[];
  row: unknown[];
  sessions: StoredSession[];
}

/** A firing-queue entry on the disk backend: the key's probe and the session's id (stale once it is gone). */
interface SessionTimer {
  probe: unknown;
  id: number;
}

/**
 * A snapshot in the hashmap backend's form (both backends outside a checkpoint): live sessions in queue order.
 * `queued` is the time of the session's queue entry — its end when it was queued, earlier than `end` if it grew
 * since. A restore queues it there again, so a grown session is re-queued when that entry comes due, behind the
 * sessions queued at its new end before it, as in the uninterrupted run (snapshots without it: `end`).
 */
interface SessionSnapshot {
  sessions: { keyValues: unknown[]; row: unknown[]; start: number; end: number; args: unknown[]; queued?: number }[];
  numLateRecordsDropped: number;
}

/** A disk backend's snapshot during a checkpoint: its store's files and the queue `[time, probe, session id]`. */
interface SessionStoreSnapshot {
  files: StoreFiles;
  timers: [number, unknown, number][];
  nextId: number;
  numLateRecordsDropped: number;
}

/**
 * Session-window aggregation with Flink's merging rules (WindowOperator with MergingWindowSet):
 * - a row opens the window [t, t + gap); windows of the same key that intersect it (touching counts:
 *   [1, 4) and [4, 7) merge) merge into one session;
 * - a session fires when the watermark reaches end - 1 ms, with one `+I`, in order of session end;
 * - a row whose own window does not reach an open session and has end - 1 <= watermark is late: dropped
 *   and counted in `numLateRecordsDropped`;
 * - end of input fires every open session.
 * Sessions keep their rows' aggregate arguments until they fire (merging replays nothing: the lists are
 * concatenated) and aggregate them then, which is why the accumulators need no merge operation.
 * A key or argument expression that fails on a record fails the job with the record named (row-error.ts).
 *
 * State: on the hashmap backend objects per key and session, the queue holding the sessions. On a disk
 * backend (a backend with a bounded cache, state/keyed-store.ts) each key is one store entry by its probe
 * (`StoredKey`: its sessions and their arguments — Flink's MergingWindowSet and window state of the key),
 * and the queue (Flink's timers, on the heap as for the other operators) holds `(probe, session id)`: a
 * watermark reads the keys whose sessions are due, never all keys. The same merging and firing code order
 * gives the same changelog on both.
 */
export class SessionWindowAggregateOperator extends EventTimeOperator {
  private readonly keys: GroupKeys;
  private readonly byGid: (KeyState | undefined)[] = [];
  private readonly freeGids: number[] = [];
  private nextGid = 0;
  private readonly queue = new TimeQueue<SessionState>();
  private readonly aggs: AggregateSet;
  private readonly readArgs: ArgumentReader;
  private readonly args: unknown[];
  private readonly argCount: number;
  private readonly gap: number;
  private readonly keyCount: number;
  private readonly properties: readonly WindowProperty[];
  /** Disk backend: the keys by probe, and their sessions' firing queue (`queue` then stays empty). */
  private readonly store: KeyedStore<StoredKey> | undefined;
  private readonly storeQueue = new TimeQueue<SessionTimer>();
  private nextId = 0;

  constructor(private readonly node: WindowAggregateNode, resolveFunction?: FunctionResolver, backend?: StateBackend) {
    super(node.input.schema.indexOf(node.window.timeColumn), `window '${node.window.alias}' on column '${node.window.timeColumn}'`);
    this.keys = createGroupKeys(node.groupKeys, node.input.schema, resolveFunction);
    this.aggs = new AggregateSet(node.aggCalls, false);
    this.readArgs = argumentReader(node.aggCalls, node.input.schema, resolveFunction);
    this.argCount = node.aggCalls.length;
    this.args = new Array<unknown>(this.argCount).fill(null);
    this.gap = node.window.size;
    this.keyCount = node.groupKeys.length;
    this.properties = node.properties;
    if (backend?.cacheSize !== undefined) this.store = backend.createStore<StoredKey>({ name: "SessionWindowAggregate.keys" });
  }

  /** Number of open sessions (state-size reports). */
  entryCount(): number {
    let n = 0;
    if (this.store !== undefined) {
      for (const [, e] of this.store) n += e.sessions.length;
      return n;
    }
    for (const k of this.byGid) if (k) n += k.sessions.length;
    return n;
  }

  processElement(_input: number, kind: number, row: unknown[]): void {
    const ts = this.rowtime(row);
    try {
      this.assign(ts, row);
    } catch (e) {
      // nothing is emitted while a record is assigned: every error here comes from this record
      throw errorWithRow(e, kind, row, this.node.input.schema);
    }
  }

  /** Puts the record into a new session of its key, or the session(s) its window merges with; counts it late otherwise. */
  private assign(ts: number, row: unknown[]): void {
    let start = ts;
    let end = ts + this.gap;
    const gid = this.keys.find(row);
    if (this.store !== undefined) {
      this.assignOnStore(this.store, start, end, row);
      return;
    }
    const key = gid < 0 ? undefined : this.byGid[gid];
    // sessions of this key that intersect [ts, ts + gap) (Flink's TimeWindow.intersects: bounds inclusive)
    let merged: SessionState | undefined;
    if (key) {
      const sessions = key.sessions;
      for (let i = 0; i < sessions.length; i++) {
        const s = sessions[i]!;
        if (s.start <= end && s.end >= start) {
          if (s.start < start) start = s.start;
          if (s.end > end) end = s.end;
          if (merged === undefined) merged = s;
          else {
            // fold s into the first intersecting session; its queue entry goes stale
            for (const a of s.args) merged.args.push(a);
            s.live = false;
            sessions.splice(i--, 1);
          }
        }
      }
    }
    if (merged === undefined && end - 1 <= this.currentWatermark) {
      this.numLateRecordsDropped++;
      return;
    }
    this.readArgs(row, this.args);
    const k = key ?? this.newKey(row);
    k.row = row;
    if (merged === undefined) {
      merged = { start, end, args: [], live: true, key: k };
      k.sessions.push(merged);
      this.queue.push(end, merged);
    } else {
      // the session grows in place; its queue entry (at the old end) re-schedules it when it comes due
      merged.start = start;
      merged.end = end;
    }
    const a = this.args;
    for (let i = 0; i < a.length; i++) merged.args.push(a[i]);
  }

  /** Disk backend: the same merging over the key's entry (the key was just found by `keys.find`). */
  private assignOnStore(store: KeyedStore<StoredKey>, start: number, end: number, row: unknown[]): void {
    const probe = this.keys.currentProbe();
    const e = store.get(probe);
    let merged: StoredSession | undefined;
    if (e !== undefined) {
      const sessions = e.sessions;
      for (let i = 0; i < sessions.length; i++) {
        const s = sessions[i]!;
        if (s.start <= end && s.end >= start) {
          if (s.start < start) start = s.start;
          if (s.end > end) end = s.end;
          if (merged === undefined) merged = s;
          else {
            // fold s into the first intersecting session; its queue entry goes stale (its id is gone)
            for (const a of s.args) merged.args.push(a);
            sessions.splice(i--, 1);
          }
        }
      }
    }
    if (merged === undefined && end - 1 <= this.currentWatermark) {
      this.numLateRecordsDropped++;
      return;
    }
    this.readArgs(row, this.args);
    const k = e ?? { keyValues: this.keys.currentValues(), row, sessions: [] };
    k.row = row;
    if (merged === undefined) {
      merged = { id: this.nextId++, start, end, args: [] };
      k.sessions.push(merged);
      this.storeQueue.push(end, { probe, id: merged.id });
    } else {
      merged.start = start;
      merged.end = end;
    }
    const a = this.args;
    for (let i = 0; i < a.length; i++) merged.args.push(a[i]);
    store.set(probe, k);
  }

  private newKey(row: unknown[]): KeyState {
    const gid = this.freeGids.pop() ?? this.nextGid++;
    this.keys.add(gid);
    const keyValues = new Array<unknown>(this.keyCount);
    this.keys.write(keyValues);
    const k: KeyState = { gid, keyValues, row, sessions: [] };
    this.byGid[gid] = k;
    return k;
  }

  protected override onWatermark(wm: number): void {
    if (this.store !== undefined) {
      this.fireOnStore(this.store, wm);
      this.out.watermark(wm);
      return;
    }
    const q = this.queue;
    while (q.size > 0 && q.peekTime() - 1 <= wm) {
      const due = q.peekTime();
      const s = q.pop();
      if (!s.live) continue; // merged into another session
      if (s.end > due) q.push(s.end, s); // grew since it was queued
      else this.fire(s);
    }
    this.out.watermark(wm);
  }

  /** Disk backend: fires the due sessions, reading only their keys' entries. */
  private fireOnStore(store: KeyedStore<StoredKey>, wm: number): void {
    const q = this.storeQueue;
    while (q.size > 0 && q.peekTime() - 1 <= wm) {
      const due = q.peekTime();
      const t = q.pop();
      const e = store.get(t.probe);
      if (e === undefined) continue;
      const sessions = e.sessions;
      let i = 0;
      while (i < sessions.length && sessions[i]!.id !== t.id) i++;
      if (i === sessions.length) continue; // merged into another session
      const s = sessions[i]!;
      if (s.end > due) {
        q.push(s.end, t); // grew since it was queued
        continue;
      }
      sessions.splice(i, 1);
      if (sessions.length === 0) store.delete(t.probe);
      else store.set(t.probe, e);
      this.emit(e.keyValues, s.start, s.end, s.args);
    }
  }

  private fire(s: SessionState): void {
    s.live = false;
    const key = s.key;
    key.sessions.splice(key.sessions.indexOf(s), 1);
    if (key.sessions.length === 0) {
      // address the key again through one of its rows to drop it from the index
      this.keys.find(key.row);
      this.keys.remove(key.gid);
      this.byGid[key.gid] = undefined;
      this.freeGids.push(key.gid);
    }
    this.emit(key.keyValues, s.start, s.end, s.args);
  }

  /** Aggregates a session's rows and emits its `+I`. */
  private emit(keyValues: readonly unknown[], start: number, end: number, all: readonly unknown[]): void {
    const aggs = this.aggs;
    const n = this.argCount;
    // aggregate the session's rows in scratch group 0
    aggs.reset(0);
    const one = this.args;
    for (let i = 0; i < all.length; i += n) {
      for (let j = 0; j < n; j++) one[j] = all[i + j];
      aggs.accumulate(0, one);
    }
    const k = this.keyCount;
    const props = this.properties;
    const row = new Array<unknown>(k + n + props.length);
    for (let i = 0; i < k; i++) row[i] = keyValues[i];
    aggs.write(0, row, k);
    for (let i = 0; i < props.length; i++) row[k + n + i] = windowProperty(props[i]!, start, end);
    this.out.record(Kind.INSERT, row);
  }

  override snapshotState(): unknown {
    const store = this.store;
    if (store !== undefined) {
      const files = storeSnapshot(store);
      const entries = this.storeQueue.entries();
      if (files !== undefined) {
        const cp: SessionStoreSnapshot = { files, timers: entries.map(([t, e]) => [t, e.probe, e.id]), nextId: this.nextId, numLateRecordsDropped: this.numLateRecordsDropped };
        return cp;
      }
      // outside a checkpoint: the hashmap backend's form (each live session has one queue entry)
      const sessions: SessionSnapshot["sessions"] = [];
      for (const [time, t] of entries) {
        const e = store.get(t.probe);
        const s = e?.sessions.find((x) => x.id === t.id);
        if (e !== undefined && s !== undefined) sessions.push({ keyValues: e.keyValues, row: e.row, start: s.start, end: s.end, args: s.args.slice(), queued: time });
      }
      const snapshot: SessionSnapshot = { sessions, numLateRecordsDropped: this.numLateRecordsDropped };
      return snapshot;
    }
    const sessions: SessionSnapshot["sessions"] = [];
    for (const [time, s] of this.queue.entries()) {
      if (s.live) sessions.push({ keyValues: s.key.keyValues, row: s.key.row, start: s.start, end: s.end, args: s.args.slice(), queued: time });
    }
    const snapshot: SessionSnapshot = { sessions, numLateRecordsDropped: this.numLateRecordsDropped };
    return snapshot;
  }

  override restoreState(state: unknown): void {
    let st = state as SessionSnapshot | SessionStoreSnapshot;
    const store = this.store;
    if ("files" in st && isStoreFiles(st.files)) {
      this.numLateRecordsDropped = st.numLateRecordsDropped;
      if (store !== undefined) {
        restoreStore(st.files, store, undefined, (e) => e, 0);
        for (const [t, probe, id] of st.timers) this.storeQueue.push(t, { probe, id });
        this.nextId = st.nextId;
        return;
      }
      // onto the hashmap backend: the stored sessions in queue order
      const read = new Map<unknown, StoredKey>();
      restoreStore(st.files, read as Map<unknown, unknown>, undefined, (e) => e, 0);
      const sessions: SessionSnapshot["sessions"] = [];
      for (const [time, probe, id] of st.timers) {
        const e = read.get(probe);
        const s = e?.sessions.find((x) => x.id === id);
        if (e !== undefined && s !== undefined) sessions.push({ keyValues: e.keyValues, row: e.row, start: s.start, end: s.end, args: s.args, queued: time });
      }
      st = { sessions, numLateRecordsDropped: st.numLateRecordsDropped };
    }
    const snap = st as SessionSnapshot;
    this.numLateRecordsDropped = snap.numLateRecordsDropped;
    if (store !== undefined) {
      for (const s of snap.sessions) {
        this.keys.find(s.row);
        const probe = this.keys.currentProbe();
        const e = store.get(probe) ?? { keyValues: s.keyValues.slice(), row: s.row.slice(), sessions: [] };
        const id = this.nextId++;
        e.sessions.push({ id, start: s.start, end: s.end, args: s.args.slice() });
        store.set(probe, e);
        this.storeQueue.push(s.queued ?? s.end, { probe, id });
      }
      return;
    }
    for (const s of snap.sessions) {
      const gid = this.keys.find(s.row);
      const key = gid < 0 ? this.newKey(s.row) : this.byGid[gid]!;
      const session: SessionState = { start: s.start, end: s.end, args: s.args.slice(), live: true, key };
      key.sessions.push(session);
      this.queue.push(s.queued ?? s.end, session);
    }
  }
}
