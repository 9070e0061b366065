import { getOwn, hasOwn, setOwn } from "../types/own.js";
import type { ExprNode } from "../expressions/node.js";
import { ValidationError } from "../types/errors.js";
import { deriveChangelogMode, isInsertOnly, modeToShortString } from "../plan/changelog-mode.js";
import { type PlanNode, type ProcessCallSqlArg, type ProcessCallSqlForm, type ProcessNode, processNode } from "../plan/nodes.js";
import type { PlanningContext } from "../plan/planning-context.js";
import { DataType } from "../types/data-type.js";
import { ResolvedSchema } from "../types/resolved-schema.js";
import { coerceValue, isImplicitlyAssignable } from "../types/values.js";
import type { TableArgDecl } from "./arguments.js";
import { type BoundValue, bindArguments, firstTablePassed } from "./call-arguments.js";
import { evaluateConstant } from "./constant.js";
import { MAX_TABLE_ARGS, type NamedArg, ProcessTableFunction } from "./function.js";
import { resolveOnTime } from "./on-time.js";
import { type OrderItem, resolveOrderBy } from "./order-by.js";
import { outputLayout } from "./output-schema.js";
import type { ResolvedPtfCall, ResolvedTableArg } from "./resolved-call.js";
import { type SignatureArg, noMatchMessage } from "./signature.js";
import type { TableArgument } from "./table-arguments.js";
import { ArgumentTrait, type TableTrait } from "./traits.js";
import { resolveStateTtls } from "./state-ttl.js";
import { durationString } from "./ttl.js";
import { classOf } from "./structured.js";
import { checkUidFormat, deriveUid } from "./uid.js";
import { inputDelivery } from "./updating-input.js";
import { requiredModeFor, resolveOutputMode } from "./updating-output.js";
import { modeToString } from "../plan/changelog-mode.js";
import { builtinPtf } from "./builtins/index.js";

/**
 * Resolves and validates a PTF call (Flink's SystemTypeInference and the PTF planner rules) and builds
 * its plan node. `fn` is a function object or a registered name; `implicit` is the table `process`
 * was called on.
 */
