// ESM consumer: runs a select and a PTF call and prints their changelogs (checked by consumers.test.ts).
import { Row } from "tablestream";
import { materialize } from "tablestream/testing";
import { counted, older } from "./ptf-module.js";

const a: string | null = (await older.execute().toArray())[0]!.name;
const rows = await counted.execute().toChangelog();
const n: number | null = (await counted.execute().toArray())[0]!.n;
console.log(JSON.stringify({ a, n, rows, older: await older.execute().toChangelog(), kind: Row.kindOf(Row.of(1)), kit: typeof materialize }));
