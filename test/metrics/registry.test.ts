import { describe, expect, it } from "vitest";
import { JobMetrics } from "../../src/exec/metrics.js";

describe("JobMetrics", () => {
  it("keys metrics by scope and name, in registration order, reading gauges at snapshot time", () => {
    const m = new JobMetrics();
    const src = m.group("filesystem[t]");
    const out = src.counter("numRecordsOut");
    let skipped = 0;
    src.gauge("numSkippedRecords", () => skipped);
    const sink = m.group("Sink[out]").counter("numRecordsIn");
    expect(m.snapshot()).toEqual({ "filesystem[t].numRecordsOut": 0, "filesystem[t].numSkippedRecords": 0, "Sink[out].numRecordsIn": 0 });
    out.inc();
    out.count++;
    out.inc(3);
    skipped = 2;
    sink.inc();
    const snap = m.snapshot();
    expect(Object.entries(snap)).toEqual([["filesystem[t].numRecordsOut", 5], ["filesystem[t].numSkippedRecords", 2], ["Sink[out].numRecordsIn", 1]]);
    // a snapshot is a copy: later counts do not change it
    out.inc();
    expect(snap["filesystem[t].numRecordsOut"]).toBe(5);
  });

  it("numbers repeated scopes, and refuses a metric registered twice in one group", () => {
    const m = new JobMetrics();
    const a = m.group("WindowAggregate[w]");
    const b = m.group("WindowAggregate[w]");
    const c = m.group("WindowAggregate[w]");
    expect([a.scope, b.scope, c.scope]).toEqual(["WindowAggregate[w]", "WindowAggregate[w]#2", "WindowAggregate[w]#3"]);
    a.counter("numLateRecordsDropped");
    b.counter("numLateRecordsDropped");
    expect(() => a.gauge("numLateRecordsDropped", () => 0)).toThrow("tablestream: metric 'WindowAggregate[w].numLateRecordsDropped' is registered twice");
    expect(Object.keys(m.snapshot())).toEqual(["WindowAggregate[w].numLateRecordsDropped", "WindowAggregate[w]#2.numLateRecordsDropped"]);
  });
});
