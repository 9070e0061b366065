import { describe, expect, it } from "vitest";
import { buildJobGraph } from "../../src/exec/job-graph.js";
import { OPERATORS } from "../../src/table/wiring.js";
import {
  $, Over, Session, Slide, type Table, TableEnvironment, Tumble, UNBOUNDED_RANGE, UNBOUNDED_ROW, lit,
} from "../../src/index.js";
import { KIND_SHORT } from "../../src/types/row.js";
import { toJavaString } from "../../src/types/format.js";
import { overSource, sessionAfter, sorted, windowBefore, windowSource } from "./fixtures.js";
import { BACKENDS, type BackendName } from "./support.js";
import { stateBackendFor } from "../../src/exec/state/backend-options.js";

/**
 * Flink's restore tests (Flink's test catalogue §6): the job runs over the "before" rows, its state is snapshotted
 * (no end of input), and a new job restored from the snapshot runs over the "after" rows to the end.
 * Each phase must emit exactly Flink's "expected before" / "expected after" rows. As in Flink, the
 * restored job starts without a watermark. The first job runs on the state backend `from`, the restored one on
 * `to`: a snapshot of either backend restores on either.
 */
function restoreRun(table: Table<object>, beforeRows: number, [from, to]: readonly [BackendName, BackendName]): { before: string[]; after: string[] } {
  const types = table.getResolvedSchema().types;
  const backends: ReturnType<typeof stateBackendFor>[] = [];
  const phase = (out: string[], backend: BackendName) => {
    const config = new Map<string, string>(Object.entries(BACKENDS[backend]));
    const stateBackend = stateBackendFor(config);
    backends.push(stateBackend);
    return buildJobGraph(table.node, { batch: false, config, clock: () => 0, stateBackend }, {
    record: (k, v) => { out.push(`${KIND_SHORT[k]}[${v.map((x, i) => toJavaString(types[i], x)).join(", ")}]`); },
    }, OPERATORS);
  };
  const before: string[] = [];
  const first = phase(before, from);
  for (const op of first.operators) op.open();
  const src = first.sources[0]!;
  expect(src.reader.poll(src.emitter.out, beforeRows)).toBe("more");
  const snapshot = first.operators.map((op) => op.snapshotState());
  const position = src.reader.position();

  const after: string[] = [];
  const second = phase(after, to);
  second.operators.forEach((op, i) => op.restoreState(snapshot[i]));
  for (const op of second.operators) op.open();
  const src2 = second.sources[0]!;
  src2.reader.seek(position);
  while (src2.reader.poll(src2.emitter.out, 1000) !== "end");
  for (const b of backends) b.dispose();
  return { before, after };
}

const PAIRS: (readonly [BackendName, BackendName])[] = [["hashmap", "hashmap"], ["hashmap", "disk"], ["disk", "hashmap"], ["disk", "disk"]];

