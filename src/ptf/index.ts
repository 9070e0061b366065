/** The user's view of Process Table Functions: declaration, state, context, call helpers. */
export { ProcessTableFunction } from "./function.js";
export type { ArgDecls, ArgValues, EvalFunction, OnTimerFunction, PtfSpec, StateDecls, StateValues, TableArgNames } from "./function.js";
export { ArgumentTrait } from "./traits.js";
export type { TableTrait } from "./traits.js";
export { tableArg, scalarArg, TableArgDecl, ScalarArgDecl } from "./arguments.js";
export type { PolymorphicRow } from "./arguments.js";
export { valueState, valueView, listView, mapView, StateKind, ValueStateDecl, ValueViewDecl, ListViewDecl, MapViewDecl } from "./state.js";
export type { StateOptions } from "./state.js";
export type { ListView, MapView, ValueView } from "./views.js";
export type { Context, OnTimerContext, TimeContext, TimeKind, TimeOf, TableSemantics, SortDirection, ChangelogModeInfo, CollectValue } from "./context.js";
export { structuredType } from "./structured.js";
export { TableArgument } from "./table-arguments.js";
export type { AnyProcessTableFunction, ProcessOutput, FromCallOutput, ProcessMode } from "./typing.js";
export { ChangelogMode } from "./changelog.js";
export type { ChangelogContext } from "./changelog.js";
export { parseDuration } from "./ttl.js";
