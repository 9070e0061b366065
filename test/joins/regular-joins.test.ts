import { describe, expect, it } from "vitest";
import { activeBackendOptions, backendSuite } from "../support/state-backends.js";
import { stateBackendFor } from "../../src/exec/state/backend-options.js";
import { $, DataTypes, type Table, ValidationError, coalesce, ifThenElse, lit, nullOf } from "../../src/index.js";
import {
  DEPARTMENT, DEPARTMENT_NONULLS, DEPARTMENT_TYPE, EMPLOYEE, EMPLOYEE_TYPE, T1, T2, T_TYPE, batch, materialize, sorted, streaming,
} from "./fixtures.js";

/**
 * Flink's regular join programs (JoinTestPrograms) in Table API form. Flink runs them as restore tests; here
 * the before rows and then the after rows go through one run and the expected result is before ∪ after,
 * compared as a multiset (changelog) or as the final table (materialized), as each case says.
 */
// the regular join keeps both sides in the job's state backend: every program runs on both
backendSuite("regular joins", (backend) => {
  describe("regular joins: Flink's join programs", () => {
    it("R-001 join-non-window-inner-join: equality key plus a non-equi condition; a = 3 mapped to NULL never matches", async () => {
      const env = streaming();
      const nulled = (t: Table<{ a: number | null; b: number | null; c: string | null }, "append">) =>
        t.select(ifThenElse($("a").isEqual(3), nullOf(DataTypes.INT()), $("a")).as("a"), $("b"), $("c"));
      const t1 = nulled(env.fromValues(T_TYPE, T1));
      const t2 = nulled(env.fromValues(T_TYPE, T2)).renameColumns($("a").as("a2"), $("b").as("b2"), $("c").as("c2"));
      const q = t1.join(t2, $("a").isEqual($("a2")).and($("b").isGreater($("b2")))).select($("a2"), $("c2"), $("c"));
      expect(q.changelogMode()).toBe("[I]");
      expect(sorted(await q.execute().toChangelog())).toEqual(sorted([
        "+I[1, BakerBaker, Baker2]", "+I[1, BakerBaker, Baker2]", "+I[1, BakerBaker, Baker3]", "+I[2, HeHe, Baker5]",
        "+I[1, BakerBaker, Baker6]", "+I[1, BakerBaker, Baker8]",
        "+I[2, PostRestoreRight, Baker5]",
      ]));
    });

    it("R-003 join-cross-join: every pair", async () => {
      const env = streaming();
      const q = env.fromValues(EMPLOYEE_TYPE, EMPLOYEE).join(env.fromValues(DEPARTMENT_TYPE, DEPARTMENT)).select($("name"), $("department_name"));
      const out = await q.execute().toChangelog();
      const names = ["Adam", "Baker", "Charlie", "Don", "Victor", "Juliet", "Helena", "Ivana"];
      const depts = ["Accounting", "Research", "Human Resources", "HR", "Sales", "People Operations", "Engineering"];
      expect(sorted(out)).toEqual(sorted(names.flatMap((n) => depts.map((d) => `+I[${n}, ${d}]`))));
      expect(out).toHaveLength(56);
    });

    it("R-005 join-inner-join-with-duplicate-key: deptno = department_num AND deptno = b3", async () => {
      const env = streaming();
      const q = env.fromValues(EMPLOYEE_TYPE, EMPLOYEE).join(env.fromValues(DEPARTMENT_TYPE, DEPARTMENT),
        $("deptno").isEqual($("department_num")).and($("deptno").isEqual($("b3")))).select($("deptno"), $("department_num"));
      expect(sorted(await q.execute().toChangelog())).toEqual(sorted(["+I[2, 2]", "+I[4, 4]", "+I[4, 4]"]));
    });

    it("R-007 join-inner-join-with-equal-pk: two group aggregates joined on their keys", async () => {
      const env = streaming();
      const q1 = env.fromValues(EMPLOYEE_TYPE, EMPLOYEE).groupBy($("deptno")).select($("salary").min().as("salary"), $("deptno"));
      const q2 = env.fromValues(DEPARTMENT_TYPE, DEPARTMENT).groupBy($("department_num")).select($("b2").min().as("b2"), $("department_num"));
      const q = q1.join(q2, $("deptno").isEqual($("department_num"))).select($("deptno"), $("department_num"));
      expect(q.changelogMode()).toBe("[I,UB,UA]");
      // the MINs of matching keys never change: no retractions reach the sink
      expect(sorted(await q.execute().toChangelog())).toEqual(sorted(["+I[1, 1]", "+I[2, 2]", "+I[3, 3]", "+I[4, 4]"]));
    });

    it("R-009 join-outer-join: FULL OUTER, NULL keys padded on both sides (materialized)", async () => {
      const env = streaming();
      const q = env.fromValues(EMPLOYEE_TYPE, EMPLOYEE).fullOuterJoin(env.fromValues(DEPARTMENT_TYPE, DEPARTMENT), $("deptno").isEqual($("department_num")))
        .select($("name"), $("department_name"));
      expect(q.changelogMode()).toBe("[I,D]");
      expect(materialize(await q.execute().toChangelog())).toEqual(sorted([
        "+I[Adam, null]", "+I[null, Accounting]", "+I[Baker, Research]", "+I[Charlie, Human Resources]", "+I[Charlie, HR]", "+I[Don, Sales]",
        "+I[Victor, null]",
        "+I[Helena, Engineering]", "+I[Juliet, Engineering]", "+I[Ivana, Research]", "+I[Charlie, People Operations]",
      ]));
    });

    it("R-011 join-right-join: RIGHT OUTER (materialized)", async () => {
      const env = streaming();
      const q = env.fromValues(EMPLOYEE_TYPE, EMPLOYEE).rightOuterJoin(env.fromValues(DEPARTMENT_TYPE, DEPARTMENT), $("deptno").isEqual($("department_num")))
        .select($("name"), $("department_name"));
      expect(materialize(await q.execute().toChangelog())).toEqual(sorted([
        "+I[null, Accounting]", "+I[Baker, Research]", "+I[Charlie, Human Resources]", "+I[Charlie, HR]", "+I[Don, Sales]",
        "+I[Helena, Engineering]", "+I[Juliet, Engineering]", "+I[Ivana, Research]", "+I[Charlie, People Operations]",
      ]));
    });

    it("R-013 join-anti-join (NOT IN): a left outer join keeping the rows without partner (materialized)", async () => {
      // NOT IN (subquery) is SQL; its Table API form is a left outer join on the key and a filter on the padded column.
      // NULL NOT IN a non-empty set is unknown: a NULL deptno is filtered out as well.
      const env = streaming();
      const depts = env.fromValues(DEPARTMENT_TYPE, DEPARTMENT_NONULLS).select($("department_num")).distinct();
      const q = env.fromValues(EMPLOYEE_TYPE, EMPLOYEE).leftOuterJoin(depts, $("deptno").isEqual($("department_num")))
        .filter($("department_num").isNull().and($("deptno").isNotNull())).select($("name"));
      expect(materialize(await q.execute().toChangelog())).toEqual(sorted(["+I[Victor]", "+I[Juliet]", "+I[Helena]"]));
    });

    it("the same programs in batch mode give the materialized streaming result as inserts", async () => {
      for (const make of [streaming, batch]) {
        const env = make();
        const q = env.fromValues(EMPLOYEE_TYPE, EMPLOYEE).fullOuterJoin(env.fromValues(DEPARTMENT_TYPE, DEPARTMENT), $("deptno").isEqual($("department_num")))
          .select($("name"), $("department_name"));
        const out = await q.execute().toChangelog();
        if (make === batch) {
          expect(q.changelogMode()).toBe("[I]");
          expect(out.every((r) => r.startsWith("+I"))).toBe(true);
        }
        expect(materialize(out)).toHaveLength(11);
      }
    });
  });

  describe("regular joins: changelog sequences of outer joins", () => {
    const L = DataTypes.ROW(DataTypes.FIELD("k", DataTypes.INT()), DataTypes.FIELD("lv", DataTypes.STRING()));
    const R = DataTypes.ROW(DataTypes.FIELD("rk", DataTypes.INT()), DataTypes.FIELD("rv", DataTypes.STRING()));

    it("a partner arriving deletes the padded row, its retraction inserts it again", async () => {
      const env = streaming();
      const { Row, RowKind } = await import("../../src/index.js");
      const left = env.fromValues(L, Row.of(1, "a"));
      // the right side arrives after the left row (round robin: left first), then retracts
      const right = env.fromValues(R, Row.ofKind(RowKind.INSERT, 1, "x"), Row.ofKind(RowKind.INSERT, 1, "y"), Row.ofKind(RowKind.DELETE, 1, "x"),
        Row.ofKind(RowKind.DELETE, 1, "y"));
      const q = left.leftOuterJoin(right, $("k").isEqual($("rk")));
      expect(await q.execute().toChangelog()).toEqual([
        "+I[1, a, null, null]", "-D[1, a, null, null]", "+I[1, a, 1, x]", "+I[1, a, 1, y]", "-D[1, a, 1, x]", "-D[1, a, 1, y]", "+I[1, a, null, null]",
      ]);
    });

    it("updates of the inner side keep their kind; of the outer side become -D/+I", async () => {
      const env = streaming();
      const { Row, RowKind } = await import("../../src/index.js");
      const left = env.fromValues(L, Row.of(1, "a"), Row.ofKind(RowKind.UPDATE_BEFORE, 1, "a"), Row.ofKind(RowKind.UPDATE_AFTER, 1, "b"));
      const right = env.fromValues(R, Row.of(1, "x"), Row.ofKind(RowKind.UPDATE_BEFORE, 1, "x"), Row.ofKind(RowKind.UPDATE_AFTER, 1, "z"));
      const inner = await left.join(right, $("k").isEqual($("rk"))).execute().toChangelog();
      // round robin: +I a, +I x, -U a, -U x, +U b, +U z
      expect(inner).toEqual(["+I[1, a, 1, x]", "-U[1, a, 1, x]", "+U[1, b, 1, z]"]);
      const outer = await left.leftOuterJoin(right, $("k").isEqual($("rk"))).execute().toChangelog();
      expect(outer).toEqual([
        "+I[1, a, null, null]", "-D[1, a, null, null]", "+I[1, a, 1, x]", "-D[1, a, 1, x]", "+I[1, b, null, null]",
        "-D[1, b, null, null]", "+I[1, b, 1, z]",
      ]);
    });

    it("join(...).where(...) plans the same equi-join as join(..., predicate)", () => {
      const env = streaming();
      const a = env.fromValues(L, []);
      const b = env.fromValues(R, []);
      const q = a.join(b).where($("k").isEqual($("rk")).and($("lv").isNotEqual($("rv"))));
      expect(q.explain()).toContain("leftKeys=[k], rightKeys=[rk]");
      expect(q.node.kind).toBe("Join");
      expect((q.node as { residual?: unknown }).residual).toBeDefined();
    });

    it("a column on both sides is a ValidationError naming it; a non-BOOLEAN predicate too", () => {
      const env = streaming();
      const a = env.fromValues(L, []);
      expect(() => (a.join as (t: unknown) => unknown)(env.fromValues(L, []))).toThrow(ValidationError);
      expect(() => (a.join as (t: unknown) => unknown)(env.fromValues(L, []))).toThrow(/column 'k' exists on both sides of the join/);
      const b = env.fromValues(R, []);
      expect(() => a.join(b, $("k").plus(1) as never)).toThrow(/must be BOOLEAN/);
      expect(() => a.join(b, $("kk").isEqual(1) as never)).toThrow(/kk/);
      expect(() => a.join(b, $("k").isEqual($("rv")) as never)).toThrow(/cannot compare NUMERIC with STRING/);
      expect(() => a.rightOuterJoin(b, lit(true) as never)).not.toThrow();
    });
  });

  describe("regular joins: state TTL (table.exec.state.ttl)", () => {
    it("a row expires ttl after it was written: it is not matched again and nothing is emitted for it", async () => {
      const { RegularJoinOperator } = await import("../../src/exec/operators/join/regular-join.js");
      const env = streaming();
      const L = DataTypes.ROW(DataTypes.FIELD("k", DataTypes.INT()), DataTypes.FIELD("lv", DataTypes.STRING()));
      const R = DataTypes.ROW(DataTypes.FIELD("rk", DataTypes.INT()), DataTypes.FIELD("rv", DataTypes.STRING()));
      const q = env.fromValues(L, []).leftOuterJoin(env.fromValues(R, []), $("k").isEqual($("rk")));
      let now = 0;
      const config = new Map([["table.exec.state.ttl", "10 s"], ...Object.entries(activeBackendOptions())]);
      const stateBackend = stateBackendFor(config);
      expect(stateBackend.type).toBe(backend.name);
      const op = new RegularJoinOperator(q.node as never, { batch: false, config, clock: () => now, stateBackend });
      const out: string[] = [];
      op.out = { record: (k, r) => out.push(`${k}${JSON.stringify(r)}`), watermark: () => {}, endInput: () => {} };
      op.open();
      op.processElement(0, 0, [1, "a"]);
      now = 9_999;
      op.processElement(1, 0, [1, "x"]); // within the TTL: matches (and counts as a write of the left row's association)
      now = 19_998;
      op.processElement(1, 0, [1, "y"]); // the left row was written again at 9,999: still alive
      now = 40_000;
      op.processElement(1, 0, [1, "z"]); // everything expired: no partner, nothing emitted for the expired rows
      op.processElement(0, 0, [1, "b"]); // x and y expired, z was just written: b matches z only
      expect(out).toEqual([
        '0[1,"a",null,null]', '3[1,"a",null,null]', '0[1,"a",1,"x"]', '0[1,"a",1,"y"]', '0[1,"b",1,"z"]',
      ]);
      expect(op.stateRowCount()).toBe(2);
      stateBackend.dispose();
    });
  });

  describe("regular joins: a select of columns is emitted by the join itself", () => {
    it("reordered and repeated columns, and a filter above them, give the rows of the unfused plan", async () => {
      const env = streaming();
      const e = env.fromValues(EMPLOYEE_TYPE, EMPLOYEE);
      const d = env.fromValues(DEPARTMENT_TYPE, DEPARTMENT);
      const joined = e.join(d, $("deptno").isEqual($("department_num")));
      const fused = joined.select($("department_name"), $("name"), $("deptno"), $("name").as("again")).filter($("deptno").isGreater(1));
      const plain = joined.select($("department_name"), $("name"), $("deptno"), coalesce($("name"), $("name")).as("again")).filter($("deptno").isGreater(1));
      const rows = await fused.execute().toChangelog();
      expect(rows).toEqual(await plain.execute().toChangelog());
      expect(sorted(rows)).toEqual(sorted([
        "+I[Human Resources, Charlie, 2, Charlie]", "+I[HR, Charlie, 2, Charlie]", "+I[Sales, Don, 3, Don]",
        "+I[People Operations, Charlie, 2, Charlie]", "+I[Engineering, Juliet, 4, Juliet]", "+I[Engineering, Helena, 4, Helena]",
      ]));
    });
  });
});
