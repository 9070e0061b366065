import { CodegenContext, type FunctionResolver } from "../../expressions/compile.js";
import { ValidationError } from "../../types/errors.js";
import type { AggregateNode } from "../../plan/nodes.js";
import type { Output } from "../operator.js";
import { errorWithRow } from "../operators/row-error.js";
import { AggregateLayout, type AggregateOptions } from "./aggregate-layout.js";
import { argumentReads } from "./argument-code.js";
import { type DirectOutput, emitSource } from "./downstream.js";
import type { GroupColumns } from "./group-columns.js";
import { compileKeys } from "./key-code.js";
import type { KeyIndex } from "./key-index.js";
import { KeyedStateTtl } from "../state-ttl.js";
import { MiniBatchBundle, type MiniBatchSpec } from "./mini-batch.js";
import type { StateBackend } from "../state/keyed-store.js";
import { type GroupEntry, SpillingIndex } from "./spilling-index.js";

/** The state and generated functions of one GroupAggregateOperator. */
export interface GroupAggregateCode {
  readonly layout: AggregateLayout;
  readonly index: KeyIndex;
  /** The same index when the groups live in a disk store (state/keyed-store.ts), else undefined. */
  readonly spill: SpillingIndex | undefined;
  readonly cols: GroupColumns;
  /** The per-record function: `processElement(input, kind, row)`. */
  readonly processElement: (input: number, kind: number, row: unknown[]) => void;
  /** Emits every group as `+I` to `out` (batch end of input). */
  readonly emitAll: (out: Output) => void;
  /** Idle-state retention, when `table.exec.state.ttl` is set (streaming only). */
  readonly ttl: KeyedStateTtl | undefined;
  /** The open bundle and the function that emits it, with mini-batch (streaming only). */
  readonly bundle: MiniBatchBundle | undefined;
  readonly flush: (() => void) | undefined;
}

/** `table.exec.state.ttl` for a group aggregate: the retention (ms, > 0) and the job's processing-time clock. */
export interface GroupTtl {
  readonly ttl: number;
  readonly clock: () => number;
}

/**
 * Generates the per-record function of a group aggregate (Flink's GroupAggFunction, docs/semantics.md):
 * the key is evaluated and probed, the arguments evaluated, the row accumulated or retracted; then, in
 * streaming mode, `+I` for a new group, `-U`/`+U` when the result changed, nothing when it did not, `-D`
 * when the group's last row was retracted (and the group is forgotten). A retraction for a group that
 * does not exist is ignored. Batch mode only accumulates; `emitAll` emits the groups at the end.
 *
 * Key and argument evaluation and the accumulator updates are inside the `try`s that name the failing
 * record (row-error.ts): an error raised downstream, or by reading an aggregate, passes through as it is. The input's
 * kinds decide which branches exist: an insert-only input never retracts or empties a group.
 */
