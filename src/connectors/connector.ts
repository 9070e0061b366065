import type { SinkWriter, SourceReader } from "../exec/source.js";
import type { ScanPushdown } from "../plan/pushed-filter.js";
import type { JobSettings } from "../exec/job-contract.js";
import type { ConnectorSpec, ConnectorTable } from "./connector-spec.js";

/**
 * A connector as the planner and the interpreter see it: the planning-time spec (options, capabilities; see
 * table-descriptor.ts) plus the run-time factories of its reader and writer, behind the one Source/Sink contract
 * of exec/source.ts. No connector implements it by hand: every connector, built-in or a user's, is a public
 * definition (api/contract.ts, `defineConnector`) and this is what `connectorFromDefinition` (api/adapter.ts)
 * makes of it.
 */
export interface Connector extends ConnectorSpec {
  /**
   * A reader producing the table's physical columns, in order; computed columns and watermarks are added
   * around it. With `pushdown` (plan/pushdown.ts) it returns only rows passing the filters, and only the
   * projected columns (`table.physical` stays the declared columns).
   */
  createReader?(table: ConnectorTable, settings: JobSettings, pushdown?: ScanPushdown): SourceReader;
  /** A writer for the table's physical columns, in order. */
  createWriter?(table: ConnectorTable, settings: JobSettings): SinkWriter;
}
