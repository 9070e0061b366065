// Catalog statements through executeSql: CREATE TABLE ... LIKE, CREATE FUNCTION, DROP, ALTER TABLE, SHOW,
// DESCRIBE, SET / RESET, EXPLAIN — each with Flink's result columns and messages.
import { describe, expect, it } from "vitest";
import { DataTypes, EnvironmentSettings, ScalarFunction, SqlParseError, TableEnvironment, ValidationError } from "../../src/index.js";
import { printed } from "../support.js";

const ORDERS = "CREATE TABLE Orders (id BIGINT, product STRING, amount INT, ts TIMESTAMP(3), cost AS amount * 2, "
  + "WATERMARK FOR ts AS ts - INTERVAL '1' SECOND, PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'datagen', 'number-of-rows' = '3', 'fields.amount.min' = '1', 'fields.amount.max' = '100')";

function env() {
  const e = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
  e.executeSql(ORDERS);
  e.executeSql("CREATE VIEW Big AS SELECT id, amount FROM Orders WHERE amount > 10");
  return e;
}
const rows = (e: TableEnvironment, sql: string) => e.executeSql(sql).toArray();
const text = async (e: TableEnvironment, sql: string) => (await rows(e, sql))[0]!.result as string;

describe("SHOW and DESCRIBE", () => {
  it("SHOW TABLES / VIEWS / USER FUNCTIONS: one column each, sorted, LIKE and NOT LIKE filter", async () => {
    const e = env();
    const r = e.executeSql("SHOW TABLES");
    expect(r.getResolvedSchema().toShortString()).toBe("[table name: STRING]");
    expect(await r.toArray()).toEqual([{ "table name": "Big" }, { "table name": "Orders" }]);
    expect(await rows(e, "SHOW VIEWS")).toEqual([{ "view name": "Big" }]);
    expect(await rows(e, "SHOW TABLES LIKE 'O%'")).toEqual([{ "table name": "Orders" }]);
    expect(await rows(e, "SHOW TABLES NOT LIKE 'O%'")).toEqual([{ "table name": "Big" }]);
    expect(await rows(e, "SHOW TABLES ILIKE 'b_g'")).toEqual([{ "table name": "Big" }]);
    expect(await rows(e, "SHOW USER FUNCTIONS")).toEqual([]);
    expect(await rows(e, "SHOW CURRENT DATABASE")).toEqual([{ "current database name": "default_database" }]);
    const functions = (await rows(e, "SHOW FUNCTIONS")).map((x) => x["function name"]);
    expect(functions).toContain("UPPER");
    expect(functions).toEqual([...functions].sort());
  });

  it("DESCRIBE: name, type, null, key, extras, watermark; SHOW COLUMNS FROM the same with LIKE", async () => {
    const e = env();
    const r = e.executeSql("DESCRIBE Orders");
    expect(r.getResolvedSchema().toShortString()).toBe("[name: STRING, type: STRING, null: BOOLEAN, key: STRING, extras: STRING, watermark: STRING]");
    expect(await r.toArray()).toEqual([
      { name: "id", type: "BIGINT", null: false, key: "PRI(id)", extras: null, watermark: null },
      { name: "product", type: "STRING", null: true, key: null, extras: null, watermark: null },
      { name: "amount", type: "INT", null: true, key: null, extras: null, watermark: null },
      { name: "ts", type: "TIMESTAMP(3) *ROWTIME*", null: true, key: null, extras: null, watermark: "ts - INTERVAL '1' SECOND" },
      { name: "cost", type: "INT", null: true, key: null, extras: "AS amount * 2", watermark: null },
    ]);
    expect((await rows(e, "SHOW COLUMNS FROM Orders LIKE '%o%'")).map((x) => x.name)).toEqual(["product", "amount", "cost"]);
    expect((await rows(e, "DESC Big")).map((x) => [x.name, x.type])).toEqual([["id", "BIGINT"], ["amount", "INT"]]);
    expect(() => e.executeSql("DESCRIBE Order"))
      .toThrow("SQL validation failed. At line 1, column 10: Tables or views with the identifier 'default_catalog.default_database.Order' doesn't exist. Did you mean 'Orders'?");
  });

  it("SHOW CREATE TABLE prints the table as Flink does, raw", async () => {
    const e = env();
    const sql = await text(e, "SHOW CREATE TABLE Orders");
    expect(sql).toBe("CREATE TABLE `default_catalog`.`default_database`.`Orders` (\n  `id` BIGINT,\n  `product` STRING,\n  `amount` INT,\n  `ts` TIMESTAMP(3),\n"
      + "  `cost` AS amount * 2,\n  WATERMARK FOR `ts` AS ts - INTERVAL '1' SECOND,\n  CONSTRAINT `PK_id` PRIMARY KEY (`id`) NOT ENFORCED\n)\nWITH (\n"
      + "  'connector' = 'datagen',\n  'fields.amount.max' = '100',\n  'fields.amount.min' = '1',\n  'number-of-rows' = '3'\n)\n");
    expect(await printed(e.executeSql("SHOW CREATE TABLE Orders"))).toBe(sql);
    expect(() => e.executeSql("SHOW CREATE TABLE Big")).toThrow("is a view. Please use SHOW CREATE VIEW instead.");
    // a view's query is printed as SQL (Table.toSql()), which reads back to the same rows
    const view = await text(e, "SHOW CREATE VIEW Big");
    expect(view).toBe("CREATE TEMPORARY VIEW `default_catalog`.`default_database`.`Big` AS\n"
      + "SELECT `id` AS `id`, `amount` AS `amount`\nFROM (\n  SELECT *\n  FROM `Orders` AS t1\n  WHERE (`amount` > 10)\n) AS t0\n");
    e.executeSql(view.replace("`default_catalog`.`default_database`.`Big`", "Big2"));
    expect(await rows(e, "SHOW VIEWS")).toEqual([{ "view name": "Big" }, { "view name": "Big2" }]);
  });
});

