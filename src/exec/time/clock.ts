import { ValidationError } from "../../types/errors.js";

/**
 * The job clock (processing time, epoch millis) and how a job sleeps on it. A job whose sources are idle
 * but which holds processing-time timers (time/processing-time-service.ts) asks its clock to wake it at the
 * earliest one:
 * - the wall clock (`Date.now`, the default) wakes through `setTimeout`;
 * - a `manualClock` wakes the job when a test advances it past the timer — deterministic, no real time;
 * - any other function (`env.setClock(() => t)`) is read at every step but cannot wake an idle job: its
 *   timers fire at the next step (a row arriving, the end of input).
 */
export interface WakingClock {
  (): number;
  /** Calls `wake` once the clock reads `time` or later; returns what cancels the request. */
  wakeAt(time: number, wake: () => void): () => void;
}

/** A clock a test moves by hand: `const clock = manualClock(t0); env.setClock(clock); clock.advanceTo(t1)`. */
export interface ManualClock extends WakingClock {
  /** Moves the clock to `time` (never backwards) and wakes the jobs whose timers are now due. */
  advanceTo(time: number): void;
  advanceBy(ms: number): void;
}

export function manualClock(start: number): ManualClock {
  if (!Number.isFinite(start)) throw new ValidationError(`manualClock(start): start must be a finite epoch-millisecond time, got ${start}`);
  let now = start;
  let waiting: { time: number; wake: () => void }[] = [];
  const clock = (() => now) as ManualClock;
  clock.wakeAt = (time, wake) => {
    if (time <= now) {
      wake();
      return () => {};
    }
    const w = { time, wake };
    waiting.push(w);
    return () => { waiting = waiting.filter((x) => x !== w); };
  };
  clock.advanceTo = (time) => {
    if (!Number.isFinite(time)) throw new ValidationError(`advanceTo(time): time must be a finite epoch-millisecond time, got ${time}`);
    if (time < now) throw new ValidationError(`advanceTo(time): processing time never goes back (the clock reads ${now}, asked for ${time})`);
    now = time;
    const due = waiting.filter((w) => w.time <= now);
    waiting = waiting.filter((w) => w.time > now);
    for (const w of due) w.wake();
  };
  clock.advanceBy = (ms) => {
    if (!Number.isFinite(ms) || ms < 0) throw new ValidationError(`advanceBy(ms): ms must be a non-negative number, got ${ms}`);
    clock.advanceTo(now + ms);
  };
  return clock;
}

/**
 * Asks `clock` to call `wake` at `time`: a cancel function, or undefined when the clock cannot wake anyone
 * (a plain function other than `Date.now`).
 */
export function wakeAt(clock: () => number, time: number, wake: () => void): (() => void) | undefined {
  const waking = (clock as Partial<WakingClock>).wakeAt;
  if (typeof waking === "function") return waking(time, wake);
  if (clock !== Date.now) return undefined;
  const handle = setTimeout(wake, Math.max(0, time - Date.now()));
  return () => clearTimeout(handle);
}