describe.each(PAIRS)("restore: state survives a snapshot, results are Flink's before / after (%s, then %s)", (...backends) => {
  const env = TableEnvironment.create();

  it("B-09 tumble", () => {
    const t = windowSource(env).window(Tumble.over(lit(5).seconds()).on($("rowtime")).as("w")).groupBy($("name"), $("w"))
      .select($("name"), $("w").start(), $("w").end(), lit(1).count(), $("a_int").sum(), $("comment").countDistinct());
    const r = restoreRun(t, windowBefore.length, backends);
    expect(sorted(r.before)).toEqual(sorted([
      "+I[a, 2020-10-10T00:00, 2020-10-10T00:00:05, 4, 10, 2]", "+I[a, 2020-10-10T00:00:05, 2020-10-10T00:00:10, 1, 3, 1]",
      "+I[b, 2020-10-10T00:00:05, 2020-10-10T00:00:10, 2, 9, 2]", "+I[b, 2020-10-10T00:00:15, 2020-10-10T00:00:20, 1, 4, 1]",
    ]));
    expect(sorted(r.after)).toEqual(sorted([
      "+I[b, 2020-10-10T00:00:30, 2020-10-10T00:00:35, 1, 1, 1]", "+I[null, 2020-10-10T00:00:30, 2020-10-10T00:00:35, 1, 7, 0]",
      "+I[a, 2020-10-10T00:00:40, 2020-10-10T00:00:45, 1, 10, 1]", "+I[c, 2020-10-10T00:00:40, 2020-10-10T00:00:45, 1, 12, 1]",
      "+I[d, 2020-10-10T00:00:40, 2020-10-10T00:00:45, 2, 24, 2]",
    ]));
  });

  it("B-11 hop", () => {
    const t = windowSource(env).window(Slide.over(lit(10).seconds()).every(lit(5).seconds()).on($("rowtime")).as("w"))
      .groupBy($("name"), $("w"))
      .select($("name"), $("w").start(), $("w").end(), lit(1).count(), $("a_int").sum(), $("comment").countDistinct());
    const r = restoreRun(t, windowBefore.length, backends);
    expect(r.before).toHaveLength(7);
    expect(sorted(r.after)).toEqual(sorted([
      "+I[b, 2020-10-10T00:00:25, 2020-10-10T00:00:35, 1, 1, 1]", "+I[null, 2020-10-10T00:00:25, 2020-10-10T00:00:35, 1, 7, 0]",
      "+I[b, 2020-10-10T00:00:30, 2020-10-10T00:00:40, 1, 1, 1]", "+I[null, 2020-10-10T00:00:30, 2020-10-10T00:00:40, 1, 7, 0]",
      "+I[c, 2020-10-10T00:00:35, 2020-10-10T00:00:45, 1, 12, 1]", "+I[d, 2020-10-10T00:00:35, 2020-10-10T00:00:45, 2, 24, 2]",
      "+I[a, 2020-10-10T00:00:35, 2020-10-10T00:00:45, 1, 10, 1]", "+I[d, 2020-10-10T00:00:40, 2020-10-10T00:00:50, 2, 24, 2]",
      "+I[a, 2020-10-10T00:00:40, 2020-10-10T00:00:50, 1, 10, 1]", "+I[c, 2020-10-10T00:00:40, 2020-10-10T00:00:50, 1, 12, 1]",
    ]));
  });

  it("B-13 session", () => {
    const t = windowSource(env, sessionAfter).window(Session.withGap(lit(3).seconds()).on($("rowtime")).as("w"))
      .groupBy($("name"), $("w")).select($("name"), lit(1).count());
    const r = restoreRun(t, windowBefore.length, backends);
    expect(r.before).toEqual(["+I[a, 4]", "+I[b, 2]", "+I[a, 1]", "+I[b, 1]"]);
    expect(r.after).toEqual(["+I[null, 1]", "+I[b, 1]", "+I[a, 1]", "+I[c, 1]", "+I[d, 2]"]);
  });

  it("B-15 and B-17 non-time OVER", () => {
    const b15 = restoreRun(overSource(env).window(Over.partitionBy($("key")).orderBy($("val")).preceding(UNBOUNDED_RANGE).as("w"))
      .select($("key"), $("val"), $("ts"), $("val").sum().over($("w"))), 6, backends);
    expect(b15.after).toEqual(["+I[key1, 4, 400, 7]", "-U[key1, 5, 500, 8]", "+U[key1, 5, 500, 12]", "-U[key1, 6, 600, 14]", "+U[key1, 6, 600, 18]"]);
    const b17 = restoreRun(overSource(env).window(Over.orderBy($("val")).preceding(UNBOUNDED_RANGE).as("w"))
      .select($("key"), $("val"), $("ts"), $("val").sum().over($("w"))), 6, backends);
    expect(b17.after).toEqual(["+I[key1, 4, 400, 10]", "-U[key1, 5, 500, 11]", "+U[key1, 5, 500, 15]", "-U[key1, 6, 600, 17]", "+U[key1, 6, 600, 21]"]);
  });

  it("event-time OVER keeps waiting rows and running aggregates", () => {
    const t = windowSource(env).window(Over.partitionBy($("name")).orderBy($("rowtime")).preceding(UNBOUNDED_ROW).as("o"))
      .select($("name"), $("a_int"), $("a_int").sum().over($("o")).as("running"));
    const r = restoreRun(t, windowBefore.length, backends);
    // released up to the watermark 00:00:33 in time order; late rows are dropped: b at 00:00:06 arrives when the
    // watermark is 00:00:06 (a row at the watermark is late for OVER, as in Flink), a at 00:00:04 after 00:00:07
    expect(r.before).toEqual([
      "+I[a, 1, 1]", "+I[a, 2, 3]", "+I[a, 2, 5]", "+I[a, 5, 10]", "+I[b, 3, 3]", "+I[a, 3, 13]", "+I[b, 4, 7]", "+I[null, 7, 7]",
    ]);
    // b at 00:00:34 waited in the snapshot; the running sums continue from the restored state
    expect(r.after).toEqual(["+I[b, 1, 8]", "+I[a, 10, 23]", "+I[d, 11, 11]", "+I[c, 12, 12]", "+I[d, 13, 24]"]);
  });
});
