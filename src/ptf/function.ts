import type { ExprNode } from "../expressions/node.js";
import type { ResolvedSchema } from "../types/resolved-schema.js";
import { ValidationError } from "../types/errors.js";
import { DataType } from "../types/data-type.js";
import { type ArgDecl, ScalarArgDecl, TableArgDecl } from "./arguments.js";
import type { Context, OnTimerContext } from "./context.js";
import { type StateDecl, type StateValueOf, ListViewDecl, MapViewDecl, ValueStateDecl, ValueViewDecl } from "./state.js";
import { classOf } from "./structured.js";
import type { TableTrait } from "./traits.js";
import { type ChangelogContext, ChangelogMode } from "./changelog.js";
import type { ChangelogKind } from "../plan/planning-context.js";

/**
 * Declared arguments by name, in call order. The constraint names only the `kind` so that it gives no
 * contextual type to `scalarArg(...)`'s own type parameters (which would widen `optional` to boolean).
 */
export type ArgDecls = { readonly [name: string]: { readonly kind: "table" | "scalar" } };
/** Declared state entries by name. */
export type StateDecls = { readonly [name: string]: { readonly kind: "value" | "valueView" | "listView" | "mapView" } };

/** What `eval` receives for each argument: the row for a table argument, the value for a scalar. */
export type ArgValues<A> = {
  readonly [K in keyof A]: A[K] extends TableArgDecl<infer R, TableTrait> ? R
    : A[K] extends ScalarArgDecl<infer T, infer Opt> ? (Opt extends true ? T | null : T)
    : never;
};

/** What `eval` receives for each state entry. */
export type StateValues<S> = { readonly [K in keyof S]: StateValueOf<S[K]> };

/** Names of the table arguments of a declaration. */
export type TableArgNames<A> = { [K in keyof A]: A[K] extends TableArgDecl<unknown, TableTrait> ? K : never }[keyof A] & string;

/** Whether a table argument is declared with REQUIRE_ON_TIME: then every row reaching eval has a time. */
export type RequiresOnTime<A> =
  true extends { [K in keyof A]: A[K] extends TableArgDecl<unknown, infer T> ? ("REQUIRE_ON_TIME" extends T ? true : false) : false }[keyof A] ? true : false;

/** The argument `define` takes. */
export interface PtfSpec<A, S, O, M extends ChangelogKind = "append"> {
  /** Name used in messages and as the default `uid` of set-semantics calls that are not made by a registered name. */
  readonly name?: string;
  /** Arguments in call order: `tableArg(...)` and `scalarArg(...)`. Omit for a PTF without arguments. */
  readonly args?: A;
  /** State entries: `valueState`, `valueView`, `listView`, `mapView`. */
  readonly state?: S;
  /** Output type: a scalar type becomes one column `EXPR$0`; a ROW or structured type gives its fields. */
  readonly output: DataType<O>;
  /** Called once per input row (once in total for a PTF without table arguments). */
  eval(ctx: Context<TableArgNames<A>, keyof S & string, O, RequiresOnTime<A> extends true ? never : null>, state: StateValues<S>, args: ArgValues<A>): void;
  /**
   * Called when a timer of a virtual processor fires (Flink's `onTimer(<context>?, <state entry>*)`):
   * the same state objects as `eval` for the timer's key; `ctx.currentTimer()` names the timer and
   * `ctx.timeContext().time()` is its time. Required for functions that register timers.
   */
  onTimer?(ctx: OnTimerContext<TableArgNames<A>, keyof S & string, O>, state: StateValues<S>): void;
  /**
   * The row kinds the function emits (Flink's `ChangelogFunction.getChangelogMode`): a fixed
   * `ChangelogMode` or a function of the call's context (the modes of its table arguments), evaluated
   * when a call is planned. Default `ChangelogMode.insertOnly()`. `ChangelogMode.all()` lets `collect`
   * emit `Row.ofKind(RowKind.UPDATE_BEFORE, ...)` etc.; `ChangelogMode.upsert()` updates by the
   * PARTITION BY key (set semantics only). The result `Table` is typed `"retract"` / `"upsert"`.
   */
  readonly changelogMode?: ChangelogMode<M> | ((ctx: ChangelogContext) => ChangelogMode<M>);
  /**
   * Flink's `TypeInference.disableSystemArguments(true)`: no implicit `on_time` / `uid` arguments. As in
   * Flink, a user-defined PTF with table arguments cannot run that way (`Disabling system arguments is not
   * supported for user-defined PTF.`), and passing `uid` / `on_time` to one fails.
   */
  readonly disableSystemArguments?: boolean;
  /** @internal Planner hooks of tablestream's built-in PTFs (src/ptf/builtins); not for user functions. */
  readonly internal?: BuiltinHooks;
}