export function compileGroupAggregate(
  node: AggregateNode, batch: boolean, retractable: boolean, down: DirectOutput, resolveFunction?: FunctionResolver, options: AggregateOptions = {},
  ttlSpec?: GroupTtl, miniBatchSpec?: MiniBatchSpec, backend?: StateBackend, storeName = "GroupAggregate.groups",
): GroupAggregateCode {
  const schema = node.input.schema;
  const layout = new AggregateLayout(node.aggCalls, retractable, options);
  const ctx = new CodegenContext(schema, resolveFunction, "r");
  const key = compileKeys(node.groupKeys, ctx);
  const args = argumentReads(node.aggCalls, ctx, (i) => layout.needsArg(i));
  const cols = layout.newColumns();
  // a backend with a bounded cache (disk) gets the groups through a store; batch jobs keep them in memory
  // (they emit in order of first appearance at the end, and take no checkpoints)
  const spill = !batch && backend?.cacheSize !== undefined
    ? new SpillingIndex(key.newIndex(), cols, layout, backend.createStore<GroupEntry>({ name: storeName }), backend.cacheSize)
    : undefined;
  const index: KeyIndex = spill ?? key.newIndex();
  // TTL (streaming only): an expired group is evicted silently, its key then starts afresh with +I
  const ttl = !batch && ttlSpec !== undefined && ttlSpec.ttl > 0
    ? new KeyedStateTtl(ttlSpec.ttl, ttlSpec.clock, (gid, probe) => { index.delete(probe, gid); cols.release(gid); })
    : undefined;
  if (ttl !== undefined && miniBatchSpec !== undefined && !batch) {
    throw new ValidationError("table.exec.mini-batch.enabled together with table.exec.state.ttl is not supported yet: turn one of them off");
  }
  const bundle = !batch && miniBatchSpec !== undefined ? new MiniBatchBundle(miniBatchSpec) : undefined;
  if (spill !== undefined) {
    spill.ttl = ttl;
    if (bundle !== undefined) spill.pinned = (g) => bundle.has(g);
  }
  const consts = `const I=${ctx.constant(index)},S=${ctx.constant(cols)},D=${ctx.constant(down)},E=${ctx.constant(
    (e: unknown, kind: number, r: unknown[]) => errorWithRow(e, kind, r, schema))}${ttl ? `,T=${ctx.constant(ttl)}` : ""}${bundle ? `,B=${ctx.constant(bundle)}` : ""};`;
  const n = layout.size;
  const vals = layout.values(ctx);
  const before = vals.map((_v, i) => `b${i}`);
  const after = vals.map((_v, i) => `v${i}`);
  // output rows as array literals of this query's shape, or as the consumer's row objects (downstream.ts)
  const emit = (kind: 0 | 1 | 2 | 3, values: readonly string[]) => emitSource(kind, [...key.columns, ...values]);
  const vars = [...key.vars, ...args.vars];

  let body = `${ctx.tempDeclarations()}${vars.length > 0 ? `let ${vars.join(",")};` : ""}`
    + `try{${key.read}${args.read}}catch(e){throw E(e,kind,r);}`
    + (ttl ? "const now=T.now();T.step(now);" : "")
    + `let g=I.get(${key.probe});`
    + (ttl ? "if(g>=0&&T.expireIfIdle(g,now))g=-1;" : "");
  if (retractable) body += "const add=kind===0||kind===2;";
  body += `let fresh=false;if(g<0){${retractable ? "if(!add)return;" : ""}`
    + `g=S.alloc();I.add(${key.probe},${key.key},g);${ttl ? `T.created(g,${key.probe},now);` : ""}${layout.created("S")}fresh=true;}${layout.prelude("S")}`;
  if (!batch && n > 0) body += `let ${before.join(",")};if(!fresh){${before.map((b, i) => `${b}=${vals[i]};`).join("")}}`;
  // a failing accumulate / retract (a user aggregate function that throws) names the record too; nothing
  // in there emits, so no downstream error is caught here
  const update = retractable ? `if(add){${layout.accumulate(args.xs)}}else{${layout.retract(args.xs)}}` : layout.accumulate(args.xs);
  body += `try{${update}}catch(e){throw E(e,kind,r);}`;
  if (retractable) {
    // the group's last row was retracted: delete its result and forget the group; batch emits groups in
    // gid order at the end, and not reusing ids keeps that the order of first appearance
    body += `if(N[g]===0){I.delete(${key.probe},g);${ttl ? "T.removed(g);" : ""}${batch ? "" : `S.release(g);${emit(3, before)}`}return;}`;
  }
  if (ttl) body += "T.touched(g,now);";
  if (!batch) {
    body += `${n > 0 ? `const ${after.map((v, i) => `${v}=${vals[i]}`).join(",")};` : ""}`
      + `if(fresh){${emit(0, after)}return;}`
      // result unchanged: Flink emits nothing — unless state retention is on, where it emits -U/+U anyway
      // so that downstream state is written too and does not expire before this one (GroupAggFunction)
      + (ttl ? "" : `if(${layout.same(ctx, before, after)})return;`)
      + emit(1, before) + emit(2, after);
  }

  const emitAll = `function emitAll(out){{${layout.prelude("S")}`
    + `I.forEachGroup(function(g,kv){out.record(0,[${[...key.columnsOf("kv"), ...vals].join(",")}]);});}`
    // a global aggregate over no rows still has one result row (COUNT 0, SUM NULL), as in SQL
    + (key.count === 0 ? `if(I.size===0){const g=S.alloc();${layout.prelude("S")}out.record(0,[${vals.join(",")}]);}` : "")
    + "}";

  if (bundle !== undefined) {
    const mb = miniBatchCode(layout, ctx, key, args.read, retractable, update, vars);
    const [processElement, emitAllFn, flush] = ctx.build<[GroupAggregateCode["processElement"], GroupAggregateCode["emitAll"], () => void]>(
      `(function(){${consts}${mb.flush}return [function groupAggregate(input,kind,r){${mb.body}},${emitAll},flush];})()`);
    return { layout, index, spill, cols, processElement, emitAll: emitAllFn, ttl, bundle, flush };
  }
  const [processElement, emitAllFn] = ctx.build<[GroupAggregateCode["processElement"], GroupAggregateCode["emitAll"]]>(
    `(function(){${consts}return [function groupAggregate(input,kind,r){${body}},${emitAll}];})()`);
  return { layout, index, spill, cols, processElement, emitAll: emitAllFn, ttl, bundle: undefined, flush: undefined };
}

