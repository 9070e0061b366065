/**
 * Job metrics: one registry per job, holding plain numeric metrics grouped by scope — an operator or a
 * source, named after its plan node (`WindowAggregate[w]`, `filesystem[orders]`, `Sink[out]`). Metric
 * names follow Flink's (`numRecordsIn`, `numRecordsOut`, `numLateRecordsDropped`, ...); see docs/metrics.md.
 *
 * Nothing here runs per record. A component either increments a `Counter` it was given
 * (`counter.count++`) or keeps the number in a field of its own and registers a gauge that reads it
 * (`group.gauge(name, () => this.dropped)`); reading happens only when a user asks for a snapshot.
 * The job is single-threaded and snapshots are taken between slices, so a snapshot is consistent.
 */
import type { MetricsSnapshot } from "./job-contract.js";

/** A count that only its owner increments (Flink's SimpleCounter). */
export class Counter {
  count = 0;

  inc(n = 1): void {
    this.count += n;
  }
}

/** The metrics of one operator or source: `<scope>.<name>` in a snapshot. */
export interface MetricGroup {
  /** The group's scope, unique in its job (`WindowAggregate[w]`, a second one `WindowAggregate[w]#2`). */
  readonly scope: string;
  /** A new counter named `name` in this group. */
  counter(name: string): Counter;
  /** A metric whose value is read from its owner when a snapshot is taken. */
  gauge(name: string, read: () => number): void;
}

type Metric = Counter | (() => number);

/** The registry of one job. */
export class JobMetrics {
  private readonly metrics = new Map<string, Metric>();
  private readonly scopes = new Map<string, number>();

  /**
   * A group for `scope`. Two components with the same name (two windows aliased `w`, one table read
   * twice) get `scope`, `scope#2`, ... in the order they are created (upstream first).
   */
  group(scope: string): MetricGroup {
    const seen = this.scopes.get(scope) ?? 0;
    this.scopes.set(scope, seen + 1);
    const unique = seen === 0 ? scope : `${scope}#${seen + 1}`;
    const add = (name: string, m: Metric) => {
      const key = `${unique}.${name}`;
      // a component registering one name twice is a bug in that component, not a user error
      if (this.metrics.has(key)) throw new Error(`tablestream: metric '${key}' is registered twice`);
      this.metrics.set(key, m);
    };
    return {
      scope: unique,
      counter(name) {
        const c = new Counter();
        add(name, c);
        return c;
      },
      gauge(name, read) {
        add(name, read);
      },
    };
  }

  /** Every metric's current value, keyed `<scope>.<name>`, in the order they were registered. */
  snapshot(): MetricsSnapshot {
    const out: Record<string, number> = {};
    for (const [key, m] of this.metrics) out[key] = typeof m === "function" ? m() : m.count;
    return out;
  }
}
