// Unit tests of PTF building blocks: Flink's duration syntax and the data views.
import { describe, expect, it } from "vitest";
import { KeyedStateListView, KeyedStateMapViewWithKeysNotNull, KeyedStateValueView } from "../../src/exec/operators/ptf/views.js";
import { durationString, parseDuration } from "../../src/ptf/ttl.js";

describe("durations (Flink's TimeUtils.parseDuration)", () => {
  it.each([
    ["3 days", 259_200_000], ["1 day", 86_400_000], ["2d", 172_800_000], ["1 hour", 3_600_000], ["3 hours", 10_800_000], ["5 h", 18_000_000],
    ["45 min", 2_700_000], ["1 minute", 60_000], ["2 m", 120_000], ["60 s", 60_000], ["10 secs", 10_000], ["1 second", 1000],
    ["500 ms", 500], ["7 millis", 7], ["1500", 1500], ["0", 0], ["  12 HOURS ", 43_200_000],
  ])("%s", (text, ms) => {
    expect(parseDuration(text, "ttl")).toBe(ms);
  });

  it("numbers are milliseconds", () => {
    expect(parseDuration(250, "ttl")).toBe(250);
    expect(() => parseDuration(-1, "ttl")).toThrow("ttl: a duration in milliseconds must be a non-negative integer, got -1");
    expect(() => parseDuration("1.5 h", "ttl")).toThrow("time unit '.5 h' in '1.5 h' is not one of");
  });

  it("renders like java.time.Duration", () => {
    expect(durationString(120 * 3_600_000)).toBe("PT120H");
    expect(durationString(90_000)).toBe("PT1M30S");
    expect(durationString(1500)).toBe("PT1.5S");
  });
});

describe("data views", () => {
  it("ValueView: per key, null clears", () => {
    const v = new KeyedStateValueView<number>("v", 0);
    v.enter("a", 0);
    expect(v.getValue()).toBeNull();
    v.setValue(1);
    v.enter("b", 0);
    expect(v.getValue()).toBeNull();
    v.setValue(2);
    v.enter("a", 0);
    expect(v.getValue()).toBe(1);
    v.setValue(null);
    expect(v.getValue()).toBeNull();
    expect(v.keyCount).toBe(1);
  });

  it("ListView: add, addAll (all or nothing), remove by value, setList, iteration", () => {
    const l = new KeyedStateListView<string | { x: number }>("l", 0);
    l.enter("k", 0);
    l.addAll(["a", "b", { x: 1 }]);
    expect(() => l.addAll(["c", null as never])).toThrow("List views don't support null values.");
    expect(l.getList()).toEqual(["a", "b", { x: 1 }]);
    expect(l.remove({ x: 1 })).toBe(true);
    expect(l.remove("zz")).toBe(false);
    expect([...l]).toEqual(["a", "b"]);
    l.setList(["z"]);
    expect([...l.get()]).toEqual(["z"]);
    l.remove("z");
    expect(l.keyCount).toBe(0);
  });

  it("MapView: keys compare by value (dates too), null keys rejected, null values kept", () => {
    const m = new KeyedStateMapViewWithKeysNotNull<Date | string, number | null>("m", 0);
    m.enter("k", 0);
    m.put(new Date(5), 1);
    m.put(new Date(5), 2);
    m.put("n", null);
    expect(m.get(new Date(5))).toBe(2);
    expect(m.contains("n")).toBe(true);
    expect(m.get("n")).toBeNull();
    expect([...m.keys()]).toEqual([new Date(5), "n"]);
    expect(() => m.get(null as never)).toThrow("Map views don't support null keys.");
    expect(() => m.remove(undefined as never)).toThrow("Map views don't support null keys.");
    m.setMap(new Map([["only", 1]]));
    expect(m.getMap()).toEqual(new Map([["only", 1]]));
    m.remove("only");
    expect(m.isEmpty()).toBe(true);
    expect(m.keyCount).toBe(0);
  });
});
