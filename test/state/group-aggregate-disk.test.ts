// Group aggregation on the disk backend: the groups live in the backend's store, and only a bounded number
// of them are held as columns (state.backend.cache-size). Many keys through a tiny cache give the exact
// result of the hashmap backend; snapshots have the same shape on both backends and restore across them.
import { afterEach, describe, expect, it } from "vitest";
import { buildJobGraph } from "../../src/exec/job-graph.js";
import { prepareSnapshot } from "../../src/exec/operator.js";
import type { JobGraph } from "../../src/exec/job-graph.js";
import { GroupAggregateOperator } from "../../src/exec/operators/group-aggregate.js";
import { stateBackendFor } from "../../src/exec/state/backend-options.js";
import type { StateBackend } from "../../src/exec/state/keyed-store.js";
import type { SpillingIndex } from "../../src/exec/aggregates/spilling-index.js";
import { OPERATORS } from "../../src/table/wiring.js";
import { $, DataTypes, EnvironmentSettings, Row, RowKind, type Table, TableEnvironment } from "../../src/index.js";
import { toJavaString } from "../../src/types/format.js";
import { KIND_SHORT } from "../../src/types/row.js";

const backends: StateBackend[] = [];
afterEach(() => { for (const b of backends.splice(0)) b.dispose(); });

const KV = DataTypes.ROW(DataTypes.FIELD("k", DataTypes.INT()), DataTypes.FIELD("s", DataTypes.STRING()), DataTypes.FIELD("v", DataTypes.BIGINT()));
const KEYS = 5000;

/** Every key three times (v = 1, 2, 3), then the first row of every even key retracted. */
function rows(): ReturnType<typeof Row.of>[] {
  const out: ReturnType<typeof Row.of>[] = [];
  for (let round = 1; round <= 3; round++) for (let k = 0; k < KEYS; k++) out.push(Row.of(k, `s${k % 7}`, round));
  for (let k = 0; k < KEYS; k += 2) out.push(Row.ofKind(RowKind.DELETE, k, `s${k % 7}`, 1));
  return out;
}

interface Run { readonly log: string[]; readonly graph: JobGraph; readonly op: GroupAggregateOperator }

/** Builds the job of `table` by hand on the backend `options` ask for (the operator stays inspectable). */
function job(table: Table<object>, options: Record<string, string>): Run {
  const config = new Map(Object.entries(options));
  const backend = stateBackendFor(config);
  backends.push(backend);
  const types = table.getResolvedSchema().types;
  const log: string[] = [];
  const graph = buildJobGraph(table.node, { batch: false, config, clock: () => 0, stateBackend: backend }, {
    record: (k, v) => { log.push(`${KIND_SHORT[k]}[${v.map((x, i) => toJavaString(types[i], x)).join(", ")}]`); },
  }, OPERATORS);
  for (const op of graph.operators) op.open();
  const op = graph.operators.find((o): o is GroupAggregateOperator => o instanceof GroupAggregateOperator)!;
  return { log, graph, op };
}

const spillOf = (op: GroupAggregateOperator) => (op as unknown as { spill: SpillingIndex | undefined }).spill;

function query(env: TableEnvironment, by: "int" | "two"): Table<object> {
  const t = env.fromValues(KV, ...rows());
  const g = by === "int" ? t.groupBy($("k")) : t.groupBy($("k"), $("s"));
  return g.select($("k"), $("v").sum().as("total"), $("v").max().as("mx"), $("s").count().distinct().as("d"), $("v").count().as("n")) as unknown as Table<object>;
}

/** Polls the single source `n` rows at a time, calling `each` after every poll. */
function drive(run: Run, each: () => void, n = 97): void {
  const src = run.graph.sources[0]!;
  while (src.reader.poll(src.emitter.out, n) !== "end") each();
  each();
}

const DISK_TINY = { "state.backend.type": "disk", "state.backend.cache-size": "16" };

describe("group aggregation on the disk backend", () => {
  it.each(["int", "two"] as const)("5000 keys (%s key) through a cache of 16: the hashmap backend's exact changelog, at most 16 groups resident", (by) => {
    const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    const mem = job(query(env, by), {});
    drive(mem, () => {});
    const disk = job(query(env, by), DISK_TINY);
    const spill = spillOf(disk.op)!;
    expect(spill).toBeDefined();
    expect(spillOf(mem.op)).toBeUndefined();
    let most = 0;
    drive(disk, () => { most = Math.max(most, spill.resident); });
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(16);
    expect(disk.log).toEqual(mem.log);
    // every key: +I, two updates, and for the even keys one more update after the retraction
    expect(disk.log).toHaveLength(KEYS * 5 + KEYS);
    // spot checks of the final values: an even key lost its v = 1
    expect(disk.log.filter((r) => r.startsWith("+U[4, ")).at(-1)).toBe("+U[4, 5, 3, 1, 2]");
    expect(disk.log.filter((r) => r.startsWith("+U[5, ")).at(-1)).toBe("+U[5, 6, 3, 1, 3]");
    expect(disk.op.stateKeys()).toBe(KEYS);
  });

  it("a group emptied by retractions is gone from the store too: it starts again with +I", () => {
    const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    const events = [
      ...Array.from({ length: 40 }, (_, k) => Row.of(k, "a", 1)),
      ...Array.from({ length: 40 }, (_, k) => Row.ofKind(RowKind.DELETE, k, "a", 1)),
      Row.of(3, "a", 9),
    ];
    const t = env.fromValues(KV, ...events).groupBy($("k")).select($("k"), $("v").sum().as("s")) as unknown as Table<object>;
    const disk = job(t, { "state.backend.type": "disk", "state.backend.cache-size": "4" });
    drive(disk, () => {}, 7);
    expect(disk.log.slice(0, 2)).toEqual(["+I[0, 1]", "+I[1, 1]"]);
    expect(disk.log.slice(40, 42)).toEqual(["-D[0, 1]", "-D[1, 1]"]);
    expect(disk.log.at(-1)).toBe("+I[3, 9]");
    expect(disk.log).toHaveLength(81);
    expect(disk.op.stateKeys()).toBe(1);
  });

  it("a snapshot has the same groups on both backends and restores across them", () => {
    const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    const table = query(env, "two");
    const half = (run: Run) => {
      const src = run.graph.sources[0]!;
      src.reader.poll(src.emitter.out, KEYS * 2);
      prepareSnapshot(run.graph.operators);
      return { state: run.op.snapshotState(), position: src.reader.position() };
    };
    const byKey = (state: unknown) => [...(state as { keys: unknown[] }[])].sort((a, b) => JSON.stringify(a.keys).localeCompare(JSON.stringify(b.keys)));
    const memHalf = half(job(table, {}));
    const diskHalf = half(job(table, DISK_TINY));
    expect(byKey(diskHalf.state)).toEqual(byKey(memHalf.state));
    const whole = job(table, {});
    drive(whole, () => {});
    for (const [from, to] of [[memHalf, DISK_TINY], [diskHalf, {}], [diskHalf, DISK_TINY]] as const) {
      const second = job(table, to);
      second.op.restoreState(structuredClone(from.state));
      const src = second.graph.sources[0]!;
      src.reader.seek(from.position);
      drive(second, () => {});
      expect(second.log).toEqual(whole.log.slice(whole.log.length - second.log.length));
      expect(second.log).toHaveLength(KEYS * 2 + KEYS / 2 * 2);
    }
  });
});
