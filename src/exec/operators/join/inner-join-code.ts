import { CodegenContext, type FunctionResolver } from "../../../expressions/compile.js";
import type { JoinNode } from "../../../plan/nodes/join.js";
import { compileKeys } from "../../aggregates/key-code.js";
import type { JoinSideState } from "./join-state.js";
import { nextGeneratedName } from "../../../expressions/codegen.js";

/**
 * The whole `processElement` of an inner equi-join without residual condition and without TTL, generated per
 * operator (as Calc does): both key expressions, the state probe and the joined row's positions are written
 * out, so the per-record path has no call besides the Map operations and the output edge. A shared method
 * would be one call site for the key and combine functions of every join in the process and go megamorphic
 * after a few jobs. The rows and kinds it emits are those of the general path (regular-join.ts).
 */
export function generateInnerJoinProcess(
  node: JoinNode, self: { out: unknown; left: JoinSideState; right: JoinSideState }, resolve: FunctionResolver | undefined,
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
