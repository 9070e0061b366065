// The statements the jdbc connector generates and the partitioned scan's ranges (the database suites run
// them; these pin the exact text and Flink's splitting rule).
import { describe, expect, it } from "vitest";
import { scanPartitions } from "../../src/connectors/jdbc/partitions.js";
import { POSTGRES_DIALECT, SQLITE_DIALECT, deleteSql, lookupQuery, quoteTableName, rowsPerStatement, scanQuery, upsertSql } from "../../src/connectors/jdbc/sql.js";

describe("jdbc SQL", () => {
  it("splits the range as Flink does, the first partition open below (with NULL), the last open above", () => {
    expect(scanPartitions({ column: "id", num: 3, lower: 1, upper: 10 })).toEqual([
      { lower: undefined, upper: 4 }, { lower: 5, upper: 7 }, { lower: 8, upper: undefined },
    ]);
    // never more partitions than values
    expect(scanPartitions({ column: "id", num: 5, lower: 0, upper: 1 })).toEqual([{ lower: undefined, upper: 0 }, { lower: 1, upper: undefined }]);
    expect(scanPartitions({ column: "id", num: 1, lower: 0, upper: 100 })).toEqual([{ lower: undefined, upper: undefined }]);
  });

  it("scan queries quote every name and bind the bounds", () => {
    expect(scanQuery(POSTGRES_DIALECT, "public.Orders", ["id", 'we"ird'], "id", { lower: undefined, upper: 4 }))
      .toEqual({ sql: 'SELECT "id", "we""ird" FROM "public"."Orders" WHERE "id" <= $1 OR "id" IS NULL', params: [4] });
    expect(scanQuery(SQLITE_DIALECT, "t", ["id"], "id", { lower: 5, upper: 7 })).toEqual({ sql: 'SELECT "id" FROM "t" WHERE "id" BETWEEN ? AND ?', params: [5, 7] });
    expect(scanQuery(SQLITE_DIALECT, "t", ["id"], "id", { lower: 8, upper: undefined })).toEqual({ sql: 'SELECT "id" FROM "t" WHERE "id" >= ?', params: [8] });
    expect(scanQuery(SQLITE_DIALECT, '"a.b"', ["id"]).sql).toBe('SELECT "id" FROM "a.b"');
    expect(quoteTableName("s.t")).toBe('"s"."t"');
  });

  it("upserts by key with excluded values; deletes by key lists; lookups by key", () => {
    expect(upsertSql(POSTGRES_DIALECT, "t", ["k", "v", "w"], ["k"], 2))
      .toBe('INSERT INTO "t" ("k", "v", "w") VALUES ($1, $2, $3), ($4, $5, $6) ON CONFLICT ("k") DO UPDATE SET "v" = excluded."v", "w" = excluded."w"');
    expect(upsertSql(SQLITE_DIALECT, "t", ["a", "b"], ["a", "b"], 1)).toBe('INSERT INTO "t" ("a", "b") VALUES (?, ?) ON CONFLICT ("a", "b") DO NOTHING');
    expect(deleteSql(POSTGRES_DIALECT, "t", ["k"], 3)).toBe('DELETE FROM "t" WHERE "k" IN ($1, $2, $3)');
    expect(deleteSql(SQLITE_DIALECT, "t", ["a", "b"], 2)).toBe('DELETE FROM "t" WHERE ("a", "b") IN ((?, ?), (?, ?))');
    expect(lookupQuery(POSTGRES_DIALECT, "t", ["k", "v"], ["k", "v"])).toBe('SELECT "k", "v" FROM "t" WHERE "k" = $1 AND "v" = $2');
  });

  it("pushed filters become bind parameters after the partition's, never text", async () => {
    const { filterCondition, acceptsJdbcFilter } = await import("../../src/connectors/jdbc/filters.js");
    const { SQLITE_CODEC } = await import("../../src/connectors/sqlite/codec.js");
    const { DataTypes } = await import("../../src/index.js");
    const columns = [{ name: "age", type: DataTypes.INT() }, { name: "name", type: DataTypes.STRING() }, { name: "ok", type: DataTypes.BOOLEAN() }];
    const where = (first: number) => filterCondition(POSTGRES_DIALECT, [
      { column: "age", op: ">", value: 30 }, { column: "name", op: "IN", value: ["a", "b'; DROP TABLE t; --"] }, { column: "ok", op: "IS NOT NULL" },
    ], columns, SQLITE_CODEC, first);
    expect(scanQuery(POSTGRES_DIALECT, "t", ["age"], "age", { lower: 5, upper: 7 }, where)).toEqual({
      sql: 'SELECT "age" FROM "t" WHERE ("age" BETWEEN $1 AND $2) AND "age" > $3 AND "name" IN ($4, $5) AND "ok" IS NOT NULL',
      params: [5, 7, 30, "a", "b'; DROP TABLE t; --"],
    });
    expect(scanQuery(SQLITE_DIALECT, "t", ["ok"], undefined, undefined, (first) => filterCondition(SQLITE_DIALECT, [{ column: "ok", op: "=", value: true }], columns, SQLITE_CODEC, first)))
      .toEqual({ sql: 'SELECT "ok" FROM "t" WHERE "ok" = ?', params: [1] });
    // string ordering and comparisons of other types stay in the plan
    expect(acceptsJdbcFilter({ column: "name", op: "<", value: "z" }, columns)).toBe(false);
    expect(acceptsJdbcFilter({ column: "name", op: "=", value: "z" }, columns)).toBe(true);
    expect(acceptsJdbcFilter({ column: "age", op: "<=", value: 3 }, columns)).toBe(true);
    expect(acceptsJdbcFilter({ column: "ok", op: ">", value: true }, columns)).toBe(false);
  });

  it("keeps statements within the database's parameter limit", () => {
    expect(rowsPerStatement(POSTGRES_DIALECT, 3, 1000)).toBe(1000);
    expect(rowsPerStatement(POSTGRES_DIALECT, 100, 1000)).toBe(655);
    expect(rowsPerStatement(SQLITE_DIALECT, 100, 1000)).toBe(327);
  });
});
