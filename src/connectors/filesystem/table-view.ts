import { ResolvedSchema } from "../../types/resolved-schema.js";
import type { ConnectorColumn, SinkContext, TableContext } from "../api/contract.js";
import type { ConnectorTable } from "../connector-spec.js";

/**
 * A public connector context seen as the table the filesystem's modules take (format.ts, partitions.ts,
 * monitor.ts read options by their text, the columns as a schema): the options as written, `columns` (the
 * declared physical columns; a scan passes `physicalColumns`), the partition keys and, for a sink, what the
 * INSERT says (overwrite, static partition). Built once per validation, reader or writer.
 */
export function connectorTableOf(ctx: TableContext, columns: readonly ConnectorColumn[] = ctx.columns): ConnectorTable {
  const sink = ctx as Partial<SinkContext>;
  return {
    tableName: ctx.tableName,
    connector: ctx.connector,
    options: ctx.rawOptions,
    physical: new ResolvedSchema(columns.map((c) => ({ name: c.name, type: c.type }))),
    partitionKeys: ctx.partitionKeys,
    ...(ctx.primaryKey !== undefined ? { primaryKey: ctx.primaryKey } : {}),
    ...(sink.overwrite === true ? { overwrite: true } : {}),
    ...(sink.staticPartition !== undefined && Object.keys(sink.staticPartition).length > 0 ? { staticPartition: sink.staticPartition } : {}),
  };
}