/** @internal What a built-in PTF adds to the planning of its calls. */
export interface BuiltinHooks {
  /** With `on_time`, the table argument is ordered by its time column (a sort buffer, as ORDER BY). */
  readonly sortByOnTime?: boolean;
  /** Checks the scalar arguments as written (e.g. "a constant literal"), by name; absent = not given. */
  checkArguments?(nodes: ReadonlyMap<string, ExprNode>): void;
  /** The TTL of the call's state (ms) from its scalar arguments; undefined = `table.exec.state.ttl`. */
  stateTtl?(scalars: Readonly<Record<string, unknown>>): number | undefined;
  /**
   * A built-in whose output type depends on the tables passed (FROM_CHANGELOG: the input's columns
   * without the op column): the function this call runs, declared for the given table schemas and
   * scalar argument nodes (by name).
   */
  specialize?(tables: ReadonlyMap<string, ResolvedSchema>, nodes: ReadonlyMap<string, ExprNode>): ProcessTableFunction<unknown, unknown, unknown>;
}

/** The untyped eval as the runtime calls it. */
export type EvalFunction = (ctx: unknown, state: unknown, args: unknown) => void;
/** The untyped onTimer as the runtime calls it. */
export type OnTimerFunction = (ctx: unknown, state: unknown) => void;

/** A declared argument with its name and position. */
export interface NamedArg {
  readonly name: string;
  readonly position: number;
  readonly decl: ArgDecl;
}

export interface NamedState {
  readonly name: string;
  readonly decl: StateDecl;
}

/** The implicit arguments every PTF takes after its own (SystemTypeInference). */
export const SYSTEM_ARGS = ["on_time", "uid"] as const;

/** Flink's limit on table arguments (`table.optimizer.ptf.max-tables`). */
export const MAX_TABLE_ARGS = 20;

/**
 * A Process Table Function: a user-defined operator over zero, one or several tables, declared (not
 * annotated) with its arguments, state, output type and `eval`:
 *
 * ```ts
 * const GreetingWithMemory = ProcessTableFunction.define({
 *   name: "GreetingWithMemory",
 *   args: { input: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE) },
 *   state: { memory: valueState({ counter: 0 }) },
 *   output: DataTypes.STRING(),
 *   eval(ctx, { memory }, { input }) {
 *     memory.counter++;
 *     ctx.collect(`Hello ${input.name}, your ${memory.counter} time?`);
 *   },
 * });
 * env.fromValues("Bob", "Alice", "Bob").as("name").partitionBy($("name")).process(GreetingWithMemory)
 * // | +I | Bob | Hello Bob, your 1 time? | ...
 * ```
 */
export class ProcessTableFunction<A = ArgDecls, S = StateDecls, O = unknown, M extends ChangelogKind = ChangelogKind> {
  /** Phantom: argument, state and output types for inference at call sites. */
  declare readonly __args: A;
  declare readonly __state: S;
  declare readonly __output: O;
  /** Phantom: the changelog kind of a call's result (`"append"` unless `changelogMode` says otherwise). */
  declare readonly __changelog: M;

