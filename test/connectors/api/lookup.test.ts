import { describe, expect, it } from "vitest";
import {
  $, DataTypes, EnvironmentSettings, Row, Schema, TableDescriptor, TableEnvironment, ValidationError, call, defineConnector, option,
} from "../../../src/index.js";

const env = () => TableEnvironment.create(EnvironmentSettings.inStreamingMode());
const ORDERS = DataTypes.ROW(DataTypes.FIELD("oid", DataTypes.INT().notNull()), DataTypes.FIELD("cid", DataTypes.INT()));
const customers = Schema.newBuilder().column("id", DataTypes.INT().notNull()).column("name", DataTypes.STRING()).build();
type Customer = { id: number; name: string | null };
const macrotasks = async (n: number) => { for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r)); };

/** A dimension service answering after `id` macrotasks (so later keys may answer first), counting lookups. */
function service(failFirst = 0) {
  const probe = { lookups: 0, inFlight: 0, maxInFlight: 0, opened: 0, closed: 0, failures: failFirst };
  const data = new Map<number, string>([[1, "Ann"], [2, "Bob"], [3, "Cid"]]);
  const connector = defineConnector({
    name: "dim",
    options: { region: option.string({ default: "eu" }) },
    lookup: {
      createReader: async () => {
        probe.opened++;
        await macrotasks(1);
        return {
          lookup: async (key: readonly unknown[]) => {
            probe.lookups++;
            probe.inFlight++;
            probe.maxInFlight = Math.max(probe.maxInFlight, probe.inFlight);
            await macrotasks((4 - (key[0] as number)) * 2);
            probe.inFlight--;
            if (probe.failures > 0) { probe.failures--; throw new Error("connection reset"); }
            const name = data.get(key[0] as number);
            return name === undefined ? [] : [[key[0], name]];
          },
          close: () => { probe.closed++; },
        };
      },
    },
  });
  return { probe, connector };
}

function setup(options: Record<string, string> = {}, failFirst = 0) {
  const e = env();
  const s = service(failFirst);
  e.registerConnector(s.connector);
  let d = TableDescriptor.forConnector("dim").schema(customers);
  for (const [k, v] of Object.entries(options)) d = d.option(k, v);
  e.createTemporaryTable("Customers", d.build());
  return { e, ...s };
}

describe("lookup joins against a connector's lookup side", () => {
  it("async lookups run concurrently and the join keeps the input order", async () => {
    const { e, probe } = setup();
    const orders = e.fromValues(ORDERS, Row.of(10, 1), Row.of(11, 3), Row.of(12, 9), Row.of(13, null), Row.of(14, 2));
    const t = orders.leftOuterJoinLateral(call(e.lookupFunction<Customer>("Customers", "id"), $("cid"))).select($("oid"), $("name"));
    expect(await t.execute().toChangelog()).toEqual(["+I[10, Ann]", "+I[11, Cid]", "+I[12, null]", "+I[13, null]", "+I[14, Bob]"]);
    expect(probe.lookups).toBe(4); // the NULL key is not looked up
    expect(probe.maxInFlight).toBeGreaterThan(1);
    expect(probe).toMatchObject({ opened: 1, closed: 1 });
  });

  it("lookup.async.max-concurrent bounds the lookups in flight", async () => {
    const { e, probe } = setup({ "lookup.async.max-concurrent": "2" });
    const rows = Array.from({ length: 12 }, (_, i) => Row.of(i, (i % 3) + 1));
    const t = e.fromValues(ORDERS, ...rows).joinLateral(call(e.lookupFunction<Customer>("Customers", "id"), $("cid"))).select($("oid"), $("name"));
    const out = await t.execute().toChangelog();
    expect(out).toHaveLength(12);
    expect(out[0]).toBe("+I[0, Ann]");
    expect(probe.maxInFlight).toBeLessThanOrEqual(2);
  });

  it("lookup.cache = PARTIAL answers repeated keys from the cache (missing keys too)", async () => {
    const { e, probe } = setup({ "lookup.cache": "PARTIAL", "lookup.async.max-concurrent": "1" });
    const rows = [1, 2, 1, 9, 1, 9, 2].map((c, i) => Row.of(i, c));
    const t = e.fromValues(ORDERS, ...rows).joinLateral(call(e.lookupFunction<Customer>("Customers", "id"), $("cid"))).select($("oid"), $("name"));
    expect(await t.execute().toChangelog()).toEqual(["+I[0, Ann]", "+I[1, Bob]", "+I[2, Ann]", "+I[4, Ann]", "+I[6, Bob]"]);
    expect(probe.lookups).toBe(3);
  });

  it("a failing lookup is retried, then fails the job naming connector, table and key", async () => {
    const ok = setup({ "lookup.max-retries": "2" }, 2);
    const t = ok.e.fromValues(ORDERS, Row.of(1, 1)).joinLateral(call(ok.e.lookupFunction<Customer>("Customers", "id"), $("cid"))).select($("name"));
    expect(await t.execute().toChangelog()).toEqual(["+I[Ann]"]);

    const bad = setup({ "lookup.max-retries": "1" }, 5);
    const u = bad.e.fromValues(ORDERS, Row.of(1, 3)).joinLateral(call(bad.e.lookupFunction<Customer>("Customers", "id"), $("cid"))).select($("name"));
    await expect(u.execute().toChangelog()).rejects.toThrow("connector 'dim' table 'Customers': lookup failed for key (3) after 2 attempts: connection reset");
  });

  it("a connector without a lookup side, and bad lookup options, are planning errors", () => {
    const { e } = setup({ "lookup.cache": "FULL" });
    expect(() => e.lookupFunction<Customer>("Customers", "id")).toThrow(/option 'lookup.cache' of table 'Customers' \(connector 'dim'\) is invalid: expected one of \[NONE, PARTIAL\]/);
    e.createTemporaryTable("Out", TableDescriptor.forConnector("print").schema(customers).build());
    expect(() => e.lookupFunction("Out", "id")).toThrow(new ValidationError("lookupFunction: connector 'print' of table 'Out' cannot be looked up (it has no lookup side)"));
  });
});
