import fc from "fast-check";
import type { DataType } from "../types/data-type.js";
import type { RowKind } from "../types/row.js";
import { arbitraryRecord } from "./arbitraries.js";
import type { ChangelogEntry } from "./changelog.js";

/**
 * Generators of whole inputs for property tests: consistent changelogs, event-time streams that are out of
 * order within a bounded delay (and optionally late), arrival orders that keep every row on time, and
 * interleavings of several inputs. All are fast-check arbitraries, so failures shrink.
 */

export interface ChangelogOptions {
  /** Upsert by these fields: a key's later row updates it (`-U` old, `+U` new) or deletes it (`-D`). */
  readonly key?: readonly string[];
  readonly maxLength?: number;
}

type Op = { readonly op: "insert" | "update" | "delete"; readonly pick: number };

/**
 * A changelog that is well formed: every `-U`/`-D` retracts a row that is in the table at that point, and
 * every `-U` is followed by its `+U`. With `key`, at most one row per key is live (an upsert stream with
 * full retractions): an insert of a live key becomes an update of it.
 */
export function arbitraryChangelog<T extends object>(rowType: DataType<T | null>, options: ChangelogOptions = {}): fc.Arbitrary<ChangelogEntry<T>[]> {
  const op: fc.Arbitrary<Op> = fc.record({
    op: fc.constantFrom<Op["op"]>("insert", "insert", "update", "delete"),
    pick: fc.nat(),
  });
  return fc.array(fc.tuple(op, arbitraryRecord(rowType)), { maxLength: options.maxLength ?? 30 }).map((steps) => {
    const live: T[] = [];
    const out: ChangelogEntry<T>[] = [];
    const keyOf = options.key ? (r: T) => JSON.stringify(options.key!.map((k) => (r as Record<string, unknown>)[k])) : undefined;
    const emit = (kind: RowKind, row: T) => out.push({ kind, row });
    for (const [{ op: what, pick }, fresh] of steps) {
      if (what === "insert" || live.length === 0) {
        const same = keyOf ? live.findIndex((r) => keyOf(r) === keyOf(fresh)) : -1;
        if (same >= 0) {
          emit("-U", live[same]!);
          emit("+U", fresh);
          live[same] = fresh;
        } else {
          emit("+I", fresh);
          live.push(fresh);
        }
        continue;
      }
      const i = pick % live.length;
      if (what === "delete") {
        emit("-D", live[i]!);
        live.splice(i, 1);
      } else {
        // an update keeps the key when there is one
        const next = keyOf ? { ...fresh, ...Object.fromEntries(options.key!.map((k) => [k, (live[i] as Record<string, unknown>)[k]])) } as T : fresh;
        emit("-U", live[i]!);
        emit("+U", next);
        live[i] = next;
      }
    }
    return out;
  });
}

export interface EventTimeOptions {
  /** The TIMESTAMP / TIMESTAMP_LTZ field that carries event time. */
  readonly timeField: string;
  /** Rows arrive out of order by at most this much (the watermark delay to declare). */
  readonly delayMs: number;
  /** First event time (epoch ms): 0 by default. */
  readonly start?: number;
  /** Largest step between consecutive event times: 1000 ms by default. */
  readonly maxStepMs?: number;
  /** Share (0..1) of rows that arrive late: behind the watermark by more than the delay. */
  readonly lateShare?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
}

/**
 * An event-time stream in arrival order: event times advance by random steps, each row arrives up to
 * `delayMs` out of order (so with a watermark of `time - delayMs` none is late), and a `lateShare` of rows
 * arrive late on purpose. Each row reports whether it was made late.
 */
export function arbitraryEventTimeStream<T extends object>(rowType: DataType<T | null>, options: EventTimeOptions): fc.Arbitrary<{ row: T; late: boolean }[]> {
  const { timeField, delayMs } = options;
  const start = options.start ?? 0;
  const maxStep = options.maxStepMs ?? 1000;
  const late = options.lateShare ?? 0;
  const one = fc.record({
    row: arbitraryRecord(rowType),
    step: fc.integer({ min: 0, max: maxStep }),
    jitter: fc.integer({ min: 0, max: Math.max(0, delayMs - 1) }),
    late: late > 0 ? fc.double({ min: 0, max: 1, noNaN: true }).map((x) => x < late) : fc.constant(false),
  });
  return fc.array(one, { minLength: options.minLength ?? 0, maxLength: options.maxLength ?? 30 }).map((items) => {
    let t = start;
    const timed = items.map((it, i) => {
      t += it.step;
      return { row: { ...it.row, [timeField]: new Date(t) } as T, time: t, key: t + it.jitter, i, late: it.late };
    });
    // arrival = event time plus a jitter below the delay: nobody overtakes a row by the delay or more
    const arrival = [...timed].sort((a, b) => a.key - b.key || a.i - b.i);
    const out: { row: T; late: boolean }[] = [];
    let maxSeen = -Infinity;
    for (const r of arrival) {
      if (r.late && maxSeen !== -Infinity) {
        // behind the watermark: earlier than anything seen minus the delay
        const lateTime = maxSeen - delayMs - 1 - (r.time % 1000);
        out.push({ row: { ...r.row, [timeField]: new Date(lateTime) } as T, late: true });
        continue;
      }
      maxSeen = Math.max(maxSeen, r.time);
      out.push({ row: r.row, late: false });
    }
    return out;
  });
}

/**
 * Arrival orders of the same rows that keep every row on time for a watermark of `max(time) - delayMs`:
 * each row may be overtaken only by rows less than `delayMs` younger. Feed each order to the same program
 * and compare the final results (`checkArrivalOrderInsensitive` does this).
 */
export function arbitraryArrivalOrder<T>(rows: readonly T[], timeOf: (row: T) => number, delayMs: number): fc.Arbitrary<T[]> {
  return fc.array(fc.integer({ min: 0, max: Math.max(0, delayMs - 1) }), { minLength: rows.length, maxLength: rows.length }).map((jitter) =>
    rows.map((row, i) => ({ row, i, key: timeOf(row) + jitter[i]! }))
      .sort((a, b) => a.key - b.key || timeOf(a.row) - timeOf(b.row) || a.i - b.i)
      .map((x) => x.row));
}

/** Interleavings of several inputs that keep each input's own order (the order co-partitioned inputs arrive in). */
export function arbitraryInterleaving<T>(...inputs: readonly (readonly T[])[]): fc.Arbitrary<{ input: number; row: T }[]> {
  const total = inputs.reduce((n, i) => n + i.length, 0);
  return fc.array(fc.nat(), { minLength: total, maxLength: total }).map((choices) => {
    const pos = inputs.map(() => 0);
    const out: { input: number; row: T }[] = [];
    for (const c of choices) {
      const open = inputs.map((inp, i) => (pos[i]! < inp.length ? i : -1)).filter((i) => i >= 0);
      const i = open[c % open.length]!;
      out.push({ input: i, row: inputs[i]![pos[i]!++]! });
    }
    return out;
  });
}
