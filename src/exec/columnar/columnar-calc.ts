import { CodegenContext, type FunctionResolver, compileExpr } from "../../expressions/compile.js";
import { type ExprNode, col } from "../../expressions/node.js";
import type { FilterNode, ProjectNode } from "../../plan/nodes.js";
import type { ResolvedSchema } from "../../types/resolved-schema.js";
import { type ColumnType, columnTypesOf } from "./column-batch.js";

/** Writes the indexes of the rows in `rows[start, end)` that pass every filter into `sel`; returns how many. */
export type SelectFn = (rows: readonly (readonly unknown[])[], start: number, end: number, sel: Int32Array) => number;

/**
 * Fills `out[0, n)` with one output column: from `rows[sel[k]]` when the chain filters, else from
 * `rows[start + k]` (the other argument is ignored).
 */
export type ColumnFn = (rows: readonly (readonly unknown[])[], sel: Int32Array, start: number, n: number, out: Int32Array | Float64Array | unknown[]) => void;

/**
 * Puts a row object per output row of `rows[start, end)` into `out` (`new Insert(v0, v1, ...)`, the values
 * as constructor arguments: no positional record in between); returns how many. Without a filter every
 * input row is an output row: `out` comes allocated at its size (`new Array(end - start)`) and is filled by
 * index — pushing grows the array a dozen times per slice, copying it each time; with a filter `out` starts
 * empty and is pushed to. When an expression throws, `at[0]` is the index of the row it threw on and `out`
 * holds the rows before it (its length cut to them).
 */
export type ObjectsFn = (rows: readonly (readonly unknown[])[], start: number, end: number, out: object[], at: Int32Array) => number;

/** A constructor of insert rows of the chain's output schema, taking the column values as arguments in order. */
export type InsertRowConstructor = new (...values: unknown[]) => object;

/**
 * A Filter/Project chain compiled for columnar execution over positional input records: the filters as one
 * loop writing a selection vector, then each output column as a loop of its own over the selection (the
 * projection is evaluated column at a time, straight into the column's typed array). For
 * `filter(auction % 123 = 0).select(auction, price * 0.908)` roughly:
 * `select = (rows, s, e, sel) => { let n = 0; for (let i = s; i < e; i++) { const r0 = rows[i]; if ((r0[0] % 123 === 0) === true) sel[n++] = i; } return n; }`
 * and `columns[1] = (rows, sel, s, n, out) => { for (let k = 0; k < n; k++) { const r0 = rows[sel[k]]; out[k] = r0[2] * 0.908; } }`.
 */
export interface ColumnarCalc {
  /** Undefined when the chain has no filter (every input row is an output row). */
  readonly select: SelectFn | undefined;
  readonly columns: readonly ColumnFn[];
  readonly types: readonly ColumnType[];
  /** The chain's output schema. */
  readonly schema: ResolvedSchema;
  /** The same chain fused into one loop that builds row objects with `construct` (undefined without a constructor). */
  readonly objects: ObjectsFn | undefined;
}

/**
 * Compiles `stages` (bottom first: any number of Filters, then at most one Project, over `inputSchema`), or
 * returns undefined for a chain the columnar path does not run: a Project below a Filter or below another
 * Project (later expressions would read an intermediate record), or a call of a user-defined function
 * (evaluated column by column, its calls would come in another order than row by row, and a failing slice
 * is re-run row by row, which would call it twice).
 */
export function compileColumnarCalc(
  stages: readonly (FilterNode | ProjectNode)[], inputSchema: ResolvedSchema, resolveFunction?: FunctionResolver,
  construct?: InsertRowConstructor,
): ColumnarCalc | undefined {
  const projects = stages.filter((s): s is ProjectNode => s.kind === "Project");
  if (projects.length > 1 || (projects.length === 1 && stages[stages.length - 1]!.kind !== "Project")) return undefined;
  let userFunction = false;
  const resolver: FunctionResolver | undefined = resolveFunction === undefined ? undefined : (name, args, ctx, node) => {
    const r = resolveFunction(name, args, ctx, node);
    if (r !== undefined) userFunction = true;
    return r;
  };
  const root = new CodegenContext(inputSchema, resolver, "r0");
  const predicates = stages.filter((s): s is FilterNode => s.kind === "Filter").map((s) => compileExpr(s.predicate, root).src);
  const project = projects[0];
  const schema = project?.schema ?? inputSchema;
  const exprs: readonly ExprNode[] = project?.exprs ?? inputSchema.names.map(col);
  const items = exprs.map((e) => compileExpr(e, root).src);
  if (userFunction) return undefined;
  const temps = root.tempDeclarations();
  const filtered = predicates.length > 0;
  const select = !filtered ? "undefined"
    : `function select(rows,start,end,sel){${temps}let n=0;for(let i=start;i<end;i++){const r0=rows[i];`
      + `if(${predicates.map((p) => `(${p})===true`).join("&&")})sel[n++]=i;}return n;}`;
  const read = filtered ? "rows[sel[k]]" : "rows[start+k]";
  const columns = items.map((src, j) => `function column${j}(rows,sel,start,n,out){${temps}`
    + `for(let k=0;k<n;k++){const r0=${read};out[k]=${src};}}`);
  // the row-object loop: filters and the constructor call in one pass, so a row is read once
  const ctor = construct === undefined ? "" : root.constant(construct);
  const objects = construct === undefined ? "undefined"
    : `function objects(rows,start,end,out,at){${temps}const C=${ctor};let n=0,i=start;try{for(;i<end;i++){const r0=rows[i];`
      + `${filtered ? `if(!(${predicates.map((p) => `(${p})===true`).join("&&")}))continue;out.push(new C(${items.join(",")}));n++;` : `out[n]=new C(${items.join(",")});n++;`}}}`
      + `catch(e){at[0]=i;out.length=n;throw e;}return n;}`;
  const built = root.build<{ select: SelectFn | undefined; columns: ColumnFn[]; objects: ObjectsFn | undefined }>(
    `{select:${select},columns:[${columns.join(",")}],objects:${objects}}`, "columnar-calc");
  return { select: built.select, columns: built.columns, objects: built.objects, types: columnTypesOf(schema), schema };
}
