/**
 * tablestream: Apache Flink's Table API and Process Table Functions for TypeScript.
 * This file only re-exports, and installs the interpreter behind the Table API.
 */
import { localExecutor } from "./exec/executor.js";
import { setExecutor } from "./table/executor.js";

setExecutor(localExecutor);

export { TableEnvironment, EnvironmentSettings, TableConfig } from "./table/table-environment.js";
export type { InferValuesSchema, RowInput } from "./table/table-environment.js";
export { Table, GroupedTable } from "./table/table.js";
export type { ChangelogKind } from "./table/table.js";
export { TableResult } from "./table/table-result.js";
export type { JobClient } from "./table/table-result.js";
export { Row, RowKind, PositionalRow, ROW_KIND } from "./table/row.js";
export type { KeyedRow } from "./table/row.js";
export { DataTypes } from "./table/types/data-types.js";
export { DataType } from "./table/types/data-type.js";
export type { DayTimeInterval, YearMonthInterval, ColumnList, ValueOf } from "./table/types/data-type.js";
export { ResolvedSchema } from "./table/types/resolved-schema.js";
export { TableError, ValidationError, ExecutionError, TableRuntimeException } from "./table/errors.js";
export { Expression, AggExpression, ArgumentExpression, TimeIntervalUnit } from "./expressions/expression.js";
export { $, lit, nullOf, ifThenElse, coalesce, concat, and, or, not, descriptor, defaultArg, call } from "./expressions/functions.js";
export type { TableTypeError } from "./expressions/type-level.js";
export { Decimal } from "decimal.js";
