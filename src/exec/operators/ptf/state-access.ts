import { writeOwnSource } from "../../../types/own.js";
import { codegenFunction, nextGeneratedName } from "../../../expressions/codegen.js";
import type { ValueStateSlot } from "./value-state.js";

/** A data view as the operator drives it around eval: bound to a key before, released after. */
interface EnterLeave {
  enter(key: unknown, now: number): void;
  leave(): void;
}

/** Loads every state entry of one key into the holder eval receives, and keeps them afterwards. */
export interface StateAccess {
  load(key: unknown, now: number): void;
  store(key: unknown, now: number): void;
}

/**
 * Generated per operator: `load` / `store` with the state entries unrolled, so each slot's call has a
 * call site of its own and the holder is written through constant property names (a loop with
 * `holder[names[i]] = v` is a keyed store per entry and row). For one value state `counter` the body is
 * `l0=s0.load(key,now);H["counter"]=l0;` and `s0.store(key,l0,now);`. The loaded objects live in the
 * closure between the two calls (eval does not re-enter its own operator). The source carries a number:
 * V8 caches compiled sources, and two operators with the same source would share type feedback.
 */
export function stateAccess(slots: readonly ValueStateSlot[], names: readonly string[], views: readonly EnterLeave[], holder: object): StateAccess {
  const id = nextGeneratedName("state");
  const decl = [
    ...slots.map((_, i) => `s${i}=S[${i}],l${i}=null`),
    ...views.map((_, i) => `v${i}=V[${i}]`),
  ];
  const load = slots.map((_, i) => `l${i}=s${i}.load(key,now);${writeOwnSource("H", names[i]!, `l${i}`)}`).join("")
    + views.map((_, i) => `v${i}.enter(key,now);`).join("");
  const store = slots.map((_, i) => `s${i}.store(key,l${i},now);`).join("")
    + views.map((_, i) => `v${i}.leave();`).join("");
  const src = `"use strict";${decl.length > 0 ? `let ${decl.join(",")};` : ""}`
    + `return {load:function state${id}_load(key,now){${load}},store:function state${id}_store(key,now){${store}}};`;
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  return codegenFunction("ptf-state", "S", "V", "H", src)(slots, views, holder) as StateAccess;
}
