import { DataTypes, EnvironmentSettings, Row, TableEnvironment } from "../../src/index.js";
import { activeBackendOptions } from "../support/state-backends.js";

// Flink's JoinTestPrograms fixtures: the "before" rows then the "after" rows, in one run.

/** A streaming environment on the state backend of the suite that runs (test/support/state-backends.ts). */
export const streaming = () => {
  const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
  for (const [k, v] of Object.entries(activeBackendOptions())) env.getConfig().set(k, v);
  return env;
};
export const batch = () => TableEnvironment.create(EnvironmentSettings.inBatchMode());

export const EMPLOYEE_TYPE = DataTypes.ROW(
  DataTypes.FIELD("deptno", DataTypes.INT()), DataTypes.FIELD("salary", DataTypes.BIGINT()), DataTypes.FIELD("name", DataTypes.STRING()));
export const EMPLOYEE = [
  Row.of(null, 101, "Adam"), Row.of(1, 1, "Baker"), Row.of(2, 2, "Charlie"), Row.of(3, 2, "Don"), Row.of(7, 6, "Victor"),
  Row.of(4, 3, "Juliet"), Row.of(4, 4, "Helena"), Row.of(1, 1, "Ivana"),
];

export const DEPARTMENT_TYPE = DataTypes.ROW(
  DataTypes.FIELD("department_num", DataTypes.INT()), DataTypes.FIELD("b2", DataTypes.BIGINT()), DataTypes.FIELD("b3", DataTypes.INT()),
  DataTypes.FIELD("department_name", DataTypes.STRING()));
export const DEPARTMENT = [
  Row.of(null, 102, 0, "Accounting"), Row.of(1, 1, 0, "Research"), Row.of(2, 2, 1, "Human Resources"), Row.of(2, 3, 2, "HR"),
  Row.of(3, 1, 2, "Sales"), Row.of(2, 4, 3, "People Operations"), Row.of(4, 2, 4, "Engineering"),
];
export const DEPARTMENT_NONULLS = [
  Row.of(1, 1, 0, "Research"), Row.of(2, 2, 1, "Human Resources"), Row.of(2, 3, 2, "HR"), Row.of(3, 1, 2, "Sales"),
  Row.of(2, 4, 3, "People Operations"),
];

export const T_TYPE = DataTypes.ROW(DataTypes.FIELD("a", DataTypes.INT()), DataTypes.FIELD("b", DataTypes.BIGINT()), DataTypes.FIELD("c", DataTypes.STRING()));
export const T1 = [
  Row.of(1, 1, "Baker1"), Row.of(1, 2, "Baker2"), Row.of(1, 2, "Baker2"), Row.of(1, 5, "Baker3"), Row.of(2, 7, "Baker5"),
  Row.of(1, 9, "Baker6"), Row.of(1, 8, "Baker8"), Row.of(3, 8, "Baker9"), Row.of(1, 1, "PostRestore"),
];
export const T2 = [Row.of(1, 1, "BakerBaker"), Row.of(2, 2, "HeHe"), Row.of(3, 2, "HeHe"), Row.of(2, 1, "PostRestoreRight")];

export const sorted = (rows: readonly string[]): string[] => [...rows].sort();

/**
 * The final table a changelog describes (Flink's testMaterializedData without a primary key): +I/+U add a
 * row, -U/-D remove one equal row. A retraction of a row that is not there fails: the changelog is not
 * well-formed.
 */
export function materialize(changelog: readonly string[]): string[] {
  const rows = new Map<string, number>();
  for (const line of changelog) {
    const kind = line.slice(0, 2);
    const body = line.slice(3, -1);
    const n = rows.get(body) ?? 0;
    if (kind === "+I" || kind === "+U") rows.set(body, n + 1);
    else {
      if (n === 0) throw new Error(`${line} retracts a row that is not in the result: ${JSON.stringify([...rows.keys()])}`);
      if (n === 1) rows.delete(body);
      else rows.set(body, n - 1);
    }
  }
  const out: string[] = [];
  for (const [body, n] of rows) for (let i = 0; i < n; i++) out.push(`+I[${body}]`);
  return out.sort();
}
