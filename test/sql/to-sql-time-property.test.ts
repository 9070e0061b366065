// Property: random Table API programs with a time-based part — a group window (tumble, slide, cumulate,
// session), an over window, an interval join, a temporal join or a PTF call — before and after filters and
// projections, give the same changelog as their toSql() text run through executeSql (kinds, values, order).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  $, ArgumentTrait, Cumulate, DataTypes, EnvironmentSettings, Over, ProcessTableFunction, Row, Schema, Session, Slide, type Table, TableEnvironment,
  Tumble, UNBOUNDED_RANGE, UNBOUNDED_ROW, and, call, lit, rowInterval, tableArg, valueState,
} from "../../src/index.js";

const at = (s: number) => new Date(Date.UTC(2025, 0, 1, 0, 0, s));
const EVENTS = Schema.newBuilder().column("k", DataTypes.STRING()).column("v", DataTypes.INT()).column("ts", DataTypes.TIMESTAMP(3))
  .watermark("ts", "ts - INTERVAL '2' SECOND").build();
const OTHER = Schema.newBuilder().column("k2", DataTypes.STRING()).column("w", DataTypes.INT()).column("ts2", DataTypes.TIMESTAMP(3))
  .watermark("ts2", "ts2 - INTERVAL '2' SECOND").build();
const RATES = Schema.newBuilder().column("cur", DataTypes.STRING().notNull()).column("rate", DataTypes.INT()).column("rt", DataTypes.TIMESTAMP(3))
  .watermark("rt", "rt").primaryKey("cur").build();

const Counter = ProcessTableFunction.define({
  name: "Counter",
  args: { input: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE) },
  state: { seen: valueState({ n: 0, total: 0 }) },
  output: DataTypes.ROW(DataTypes.FIELD("n", DataTypes.INT()), DataTypes.FIELD("total", DataTypes.INT())),
  eval(ctx, state, { input }) {
    state.seen.n += 1;
    state.seen.total += (input as unknown as { v: number | null }).v ?? 0;
    ctx.collect({ n: state.seen.n, total: state.seen.total });
  },
});

type Any = {
  window(w: unknown): Any; groupBy(...k: unknown[]): Any; select(...e: unknown[]): Any; join(r: unknown, p: unknown): Any; leftOuterJoin(r: unknown, p: unknown): Any;
  partitionBy(...k: unknown[]): Any; process(f: unknown, ...a: unknown[]): Any; filter(p: unknown): Any;
  joinLateral(c: unknown, p?: unknown): Any; leftOuterJoinLateral(c: unknown, p?: unknown): Any; createTemporalTableFunction(t: unknown, ...k: unknown[]): never;
  getResolvedSchema(): { names: string[]; types: { root: string }[] };
};
const any = (t: unknown) => t as Any;

type TimeOp = { op: "tumble" | "slide" | "cumulate" | "session" | "over" | "interval" | "leftInterval" | "temporal" | "leftTemporal" | "ptf"; a: number; b: number };

