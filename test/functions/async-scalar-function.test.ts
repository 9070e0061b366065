import { describe, expect, it } from "vitest";
import {
  $, AsyncScalarFunction, DataTypes, EnvironmentSettings, ExecutionError, Row, TableEnvironment, ValidationError, call,
} from "../../src/index.js";

const env = () => TableEnvironment.create(EnvironmentSettings.inStreamingMode());
const ROW = DataTypes.ROW(DataTypes.FIELD("id", DataTypes.INT().notNull()), DataTypes.FIELD("name", DataTypes.STRING()));
const macrotasks = async (n: number) => { for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r)); };

/** `upper(name)` answering after `id` macrotasks, counting calls and the most calls in flight. */
function slowUpper() {
  const probe = { calls: 0, inFlight: 0, maxInFlight: 0 };
  const fn = AsyncScalarFunction.define({
    name: "slow_upper",
    args: [DataTypes.INT().notNull(), DataTypes.STRING().notNull()],
    result: DataTypes.STRING().notNull(),
    eval: async (id, name) => {
      probe.calls++;
      probe.inFlight++;
      probe.maxInFlight = Math.max(probe.maxInFlight, probe.inFlight);
      await macrotasks(id);
      probe.inFlight--;
      return name.toUpperCase();
    },
  });
  return { probe, fn };
}

