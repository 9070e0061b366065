import type { ChangelogMode } from "./changelog-mode.js";
import { nodeLine } from "./explain.js";
import { type PlanNode, inputsOf } from "./nodes.js";
import type { StatementSetNode } from "./nodes/statement-set.js";

/**
 * The plan of a statement set, as Flink's `StatementSet.explain()` shows it: one tree per sink, separated
 * by a blank line. A sub-plan that several sinks (or several consumers) share is printed once, tagged
 * `reuse_id=[n]`; later occurrences print as `Reused(reference_id=[n])`. Two calls of a PTF with the same
 * `uid` count as one sub-plan: the job runs them as one operator.
 */
export function explainStatementSet(root: StatementSetNode, batch: boolean): string {
  const cache = new Map<PlanNode, ChangelogMode>();
  const uses = new Map<unknown, number>();
  const count = (n: PlanNode) => {
    const k = shareKey(n);
    const c = uses.get(k) ?? 0;
    uses.set(k, c + 1);
    if (c === 0) for (const i of inputsOf(n)) count(i);
  };
  for (const s of root.sinks) count(s);

  const reuseIds = new Map<unknown, number>();
  const lines: string[] = ["== Logical Plan =="];
  const visit = (n: PlanNode, prefix: string, childPrefix: string) => {
    const k = shareKey(n);
    const seen = reuseIds.get(k);
    if (seen !== undefined) {
      lines.push(`${prefix}Reused(reference_id=[${seen}])`);
      return;
    }
    let extra = "";
    if ((uses.get(k) ?? 0) > 1) {
      const id = reuseIds.size + 1;
      reuseIds.set(k, id);
      extra = `reuse_id=[${id}], `;
    }
    lines.push(`${prefix}${nodeLine(n, batch, cache, extra)}`);
    const inputs = inputsOf(n);
    inputs.forEach((c, i) => {
      const last = i === inputs.length - 1;
      visit(c, `${childPrefix}${last ? "+- " : ":- "}`, `${childPrefix}${last ? "   " : ":  "}`);
    });
  };
  root.sinks.forEach((s, i) => {
    if (i > 0) lines.push("");
    visit(s, "", "");
  });
  return lines.join("\n");
}

/** What makes two nodes one operator: the node itself, or the uid of a PTF call. */
function shareKey(n: PlanNode): unknown {
  if (n.kind === "Process") {
    const uid = (n.call as { uid?: unknown }).uid;
    if (typeof uid === "string") return `uid:${uid}`;
  }
  return n;
}
