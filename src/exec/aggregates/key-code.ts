import { type CodegenContext, compileExpr } from "../../expressions/compile.js";
import type { ExprNode } from "../../expressions/node.js";
import { encodeKeyPart, valueKey } from "./value-key.js";
import { GlobalIndex, type KeyIndex, MapIndex, type MapProbe, NumericIndex } from "./key-index.js";

/**
 * The grouping key of a keyed operator as generated code: which index class holds the groups (chosen by
 * the key's type, because memory per group is the dominant cost) and the JS source that reads a record's
 * key into local variables and computes its probe.
 *
 * - one numeric key (integers, FLOAT/DOUBLE, intervals): NumericIndex, the number is the probe;
 * - one timestamp: NumericIndex over epoch millis; the row's own Date is what the output carries;
 * - one string / boolean / DATE / TIME key: MapIndex keyed by the value itself;
 * - one key of another type (DECIMAL, ARRAY, ROW ...): MapIndex keyed by a canonical string;
 * - several keys: MapIndex keyed by a prefix-free encoding of all of them;
 * - no keys (a global aggregate): GlobalIndex.
 *
 * The variables are `k0`, `k1`, ... for the key values and `q` for a probe that is not `k0`; the code using
 * a KeyCode must not use those names.
 */
export interface KeyCode {
  /** Number of key columns. */
  readonly count: number;
  /** Statements evaluating the record's key into the variables (may throw: an expression failing on the record). */
  readonly read: string;
  /** The variables `read` assigns (to be declared by the caller). */
  readonly vars: readonly string[];
  /** Expression: the probe of the record's key. */
  readonly probe: string;
  /** Expression: the key as the index stores it (allocates for several keys: use it only for new groups). */
  readonly key: string;
  /** Expressions: the key columns of an output row, from the record's variables. */
  readonly columns: readonly string[];
  /** Expressions: the key columns of an output row, from a key handed out by `KeyIndex.forEachGroup` in `kv`. */
  columnsOf(kv: string): string[];
  /** A new empty index of the class this code calls. */
  newIndex(): KeyIndex;
}

const NUMERIC_ROOTS = new Set(["TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE", "INTERVAL_DAY_TIME", "INTERVAL_YEAR_MONTH"]);
const TIME_ROOTS = new Set(["TIMESTAMP", "TIMESTAMP_LTZ"]);
/** Values of these types are primitives whose JS identity is SQL equality. */
const PRIMITIVE_ROOTS = new Set(["CHAR", "VARCHAR", "BOOLEAN", "DATE", "TIME", "NULL"]);

/** Compiles grouping key expressions over `ctx`'s record variable. */
export function compileKeys(keyExprs: readonly ExprNode[], ctx: CodegenContext): KeyCode {
  const compiled = keyExprs.map((k) => compileExpr(k, ctx));
  const n = compiled.length;
  const vars = compiled.map((_c, i) => `k${i}`);
  const read = compiled.map((c, i) => `k${i}=${c.src};`).join("");
  if (n === 0) {
    return { count: 0, read: "", vars: [], probe: "null", key: "null", columns: [], columnsOf: () => [], newIndex: () => new GlobalIndex() };
  }
  if (n === 1) {
    const root = compiled[0]!.type.root;
    const single = (probeRead: string, probe: string, newIndex: () => KeyIndex): KeyCode => ({
      count: 1, read: read + probeRead, vars: probe === "q" ? [...vars, "q"] : vars, probe, key: "k0", columns: ["k0"],
      columnsOf: (kv) => [kv], newIndex,
    });
    if (NUMERIC_ROOTS.has(root)) return single("", "k0", () => new NumericIndex(false));
    if (TIME_ROOTS.has(root)) return single("q=k0===null?null:k0.getTime();", "q", () => new NumericIndex(true));
    if (PRIMITIVE_ROOTS.has(root)) return single("", "k0", () => new MapIndex("value"));
    return single(`q=${ctx.constant(valueKey)}(k0);`, "q", () => new MapIndex("canonical"));
  }
  const enc = ctx.constant(encodeKeyPart);
  const kind: MapProbe = "composite";
  return {
    count: n,
    read: `${read}q=${vars.map((v) => `${enc}(${v})`).join("+")};`,
    vars: [...vars, "q"],
    probe: "q",
    key: `[${vars.join(",")}]`,
    columns: vars,
    columnsOf: (kv) => vars.map((_v, i) => `${kv}[${i}]`),
    newIndex: () => new MapIndex(kind),
  };
}