export function resolveProcessCall(
  env: PlanningContext, fnOrName: unknown, args: readonly unknown[], implicit?: TableArgument<unknown, string, string>,
): ProcessNode<ResolvedPtfCall> {
  const resolved = resolveFunction(env, fnOrName, implicit !== undefined ? [implicit, ...args] : args);
  const { functionName, registered } = resolved;
  let fn = resolved.fn;
  if (fn.internal?.specialize !== undefined) {
    const pre = bindArguments(functionName, fn.args, args, implicit ? { table: implicit.table, keys: implicit.partitionKeys, order: implicit.order } : undefined);
    const schemas = new Map<string, ResolvedSchema>();
    const nodes = new Map<string, ExprNode>();
    for (const [name, v] of pre.values) {
      if (v.kind === "table") schemas.set(name, v.table.node.schema);
      else if (v.kind === "scalar") nodes.set(name, v.node);
    }
    fn = fn.internal.specialize(schemas, nodes);
  }
  // batch mode (a tablestream extension; Flink refuses PTFs there): the same operator over bounded
  // inputs that send only the final watermark — see docs/ptf.md "Batch mode"
  const binding = bindArguments(functionName, fn.args, args, implicit ? { table: implicit.table, keys: implicit.partitionKeys, order: implicit.order } : undefined);
  const value = (name: string): BoundValue => binding.values.get(name) ?? { kind: "default" };
  if (fn.disableSystemArguments) {
    // Flink's SystemTypeInference: the system arguments are checked first, then whether the PTF is built in
    for (const name of ["uid", "on_time"]) {
      if (value(name).kind !== "default") {
        throw new ValidationError(`The '${name}' argument is not supported because function '${functionName}' does not use system arguments.`);
      }
    }
    // only built-in PTFs may run without system arguments (Flink rejects user-defined ones, scalar-only too)
    if (fn.internal === undefined) throw new ValidationError("Disabling system arguments is not supported for user-defined PTF.");
  }

  // table arguments
  const inputs: PlanNode[] = [];
  const tables: ResolvedTableArg[] = [];
  const orders: (readonly OrderItem[])[] = [];
  const signatureArgs = (): SignatureArg[] => [...fn.args, { name: "on_time" }, { name: "uid" }].map((a) => {
    const v = value(a.name);
    if (v.kind === "table") return { kind: "table", schema: v.table.node.schema };
    if (v.kind === "scalar") return { kind: "scalar", type: scalarTypeOf(v, env) };
    const decl = (a as Partial<NamedArg>).decl;
    return { kind: "scalar", type: decl?.kind === "scalar" ? decl.type : a.name === "uid" ? new DataType("VARCHAR", true, { length: 1 }) : new DataType("DESCRIPTOR", true) };
  });
  for (const a of fn.tableArgs) {
    const v = value(a.name);
    const decl = a.decl as TableArgDecl<unknown, TableTrait>;
    if (v.kind !== "table") throw new ValidationError(`Invalid argument value. Argument '${a.name}' expects a table to be passed.`);
    if (v.table.env !== env) throw new ValidationError(`Table argument '${a.name}': the table belongs to a different PlanningContext`);
    const schema = v.table.node.schema;
    if (decl.broadcast && (v.keys.length > 0 || (v.order !== undefined && v.order.length > 0))) {
      throw new ValidationError("PARTITION BY or ORDER BY are not supported for table arguments with broadcast semantics.");
    }
    // the Table API's message for the same mistake (table-arguments.ts), so SQL and fluent calls read alike
    const keys = v.keys.map((k) => {
      if (!schema.has(k)) throw new ValidationError(`Invalid column '${k}' for PARTITION BY clause. Available columns are: [${schema.names.join(", ")}]`);
      return schema.indexOf(k);
    });
    if (!decl.setSemantics && keys.length > 0) {
      throw new ValidationError(
        `Only tables with set semantics may be partitioned. Invalid PARTITION BY clause in the ${a.position}-th operand of table function '${functionName}'. `
        + `(Table argument '${a.name}' is declared with ROW_SEMANTIC_TABLE.)`,
      );
    }
    if (decl.setSemantics && keys.length === 0 && !decl.has(ArgumentTrait.OPTIONAL_PARTITION_BY)) {
      throw new ValidationError(`Table argument '${a.name}' requires a PARTITION BY clause for parallel processing.`);
    }
    if (decl.type !== undefined) checkTypedTable(functionName, a.name, decl.type, schema, signatureArgs);
    const delivery = inputDelivery(functionName, a.name, decl, schema, keys, deriveChangelogMode(v.table.node, env.isBatch()));
    if (!isInsertOnly(delivery.mode) && v.order !== undefined && v.order.length > 0) {
      throw new ValidationError(`Invalid ORDER BY clause for table argument '${a.name}'. ORDER BY is not supported for updating tables (changelog mode ${modeToShortString(delivery.mode)}).`);
    }
    tables.push({
      name: a.name, position: a.position, decl, inputIndex: inputs.length, schema, partitionKeys: keys,
      setSemantics: decl.setSemantics, broadcast: decl.broadcast, passThrough: decl.has(ArgumentTrait.PASS_COLUMNS_THROUGH), changelog: delivery.mode, delivery, timeColumn: -1, orderBy: [],
    });
    orders.push(v.order ?? []);
    inputs.push(v.table.node);
  }
  if (tables.length > MAX_TABLE_ARGS) {
    throw new ValidationError(`Unsupported table argument count. Currently, the number of input tables is limited to ${MAX_TABLE_ARGS}.`);
  }
  checkCoPartitioning(tables.filter((t) => !t.broadcast));

  // scalar arguments
  if (fn.internal?.checkArguments !== undefined) {
    const nodes = new Map<string, ExprNode>();
    for (const a of fn.args) { const v = value(a.name); if (v.kind === "scalar") nodes.set(a.name, v.node); }
    fn.internal.checkArguments(nodes);
  }
  const scalars: Record<string, unknown> = {};
  for (const a of fn.args) {
    if (a.decl.kind !== "scalar") continue;
    const v = value(a.name);
    const decl = a.decl;
    if (v.kind === "table") {
      throw new ValidationError(`Invalid function call to '${functionName}': Invalid argument type at position ${a.position}. Data type ${decl.type} expected but TABLE passed (argument '${a.name}').`);
    }
    if (v.kind === "default") {
      if (!decl.optional) {
        throw new ValidationError(
          `Invalid function call to '${functionName}': argument '${a.name}' (position ${a.position}, ${decl.type}) is not optional; pass a value, or declare it with scalarArg(type, { optional: true }).`,
        );
      }
      setOwn(scalars, a.name, null);
      continue;
    }
    setOwn(scalars, a.name, scalarValue(env, functionName, a, v.node));
  }

  // on_time (PTF rule 3): the time column of each table and the rowtime output column
  const onTime = value("on_time");
  const time = resolveOnTime(functionName, fn.args.length, tables, onTime, () => (onTime.kind === "scalar" ? String(scalarTypeOf(onTime, env)) : "DEFAULT"));
  tables.forEach((t, i) => { tables[i] = { ...t, timeColumn: time.timeColumns[i]! }; });
  // ORDER BY (PTF rule 10): after on_time, which it must agree with
  tables.forEach((t, i) => { if (orders[i]!.length > 0) tables[i] = { ...t, orderBy: resolveOrderBy(t, orders[i]!) }; });
  // a built-in that orders by on_time (DEDUPLICATE_KEEP_FIRST: the earliest row of a key comes first)
  if (fn.internal?.sortByOnTime) {
    tables.forEach((t, i) => { if (t.timeColumn >= 0 && t.orderBy.length === 0) tables[i] = { ...t, orderBy: [{ column: t.timeColumn, direction: "ASC_NULLS_FIRST" }] }; });
  }

  // uid
  const uidValue = value("uid");
  let explicitUid: string | undefined;
  if (uidValue.kind === "table") throw new ValidationError(`Invalid function call to '${functionName}': the \`uid\` argument takes a string, not a table`);
  if (uidValue.kind === "scalar") {
    const { value: u } = evaluateConstant(uidValue.node, `argument 'uid' of function '${functionName}'`, env.planContext().resolveFunction);
    checkUidFormat(u);
    explicitUid = u as string;
  }
  // state (per key or broadcast) must be found again by uid
  const setSemantics = tables.some((t) => t.setSemantics) || fn.states.length > 0;
  const uid = explicitUid ?? (setSemantics ? deriveUid(registered ?? fn.name, functionName) : undefined);

  const layout = outputLayout(fn.outputType, tables, time.rowtime);
  const schema = new ResolvedSchema(layout.columns);
  const outputMode = resolveOutputMode(fn, functionName, tables, layout.columns, time.rowtime !== undefined);
  if (env.isBatch() && !isInsertOnly(outputMode)) {
    throw new ValidationError(
      `Process table function '${functionName}' declares an updating output (${modeToShortString(outputMode)}), which batch mode cannot run: `
      + "a batch result is final (insert-only). Run it in streaming mode.",
    );
  }
  const call: ResolvedPtfCall = {
    kind: "ResolvedPtfCall",
    fn,
    functionName,
    uid,
    explicitUid: explicitUid !== undefined,
    tables,
    inputsNeedRetractions: Object.freeze(tables.map((t) => t.delivery.needsRetractions)),
    scalars: Object.freeze(scalars),
    prefix: layout.prefix,
    functionColumns: layout.columns.slice(layout.prefixSize, layout.prefixSize + layout.functionSize),
    outputMode,
    rowtime: time.rowtime,
    ...(fn.internal?.stateTtl?.(scalars) !== undefined ? { stateTtl: fn.internal.stateTtl(scalars)! } : {}),
    defaultStateTtl: () => env.getConfig().get("table.exec.state.ttl"),
    describe: () => describeCall(call, binding.values, schema),
    sqlForm: sqlFormOf(resolved.fn, registered ?? builtinNameOf(resolved.fn), [...fn.args.map((a) => a.name), "on_time", "uid"], binding.values, tables),
    withRequiredMode: (consumer) => {
      const mode = resolveOutputMode(fn, functionName, tables, layout.columns, time.rowtime !== undefined, requiredModeFor(consumer));
      if (modeToString(mode) === modeToString(call.outputMode) && (mode.upsertKeys ?? []).join() === (call.outputMode.upsertKeys ?? []).join()) return call;
      const renegotiated: ResolvedPtfCall = { ...call, outputMode: mode, describe: () => describeCall(renegotiated, binding.values, schema) };
      return renegotiated;
    },
  };
  return processNode({ schema, inputs, call });
}

