
import { $, DataTypes, EnvironmentSettings, Row, TableEnvironment, lit, ifThenElse } from "./src/index.js";
const env = () => TableEnvironment.create(EnvironmentSettings.inStreamingMode());
const t = (e: TableEnvironment) => e.fromValues(DataTypes.ROW(DataTypes.FIELD("a", DataTypes.INT()), DataTypes.FIELD("s", DataTypes.STRING())), Row.of(1, "x"));
async function tryIt(name: string, f: () => Promise<unknown>) {
  try { const r = await f(); console.log(name, "OK", String(r).slice(0, 80)); } catch (e) { console.log(name, "ERR", (e as Error).constructor.name, (e as Error).message.slice(0, 200)); }
}
(async () => {
  for (const n of [1000, 5000]) {
    await tryIt(`plus ${n}`, async () => { let x: any = $("a"); for (let i = 0; i < n; i++) x = x.plus(1); return (await t(env()).select(x.as("r")).execute().toArray()); });
    await tryIt(`plusR ${n}`, async () => { let x: any = $("a"); for (let i = 0; i < n; i++) x = lit(1).plus(x); return (await t(env()).select(x.as("r")).execute().toArray()); });
    await tryIt(`concat ${n}`, async () => { let x: any = $("s"); for (let i = 0; i < n; i++) x = x.concat("y"); return (await t(env()).select(x.as("r")).execute().toArray()); });
    await tryIt(`case ${n}`, async () => { let x: any = lit(0); for (let i = 0; i < n; i++) x = ifThenElse($("a").isEqual(i), lit(i), x); return (await t(env()).select(x.as("r")).execute().toArray()); });
    await tryIt(`sqlplus ${n}`, async () => { const e = env(); e.createTemporaryView("t", t(e) as never); return (await e.sqlQuery(`SELECT ${"a + ".repeat(n)}1 AS r FROM t`).execute().toArray()); });
    await tryIt(`sqlparen ${n}`, async () => { const e = env(); e.createTemporaryView("t", t(e) as never); return (await e.sqlQuery(`SELECT ${"(".repeat(n)}a${")".repeat(n)} AS r FROM t`).execute().toArray()); });
    await tryIt(`sqlcase ${n}`, async () => { const e = env(); e.createTemporaryView("t", t(e) as never); return (await e.sqlQuery(`SELECT CASE ${Array.from({length:n},(_, i)=>`WHEN a = ${i} THEN ${i}`).join(" ")} ELSE 0 END AS r FROM t`).execute().toArray()); });
    await tryIt(`sqlconcat ${n}`, async () => { const e = env(); e.createTemporaryView("t", t(e) as never); return (await e.sqlQuery(`SELECT s${" || 'y'".repeat(n)} AS r FROM t`).execute().toArray()); });
    await tryIt(`sqlsub ${n}`, async () => { const e = env(); e.createTemporaryView("t", t(e) as never); return (await e.sqlQuery(`${"SELECT * FROM (".repeat(Math.min(n, 2000))}SELECT a FROM t${")".repeat(Math.min(n,2000))}`).execute().toArray()); });
  }
})();
