/** User-defined functions: public surface (re-exported by src/index.ts). */
export { ScalarFunction } from "./scalar-function.js";
export { AsyncScalarFunction } from "./async-scalar-function.js";
export type { AsyncScalarFunctionSpec } from "./async-scalar-function.js";
export type { ScalarFunctionSpec } from "./scalar-function.js";
export { TableFunction } from "./table-function.js";
export type { TableFunctionSpec, TableFunctionCollector, TableFunctionRow, Collected } from "./table-function.js";
export { AggregateFunction } from "./aggregate-function.js";
export type { AggregateFunctionSpec, UserDefinedFunction } from "./aggregate-function.js";
export type { ParamValues } from "./signature.js";
export type { RegistrableFunction } from "./environment.js";
export { TableAggregateFunction } from "./table-aggregate-function.js";
export type { TableAggregateFunctionSpec, TableAggregateCollector, RetractableCollector } from "./table-aggregate-function.js";