describe("CREATE TABLE ... LIKE", () => {
  it("INCLUDING ALL OVERWRITING OPTIONS by default: columns, computed column, watermark, key and options copied; new options win", async () => {
    const e = env();
    e.executeSql("CREATE TABLE Orders2 (extra AS amount + 1) WITH ('number-of-rows' = '5') LIKE Orders");
    expect(await text(e, "SHOW CREATE TABLE Orders2")).toBe("CREATE TABLE `default_catalog`.`default_database`.`Orders2` (\n  `id` BIGINT,\n  `product` STRING,\n"
      + "  `amount` INT,\n  `ts` TIMESTAMP(3),\n  `cost` AS amount * 2,\n  `extra` AS amount + 1,\n  WATERMARK FOR `ts` AS ts - INTERVAL '1' SECOND,\n"
      + "  CONSTRAINT `PK_id` PRIMARY KEY (`id`) NOT ENFORCED\n)\nWITH (\n  'connector' = 'datagen',\n  'fields.amount.max' = '100',\n  'fields.amount.min' = '1',\n  'number-of-rows' = '5'\n)\n");
    expect(await e.executeSql("SELECT COUNT(*) AS n FROM Orders2").toChangelog()).toContain("+U[5]");
  });

  it("EXCLUDING GENERATED / WATERMARKS / CONSTRAINTS / OPTIONS leave those out", async () => {
    const e = env();
    e.executeSql("CREATE TABLE Plain (extra INT) WITH ('connector' = 'blackhole') LIKE Orders (EXCLUDING ALL)");
    expect((await rows(e, "DESCRIBE Plain")).map((x) => [x.name, x.type, x.key])).toEqual([
      ["id", "BIGINT", null], ["product", "STRING", null], ["amount", "INT", null], ["ts", "TIMESTAMP(3)", null], ["extra", "INT", null],
    ]);
    e.executeSql("CREATE TABLE Keyed LIKE Orders (EXCLUDING ALL INCLUDING CONSTRAINTS INCLUDING OPTIONS)");
    expect((await rows(e, "DESCRIBE Keyed")).map((x) => x.key)).toEqual(["PRI(id)", null, null, null]);
  });

  it("conflicts raise Flink's messages at the clause", () => {
    const e = env();
    expect(() => e.executeSql("CREATE TABLE Bad (id INT) LIKE Orders")).toThrow("SQL validation failed. At line 1, column 19: A column named 'id' already exists in the base table.");
    expect(() => e.executeSql("CREATE TABLE Bad (cost AS amount) LIKE Orders"))
      .toThrow("A generated column named 'cost' already exists in the base table. You might want to specify EXCLUDING GENERATED or OVERWRITING GENERATED.");
    expect(() => e.executeSql("CREATE TABLE Bad WITH ('number-of-rows' = '5') LIKE Orders (INCLUDING OPTIONS)"))
      .toThrow("At line 1, column 24: There already exists an option ['number-of-rows' -> '3'] in the base table. You might want to specify EXCLUDING OPTIONS or OVERWRITING OPTIONS.");
    expect(() => e.executeSql("CREATE TABLE Bad (PRIMARY KEY (product) NOT ENFORCED) LIKE Orders"))
      .toThrow("The base table already has a primary key. You might want to specify EXCLUDING CONSTRAINTS.");
    expect(() => e.executeSql("CREATE TABLE Bad (WATERMARK FOR ts AS ts) LIKE Orders"))
      .toThrow("There already exists a watermark spec for column 'ts' in the base table. You might want to specify EXCLUDING WATERMARKS or OVERWRITING WATERMARKS.");
    expect(() => e.executeSql("CREATE TABLE Bad LIKE Big")).toThrow("Source table '`default_catalog`.`default_database`.`Big`' of the LIKE clause can not be a VIEW");
    expect(() => e.executeSql("CREATE TABLE Bad LIKE Nope")).toThrow("of the LIKE clause not found in the catalog");
    expect(() => e.executeSql("CREATE TABLE Bad LIKE Orders (OVERWRITING ALL)")).toThrow(SqlParseError);
    expect(() => e.executeSql("CREATE TABLE Bad LIKE Orders (OVERWRITING ALL)")).toThrow("line 1, column 31: Illegal merging strategy 'OVERWRITING' for 'ALL' option.");
  });

  it("OVERWRITING GENERATED / WATERMARKS replace the base table's declarations", async () => {
    const e = env();
    e.executeSql("CREATE TABLE O2 (cost AS amount * 3, WATERMARK FOR ts AS ts) LIKE Orders (OVERWRITING GENERATED OVERWRITING WATERMARKS)");
    const d = await rows(e, "DESCRIBE O2");
    expect(d.find((x) => x.name === "cost")!.extras).toBe("AS amount * 3");
    expect(d.find((x) => x.name === "ts")!.watermark).toBe("ts");
  });
});

