import { ValidationError } from "../../types/errors.js";
import { defineConnector } from "../api/define.js";
import { checkColumnTypes, jdbcTarget } from "./driver.js";
import { JdbcLookupReader } from "./lookup.js";
import { JDBC_OPTIONS, partitionOptions } from "./options.js";
import { JdbcScanReader } from "./reader.js";
import { JdbcSinkWriter } from "./writer.js";
import { acceptsJdbcFilter } from "./filters.js";

/**
 * Flink's `jdbc` connector for PostgreSQL (through `pg`) and SQLite (through `better-sqlite3`), the
 * database chosen by the `url`: a bounded scan (partitioned on a numeric column; simple filters pushed into
 * its WHERE as bind parameters), a lookup source for
 * lookup joins, and a sink that appends, or upserts and deletes by the primary key when the table
 * declares one. Built on the public connector API, as a user's connector would be.
 */
export const jdbcConnector = defineConnector({
  name: "jdbc",
  options: JDBC_OPTIONS,
  validate(table, role) {
    const target = jdbcTarget(table.options.url, table.tableName);
    checkColumnTypes(table.columns, table.tableName, target.kind);
    if (role === "source") partitionOptions(table);
    if (role === "sink" && table.primaryKey !== undefined) {
      for (const k of table.primaryKey) {
        if (!table.columns.some((c) => c.name === k)) throw new ValidationError(`jdbc table '${table.tableName}': primary key column '${k}' is not a physical column`);
      }
    }
  },
  source: {
    bounded: () => true,
    pushdown: { projection: true, acceptFilter: (f, table) => acceptsJdbcFilter(f, table.columns) },
    createReader: (ctx) => JdbcScanReader.open(ctx),
  },
  sink: {
    changelog: (table) => (table.primaryKey !== undefined ? "upsert" : "insert-only"),
    createWriter: (ctx) => JdbcSinkWriter.open(ctx),
  },
  lookup: {
    acceptFilter: (f, table) => acceptsJdbcFilter(f, table.columns),
    createReader: (ctx) => JdbcLookupReader.open(ctx),
  },
});
