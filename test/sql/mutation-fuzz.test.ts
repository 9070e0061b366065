// Mutation fuzz: documented statements with tokens deleted, duplicated, swapped, replaced or cut off never
// crash the parser or the planner — every failure is a SqlParseError or a ValidationError naming a line and
// column — and never hang.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  ArgumentTrait, CollectionSink, DataTypes, EnvironmentSettings, ProcessTableFunction, Schema, SqlParseError, TableEnvironment, ValidationError,
  tableArg, valueState,
} from "../../src/index.js";

const Greeting = ProcessTableFunction.define({
  name: "Greeting",
  args: { input: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE) },
  state: { memory: valueState({ n: 0 }) },
  output: DataTypes.STRING(),
  eval(ctx, { memory }, { input }) {
    memory.n++;
    ctx.collect(`${input.name} ${memory.n}`);
  },
});

/** The statements of docs/sql.md, over the tables setup() registers. */
const STATEMENTS = [
  "SELECT name, age + 1 AS next, UPPER(name) FROM People WHERE age > 10",
  "SELECT customer, COUNT(*) AS n, COUNT(DISTINCT product), SUM(amount), MIN(amount), MAX(amount), AVG(amount) FROM Orders GROUP BY customer HAVING SUM(amount) > 100",
  "SELECT b FROM (VALUES (1, 'x'), (2, 'y')) AS t (a, b) WHERE t.a > 1",
  "WITH big AS (SELECT * FROM Orders WHERE amount >= 7), per (who, n) AS (SELECT customer, COUNT(*) FROM big GROUP BY customer) SELECT who FROM per WHERE n = 1",
  "SELECT o.customer, p.age FROM Orders o LEFT JOIN People p ON o.customer = p.name",
  "SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY customer ORDER BY amount DESC) AS rn FROM Orders) WHERE rn <= 3",
  "SELECT * FROM Orders ORDER BY amount DESC LIMIT 2",
  "SELECT customer FROM Orders UNION ALL SELECT name FROM People",
  "SELECT * FROM Greeting(TABLE People PARTITION BY name)",
  "SELECT * FROM Greeting(input => TABLE People PARTITION BY name, uid => 'g1')",
  "CREATE TABLE T2 (id INT, ts TIMESTAMP(3), c AS id * 2, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND, PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'datagen', 'number-of-rows' = '1')",
  "CREATE TABLE T3 WITH ('connector' = 'datagen', 'number-of-rows' = '2') LIKE Events (EXCLUDING OPTIONS)",
  "CREATE VIEW V (a, b) AS SELECT customer, amount FROM Orders",
  "INSERT INTO Sink SELECT customer, amount FROM Orders",
  "EXECUTE STATEMENT SET BEGIN INSERT INTO Sink SELECT customer, amount FROM Orders; INSERT INTO Sink SELECT name, age FROM People; END;",
  "CREATE FUNCTION G2 AS 'org.example.Greeting'",
  "DROP TABLE IF EXISTS Events",
  "ALTER TABLE Events SET ('number-of-rows' = '5')",
  "ALTER TABLE Events RENAME TO Events2",
  "SHOW TABLES LIKE 'O%'",
  "SHOW COLUMNS FROM Orders",
  "DESCRIBE Orders",
  "EXPLAIN CHANGELOG_MODE SELECT customer, COUNT(*) FROM Orders GROUP BY customer",
  "SET 'table.exec.state.ttl' = '1 h'",
  "RESET 'table.exec.state.ttl'",
];

function setup(): TableEnvironment {
  const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
  env.executeSql("CREATE VIEW People (name, age) AS VALUES ('Bob', 12), ('Alice', 40)");
  env.executeSql("CREATE VIEW Orders (id, customer, product, amount) AS VALUES (1, 'Bob', 'x', 10), (2, 'Alice', 'y', 200)");
  env.executeSql("CREATE TABLE Events (id INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH ('connector' = 'datagen', 'number-of-rows' = '1')");
  env.createTemporaryTable("Sink", new CollectionSink().descriptor(Schema.newBuilder().column("a", "STRING").column("b", "INT").build()));
  env.createFunction("Greeting", Greeting);
  return env;
}

const WORDS = ["SELECT", "FROM", "WHERE", "(", ")", ",", ";", "'", "`", "TABLE", "AS", "BY", "NULL", "1e999", "-", "*", "=>", "INTERVAL", "END", "BEGIN", "LIKE", "INSERT", "DESCRIPTOR()", "0", "''"];

/** Splits into words and punctuation, so mutations hit tokens rather than letters only. */
function pieces(s: string): string[] {
  return s.match(/'[^']*'|`[^`]*`|[A-Za-z_][A-Za-z0-9_$]*|\d+(\.\d+)?|=>|<=|>=|<>|\s+|./g) ?? [];
}

const mutation = fc.record({
  statement: fc.constantFrom(...STATEMENTS),
  edits: fc.array(fc.record({ op: fc.constantFrom("delete", "duplicate", "swap", "replace", "insert", "truncate"), at: fc.nat(), word: fc.constantFrom(...WORDS) }), { minLength: 1, maxLength: 3 }),
}).map(({ statement, edits }) => {
  let p = pieces(statement);
  for (const e of edits) {
    if (p.length === 0) break;
    const i = e.at % p.length;
    switch (e.op) {
      case "delete": p.splice(i, 1); break;
      case "duplicate": p.splice(i, 0, p[i]!); break;
      case "swap": if (i + 1 < p.length) [p[i], p[i + 1]] = [p[i + 1]!, p[i]!]; break;
      case "replace": p[i] = e.word; break;
      case "insert": p.splice(i, 0, " ", e.word, " "); break;
      case "truncate": p = p.slice(0, i); break;
    }
  }
  return p.join("");
});

describe("mutation fuzz of the documented statements", () => {
  it("every documented statement runs as written", () => {
    for (const s of STATEMENTS) expect(() => setup().executeSql(s), s).not.toThrow();
  });

  it("a mutated statement either runs or fails with a positioned SqlParseError / ValidationError", () => {
    fc.assert(fc.property(mutation, (sql) => {
      const env = setup();
      try {
        env.executeSql(sql);
      } catch (e) {
        if (!(e instanceof SqlParseError) && !(e instanceof ValidationError)) throw new Error(`${sql}\n -> ${String(e)}`, { cause: e });
        expect((e as Error).message, sql).toMatch(/line \d+, column \d+/);
      }
    }), { numRuns: 500 });
  }, 60_000);
});
