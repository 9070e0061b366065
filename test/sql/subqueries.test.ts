// IN (SELECT ...), NOT IN, EXISTS and NOT EXISTS: semi and anti joins, with Flink's anti-join program R-013.
import { describe, expect, it } from "vitest";
import { DataTypes, Row, SqlParseError, type TableEnvironment, ValidationError } from "../../src/index.js";
import { DEPARTMENT, DEPARTMENT_NONULLS, DEPARTMENT_TYPE, EMPLOYEE, EMPLOYEE_TYPE, batch, materialize, sorted, streaming } from "../joins/fixtures.js";

function env(departments = DEPARTMENT, make = streaming): TableEnvironment {
  const e = make();
  e.createTemporaryView("EMPLOYEE", e.fromValues(EMPLOYEE_TYPE, EMPLOYEE) as never);
  e.createTemporaryView("DEPARTMENT", e.fromValues(DEPARTMENT_TYPE, departments) as never);
  return e;
}
const run = async (e: TableEnvironment, sql: string) => e.executeSql(sql).toChangelog();

describe("subqueries in WHERE: semi and anti joins", () => {
  it("R-013 join-anti-join: NOT IN (subquery) is a NULL-aware anti join; a NULL deptno is never in the result (materialized)", async () => {
    const e = env(DEPARTMENT_NONULLS);
    const sql = "SELECT name FROM EMPLOYEE WHERE deptno NOT IN (SELECT department_num FROM DEPARTMENT)";
    expect(e.sqlQuery(sql).explain()).toContain("SemiJoin(joinType=[anti], where=[or(equals(deptno, department_num), isNull(deptno), isNull(department_num))]");
    expect(materialize(await run(e, sql))).toEqual(sorted(["+I[Victor]", "+I[Juliet]", "+I[Helena]"]));
    // batch: the final rows once each
    expect(sorted(await run(env(DEPARTMENT_NONULLS, batch), sql))).toEqual(sorted(["+I[Victor]", "+I[Juliet]", "+I[Helena]"]));
  });

  it("NOT IN over a subquery with a NULL excludes every row (x NOT IN (..., NULL) is never TRUE)", async () => {
    // DEPARTMENT has a NULL department_num
    expect(await run(env(DEPARTMENT), "SELECT name FROM EMPLOYEE WHERE deptno NOT IN (SELECT department_num FROM DEPARTMENT)").then(materialize)).toEqual([]);
    expect(await run(env(DEPARTMENT, batch), "SELECT name FROM EMPLOYEE WHERE deptno NOT IN (SELECT department_num FROM DEPARTMENT)")).toEqual([]);
  });

  it("IN (subquery): each matching outer row once, however many partners; a NULL never matches", async () => {
    const sql = "SELECT name, deptno FROM EMPLOYEE WHERE deptno IN (SELECT department_num FROM DEPARTMENT) AND salary < 100";
    const e = env();
    expect(e.sqlQuery(sql).changelogMode()).toBe("[I]");
    expect(sorted(await run(e, sql))).toEqual(sorted([
      "+I[Baker, 1]", "+I[Charlie, 2]", "+I[Don, 3]", "+I[Juliet, 4]", "+I[Helena, 4]", "+I[Ivana, 1]",
    ]));
    expect(sorted(await run(env(DEPARTMENT, batch), sql))).toEqual(sorted(await run(env(), sql)));
  });

  it("streaming: a semi join of insert-only inputs is insert-only; an anti join may retract (+I / -D)", async () => {
    const e = streaming();
    const row = DataTypes.ROW(DataTypes.FIELD("k", DataTypes.INT().notNull()), DataTypes.FIELD("v", DataTypes.STRING()));
    e.createTemporaryView("L", e.fromValues(row, [Row.of(1, "a"), Row.of(2, "b")]) as never);
    const r = DataTypes.ROW(DataTypes.FIELD("rk", DataTypes.INT().notNull()));
    e.createTemporaryView("R", e.fromValues(r, [Row.of(2), Row.of(2), Row.of(3)]) as never);
    expect(await run(e, "SELECT * FROM L WHERE k IN (SELECT rk FROM R)")).toEqual(["+I[2, b]"]);
    const anti = e.sqlQuery("SELECT * FROM L WHERE k NOT IN (SELECT rk FROM R)");
    // both sides NOT NULL: a plain equality key, no NULL-aware condition
    expect(anti.explain()).toContain("where=[equals(k, rk)]");
    expect(anti.changelogMode()).toBe("[I,D]");
    expect(materialize(await anti.execute().toChangelog())).toEqual(["+I[1, a]"]);
  });

  it("retractions on the right take a row out of a semi join and give it back to an anti join", async () => {
    const e = env(DEPARTMENT_NONULLS);
    // the right side is an aggregate: department numbers with more than one department, updated as rows arrive
    const sub = "SELECT department_num FROM (SELECT department_num, COUNT(*) AS n FROM DEPARTMENT GROUP BY department_num) WHERE n = 1";
    const semi = await run(e, `SELECT name FROM EMPLOYEE WHERE deptno IN (${sub})`);
    expect(materialize(semi)).toEqual(sorted(["+I[Baker]", "+I[Don]", "+I[Ivana]"]));
    expect(semi).toContain("-D[Charlie]");
    const anti = await run(env(DEPARTMENT_NONULLS), `SELECT name FROM EMPLOYEE WHERE deptno NOT IN (${sub})`);
    expect(materialize(anti)).toEqual(sorted(["+I[Charlie]", "+I[Victor]", "+I[Juliet]", "+I[Helena]"]));
  });

  it("EXISTS / NOT EXISTS with a correlated condition; conditions on the subquery's own columns filter it first", async () => {
    const e = env();
    const exists = "SELECT name FROM EMPLOYEE e WHERE EXISTS (SELECT * FROM DEPARTMENT d WHERE d.department_num = e.deptno AND d.b3 >= 2)";
    expect(sorted(await run(e, exists))).toEqual(sorted(["+I[Charlie]", "+I[Don]", "+I[Juliet]", "+I[Helena]"]));
    const notExists = "SELECT name FROM EMPLOYEE e WHERE NOT EXISTS (SELECT 1 FROM DEPARTMENT d WHERE d.department_num = e.deptno)";
    // NOT EXISTS is not NULL-aware: Adam (deptno NULL) has no partner and stays
    expect(materialize(await run(env(), notExists))).toEqual(sorted(["+I[Adam]", "+I[Victor]"]));
    // an uncorrelated EXISTS: every row when the subquery has a row
    expect(sorted(await run(env(DEPARTMENT, batch), "SELECT name FROM EMPLOYEE WHERE EXISTS (SELECT * FROM DEPARTMENT WHERE b3 > 3) AND deptno = 1")))
      .toEqual(["+I[Baker]", "+I[Ivana]"]);
    expect(await run(env(DEPARTMENT, batch), "SELECT name FROM EMPLOYEE WHERE EXISTS (SELECT * FROM DEPARTMENT WHERE b3 > 99)")).toEqual([]);
  });

  it("a column both sides have is the subquery's inside it; errors name the position", () => {
    const e = env();
    // department_num is renamed apart only inside the plan: the outer query's columns are unchanged
    expect(e.sqlQuery("SELECT * FROM EMPLOYEE WHERE deptno IN (SELECT deptno FROM EMPLOYEE WHERE salary > 3)").getResolvedSchema().names)
      .toEqual(["deptno", "salary", "name"]);
    expect(() => e.sqlQuery("SELECT name FROM EMPLOYEE WHERE deptno IN (SELECT department_num, b2 FROM DEPARTMENT)"))
      .toThrow(/At line 1, column 40: the subquery of IN \(SELECT \.\.\.\) must return one column, it returns 2/);
    expect(() => e.sqlQuery("SELECT name FROM EMPLOYEE WHERE EXISTS (SELECT * FROM DEPARTMENT d WHERE d.nope = deptno)")).toThrow(ValidationError);
    expect(() => e.sqlQuery("SELECT name FROM EMPLOYEE WHERE EXISTS (1)")).toThrow(SqlParseError);
  });
});