function resolveFunction(env: PlanningContext, fnOrName: unknown, args: readonly unknown[]): { fn: ProcessTableFunction<unknown, unknown, unknown>; functionName: string; registered: string | undefined } {
  if (fnOrName instanceof ProcessTableFunction) return { fn: fnOrName, functionName: fnOrName.displayName, registered: undefined };
  if (typeof fnOrName === "string") {
    // built-in PTFs come first, as built-in functions do in Flink's resolution
    const builtin = builtinPtf(fnOrName);
    if (builtin !== undefined) return { fn: builtin, functionName: builtin.name!, registered: builtin.name };
    const entry = env.functions.lookup(fnOrName);
    if (entry === undefined) {
      throw new ValidationError(`Function '${fnOrName}' is not registered; register it with env.createFunction("${fnOrName}", F). Known functions: [${env.listUserDefinedFunctions().join(", ")}]`);
    }
    if (!(entry.fn instanceof ProcessTableFunction)) {
      const table = firstTablePassed(args);
      if (table !== undefined && (entry.fn as { kind?: unknown }).kind === "table") {
        // Flink: a TableFunction's arguments are scalar; table arguments belong to PTFs
        const which = table.name !== undefined ? `'${table.name}'` : `at position ${table.position}`;
        throw new ValidationError(
          `Only scalar arguments are supported at this location. But argument ${which} of function '${entry.name}' is a table, `
          + "and a TableFunction takes scalar arguments only: a function with table arguments is a ProcessTableFunction. "
          + "Call a TableFunction with joinLateral(call(...)) or SQL's LATERAL TABLE(...).",
        );
      }
      throw new ValidationError(`Function '${entry.name}' is not a process table function; process()/fromCall() need a ProcessTableFunction`);
    }
    return { fn: entry.fn, functionName: entry.name, registered: entry.name };
  }
  throw new ValidationError(`process/fromCall: expected a ProcessTableFunction or the name of a registered one, got ${String(fnOrName)}`);
}