describe("AsyncScalarFunction", () => {
  it("calls run concurrently, bounded by table.exec.async-scalar.buffer-capacity, results in input order", async () => {
    const e = env();
    e.getConfig().set("table.exec.async-scalar.buffer-capacity", "3");
    const { probe, fn } = slowUpper();
    const rows = [5, 1, 4, 2, 3, 1, 6].map((id, i) => Row.of(id, `n${i}`));
    const t = e.fromValues(ROW, ...rows).select($("id"), call(fn, $("id"), $("name")).as("up"), $("name"));
    expect(await t.execute().toChangelog()).toEqual(
      ["+I[5, N0, n0]", "+I[1, N1, n1]", "+I[4, N2, n2]", "+I[2, N3, n3]", "+I[3, N4, n4]", "+I[1, N5, n5]", "+I[6, N6, n6]"]);
    expect(probe.calls).toBe(7);
    expect(probe.maxInFlight).toBe(3);
  });

  it("ALLOW_UNORDERED emits results as they complete", async () => {
    const e = env();
    e.getConfig().set("table.exec.async-scalar.output-mode", "ALLOW_UNORDERED");
    const { fn } = slowUpper();
    const t = e.fromValues(ROW, Row.of(6, "a"), Row.of(1, "b"), Row.of(3, "c")).select($("id"), call(fn, $("id"), $("name")).as("up"));
    expect(await t.execute().toChangelog()).toEqual(["+I[1, B]", "+I[3, C]", "+I[6, A]"]);
  });

  it("an updating input keeps its changelog order even with ALLOW_UNORDERED", async () => {
    const e = env();
    e.getConfig().set("table.exec.async-scalar.output-mode", "ALLOW_UNORDERED");
    const { fn } = slowUpper();
    const counts = e.fromValues(ROW, Row.of(1, "a"), Row.of(2, "a"), Row.of(3, "b")).groupBy($("name")).select($("id").count().as("n"), $("name"));
    const t = counts.select(call(fn, $("n").cast(DataTypes.INT().notNull()), $("name")).as("up"), $("n"));
    expect(await t.execute().toChangelog()).toEqual(["+I[A, 1]", "-U[A, 1]", "+U[A, 2]", "+I[B, 1]"]);
  });

  it("is callable by registered name, in SQL, and its result column keeps the item's name", async () => {
    const e = env();
    e.createTemporaryFunction("slow_upper", slowUpper().fn);
    e.createTemporaryView("people", e.fromValues(ROW, Row.of(2, "ann"), Row.of(1, "bob")));
    expect(await e.sqlQuery("SELECT id, slow_upper(id, name) AS up FROM people").execute().toChangelog()).toEqual(["+I[2, ANN]", "+I[1, BOB]"]);
    const t = e.from("people").select(call("slow_upper", $("id"), $("name")));
    expect(t.getResolvedSchema().names).toEqual(["_c0"]);
    expect(await t.execute().toChangelog()).toEqual(["+I[ANN]", "+I[BOB]"]);
  });

  it("a NULL argument for a NOT NULL parameter gives NULL without a call", async () => {
    const e = env();
    const { probe, fn } = slowUpper();
    const t = e.fromValues(ROW, Row.of(1, null), Row.of(1, "x")).select(call(fn, $("id"), $("name")).as("up"));
    expect(t.getResolvedSchema().toString()).toContain("`up` STRING");
    expect(await t.execute().toChangelog()).toEqual(["+I[null]", "+I[X]"]);
    expect(probe.calls).toBe(1);
  });

  it("retries a rejected call (FIXED_DELAY, max-attempts) and fails naming the function and arguments when attempts run out", async () => {
    let attempts = 0;
    const flaky = AsyncScalarFunction.define({
      name: "flaky", args: [DataTypes.INT().notNull()], result: DataTypes.INT().notNull(),
      eval: async (x) => { if (++attempts % 3 !== 0) throw new Error("503 busy"); return x * 10; },
    });
    const e = env();
    e.getConfig().set("table.exec.async-scalar.retry-delay", "1 ms");
    const t = e.fromValues(ROW, Row.of(4, "a")).select(call(flaky, $("id")).as("x"));
    expect(await t.execute().toChangelog()).toEqual(["+I[40]"]);
    expect(attempts).toBe(3);

    attempts = 0;
    const e2 = env();
    e2.getConfig().set("table.exec.async-scalar.retry-strategy", "NO_RETRY");
    const err = await e2.fromValues(ROW, Row.of(4, "a")).select(call(flaky, $("id")).as("x")).execute().toChangelog().then(() => undefined, (x: unknown) => x);
    expect(err).toBeInstanceOf(ExecutionError);
    expect((err as Error).message).toBe("async function 'flaky' failed for arguments (4): 503 busy");

    attempts = 3; // the next two attempts fail
    const e3 = env();
    e3.getConfig().set("table.exec.async-scalar.retry-delay", "1 ms").set("table.exec.async-scalar.max-attempts", "2");
    await expect(e3.fromValues(ROW, Row.of(4, "a")).select(call(flaky, $("id")).as("x")).execute().toChangelog())
      .rejects.toThrow("async function 'flaky' failed for arguments (4): 503 busy (after 2 attempts)");
  });

  it("a call that does not settle in time fails the job and is aborted", async () => {
    let aborted = false;
    const hang = AsyncScalarFunction.define({
      name: "hang", args: [DataTypes.INT()], result: DataTypes.INT(),
      eval: (_x, signal) => new Promise<number | null>(() => { signal.addEventListener("abort", () => { aborted = true; }); }),
    });
    const e = env();
    e.getConfig().set("table.exec.async-scalar.timeout", "20 ms");
    await expect(e.fromValues(ROW, Row.of(1, "a")).select(call(hang, $("id")).as("x")).execute().toChangelog())
      .rejects.toThrow("async function 'hang' timed out after 20 ms for arguments (1) (option 'table.exec.async-scalar.timeout')");
    expect(aborted).toBe(true);
  });

  it("a result of the wrong type fails naming the function", async () => {
    const bad = AsyncScalarFunction.define({ name: "bad", args: [DataTypes.INT()], result: DataTypes.INT().notNull(), eval: async () => "x" as unknown as number });
    await expect(env().fromValues(ROW, Row.of(1, "a")).select(call(bad, $("id")).as("x")).execute().toChangelog())
      .rejects.toThrow(/async function 'bad' returned 'x', which is not a value of its declared type INT NOT NULL/);
  });

  it("in a filter condition it runs in an AsyncCalc below the Filter, whose extra column is dropped", async () => {
    const { probe, fn } = slowUpper();
    const t = env().fromValues(ROW, Row.of(3, "a"), Row.of(1, "b"), Row.of(2, "a"), Row.of(4, "c"))
      .filter(call(fn, $("id"), $("name")).isEqual("A").or($("id").isGreater(3)));
    expect(t.getResolvedSchema().names).toEqual(["id", "name"]);
    const plan = t.explain();
    expect(plan).toContain("AsyncCalc(calls=[slow_upper(id, name) AS $async0]");
    expect(plan).toContain("Project(select=[id, name], changelogMode=[I]) -> [id: INT NOT NULL, name: STRING]\n"
      + "+- Filter(condition=[or(equals($async0, 'A'), greaterThan(id, 3))], changelogMode=[I]) -> [id: INT NOT NULL, name: STRING, $async0: STRING]\n"
      + "   +- AsyncCalc(calls=[slow_upper(id, name) AS $async0]");
    expect(await t.execute().toChangelog()).toEqual(["+I[3, a]", "+I[2, a]", "+I[4, c]"]);
    expect(probe.calls).toBe(4);
  });

  it("is refused where it cannot run in an AsyncCalc, and explain() shows the AsyncCalc", () => {
    const e = env();
    const { fn } = slowUpper();
    const t = e.fromValues(ROW, Row.of(1, "a"));
    expect(() => t.groupBy(call(fn, $("id"), $("name"))).select($("id").count())).toThrow(ValidationError);
    expect(() => t.groupBy(call(fn, $("id"), $("name"))).select($("id").count())).toThrow(/function 'slow_upper' is an async scalar function; it can only be called in select\(\.\.\.\), filter\(\.\.\.\) or a SQL SELECT list or WHERE/);
    expect(() => t.select(call(fn, $("id"), call(fn, $("id"), $("name"))))).toThrow(/calls an async function itself/);
    const plan = t.select($("id"), call(fn, $("id"), $("name")).as("up")).explain();
    expect(plan).toContain("AsyncCalc(calls=[slow_upper(id, name) AS $async0]");
    expect(plan).toContain("Project(select=[id, $async0 AS up]");
  });
});