describe("METADATA columns", () => {
  it("parse; a connector without metadata rejects them when the table is read, as Flink", () => {
    const e = env();
    e.executeSql("CREATE TABLE M (a INT, m STRING METADATA FROM 'file.path' VIRTUAL) WITH ('connector' = 'datagen')");
    expect(() => e.sqlQuery("SELECT * FROM M"))
      .toThrow("Table 'default_catalog.default_database.M' declares metadata columns, but the underlying DynamicTableSource doesn't implement the SupportsReadingMetadata interface.");
    expect(() => e.executeSql("CREATE TABLE M (a INT, m STRING METADATA FROM 42) WITH ('connector' = 'datagen')"))
      .toThrow("line 1, column 47: expected the metadata key as a string, e.g. 'file.path', got '42'");
  });
});

describe("CREATE FUNCTION, DROP, ALTER TABLE", () => {
  const Twice = ScalarFunction.define({ name: "Twice", args: [DataTypes.INT()], result: DataTypes.BIGINT(), eval: (x: number | null) => (x === null ? null : x * 2) });

  it("CREATE FUNCTION resolves the class name's last segment against the registered functions", async () => {
    const e = TableEnvironment.create();
    e.createTemporaryFunction("Twice", Twice);
    expect(await rows(e, "CREATE FUNCTION Doubled AS 'org.example.Twice' LANGUAGE JAVA")).toEqual([{ result: "OK" }]);
    expect(await rows(e, "SELECT Doubled(a) AS d FROM (VALUES 1, 2) AS t (a)")).toEqual([{ d: 2 }, { d: 4 }]);
    expect(await rows(e, "SHOW USER FUNCTIONS")).toEqual([{ "function name": "Doubled" }, { "function name": "Twice" }]);
    // declaring the name a function is already registered under, for that function, is accepted
    expect(await rows(e, "CREATE TEMPORARY FUNCTION Twice AS 'org.example.Twice'")).toEqual([{ result: "OK" }]);
    e.createTemporaryFunction("Other", Twice);
    expect(await rows(e, "CREATE FUNCTION Doubled AS 'Twice'")).toEqual([{ result: "OK" }]);
    e.dropTemporaryFunction("Other");
    e.createTemporaryFunction("Other", ScalarFunction.define({ name: "Other", args: [DataTypes.INT()], result: DataTypes.INT(), eval: (x: number | null) => x }));
    expect(() => e.executeSql("CREATE FUNCTION Doubled AS 'Other'")).toThrow("At line 1, column 17: Could not execute CREATE FUNCTION: Function default_catalog.default_database.Doubled already exists.");
    expect(await rows(e, "CREATE FUNCTION IF NOT EXISTS Doubled AS 'Twice'")).toEqual([{ result: "OK" }]);
    expect(() => e.executeSql("CREATE FUNCTION F AS 'org.example.Twise'"))
      .toThrow("SQL validation failed. At line 1, column 22: Could not find the implementation 'org.example.Twise' of function 'F': CREATE FUNCTION resolves the class name's last segment ('Twise') against the functions registered in the environment (env.createTemporaryFunction('Twise', ...)); registered: [Doubled, Other, Twice] Did you mean 'Twice'?");
    expect(await rows(e, "DROP FUNCTION Doubled")).toEqual([{ result: "OK" }]);
    expect(() => e.executeSql("DROP FUNCTION Doubled")).toThrow("At line 1, column 15: Function default_catalog.default_database.Doubled doesn't exist.");
    expect(await rows(e, "DROP FUNCTION IF EXISTS Doubled")).toEqual([{ result: "OK" }]);
    expect(await rows(e, "DROP TEMPORARY FUNCTION Twice")).toEqual([{ result: "OK" }]);
  });

  it("DROP TABLE / VIEW with Flink's messages; IF EXISTS makes a missing object fine", async () => {
    const e = env();
    e.executeSql("CREATE TEMPORARY TABLE Tmp (a INT) WITH ('connector' = 'blackhole')");
    expect(() => e.executeSql("DROP TABLE Tmp")).toThrow("Temporary table with identifier 'default_catalog.default_database.Tmp' exists. Drop it first before removing the permanent table.");
    expect(await rows(e, "DROP TEMPORARY TABLE Tmp")).toEqual([{ result: "OK" }]);
    expect(await rows(e, "DROP TABLE Orders")).toEqual([{ result: "OK" }]);
    expect(() => e.executeSql("DROP TABLE Orders")).toThrow("SQL validation failed. At line 1, column 12: Table with identifier 'default_catalog.default_database.Orders' does not exist.");
    expect(await rows(e, "DROP TABLE IF EXISTS Orders")).toEqual([{ result: "OK" }]);
    expect(await rows(e, "DROP VIEW Big")).toEqual([{ result: "OK" }]);
    expect(() => e.executeSql("DROP VIEW Big")).toThrow("View with identifier 'default_catalog.default_database.Big' does not exist.");
    expect(await rows(e, "SHOW TABLES")).toEqual([]);
  });

  it("ALTER TABLE RENAME TO / SET / RESET", async () => {
    const e = env();
    expect(await rows(e, "ALTER TABLE Orders RENAME TO Purchases")).toEqual([{ result: "OK" }]);
    expect(await rows(e, "SHOW TABLES")).toEqual([{ "table name": "Big" }, { "table name": "Purchases" }]);
    e.executeSql("ALTER TABLE Purchases SET ('number-of-rows' = '2')");
    expect(await e.executeSql("SELECT COUNT(*) AS n FROM Purchases").toChangelog()).toEqual(["+I[1]", "-U[1]", "+U[2]"]);
    e.executeSql("ALTER TABLE Purchases RESET ('number-of-rows')");
    expect(await text(e, "SHOW CREATE TABLE Purchases")).not.toContain("number-of-rows");
    expect(() => e.executeSql("ALTER TABLE Nope RENAME TO X")).toThrow("Table `default_catalog`.`default_database`.`Nope` doesn't exist or is a temporary table.");
    expect(await rows(e, "ALTER TABLE IF EXISTS Nope RENAME TO X")).toEqual([{ result: "OK" }]);
    expect(() => e.executeSql("ALTER TABLE Purchases RENAME TO Big")).toThrow(ValidationError);
    expect(() => e.executeSql("ALTER TABLE Purchases ADD (x INT)")).toThrow("line 1, column 23: ALTER TABLE ... ADD is not supported");
  });
});