  readonly name: string | undefined;
  readonly args: readonly NamedArg[];
  readonly tableArgs: readonly NamedArg[];
  readonly states: readonly NamedState[];
  readonly outputType: DataType;
  readonly evalFn: EvalFunction;
  /** The declared onTimer, if any. */
  readonly onTimerFn: OnTimerFunction | undefined;
  /** The declared changelogMode (a fixed mode or a function of the call), undefined = insert-only. */
  readonly changelogModeFn: ((ctx: ChangelogContext) => ChangelogMode) | undefined;
  /** @internal Hooks of a built-in PTF. */
  readonly internal: BuiltinHooks | undefined;
  /** Declared without the implicit `on_time` / `uid` arguments. */
  readonly disableSystemArguments: boolean;

  private constructor(spec: PtfSpec<A, S, O, M>) {
    if (spec === null || typeof spec !== "object") throw new ValidationError("ProcessTableFunction.define needs a declaration object");
    if (spec.name !== undefined && (typeof spec.name !== "string" || spec.name === "")) {
      throw new ValidationError("ProcessTableFunction.define: name must be a non-empty string");
    }
    this.name = spec.name;
    const what = `process table function${spec.name ? ` '${spec.name}'` : ""}`;
    if (typeof spec.eval !== "function") throw new ValidationError(`${what}: eval must be a function`);
    if (!(spec.output instanceof DataType)) throw new ValidationError(`${what}: output must be a data type, e.g. DataTypes.STRING()`);
    this.outputType = spec.output;
    this.evalFn = spec.eval as unknown as EvalFunction;
    if (spec.onTimer !== undefined && typeof spec.onTimer !== "function") throw new ValidationError(`${what}: onTimer must be a function`);
    this.onTimerFn = spec.onTimer as unknown as OnTimerFunction | undefined;
    this.internal = spec.internal;
    this.disableSystemArguments = spec.disableSystemArguments === true;
    const cm = spec.changelogMode;
    if (cm !== undefined && !(cm instanceof ChangelogMode) && typeof cm !== "function") {
      throw new ValidationError(`${what}: changelogMode must be a ChangelogMode (e.g. ChangelogMode.all()) or a function returning one`);
    }
    this.changelogModeFn = cm === undefined ? undefined : cm instanceof ChangelogMode ? () => cm : (cm as (ctx: ChangelogContext) => ChangelogMode);
    this.args = Object.entries((spec.args ?? {}) as Record<string, unknown>).map(([name, decl], position) => {
      if (!(decl instanceof TableArgDecl) && !(decl instanceof ScalarArgDecl)) {
        throw new ValidationError(`${what}: argument '${name}' must be declared with tableArg(...) or scalarArg(...)`);
      }
      return { name, position, decl };
    });
    this.tableArgs = this.args.filter((a) => a.decl.kind === "table");
    this.states = Object.entries((spec.state ?? {}) as Record<string, unknown>).map(([name, decl]) => {
      if (!(decl instanceof ValueStateDecl || decl instanceof ValueViewDecl || decl instanceof ListViewDecl || decl instanceof MapViewDecl)) {
        throw new ValidationError(`${what}: state entry '${name}' must be declared with valueState, valueView, listView or mapView`);
      }
      return { name, decl };
    });
    validateSignature(this, what);
    Object.freeze(this);
  }

  /** Declares a PTF; argument, state and output types are inferred for `eval` and for calls. */
  static define<A extends ArgDecls = {}, S extends StateDecls = {}, O = unknown, M extends ChangelogKind = "append">(
    spec: PtfSpec<A, S, O, M>,
  ): ProcessTableFunction<A, S, O, M> {
    return new ProcessTableFunction<A, S, O, M>(spec);
  }

  /** Whether the output is a ROW or structured type (fields) rather than a scalar (`EXPR$0`). */
  get hasRowOutput(): boolean {
    return this.outputType.root === "ROW";
  }