/**
 * The per-record function and the bundle flush of a mini-batch group aggregate (mini-batch.ts): records are
 * folded at once, a group's result before the bundle is kept when the bundle first touches it, and `flush`
 * emits one change per touched group. A group emptied inside the bundle stays (without rows) until the
 * flush, so that a row re-adding it folds into the same result; a retraction for it meanwhile is ignored,
 * as for a group that does not exist.
 */
function miniBatchCode(
  layout: AggregateLayout, ctx: CodegenContext, key: ReturnType<typeof compileKeys>, argsRead: string, retractable: boolean, update: string,
  vars: readonly string[],
): { body: string; flush: string } {
  const vals = layout.values(ctx);
  const n = vals.length;
  let body = `${ctx.tempDeclarations()}${vars.length > 0 ? `let ${vars.join(",")};` : ""}`
    + `try{${key.read}${argsRead}}catch(e){throw E(e,kind,r);}`
    // every record counts towards the bundle's size, an ignored retraction too (Flink's bundle trigger)
    + "if(B.records++===0)B.started=B.spec.clock();"
    + `let g=I.get(${key.probe});`;
  const ignore = "{if(B.records>=B.spec.size)flush();return;}";
  if (retractable) body += "const add=kind===0||kind===2;";
  body += `let fresh=false;if(g<0){${retractable ? `if(!add)${ignore}` : ""}`
    + `g=S.alloc();I.add(${key.probe},${key.key},g);${layout.created("S")}fresh=true;}${layout.prelude("S")}`;
  if (retractable) body += `if(!add&&N[g]===0)${ignore}`;
  body += `B.current=g;if(!B.has(g))B.add(g,fresh?null:[${vals.join(",")}],${key.probe},[${key.columns.join(",")}]);`;
  body += `try{${update}}catch(e){throw E(e,kind,r);}`
    + "if(B.records>=B.spec.size||((B.records&127)===0&&B.due()))flush();";
  const keyCols = key.columns.map((_c, i) => `K[${i}]`);
  const emitRow = (kind: 0 | 1 | 2 | 3, values: readonly string[]) => emitSource(kind, [...keyCols, ...values]);
  const before = vals.map((_v, i) => `b${i}`);
  const after = vals.map((_v, i) => `v${i}`);
  const flush = `function flush(){const m=B.gids.length;if(m===0){B.records=0;return;}${layout.prelude("S")}`
    + "for(let i=0;i<m;i++){const g=B.gids[i],b=B.befores[i],K=B.keys[i];"
    + `if(N[g]===0){I.delete(B.probes[i],g);S.release(g);if(b!==null){${n > 0 ? `const ${before.map((x, i) => `${x}=b[${i}]`).join(",")};` : ""}${emitRow(3, before)}}continue;}`
    + `${n > 0 ? `const ${after.map((v, i) => `${v}=${vals[i]}`).join(",")};` : ""}`
    + `if(b===null){${emitRow(0, after)}continue;}`
    + `${n > 0 ? `const ${before.map((x, i) => `${x}=b[${i}]`).join(",")};` : ""}`
    + `if(${layout.same(ctx, before, after)})continue;`
    + `${emitRow(1, before)}${emitRow(2, after)}}B.clear();}`;
  return { body, flush };
}
