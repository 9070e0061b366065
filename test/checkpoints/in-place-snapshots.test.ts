// The checkpoint writer encodes PTF value state and views from the live objects (no copy first) and a
// restore keeps the decoded objects as the state: a checkpoint still holds exactly the state at its cut,
// although the job goes on mutating the very arrays it encoded, and a job restored from any retained
// checkpoint continues as the uninterrupted job.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  ArgumentTrait, CollectionSink, DataTypes, EnvironmentSettings, listView, ProcessTableFunction, Row, Schema, TableEnvironment, tableArg, valueState, $,
} from "../../src/index.js";
import { STATE_BACKENDS } from "../support/state-backends.js";

const dirs: string[] = [];
const tmp = () => { const d = mkdtempSync(join(tmpdir(), "ts-in-place-")); dirs.push(d); return d; };
afterEach(() => { for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true }); });

/** Appends each row's value to an array in value state (mutated in place) and to a list view. */
const Seen = ProcessTableFunction.define({
  name: "Seen",
  args: { r: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE) },
  state: { s: valueState<{ xs: number[] }>({ xs: [] }), l: listView(DataTypes.INT()) },
  output: DataTypes.STRING(),
  eval(ctx, { s, l }, { r }) {
    const v = (r as unknown as { v: number }).v;
    s.xs.push(v);
    l.add(v * 10);
    ctx.collect(`${s.xs.join(",")}|${[...l.get()].join(",")}`);
  },
});

const EVENTS = DataTypes.ROW(DataTypes.FIELD("k", DataTypes.STRING()), DataTypes.FIELD("v", DataTypes.INT()));
const ROWS = [Row.of("a", 1), Row.of("b", 2), Row.of("a", 3), Row.of("a", 4), Row.of("b", 5), Row.of("a", 6), Row.of("b", 7)];
const SINK = Schema.newBuilder().column("k", DataTypes.STRING()).column("seen", DataTypes.STRING()).build();

async function run(sink: CollectionSink, options: Record<string, string>): Promise<void> {
  const e = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
  for (const [k, v] of Object.entries(options)) e.getConfig().set(k, v);
  e.createTemporaryTable("out", sink.descriptor(SINK));
  await e.fromValues(EVENTS, ...ROWS).partitionBy($("k")).process(Seen).executeInsert("out").await();
}

describe("checkpoints encode PTF state from the live objects", () => {
  for (const backend of STATE_BACKENDS) {
    it(`every retained checkpoint holds its cut, and restores to the uninterrupted changelog (${backend.name})`, async () => {
      const whole = new CollectionSink();
      await run(whole, {});
      expect(whole.changelog()).toEqual([
        "+I[a, 1|10]", "+I[b, 2|20]", "+I[a, 1,3|10,30]", "+I[a, 1,3,4|10,30,40]", "+I[b, 2,5|20,50]", "+I[a, 1,3,4,6|10,30,40,60]", "+I[b, 2,5,7|20,50,70]",
      ]);
      const dir = tmp();
      await run(new CollectionSink(), { ...backend.options, "execution.checkpointing.interval-records": "2", "execution.checkpointing.dir": dir, "execution.checkpointing.num-retained": "3" });
      for (const id of [1, 2, 3]) {
        // a sink that saw the whole run is cut back to checkpoint `id` (after 2 × id rows) and gets the rest again
        const sink = new CollectionSink();
        await run(sink, {});
        await run(sink, { ...backend.options, "execution.savepoint.path": join(dir, `chk-${id}`) });
        expect(sink.changelog()).toEqual(whole.changelog());
      }
    });
  }
});
