import type { ResolvedPtfCall } from "./resolved-call.js";
import { parseDuration } from "./ttl.js";

/**
 * The effective TTL of each state entry of a call (PTF rule 13): the entry's own `ttl`
 * wins; `0` disables TTL; without one, `table.exec.state.ttl` applies (0 / unset = no expiry).
 */
export function resolveStateTtls(call: ResolvedPtfCall, configured: string | undefined = call.defaultStateTtl()): { readonly name: string; readonly ttl: number }[] {
  const global = configured;
  const globalMs = call.stateTtl ?? (global === undefined ? 0 : parseDuration(global, "table.exec.state.ttl"));
  return call.fn.states.map((s) => ({ name: s.name, ttl: s.decl.ttl ?? globalMs }));
}
