import { CodegenContext, type FunctionResolver } from "../../../expressions/compile.js";
import type { JoinNode } from "../../../plan/nodes/join.js";
import { compileKeys } from "../../aggregates/key-code.js";
import type { JoinSideState } from "./join-state.js";
import type { RowsOnlySideState } from "./rows-only-state.js";
import { nextGeneratedName } from "../../../expressions/codegen.js";

/**
 * The whole `processElement` of an inner equi-join without residual condition and without TTL, generated per
 * operator (as Calc does): both key expressions, the state probe and the joined row's positions are written
 * out, so the per-record path has no call besides the Map operations and the output edge. A shared method
 * would be one call site for the key and combine functions of every join in the process and go megamorphic
 * after a few jobs. The rows and kinds it emits are those of the general path (regular-join.ts).
 */
export function generateInnerJoinProcess(
  node: JoinNode, self: { out: unknown; left: JoinSideState | RowsOnlySideState; right: JoinSideState | RowsOnlySideState; rowsOnly: boolean },
  resolve: FunctionResolver | undefined,
  projection?: readonly number[],
): (input: number, kind: number, row: unknown[]) => void {
  const root = new CodegenContext(node.left.schema, resolve, "row");
  const lc = root;
  const rc = root.stage(node.right.schema, "row");
  const lk = compileKeys(node.leftKeys, lc);
  const rk = compileKeys(node.rightKeys, rc);
  const keyOf = (k: typeof lk) => (k.count === 0 ? "key=0;" : `${k.read}key=(${k.columns.map((v) => `${v}===null`).join("||")})?null:${k.probe};`);
  const vars = [...new Set([...lk.vars, ...rk.vars])];
  const ls = node.left.schema.size;
  const rs = node.right.schema.size;
  // the output row: every joined column, or only the projected ones (a fused select, job-graph.ts)
  const picked = projection ?? Array.from({ length: ls + rs }, (_, i) => i);
  const item = (i: number, leftVar: string, rightVar: string) => (i < ls ? `${leftVar}[${i}]` : `${rightVar}[${i - ls}]`);
  const leftVs = picked.map((i) => item(i, "row", "o")).join(",");
  const rightVs = picked.map((i) => item(i, "o", "row")).join(",");
  // each partner's joined row: a record, or the consumer's row object when the downstream takes those (the
  // result sink of batches(), OperatorOutput.rows) — one object per output row instead of a record it copies
  const loops = (emit: (vs: string) => string) => `if(isLeft){for(let i=0;i<rows.length;i++){const o=rows[i];${emit(leftVs)}}}`
    + `else{for(let i=0;i<rows.length;i++){const o=rows[i];${emit(rightVs)}}}`;
  const s = root.constant(self);
  if (self.rowsOnly) return rowsOnlyProcess(root, s, keyOf(lk), keyOf(rk), vars, leftVs, rightVs);
  const retract = root.constant((state: JoinSideState, key: unknown, row: unknown[]) => state.retract(key, row, 0));
  const id = nextGeneratedName("innerJoin");
  return root.build(`(function(){const self=${s},retract=${retract};`
    + `return function ${id}_process(input,kind,row){`
    + `let key${vars.length ? `,${vars.join(",")}` : ""};${root.tempDeclarations()}`
    + `const isLeft=input===0;if(isLeft){${keyOf(lk)}}else{${keyOf(rk)}}`
    + "if(key===null)return;"
    + "const mine=isLeft?self.left:self.right;const other=isLeft?self.right.map:self.left.map;"
    + "const b=other.get(key);const out=self.out;"
    + "if(kind===0||kind===2){const m=mine.map;const s=m.get(key);"
    + "if(s===undefined)m.set(key,{rows:[row],assoc:undefined,times:undefined});else s.rows.push(row);}"
    + "else retract(mine,key,row);"
    + "if(b===undefined)return;const rows=b.rows;const R=out.rows;"
    + `if(R==null){${loops((vs) => `out.record(kind,[${vs}]);`)}}`
    + `else{const C=kind===0?R.C0:kind===2?R.C2:kind===1?R.C1:R.C3;${loops((vs) => `R.add(new C(${vs}));`)}}`
    + "};})()");
}

/**
 * Both inputs insert-only (rows-only-state.ts): a side's value is its rows list, and each input has its own
 * branch (its key, the other side's rows, its own push, the joined rows with the record's columns on its
 * side) — no side selection per record. Both stores are taken once: a restore fills them in place.
 */
function rowsOnlyProcess(
  root: CodegenContext, s: string, leftKey: string, rightKey: string, vars: readonly string[], leftVs: string, rightVs: string,
): (input: number, kind: number, row: unknown[]) => void {
  const notInsert = root.constant(() => {
    throw new Error("RegularJoinOperator: an insert-only join input sent an update or a retraction");
  });
  const id = nextGeneratedName("innerJoin");
  // the other side's rows probed first, then the record stored, then the joined rows (the general path's order)
  const branch = (key: string, mine: string, other: string, vs: string) => `${key}if(key===null)return;`
    + `const rows=${other}.get(key);const s=${mine}.get(key);if(s===undefined)${mine}.set(key,[row]);else s.push(row);`
    + "if(rows===undefined)return;const out=self.out;const R=out.rows;"
    + `if(R==null){for(let i=0;i<rows.length;i++){const o=rows[i];out.record(0,[${vs}]);}}`
    + `else{const C=R.C0;for(let i=0;i<rows.length;i++){const o=rows[i];R.add(new C(${vs}));}}`;
  return root.build(`(function(){const self=${s},notInsert=${notInsert},LM=self.left.map,RM=self.right.map;`
    + `return function ${id}_process(input,kind,row){`
    + `let key${vars.length ? `,${vars.join(",")}` : ""};${root.tempDeclarations()}`
    + "if(kind!==0)notInsert();"
    + `if(input===0){${branch(leftKey, "LM", "RM", leftVs)}}else{${branch(rightKey, "RM", "LM", rightVs)}}`
    + "};})()");
}
