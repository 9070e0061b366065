import { connect, registerOperatorFactory } from "../exec/job-graph.js";
import type { Output } from "../exec/operator.js";
import type { SinkNode, SourceScanNode } from "../plan/nodes.js";
import { registerConnector, type ConnectorTable } from "../table/table-descriptor.js";
import { asyncIterableConnector } from "./async-iterable.js";
import { collectionConnector } from "./collection.js";
import { type Connector, connectorRuntime, registerConnectorRuntime } from "./connector.js";
import { datagenConnector } from "./datagen/index.js";
import { filesystemConnector } from "./filesystem/index.js";
import { blackholeConnector, printConnector } from "./print.js";
import { ScanReader } from "./scan.js";
import { connectorFromDefinition } from "./api/adapter.js";
import { jdbcConnector } from "./jdbc/index.js";
import { parquetConnector } from "./parquet/index.js";
import { SinkOperator } from "./sink-operator.js";
import type { JobSettings } from "../table/executor.js";

const BUILT_IN: readonly Connector[] = [
  datagenConnector, filesystemConnector, printConnector, blackholeConnector, collectionConnector, asyncIterableConnector,
  // built on the public connector API
  connectorFromDefinition(jdbcConnector), connectorFromDefinition(parquetConnector),
];

/** The run-time of a connector: the environment's (user connectors included), else the built-in one. */
function runtimeOf(settings: JobSettings, name: string): Connector {
  return (settings.connectors?.(name) as Connector | undefined) ?? connectorRuntime(name);
}

/**
 * Installs the built-in connectors (planning side and run-time side) and the operators of scans and
 * sinks. Called by index.ts (a function, not an import for its side effects: the package is
 * side-effect free for bundlers).
 */
export function installConnectors(): void {
  for (const c of BUILT_IN) {
    registerConnector(c);
    registerConnectorRuntime(c);
  }

  registerOperatorFactory("SourceScan", (node, ctx) => {
    const scan = node as SourceScanNode;
    const connector = runtimeOf(ctx.settings, scan.connector);
    const table: ConnectorTable = {
      tableName: scan.tableName, connector: scan.connector, options: new Map(Object.entries(scan.options)), physical: scan.pushdown?.declared ?? scan.physical,
      ...(scan.primaryKey ? { primaryKey: scan.primaryKey } : {}),
      ...(scan.attachment !== undefined ? { attachment: scan.attachment } : {}),
    };
    const reader = new ScanReader(connector.createReader!(table, ctx.settings, scan.pushdown), scan, ctx.resolveFunction);
    const emitter = { outputs: [] as Output[], out: undefined as unknown as Output };
    ctx.addSource(reader, emitter);
    return emitter;
  });

  registerOperatorFactory("Sink", (node, ctx, build) => {
    const sink = node as SinkNode;
    const table: ConnectorTable = {
      tableName: sink.tableName, connector: sink.connector, options: new Map(Object.entries(sink.options)), physical: sink.schema,
      ...(sink.primaryKey ? { primaryKey: sink.primaryKey } : {}),
      ...(sink.attachment !== undefined ? { attachment: sink.attachment } : {}),
    };
    const writer = runtimeOf(ctx.settings, sink.connector).createWriter!(table, ctx.settings);
    const op = Object.assign(new SinkOperator(sink, writer, ctx.settings.config), { outputs: [] as Output[] });
    if (writer.backpressure !== undefined) ctx.addAsyncWork(op.asyncWork());
    connect(build(sink.input), op, 0);
    return op;
  });
}