function scalarTypeOf(v: BoundValue & { kind: "scalar" }, env: PlanningContext): DataType {
  if (v.node.kind === "Descriptor") return new DataType("DESCRIPTOR", false);
  try {
    return evaluateConstant(v.node, "argument", env.planContext().resolveFunction).type;
  } catch {
    return new DataType("NULL", true);
  }
}

/** Type check (implicit casts only), constant evaluation and conversion of one scalar argument. */
function scalarValue(env: PlanningContext, functionName: string, a: NamedArg, node: ExprNode): unknown {
  const decl = a.decl as { type: DataType };
  const target = decl.type;
  const where = `argument '${a.name}' of function '${functionName}'`;
  if (node.kind === "Descriptor") {
    if (target.root !== "DESCRIPTOR") {
      throw new ValidationError(`Invalid function call to '${functionName}': Invalid argument type at position ${a.position}. Data type ${target} expected but DESCRIPTOR NOT NULL passed (argument '${a.name}').`);
    }
    for (const n of node.names) {
      if (!/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(n)) throw new ValidationError(`${where}: column alias must be a simple identifier, got '${n}'`);
    }
    return Object.freeze({ kind: "ColumnList", names: Object.freeze([...node.names]) });
  }
  const { type, value } = evaluateConstant(node, where, env.planContext().resolveFunction);
  if (type.root === "NULL" || value === null) {
    if (!target.isNullable) {
      throw new ValidationError(`Invalid function call to '${functionName}': Invalid argument type at position ${a.position}. Data type ${target} expected but NULL passed (argument '${a.name}').`);
    }
    return null;
  }
  if (!isImplicitlyAssignable(type.withNullability(true), target.withNullability(true))) {
    throw new ValidationError(
      `Invalid function call to '${functionName}': Invalid argument type at position ${a.position}. Data type ${target} expected but ${type} passed. (argument '${a.name}')`,
    );
  }
  const coerced = coerceValue(target, value, () => where);
  // a structured type (Flink's POJO) arrives as an instance of its class, as in typed table arguments
  const cls = classOf(target);
  return cls !== undefined && coerced !== null && typeof coerced === "object" ? Object.assign(new cls(), coerced) : coerced;
}

/** Typed table arguments: columns by position, each implicitly castable to the declared field (V-03, V-62). */
function checkTypedTable(functionName: string, argName: string, type: DataType, schema: ResolvedSchema, signature: () => SignatureArg[]): void {
  const fields = type.fields;
  let problem: string | undefined;
  if (fields.length !== schema.size) {
    problem = `table argument '${argName}' is typed ${type} with ${fields.length} fields but the table has ${schema.size} columns`;
  } else {
    schema.columns.forEach((c, i) => {
      if (problem === undefined && !isImplicitlyAssignable(c.type.withNullability(true), fields[i]!.type.withNullability(true))) {
        problem = `column ${i + 1} '${c.name}' of type ${c.type} cannot be passed as field '${fields[i]!.name}' of type ${fields[i]!.type} of table argument '${argName}' (columns are matched by position)`;
      }
    });
  }
  if (problem !== undefined) {
    // Flink's Table API path reports the first sentence, its SQL path the signature (V-48, V-03): both are given
    throw new ValidationError(
      `Invalid argument value. Argument '${argName}' expects a typed table, but the provided table is incompatible and cannot be cast to the target type. `
      + `${noMatchMessage(functionName, signature())}: ${problem}`,
    );
  }
}

