import type { ConnectorTable } from "./connector-spec.js";
import type { Connector } from "./connector.js";
import { Kind } from "../types/row.js";

/** Where a table is served instead: another adapted connector, and the table as that one sees it. */
export interface Routed {
  readonly connector: Connector;
  readonly table: ConnectorTable;
}

/**
 * One connector name served by two public definitions, picked per table from its options (the `filesystem`
 * connector: `format = parquet` goes to the parquet definition, the text formats to the filesystem one). Both are
 * adapted by `connectorFromDefinition`; this only forwards each planning and run-time call to the one the table
 * picks. The capability flags (overwrite, partitioning, bucketing) are the default connector's.
 */
export function connectorByOption(main: Connector, route: (table: ConnectorTable) => Routed | undefined): Connector {
  const pick = (table: ConnectorTable): Routed => route(table) ?? { connector: main, table };
  return {
    name: main.name,
    canRead: main.canRead,
    canWrite: main.canWrite,
    ...(main.supportsOverwrite !== undefined ? { supportsOverwrite: main.supportsOverwrite } : {}),
    ...(main.supportsPartitioning !== undefined ? { supportsPartitioning: main.supportsPartitioning } : {}),
    ...(main.supportsBucketing !== undefined ? { supportsBucketing: main.supportsBucketing } : {}),
    validate(table, role) { const r = pick(table); r.connector.validate(r.table, role); },
    isBounded(table) { const r = pick(table); return r.connector.isBounded?.(r.table) ?? true; },
    sinkChangelog(table) { const r = pick(table); return r.connector.sinkChangelog?.(r.table) ?? (table.primaryKey ? "upsert" : "insert-only"); },
    sourceKinds(table) { const r = pick(table); return r.connector.sourceKinds?.(r.table) ?? [Kind.INSERT]; },
    readableMetadata(table) { const r = pick(table); return r.connector.readableMetadata?.(r.table) ?? new Map(); },
    pushdown(table) { const r = pick(table); return r.connector.pushdown?.(r.table); },
    createReader(table, settings, pushdown) { const r = pick(table); return r.connector.createReader!(r.table, settings, pushdown); },
    createWriter(table, settings) { const r = pick(table); return r.connector.createWriter!(r.table, settings); },
  };
}
