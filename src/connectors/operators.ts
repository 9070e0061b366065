import type { Output } from "../exec/operator.js";
import { type OperatorFactory, connect, sourceEmitter } from "../exec/operator-table.js";
import type { SinkNode, SourceScanNode } from "../plan/nodes.js";
import { connectorByName } from "./built-in.js";
import type { ConnectorTable } from "./connector-spec.js";
import { ScanReader } from "./scan.js";
import { SinkOperator } from "./sink-operator.js";
import type { Connector } from "./connector.js";
import type { JobSettings } from "../exec/job-contract.js";
import { ResolvedSchema } from "../types/resolved-schema.js";

/** The operator factories of connector scans and sinks (joined with exec's in table/wiring.ts). */
/** The run-time of a connector: the environment's (user connectors included), else the built-in one. */
function runtimeOf(settings: JobSettings, name: string): Connector {
  return (settings.connectors?.(name) as Connector | undefined) ?? connectorByName(name);
}

export const scanOperator: OperatorFactory<SourceScanNode> = (scan, ctx) => {
  const connector = runtimeOf(ctx.settings, scan.connector);
  const table: ConnectorTable = {
    tableName: scan.tableName, connector: scan.connector, options: new Map(Object.entries(scan.options)), physical: scan.pushdown?.declared ?? scan.physical,
    ...(scan.primaryKey ? { primaryKey: scan.primaryKey } : {}),
    ...(scan.attachment !== undefined ? { attachment: scan.attachment } : {}),
    ...(scan.metadata !== undefined ? { metadataKeys: scan.metadata.map((m) => m.key) } : {}),
    ...(scan.partitionKeys !== undefined ? { partitionKeys: scan.partitionKeys } : {}),
  };
  const reader = new ScanReader(connector.createReader!(table, ctx.settings, scan.pushdown), scan, ctx.resolveFunction, ctx.settings.clock);
  const emitter = sourceEmitter();
  ctx.addSource(reader, emitter);
  return emitter;
};

export const sinkOperator: OperatorFactory<SinkNode> = (sink, ctx, build) => {
  // with written metadata the sink's schema ends with the metadata columns; the physical ones come first
  const meta = sink.metadata ?? [];
  const table: ConnectorTable = {
    tableName: sink.tableName, connector: sink.connector, options: new Map(Object.entries(sink.options)),
    physical: meta.length === 0 ? sink.schema : new ResolvedSchema(sink.schema.columns.slice(0, sink.schema.size - meta.length)),
    ...(sink.primaryKey ? { primaryKey: sink.primaryKey } : {}),
    ...(sink.attachment !== undefined ? { attachment: sink.attachment } : {}),
    ...(sink.overwrite ? { overwrite: true } : {}),
    ...(sink.partitionKeys !== undefined ? { partitionKeys: sink.partitionKeys } : {}),
    ...(sink.staticPartition !== undefined ? { staticPartition: sink.staticPartition } : {}),
    ...(sink.distribution !== undefined ? { distribution: sink.distribution } : {}),
    ...(meta.length > 0 ? { metadataKeys: meta.map((m) => m.key) } : {}),
  };
  const writer = runtimeOf(ctx.settings, sink.connector).createWriter!(table, ctx.settings);
  const op = Object.assign(new SinkOperator(sink, writer, ctx.settings.config), { outputs: [] as Output[] });
  if (writer.backpressure !== undefined) ctx.addAsyncWork(op.asyncWork());
  connect(build(sink.input), op, 0);
  return op;
};

export const CONNECTOR_OPERATORS = { SourceScan: scanOperator, Sink: sinkOperator } as const;
