import type { Output } from "../exec/operator.js";
import { type OperatorFactory, connect, sourceEmitter } from "../exec/operator-table.js";
import type { SinkNode, SourceScanNode } from "../plan/nodes.js";
import { connectorByName } from "./built-in.js";
import type { ConnectorTable } from "./connector-spec.js";
import { ScanReader } from "./scan.js";
import { SinkOperator } from "./sink-operator.js";
import type { Connector } from "./connector.js";
import type { JobSettings } from "../exec/job-contract.js";

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
  };
  const reader = new ScanReader(connector.createReader!(table, ctx.settings, scan.pushdown), scan, ctx.resolveFunction, ctx.settings.clock);
  const emitter = sourceEmitter();
  ctx.addSource(reader, emitter);
  return emitter;
};

export const sinkOperator: OperatorFactory<SinkNode> = (sink, ctx, build) => {
  const table: ConnectorTable = {
    tableName: sink.tableName, connector: sink.connector, options: new Map(Object.entries(sink.options)), physical: sink.schema,
    ...(sink.primaryKey ? { primaryKey: sink.primaryKey } : {}),
    ...(sink.attachment !== undefined ? { attachment: sink.attachment } : {}),
    ...(sink.overwrite ? { overwrite: true } : {}),
  };
  const writer = runtimeOf(ctx.settings, sink.connector).createWriter!(table, ctx.settings);
  const op = Object.assign(new SinkOperator(sink, writer, ctx.settings.config), { outputs: [] as Output[] });
  if (writer.backpressure !== undefined) ctx.addAsyncWork(op.asyncWork());
  connect(build(sink.input), op, 0);
  return op;
};

export const CONNECTOR_OPERATORS = { SourceScan: scanOperator, Sink: sinkOperator } as const;
