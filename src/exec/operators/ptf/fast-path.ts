import { readOwnSource, writeOwnSource } from "../../../types/own.js";
import { codegenFunction, nextGeneratedName } from "../../../expressions/codegen.js";
import type { ValueStateSlot } from "./value-state.js";

/** What the generated per-row function reads and writes on its operator. */
export interface FastPathHost {
  kind: number;
  record: unknown[];
  row: object | undefined;
  failure(e: unknown): Error;
}

/** The context fields the per-row function sets around eval. */
export interface FastPathCtx {
  record: readonly unknown[];
  inEval: boolean;
}

export interface FastPathSpec {
  readonly host: FastPathHost;
  readonly ctx: FastPathCtx;
  readonly evalFn: (ctx: unknown, state: unknown, args: unknown) => void;
  readonly stateHolder: object;
  readonly argsHolder: object;
  /** Value state slots without TTL and their names. */
  readonly slots: readonly ValueStateSlot[];
  readonly names: readonly string[];
  /** The key column when the key is one primitive column (read inline), else -1 and `keyOf` is called. */
  readonly keyColumn: number;
  readonly keyOf: (r: readonly unknown[]) => unknown;
}

/**
 * The whole per-row path of the common PTF case, generated per operator: one table argument without
 * ORDER BY, insert-only, no routing, value state without TTL. Key read inline, each slot's Map read and
 * written directly (the load / store of ValueStateSlot unrolled: fresh default for a new key, kept when
 * new and not empty, dropped when emptied or cleared), eval called with the reused holders. For one
 * state `counter {count}` over key column 0 the body is roughly
 * `key=row[0];l0=M0.get(key);if(l0===undefined){l0=F0();n0=true}H["counter"]=l0;…eval…;
 * if(S0.cleared){…}else if(l0["count"]==null){…}else if(n0)M0.set(key,l0);`.
 * Everything else (TTL, views, timers firing, ORDER BY, several tables, updates) takes the general path.
 * The source carries a number so two operators do not share compiled code and type feedback.
 */
export function fastPath(spec: FastPathSpec): (kind: number, row: unknown[]) => void {
  const id = nextGeneratedName("ptf");
  const n = spec.slots.length;
  const idx = Array.from({ length: n }, (_, i) => i);
  const key = spec.keyColumn >= 0 ? `row[${spec.keyColumn}]` : "K(row)";
  const decl = idx.map((i) => `M${i}=S[${i}].map,F${i}=S[${i}].fresh`);
  const load = idx.map((i) => `let l${i}=M${i}.get(key),n${i}=false;if(l${i}===undefined){l${i}=F${i}();n${i}=true;}${writeOwnSource("H", spec.names[i]!, `l${i}`)}`).join("");
  const store = idx.map((i) => {
    const fs = spec.slots[i]!.fields;
    const empty = fs.length === 0 ? "true" : fs.map((f) => `${readOwnSource(`l${i}`, f)}==null`).join("&&");
    return `{const s=S[${i}];if(s.cleared){s.cleared=false;if(!n${i})M${i}.delete(key);}else if(${empty}){if(!n${i})M${i}.delete(key);}else if(n${i})M${i}.set(key,l${i});}`;
  }).join("");
  const src = `"use strict";${decl.length > 0 ? `const ${decl.join(",")};` : ""}`
    + `return function ptf${id}_row(kind,row){const key=${key};${load}`
    + `P.kind=kind;P.record=row;P.row=undefined;C.record=row;C.inEval=true;`
    + `try{E(C,H,A);}catch(e){throw P.failure(e);}finally{C.inEval=false;}${store}};`;
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  return codegenFunction("ptf-fast-path", "S", "K", "P", "C", "E", "H", "A", src)(
    spec.slots, spec.keyOf, spec.host, spec.ctx, spec.evalFn, spec.stateHolder, spec.argsHolder,
  ) as (kind: number, row: unknown[]) => void;
}
