import { describe, expect, it } from "vitest";
import { LocalJob } from "../../src/exec/job.js";
import { type Emitter, type OperatorTable } from "../../src/exec/job-graph.js";
import { OPERATORS } from "../../src/table/wiring.js";
import type { Output } from "../../src/exec/operator.js";
import type { PollResult, SourceReader } from "../../src/exec/source.js";
import { DataTypes } from "../../src/index.js";
import type { StepResult } from "../../src/table/executor.js";
import { type PlanNode, type ValuesNode, valuesNode } from "../../src/plan/nodes.js";
import { ResolvedSchema } from "../../src/types/resolved-schema.js";

/**
 * A source that plays a script: a string is a record, "wait" makes the next poll return a Promise that
 * the test resolves with `release()`.
 */
class ScriptedReader implements SourceReader {
  private i = 0;
  private pending: { promise: Promise<void>; resolve: () => void } | undefined;
  polls = 0;
  constructor(private readonly script: string[]) {}
  poll(out: Output, max: number): PollResult {
    this.polls++;
    if (this.pending) return this.pending.promise;
    for (let n = 0; n < max && this.i < this.script.length; ) {
      const item = this.script[this.i]!;
      if (item === "wait") {
        let resolve!: () => void;
        const promise = new Promise<void>((r) => { resolve = r; });
        this.pending = { promise, resolve };
        this.i++;
        if (n > 0) return "more";
        return promise;
      }
      out.record(0, [item]);
      this.i++;
      n++;
    }
    if (this.i < this.script.length) return "more";
    out.watermark(Infinity);
    out.endInput();
    return "end";
  }
  release(): void {
    const p = this.pending;
    this.pending = undefined;
    p?.resolve();
  }
  position(): unknown { return this.i; }
  seek(p: unknown): void { this.i = p as number; }
  close(): void {}
}

const schema = new ResolvedSchema([{ name: "v", type: DataTypes.STRING() }]);
const scripts = new Map<ValuesNode, ScriptedReader[]>();

// a Values node standing for scripted sources that all feed one output (what a union of them would see)
const TEST_OPERATORS: OperatorTable = {
  ...OPERATORS,
  Values: (node, ctx, build) => {
    const readers = scripts.get(node);
    if (readers === undefined) return OPERATORS.Values(node, ctx, build);
    const em: Emitter = { outputs: [], out: undefined as never };
    for (const r of readers) ctx.addSource(r, em);
    return em;
  },
};

function sources(...readers: ScriptedReader[]): PlanNode {
  const node = valuesNode({ schema, rows: [] });
  scripts.set(node, readers);
  return node;
}

function job(plan: PlanNode): { job: LocalJob; out: string[] } {
  const out: string[] = [];
  return { job: new LocalJob(plan, { batch: false, config: new Map(), clock: () => 0 }, { record: (_k, v) => { out.push(String(v[0])); } }, TEST_OPERATORS), out };
}

/** Steps until done, resolving waits; returns the results of the steps. */
async function drain(j: LocalJob, budget: number): Promise<StepResult[]> {
  const results: StepResult[] = [];
  for (;;) {
    const r = j.step(budget);
    results.push(r);
    if (r === "done") return results;
    if (r !== "more") await r;
  }
}

describe("LocalJob", () => {
  it("one source: a slice per step, then done", async () => {
    const { job: j, out } = job(sources(new ScriptedReader(["a", "b", "c"])));
    expect(j.step(2)).toBe("more");
    expect(out).toEqual(["a", "b"]);
    expect(j.step(2)).toBe("done");
    expect(out).toEqual(["a", "b", "c"]);
    expect(j.step(2)).toBe("done");
  });

  for (const budget of [1, 2, 3, 100]) {
    it(`interleaves several sources record by record, whatever the slice size (${budget})`, async () => {
      const { job: j, out } = job(sources(
        new ScriptedReader(["a1", "a2", "a3"]),
        new ScriptedReader(["b1", "b2", "b3", "b4", "b5"]),
        new ScriptedReader(["c1"]),
      ));
      await drain(j, budget);
      expect(out).toEqual(["a1", "b1", "c1", "a2", "b2", "a3", "b3", "b4", "b5"]);
    });
  }

  it("a waiting source does not hold back the others; the job waits only when every live source waits", async () => {
    const slow = new ScriptedReader(["s1", "wait", "s2"]);
    const fast = new ScriptedReader(["f1", "f2", "f3", "f4"]);
    const { job: j, out } = job(sources(slow, fast));
    // slow gives s1 then waits: fast keeps going within the same step and the next ones
    expect(j.step(4)).toBe("more");
    expect(out).toEqual(["s1", "f1", "f2"]);
    expect(j.step(100)).not.toBe("more");
    expect(out).toEqual(["s1", "f1", "f2", "f3", "f4"]);
    // fast has ended and slow is waiting: a waiting step returns the source's promise
    const r = j.step(100);
    expect(r).toBeInstanceOf(Promise);
    let resolved = false;
    void (r as Promise<void>).then(() => { resolved = true; });
    await Promise.resolve();
    expect(resolved).toBe(false);
    slow.release();
    await r;
    expect(j.step(100)).toBe("done");
    expect(out).toEqual(["s1", "f1", "f2", "f3", "f4", "s2"]);
  });

  it("a waiting source is not polled again within the same step", () => {
    const slow = new ScriptedReader(["wait", "s1"]);
    const fast = new ScriptedReader(Array.from({ length: 50 }, (_, i) => `f${i}`));
    const { job: j } = job(sources(slow, fast));
    expect(j.step(40)).toBe("more");
    expect(slow.polls).toBe(1);
  });
});