/** All tables of a call must be co-partitioned: same number of PARTITION BY columns with the same types. */
function checkCoPartitioning(tables: readonly ResolvedTableArg[]): void {
  if (tables.length < 2) return;
  const sets = tables.map((t) => t.partitionKeys.map((k) => t.schema.columns[k]!.type));
  const first = sets[0]!;
  const same = sets.every((s) => s.length === first.length && s.every((t, i) => sameKeyType(t, first[i]!)));
  if (!same) {
    throw new ValidationError(
      `Invalid PARTITION BY columns. The number of columns and their data types must match across all involved table arguments. Given partition key sets: ${sets.map((s) => `[${s.join(", ")}]`).join(", ")}`,
    );
  }
}

/**
 * Flink's rule: all key types reach a common type without a cast that changes the representation
 * (LogicalTypeCasts.supportsAvoidingCast): equal up to nullability, or character strings of any length
 * (CHAR/VARCHAR: `VARCHAR(5) NOT NULL` and `STRING` are co-partitioned). INT and BIGINT are not.
 */
function sameKeyType(a: DataType, b: DataType): boolean {
  if (a.withNullability(true).equals(b.withNullability(true))) return true;
  const chars = (t: DataType) => t.root === "CHAR" || t.root === "VARCHAR";
  return chars(a) && chars(b);
}

/** A built-in PTF passed as an object is called by its name in SQL. */
function builtinNameOf(fn: ProcessTableFunction<unknown, unknown, unknown>): string | undefined {
  return fn.name !== undefined && builtinPtf(fn.name) === fn ? fn.name : undefined;
}

/** The call's given arguments, in declaration order, for toSql (plan/to-sql.ts renders them). */
function sqlFormOf(
  fn: unknown, registered: string | undefined, names: readonly string[], values: ReadonlyMap<string, BoundValue>, tables: readonly ResolvedTableArg[],
): ProcessCallSqlForm {
  const args: ProcessCallSqlArg[] = [];
  for (const name of names) {
    const v = values.get(name);
    if (v === undefined || v.kind === "default") continue;
    if (v.kind === "scalar") {
      args.push({ kind: "scalar", name, node: v.node });
      continue;
    }
    const t = tables.find((x) => x.name === name);
    if (t === undefined) continue;
    args.push({
      kind: "table", name, inputIndex: t.inputIndex, partitionBy: v.keys,
      orderBy: (v.order ?? []).map((o) => ({ name: o.name, ascending: o.ascending, nullsFirst: o.nullsFirst })),
    });
  }
  return Object.freeze({ fn, name: registered, args: Object.freeze(args) });
}

function describeCall(call: ResolvedPtfCall, values: ReadonlyMap<string, BoundValue>, schema: ResolvedSchema): string {
  const parts = [...call.fn.args.map((a) => a.name), "on_time", "uid"].map((name) => {
    const t = call.tables.find((x) => x.name === name);
    if (t) {
      const orderBy = t.orderBy.length ? ` ORDER BY(${t.orderBy.map((o) => `${t.schema.names[o.column]} ${o.direction.startsWith("ASC") ? "ASC" : "DESC"}`).join(", ")})` : "";
      return `TABLE(#${t.inputIndex})${t.partitionKeys.length ? ` PARTITION BY(${t.partitionKeys.map((k) => t.schema.names[k]).join(", ")})` : ""}${orderBy}`;
    }
    if (hasOwn(call.scalars, name)) return formatScalar(getOwn(call.scalars, name));
    if (name === "uid" && call.explicitUid) return `'${call.uid}'`;
    const v = values.get(name);
    if (v !== undefined && v.kind === "scalar" && v.node.kind === "Descriptor") return `DESCRIPTOR(${v.node.names.join(", ")})`;
    return v === undefined || v.kind === "default" ? "DEFAULT()" : "?";
  });
  const state = resolveStateTtls(call).map((s) => `${s.name}${s.ttl > 0 ? ` ttl=${durationString(s.ttl)}` : ""}`).join(", ");
  return `invocation=[${call.functionName}(${parts.join(", ")})], uid=[${call.uid ?? "NULL"}]${state ? `, state=[${state}]` : ""}, select=[${schema.names.join(",")}]`;
}

function formatScalar(v: unknown): string {
  if (v === null) return "NULL";
  if (typeof v === "string") return `'${v}'`;
  if (typeof v === "object" && (v as { kind?: string }).kind === "ColumnList") return `DESCRIPTOR(${(v as { names: string[] }).names.join(", ")})`;
  return String(v);
}
