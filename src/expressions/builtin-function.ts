import type { CodegenContext } from "./compile.js";
import type { Compiled } from "./compile-support.js";
import type { CallNode } from "./node.js";

/** The type rule and code of one built-in: checks the arguments, returns the result type and the JS source. */
export type BuiltinCompile = (node: CallNode, args: Compiled[], ctx: CodegenContext) => Compiled;

/** How SQL text calls a built-in: its name there and how many arguments it takes. */
export interface SqlSpelling {
  readonly name: string;
  readonly min: number;
  readonly max: number;
}

/**
 * One built-in scalar function, everything the run time and the SQL front end need to know about it:
 * the name of its call in the expression tree (what the Table API method builds, `op("upper", x)`), its
 * SQL spellings, and its compile rule. The families (compile-string.ts, compile-numeric.ts, ...) each list
 * their entries; `builtins.ts` joins them. The Table API method and its type-level rule are the only other
 * places a built-in lives (expression.ts, type-level.ts): TypeScript needs them written out, and
 * test/expressions/type-agreement.test.ts checks that the two agree.
 */
export interface BuiltinFunction {
  readonly name: string;
  readonly sql?: readonly SqlSpelling[];
  readonly compile: BuiltinCompile;
}

/** An entry; `sql` as `["UPPER", 1]` (exactly one argument) or `["CONCAT", 1, Infinity]`. */
export function builtin(name: string, compile: BuiltinCompile, ...sql: readonly (readonly [string, number, number?])[]): BuiltinFunction {
  return Object.freeze({
    name,
    compile,
    ...(sql.length > 0 ? { sql: Object.freeze(sql.map(([n, min, max]) => Object.freeze({ name: n, min, max: max ?? min }))) } : {}),
  });
}
