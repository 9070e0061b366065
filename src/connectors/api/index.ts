/**
 * The public connector API (exported from the package's main entry): declare a connector with
 * `defineConnector`, its options with `option.*`, implement the source / sink / lookup contracts,
 * register it with `env.registerConnector(connector)`.
 */
export { defineConnector, defineFormat } from "./define.js";
export { option, parseDurationText } from "./options.js";
export type { OptionDecl, OptionDecls, OptionValues } from "./options.js";
export type {
  JsonValue, ConnectorColumn, TableContext, ConnectorDefinition,
  SourceChangelog, SourceBatch, SourceReader, PushedFilter, SourcePushdown, SourceContext, SourceDefinition, SourceMetricGroup,
  SinkChangelog, SinkBatch, Committable, SinkWriter, SinkContext, SinkDefinition, SinkBucketing,
  PartitionSpec, SourcePartitions,
  LookupReader, LookupContext, LookupDefinition,
  RowFormat, FormatDefinition,
} from "./contract.js";
export { SINK_FRAMEWORK_OPTIONS, LOOKUP_FRAMEWORK_OPTIONS, SOURCE_FRAMEWORK_OPTIONS } from "./framework-options.js";
