import { describe, expect, it } from "vitest";
import { $, lit } from "../../src/index.js";
import { nodeIdentities } from "../../src/plan/identity.js";
import { type PlanNode, inputsOf } from "../../src/plan/nodes.js";
import { SetSemanticTableFunction } from "../ptf/flink-functions.js";
import { basicValues, streamingEnv } from "../ptf/support.js";

/** Identities of a plan's nodes, root first, depth first. */
function ids(root: PlanNode): { kind: string; id: string; uid: string }[] {
  const map = nodeIdentities(root);
  const out: { kind: string; id: string; uid: string }[] = [];
  const walk = (n: PlanNode) => { const i = map.get(n)!; out.push({ kind: n.kind, id: i.id, uid: i.uid }); inputsOf(n).forEach(walk); };
  walk(root);
  return out;
}

function program(threshold: number, uid?: string): PlanNode {
  const env = streamingEnv();
  basicValues(env);
  const input = env.from("t").filter($("score").isGreater(threshold));
  const partitioned = input.partitionBy($("name"));
  const called = uid === undefined
    ? partitioned.process(SetSemanticTableFunction, lit(1).asArgument("i"))
    : partitioned.process(SetSemanticTableFunction, lit(1).asArgument("i"), lit(uid).asArgument("uid"));
  return called.select($("name"), $("out")).node;
}

describe("node identities derived from the plan", () => {
  it("two identical programs built in one process get identical ids and uids", () => {
    const a = ids(program(0));
    const b = ids(program(0));
    expect(a.map((n) => n.kind)).toEqual(["Project", "Process", "Filter", "Project", "Values"]);
    expect(b).toEqual(a);
    expect(new Set(a.map((n) => n.id)).size).toBe(5);
  });

  it("an explicit uid survives a change upstream; derived ids follow the plan", () => {
    const a = ids(program(0, "counter"));
    const b = ids(program(5, "counter"));
    expect(a[1]).toMatchObject({ kind: "Process", uid: "counter" });
    expect(b[1]!.uid).toBe("counter");
    expect(b[2]!.id).not.toBe(a[2]!.id); // the Filter changed
    expect(b[1]!.id).not.toBe(a[1]!.id); // so did the hash of what is downstream of it
    expect(b.slice(3)).toEqual(a.slice(3)); // the nodes below did not
  });

  it("keeps two identical branches apart", () => {
    const env = streamingEnv();
    basicValues(env);
    const branch = () => env.from("t").filter($("score").isGreater(1));
    const root = branch().unionAll(branch()).node;
    const map = nodeIdentities(root);
    const [l, r] = inputsOf(root);
    expect(map.get(l!)!.id).not.toBe(map.get(r!)!.id);
  });
});
