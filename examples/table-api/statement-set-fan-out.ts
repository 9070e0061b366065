// Seed 000 "Fan-out 예제": two INSERTs of one statement set read the same PTF call (uid => 'same'), so the
// job keeps ONE stateful PTF operator and splits its output by a filter into bob_sink and alice_sink.
// With two different uids each insert gets its own stateful operator, both consuming the shared table t.
import { $, CollectionSink, EnvironmentSettings, Schema, TableEnvironment, lit } from "../../src/index.js";
import { GreetingWithMemory } from "../ptf/greeting-with-memory.js";

export function fanOut(uids: readonly [string, string] = ["same", "same"], env = TableEnvironment.create(EnvironmentSettings.inStreamingMode())) {
  const t = env.fromValues("Bob", "Alice", "Bob").as("name");
  const schema = Schema.newBuilder().column("name", "STRING").column("greeting", "STRING").build();
  const bob = new CollectionSink<{ name: string; greeting: string }>();
  const alice = new CollectionSink<{ name: string; greeting: string }>();
  env.createTemporaryTable("bob_sink", bob.descriptor(schema));
  env.createTemporaryTable("alice_sink", alice.descriptor(schema));
  const f = (uid: string) => t.partitionBy($("name")).process(GreetingWithMemory, lit(uid).asArgument("uid"));
  const set = env.createStatementSet()
    .addInsert("bob_sink", f(uids[0]).filter($("name").isEqual("Bob")))
    .addInsert("alice_sink", f(uids[1]).filter($("name").isEqual("Alice")));
  return { set, bob, alice };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { set, bob, alice } = fanOut();
  console.log(set.explain());
  await set.execute().await();
  console.log(bob.changelog(), alice.changelog());
}