  /** Name for messages: the declared name or `<anonymous>`. */
  get displayName(): string {
    return this.name ?? "<anonymous>";
  }

  arg(name: string): NamedArg | undefined {
    return this.args.find((a) => a.name === name);
  }

  toString(): string {
    return `ProcessTableFunction(${this.displayName})`;
  }
}

/** Flink's signature rules (SystemTypeInference, StaticArgument), checked when the function is declared. */
function validateSignature(f: ProcessTableFunction<unknown, unknown, unknown, ChangelogKind>, what: string): void {
  if (f.args.some((a) => (SYSTEM_ARGS as readonly string[]).includes(a.name))) {
    throw new ValidationError(`Function signature must not declare system arguments. Reserved argument names are: [${SYSTEM_ARGS.join(", ")}]`);
  }
  for (const a of f.tableArgs) {
    const d = a.decl as TableArgDecl<unknown, TableTrait>;
    if (d.optional) throw new ValidationError("Table arguments must not be optional.");
    if (d.type !== undefined && d.type.root !== "ROW") {
      throw new ValidationError(`${what}: table argument '${a.name}' must be typed with a ROW or structured type, got ${d.type}`);
    }
    // Flink's StaticArgument: a structured (POJO) type cannot carry row kinds
    if (d.type !== undefined && d.has("SUPPORT_UPDATES") && classOf(d.type) !== undefined) {
      throw new ValidationError(
        `Invalid data type '${classOf(d.type)!.name}' for table argument '${a.name}'. Table arguments that support updates must use a row type.`,
      );
    }
  }
  const decls = f.tableArgs.map((a) => ({ name: a.name, decl: a.decl as TableArgDecl<unknown, TableTrait> }));
  const main = decls.filter((a) => !a.decl.broadcast);
  const broadcast = decls.filter((a) => a.decl.broadcast);
  if (broadcast.length > 0 && main.length === 0) {
    throw new ValidationError("Table arguments with broadcast semantics require at least one table argument with row or set semantics.");
  }
  if (main.length > 1 && main.some((a) => !a.decl.setSemantics)) {
    throw new ValidationError("All main table arguments must use set semantics if multiple table arguments are declared.");
  }
  if (f.tableArgs.length > 1 && decls.some((a) => a.decl.has("PASS_COLUMNS_THROUGH"))) {
    throw new ValidationError("Pass-through columns are not supported if multiple table arguments are declared.");
  }
  const keyed = f.states.filter((s) => !s.decl.broadcast);
  const shared = f.states.filter((s) => s.decl.broadcast);
  if (shared.length > 0 && broadcast.length === 0) {
    throw new ValidationError(`Broadcast state entry '${shared[0]!.name}' requires at least one table argument with broadcast semantics.`);
  }
  const notify = broadcast.find((a) => a.decl.has("NOTIFY_STATEFUL_SETS"));
  if (notify !== undefined && (keyed.length === 0 || !main.some((a) => a.decl.setSemantics))) {
    throw new ValidationError(`Table argument '${notify.name}' notifies stateful sets which requires at least one state entry that is scoped to a set.`);
  }
  if (keyed.length > 0 && !main.some((a) => a.decl.setSemantics)) {
    throw new ValidationError(
      `${what}: state entry '${keyed[0]!.name}' needs a table argument with SET_SEMANTIC_TABLE: state is kept per PARTITION BY key`
      + (f.tableArgs.length === 0 ? " and a PTF without table arguments is evaluated only once" : ", and rows of a row-semantics table are independent")
      + (broadcast.length > 0 ? " (declare it with { kind: StateKind.BROADCAST } to share it across keys)" : ""),
    );
  }
  if (f.outputType.root === "ROW") {
    const cls = classOf(f.outputType);
    if (cls !== undefined && typeof cls !== "function") throw new ValidationError(`${what}: invalid structured output type`);
  }
}