describe("SET, RESET, EXPLAIN", () => {
  it("SET 'key' = 'value' changes the configuration; SET lists it; RESET removes one key or all", async () => {
    const e = env();
    expect(await rows(e, "SET 'table.exec.state.ttl' = '1 h'")).toEqual([{ result: "OK" }]);
    expect(e.getConfig().get("table.exec.state.ttl")).toBe("1 h");
    e.executeSql("SET 'a.b' = 'c';");
    expect(await rows(e, "SET")).toEqual([{ key: "a.b", value: "c" }, { key: "table.exec.state.ttl", value: "1 h" }]);
    e.executeSql("RESET 'a.b'");
    expect(await rows(e, "SET")).toEqual([{ key: "table.exec.state.ttl", value: "1 h" }]);
    e.executeSql("RESET");
    expect(await rows(e, "SET")).toEqual([]);
    expect(() => e.executeSql("SET table.exec.state.ttl = '1 h'")).toThrow("line 1, column 5: expected the option key as a string");
  });

  it("EXPLAIN prints the plan without changelog modes; EXPLAIN CHANGELOG_MODE with them; the same text as Table.explain()", async () => {
    const e = env();
    const q = "SELECT id, COUNT(*) FROM Orders GROUP BY id";
    const withModes = await text(e, `EXPLAIN CHANGELOG_MODE ${q}`);
    expect(withModes).toBe(e.sqlQuery(q).explain());
    expect(withModes).toContain("changelogMode=[I,UB,UA]");
    const plain = await text(e, `EXPLAIN PLAN FOR ${q}`);
    expect(plain).not.toContain("changelogMode");
    expect(plain.split("\n")[1]).toBe("Aggregate(groupBy=[id], select=[id, COUNT() AS EXPR$1]) -> [id: BIGINT NOT NULL, EXPR$1: BIGINT NOT NULL]");
    e.executeSql("CREATE TABLE Sink (id BIGINT, n BIGINT) WITH ('connector' = 'blackhole')");
    expect(await text(e, `EXPLAIN INSERT INTO Sink ${q}`)).toMatch(/^== Logical Plan ==\nSink\(table=\[Sink\]/);
    expect(() => e.executeSql("EXPLAIN CHANGELOG_MODE, CHANGELOG_MODE SELECT 1 FROM Orders")).toThrow("Duplicate EXPLAIN DETAIL is not allowed: CHANGELOG_MODE");
    expect(() => e.sqlQuery("EXPLAIN SELECT 1 FROM Orders")).toThrow("sqlQuery only accepts queries (SELECT, VALUES, WITH); use executeSql for EXPLAIN");
  });
});
