import { PostgresConnection } from "../postgres/connection.js";
import { POSTGRES_CODEC } from "../postgres/codec.js";
import { SqliteConnection } from "../sqlite/connection.js";
import { SQLITE_CODEC } from "../sqlite/codec.js";
import { type JdbcConnection, type ValueCodec, jdbcTarget } from "./driver.js";
import type { JdbcTable } from "./options.js";

/** `jdbc table 'orders'` — how messages name a table. */
export const whereOf = (table: JdbcTable): string => `connector 'jdbc' table '${table.tableName}'`;

/** The codec of the table's database (from its url). */
export function codecOf(table: JdbcTable): ValueCodec {
  return jdbcTarget(table.options.url, table.tableName).kind === "postgres" ? POSTGRES_CODEC : SQLITE_CODEC;
}

/** Opens a connection to the table's database. */
export async function openConnection(table: JdbcTable): Promise<JdbcConnection> {
  const o = table.options;
  const target = jdbcTarget(o.url, table.tableName);
  const where = whereOf(table);
  if (target.kind === "sqlite") return SqliteConnection.open(target.path, where, o["connection.max-retry-timeout"]);
  return PostgresConnection.open({
    connectionString: target.connectionString, user: o.username, password: o.password,
    connectTimeoutMillis: o["connection.max-retry-timeout"], where,
  });
}
