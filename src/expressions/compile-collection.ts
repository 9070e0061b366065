import { type Compiled, T, anyNullable, arity, nullSafe, requireArg } from "./compile-support.js";
import { type BuiltinFunction, builtin } from "./builtin-function.js";

/**
 * Functions of collection values. CARDINALITY(x) (Flink): the number of elements of an ARRAY, the number of
 * entries of a MAP, and for a MULTISET the number of elements counting repeats (the sum of the counts); INT,
 * NULL for NULL.
 */
const isCollection = (t: { root: string }): boolean => t.root === "ARRAY" || t.root === "MAP" || t.root === "MULTISET";

export const COLLECTION_BUILTINS: readonly BuiltinFunction[] = [
  builtin("cardinality", (node, args, ctx): Compiled => {
    arity(node, args, 1);
    requireArg(node, 0, args[0]!, isCollection, "an ARRAY, MAP or MULTISET");
    const root = args[0]!.type.root;
    const src = nullSafe(ctx, args, ([x]) => (root === "ARRAY" ? `${x}.length` : root === "MAP" ? `${x}.size` : `h.multisetSize(${x})`));
    return { type: T.INT(anyNullable(args)), src };
  }, ["CARDINALITY", 1]),
];
