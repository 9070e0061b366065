import { codegenFunction } from "../../../expressions/codegen.js";
import { ExecutionError, TableError, TableRuntimeException } from "../../../types/errors.js";
import { KIND_NAME, PositionalRow, ROW_KIND, kindFromShort } from "../../../types/row.js";
import { MAX_LENGTH, type DataType } from "../../../types/data-type.js";
import type { Column } from "../../../types/resolved-schema.js";
import { readOwnSource } from "../../../types/own.js";
import { coerceValue } from "../../../types/values.js";
import type { Output } from "../../operator.js";
import { type ChangelogMode, INSERT_ONLY, modeToString } from "../../../plan/changelog-mode.js";

/**
 * `collect(value)` of a PTF, generated once per call: it checks the value against the declared output
 * type, puts the prefix columns (PARTITION BY keys or all input columns, taken from the current input
 * record) in front and emits one output record. For `ROW<i INT, s STRING>` over key column 0 the body
 * is roughly `x0=v.i; x1=v.s; <type checks>; out.record(0, [r[0], x0, x1])`. With `on_time` the
 * record's time column (in eval) or `rowtime` (a firing timer's time) is appended as the `rowtime` column.
 */
export type CollectFn = (value: unknown, record: readonly unknown[], out: Output, rowtime?: Date) => void;

export interface CollectorSpec {
  readonly functionName: string;
  readonly outputType: DataType;
  /** The function's output columns (names as in the result schema). */
  readonly columns: readonly Column[];
  /** Positions in the input record of the columns put in front of the function's output. */
  readonly prefix: readonly number[];
  /** With `on_time`: the position of the time column in the input record (the rowtime of eval output). */
  readonly timeColumn?: number;
  /** The declared output mode: the kinds `collect` may emit (default insert-only). */
  readonly mode?: ChangelogMode;
}

const INT_RANGE: Record<string, [number, number]> = {
  TINYINT: [-128, 127], SMALLINT: [-32768, 32767], INT: [-2147483648, 2147483647],
};

/** A JS condition that is true when `x` (not null) already has the representation of `t`. */
function fastCheck(t: DataType, x: string): string {
  switch (t.root) {
    case "VARCHAR":
    case "CHAR":
      return t.length === MAX_LENGTH ? `typeof ${x}==="string"` : `typeof ${x}==="string"&&${x}.length<=${t.length}`;
    case "BOOLEAN": return `typeof ${x}==="boolean"`;
    case "TINYINT": case "SMALLINT": case "INT": {
      const [lo, hi] = INT_RANGE[t.root]!;
      return `(${x}|0)===${x}&&${x}>=${lo}&&${x}<=${hi}`;
    }
    case "BIGINT": return `Number.isSafeInteger(${x})`;
    case "FLOAT": case "DOUBLE": return `typeof ${x}==="number"`;
    default: return "false"; // everything else goes through coerceValue (Decimal, Date, arrays, maps, rows)
  }
}

export function makeCollector(spec: CollectorSpec): CollectFn {
  const isRow = spec.outputType.root === "ROW";
  const fields = isRow ? spec.outputType.fields : [{ name: "EXPR$0", type: spec.outputType }];
  const n = fields.length;
  const mode = spec.mode ?? INSERT_ONLY;
  // bit k set: kind k may be emitted; an insert-only function keeps the single `k!==0` check
  let allowed = 0;
  for (const k of mode.kinds) allowed |= 1 << k;
  const xs = fields.map((_, i) => `x${i}`);
  const where = fields.map((_, i) => `output column '${spec.columns[i]?.name ?? fields[i]!.name}' of function '${spec.functionName}'`);
  const h = {
    P: PositionalRow,
    RK: ROW_KIND,
    coerce(i: number, v: unknown): unknown {
      try {
        return coerceValue(fields[i]!.type, v, () => where[i]!);
      } catch (e) {
        if (e instanceof TableError) throw new ExecutionError(`collect(): ${e.message}`, { cause: e });
        throw e;
      }
    },
    kind(short: string): number {
      return kindFromShort(short);
    },
    badKind(k: number): never {
      throw new TableRuntimeException(`Invalid row kind received: ${KIND_NAME[k]}. Expected produced changelog mode: ${modeToString(mode)}`);
    },
    arity(got: number): never {
      throw new ExecutionError(`collect(): function '${spec.functionName}' declares ${n} output ${n === 1 ? "field" : "fields"} (${spec.outputType}) but Row.of(...) has ${got} values`);
    },
    nullTime(r: readonly unknown[]): never {
      throw new ExecutionError(`collect(): function '${spec.functionName}' got a row whose \`on_time\` column (position ${spec.timeColumn}) is NULL: [${r.map(String).join(", ")}]. A time attribute must not be null.`);
    },
    notRow(v: unknown): never {
      throw new ExecutionError(`collect(): function '${spec.functionName}' declares the row type ${spec.outputType}; expected an object with its fields or Row.of(...), got ${v === undefined ? "undefined" : JSON.stringify(v) ?? String(v)}`);
    },
  };
  let read: string;
  if (isRow) {
    const byName = fields.map((f, i) => `x${i}=${readOwnSource("v", f.name)};`).join("");
    const byPos = fields.map((_, i) => `x${i}=v.values[${i}];`).join("");
    read = `if(v instanceof h.P){if(v.values.length!==${n})h.arity(v.values.length);k=h.kind(v.kind);${byPos}}`
      + `else if(v!==null&&typeof v==="object"){const s=v[h.RK];if(s!==undefined)k=h.kind(s);${byName}}else h.notRow(v);`;
  } else {
    // a scalar output is mostly a primitive: the typeof test spares it `instanceof` against a class read
    // from `h` (not a constant to the compiler), which measured a fifth to a third of W5's pass
    read = `if(typeof v==="object"&&v!==null&&v instanceof h.P){if(v.values.length!==1)h.arity(v.values.length);k=h.kind(v.kind);x0=v.values[0];}else x0=v;`;
  }
  const checks = fields.map((f, i) => {
    const x = xs[i]!;
    const nullCase = f.type.isNullable ? "false" : "true";
    return `if(${x}===undefined)${x}=null;if(${x}===null?${nullCase}:!(${fastCheck(f.type, x)}))${x}=h.coerce(${i},${x});`;
  }).join("");
  const prefix = spec.prefix.map((p) => `r[${p}]`);
  const tc = spec.timeColumn ?? -1;
  // eval output carries the row's time, timer output the timer's (t)
  const time = tc >= 0 ? [`t===undefined?(r[${tc}]??h.nullTime(r)):t`] : [];
  const vs = [...prefix, ...xs, ...time].join(",");
  // the result sink of batches() takes the row object itself (OperatorOutput.rows): one object per output row
  const rowObject = allowed === 1 ? `new R.C0(${vs})` : `k===0?new R.C0(${vs}):k===2?new R.C2(${vs}):k===1?new R.C1(${vs}):new R.C3(${vs})`;
  const emit = `const R=out.rows;if(R==null)out.record(k,[${vs}]);else R.add(${rowObject});`;
  const body = `let k=0${n > 0 ? "," + xs.join(",") : ""};${read}${allowed === 1 ? "if(k!==0)h.badKind(k);" : `if(((${allowed}>>k)&1)===0)h.badKind(k);`}${checks}${emit}`;
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  return codegenFunction("ptf-collector", "h", `"use strict";return function collect(v,r,out,t){${body}};`)(h) as CollectFn;
}
