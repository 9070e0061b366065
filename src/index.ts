/**
 * tablestream: Apache Flink's Table API and Process Table Functions for TypeScript.
 * This file only re-exports: the floors are wired in table/wiring.ts, with no side effects at import.
 */

export { TableEnvironment, EnvironmentSettings, TableConfig } from "./table/table-environment.js";
// the public connector API (docs/connectors.md, "Writing a connector")
export * from "./connectors/api/index.js";
export type { InferValuesSchema, RowInput } from "./table/table-environment.js";
export type { FromIterableOptions } from "./table/from-iterable.js";
export { Table, GroupedTable } from "./table/table.js";
export { AggregatedTable, FlatAggregateTable } from "./table/row-based.js";
export type { ChangelogKind } from "./table/table.js";
export type { Batch, BatchBrand } from "./table/batch-typing.js";
export { TableResult } from "./table/table-result.js";
export type { JobClient } from "./table/table-result.js";
export type { ColumnBatch, ColumnOf, NumberColumn } from "./table/column-batch-typing.js";
export { terminalProgress, progressLine } from "./table/progress.js";
export type { ProgressReport, ProgressRenderer, ProgressOptions } from "./table/progress.js";
export type { ExecuteOptions } from "./table/table.js";
export type { RowsReadable } from "./table/result-readable.js";
export type { MetricsSnapshot } from "./table/executor.js";
export { Row, RowKind, PositionalRow, ROW_KIND } from "./types/row.js";
export type { KeyedRow } from "./types/row.js";
export { DataTypes } from "./types/data-types.js";
export { Variant, type VariantKind } from "./types/variant.js";
export { parseJsonVariant, JsonSyntaxError } from "./types/variant-json.js";
export { DataType } from "./types/data-type.js";
export type { DayTimeInterval, YearMonthInterval, ColumnList, ValueOf, RowFieldDef } from "./types/data-type.js";
export type { RowValueOf } from "./types/data-types.js";
export { ResolvedSchema } from "./types/resolved-schema.js";
export { Schema, SchemaBuilder } from "./table/schema.js";
export type { ColumnValue, SchemaColumn, SchemaWatermark, SchemaPrimaryKey } from "./table/schema.js";
export { resolveSchema, computedColumnsFunction, watermarkEmission } from "./table/schema-resolve.js";
export type { ResolvedTableSchema, ResolvedComputedColumn, WatermarkEmission } from "./table/schema-resolve.js";
export { parseDataType } from "./types/parse-type.js";
export type { SqlTypeValue } from "./types/parse-type.js";
export { parseSqlExpression } from "./expressions/sql-expression.js";
export {
  Tumble, Slide, Session, Cumulate, GroupWindow, TumbleWithSize, TumbleWithSizeOnTime, SlideWithSize, SlideWithSizeAndSlide,
  SlideWithSizeAndSlideOnTime, SessionWithGap, SessionWithGapOnTime, CumulateWithSize, CumulateWithSizeAndStep,
  CumulateWithSizeAndStepOnTime,
} from "./table/windows/group-windows.js";
export {
  Over, OverWindow, OverWindowPartitioned, OverWindowPartitionedOrdered, OverWindowPartitionedOrderedPreceding,
  UNBOUNDED_RANGE, UNBOUNDED_ROW, CURRENT_RANGE, CURRENT_ROW, rowInterval,
} from "./table/windows/over-windows.js";
export type { FrameBound } from "./table/windows/over-windows.js";
export { GroupWindowedTable, WindowGroupedTable, OverWindowedTable } from "./table/windows/windowed-table.js";
export { TableError, ValidationError, ExecutionError, TableRuntimeException, SqlParseError } from "./types/errors.js";
export { Expression, AggExpression, ArgumentExpression, TimeIntervalUnit } from "./expressions/expression.js";
export { $, lit, nullOf, ifThenElse, coalesce, concat, and, or, not, descriptor, defaultArg, call, proctime, fromUnixtime, unixTimestamp } from "./expressions/functions.js";
export type { TableTypeError } from "./expressions/type-level.js";
export { withColumns, withoutColumns, range, ColumnRange } from "./expressions/column-functions.js";
export type { ColumnSelector } from "./expressions/column-functions.js";
// The type-level expression nodes appear in the inferred types of user code (`$("age").plus(1)` is an
// Expression<TOp<"plus", [TCol<"age">, TLit<number, 1>]>>); a module that exports such a value with
// declaration: true must be able to name them.
export type { TCol, TLit, TOp, TAlias, TAgg, TErr, TWindowAlias, TUdf, TUdtf } from "./expressions/type-level.js";
export { Decimal } from "decimal.js";
export { ScalarFunction, AsyncScalarFunction, TableFunction, AggregateFunction, TableAggregateFunction } from "./functions/index.js";
export type { AsyncScalarFunctionSpec } from "./functions/index.js";
export type {
  ScalarFunctionSpec, TableFunctionSpec, TableFunctionCollector, TableFunctionRow, AggregateFunctionSpec, UserDefinedFunction,
  ParamValues, RegistrableFunction, TableAggregateFunctionSpec, TableAggregateCollector, RetractableCollector,
} from "./functions/index.js";
export {
  ProcessTableFunction, ArgumentTrait, StateKind, tableArg, scalarArg, valueState, valueView, listView, mapView, structuredType,
  TableArgument, TableArgDecl, ScalarArgDecl, ValueStateDecl, ValueViewDecl, ListViewDecl, MapViewDecl,
  ChangelogMode,
} from "./ptf/index.js";
export type {
  PtfSpec, ArgValues, StateValues, Context, TableSemantics, SortDirection, ChangelogModeInfo, CollectValue, ListView, MapView,
  ValueView, PolymorphicRow, StateOptions, TableTrait, AnyProcessTableFunction, ProcessOutput, FromCallOutput,
  OnTimerContext, TimeContext, TimeKind, TimeOf, ChangelogContext, ProcessMode,
} from "./ptf/index.js";
export { TableDescriptor, TableDescriptorBuilder } from "./table/table-descriptor.js";
export { TableHandle } from "./table/table-handle.js";
export type { SinkKindOf, SinkTarget, ConnectorSpec, ConnectorTable, SinkChangelog } from "./table/table-descriptor.js";
export { InsertTableResult, TablePipeline } from "./table/insert.js";
export { StatementSet } from "./table/statement-set.js";
export { CollectionSink } from "./table/collection-sink.js";
export { manualClock } from "./exec/time/clock.js";
export type { ManualClock, WakingClock } from "./exec/time/clock.js";
export { CollectionSource } from "./connectors/collection-source.js";
export { TemporalTableFunction, LookupFunction } from "./functions/temporal-table-function.js";
export { PartitionedTable } from "./table/partitioned-table.js";
