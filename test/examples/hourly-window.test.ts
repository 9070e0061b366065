import { describe, expect, it } from "vitest";
import { hourlyStats, ordersTable } from "../../examples/table-api/hourly-window.js";
import { EnvironmentSettings, TableEnvironment } from "../../src/index.js";

const streaming = () => TableEnvironment.create(EnvironmentSettings.inStreamingMode());
const HOUR = 3600_000;

describe("seed 003: the hourly tumbling window on generated orders", () => {
  it("matches the per-hour sums computed by hand from the generated rows", async () => {
    // env.from(name) is untyped: the rows are read as the schema declares them
    const orders = (await ordersTable(streaming()).execute().toArray()) as unknown as { product: string; amount: number; order_time: Date }[];
    expect(orders).toHaveLength(40);
    expect(orders[0]!.order_time).toEqual(new Date(Date.UTC(2025, 2, 27, 7, 7)));
    // by hand: bucket each order by its hour
    const expected = new Map<string, number>();
    for (const o of orders) {
      const start = Math.floor(o.order_time.getTime() / HOUR) * HOUR;
      const k = `${o.product}|${new Date(start).toISOString()}|${new Date(start + HOUR).toISOString()}`;
      expected.set(k, (expected.get(k) ?? 0) + o.amount);
    }
    const rows = await hourlyStats(streaming()).execute().toArray();
    const actual = new Map(rows.map((r) => [`${r.product}|${r.window_start.toISOString()}|${r.window_end.toISOString()}`, r.total_sold]));
    expect(actual).toEqual(expected);
    expect(rows).toHaveLength(15); // 3 products x 5 hours (07:07 .. 11:40)
    // windows come out in time order, each once: append-only
    const starts = rows.map((r) => r.window_start.getTime());
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
  });

  it("gives the same rows on every run (seeded datagen) and is append-only", async () => {
    const t = hourlyStats(streaming());
    expect(t.changelogMode()).toBe("[I]");
    const a = await t.execute().toChangelog();
    const b = await hourlyStats(streaming()).execute().toChangelog();
    expect(a).toEqual(b);
    expect(a[0]).toBe("+I[gadget, 2025-03-27T07:00, 2025-03-27T08:00, 25]");
  });
});