function timePart(env: TableEnvironment, t: Any, s: TimeOp): Any {
  const size = 2 + (s.a % 4) * 2; // seconds: 2, 4, 6, 8
  const keyed = s.b % 2 === 0;
  const windowed = (w: unknown) => {
    const g = any(t).window(w);
    return keyed
      ? g.groupBy($("w"), $("k")).select($("k"), $("w").start().as("ws"), $("v").sum().as("total"), lit(1).count().as("n"), $("w").end().as("we"))
      : g.groupBy($("w")).select($("w").rowtime().as("wt"), $("v").max().as("top"), $("v").sum0().as("s0"));
  };
  switch (s.op) {
    case "tumble": return windowed(Tumble.over(lit(size).seconds()).on($("ts")).as("w"));
    case "slide": return windowed(Slide.over(lit(size * 2).seconds()).every(lit(size).seconds()).on($("ts")).as("w"));
    case "cumulate": return windowed(Cumulate.over(lit(size * 2).seconds()).step(lit(size).seconds()).on($("ts")).as("w"));
    case "session": return windowed(Session.withGap(lit(size).seconds()).on($("ts")).as("w"));
    case "over": {
      const preceding = [UNBOUNDED_RANGE, UNBOUNDED_ROW, rowInterval(s.a % 3), lit(size).seconds()][s.b % 4];
      const w = (keyed ? Over.partitionBy($("k")) : Over).orderBy($("ts")).preceding(preceding).as("o");
      return any(t).window(w).select($("k"), $("v"), $("ts"), $("v").sum().over($("o")).as("running"), $("v").count().over($("o")).as("cnt"));
    }
    case "interval": case "leftInterval": {
      const cond = and($("k").isEqual($("k2")), $("ts").isGreaterOrEqual($("ts2").minus(lit(s.a % 4).seconds())), $("ts").isLessOrEqual($("ts2").plus(lit(s.b % 5).seconds())));
      const u = env.from("U");
      return s.op === "interval" ? any(t).join(u, cond) : any(t).leftOuterJoin(u, cond);
    }
    case "temporal": case "leftTemporal": {
      const fn = any(env.from("Rates")).createTemporalTableFunction($("rt"), $("cur"));
      const cond = s.b % 2 === 0 ? $("k").isEqual($("cur")) : and($("k").isEqual($("cur")), $("rate").isGreater(s.a % 3));
      return s.op === "temporal" ? any(t).joinLateral(call(fn, $("ts")), cond) : any(t).leftOuterJoinLateral(call(fn, $("ts")), cond);
    }
    case "ptf": return keyed ? any(t).partitionBy($("k")).process(Counter) : any(t).partitionBy($("k")).process("Counter", lit(`u${s.a}`).asArgument("uid"));
  }
}

/** A filter on the first INT column, or a projection of the columns in reverse order (keeps the program's names). */
function post(t: Any, kind: number, n: number): Any {
  const s = t.getResolvedSchema();
  if (kind === 0) return t;
  if (kind === 1) {
    const i = s.types.findIndex((x) => x.root === "INT" || x.root === "BIGINT");
    return i < 0 ? t : t.filter($(s.names[i]!).isGreater(n % 3));
  }
  return t.select(...[...s.names].reverse().map((c) => $(c)));
}

const events = fc.array(fc.tuple(fc.constantFrom("a", "b", "c", null), fc.option(fc.integer({ min: -2, max: 5 }), { freq: 6 }), fc.integer({ min: 0, max: 30 })), { minLength: 1, maxLength: 12 });
const others = fc.array(fc.tuple(fc.constantFrom("a", "b", null), fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 30 })), { minLength: 1, maxLength: 6 });
const rates = fc.uniqueArray(fc.tuple(fc.constantFrom("a", "b", "c"), fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 30 })), { minLength: 1, maxLength: 6, selector: (r) => `${r[0]}@${r[2]}` });
const timeOp = fc.record({
  op: fc.constantFrom("tumble", "slide", "cumulate", "session", "over", "interval", "leftInterval", "temporal", "leftTemporal", "ptf") as fc.Arbitrary<TimeOp["op"]>,
  a: fc.nat(11), b: fc.nat(11),
});

describe("toSql() = the program, with windows, over windows, interval / temporal joins and PTF calls (property)", () => {
  it("random time-based programs give the same changelog as their SQL text through executeSql", async () => {
    await fc.assert(fc.asyncProperty(events, others, rates, timeOp, fc.nat(2), fc.nat(2), fc.nat(5), async (ts, us, rs, op, pre, after, n) => {
      const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
      env.createTemporaryView("T", env.fromValues(EVENTS, ts.map(([k, v, s]) => Row.of(k, v, at(s)))) as never);
      env.createTemporaryView("U", env.fromValues(OTHER, us.map(([k, w, s]) => Row.of(k, w, at(s)))) as never);
      env.createTemporaryView("Rates", env.fromValues(RATES, rs.map(([c, r, s]) => Row.of(c, r, at(s)))) as never);
      env.createFunction("Counter", Counter);
      let t = any(env.from("T"));
      if (pre === 1) t = t.filter($("v").isNotNull());
      if (pre === 2) t = t.select($("ts"), $("k"), $("v").plus(1).as("v"));
      const program = post(timePart(env, t, op), after, n) as unknown as Table<object>;
      const sql = program.toSql();
      const expected = await program.execute().toChangelog();
      const actual = await env.executeSql(sql).toChangelog();
      expect(actual, sql).toEqual(expected);
      expect(env.sqlQuery(sql).getResolvedSchema().names).toEqual(program.getResolvedSchema().names);
    }), { numRuns: 80 });
  });
});
