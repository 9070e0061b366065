// Type tests of the job-level checkpoint API: every result's JobClient takes savepoints (resolving to
// the savepoint's path) and cancels; a savepoint needs a target directory; the sink contract's two-phase
// hooks are optional.
import { expectTypeOf } from "vitest";
import { $, type JobClient, TableEnvironment, EnvironmentSettings } from "../../src/index.js";
import type { SinkWriter } from "../../src/exec/source.js";
import { orders } from "./fixtures.js";

async function clients(): Promise<void> {
  const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
  env.getConfig().set("execution.checkpointing.interval", "10 s").set("execution.savepoint.path", "/tmp/sp");
  const client = orders.groupBy($("product")).select($("product"), $("amount").sum().as("total")).execute().getJobClient();
  expectTypeOf(client).toEqualTypeOf<JobClient>();
  expectTypeOf(client.triggerSavepoint("/tmp/savepoints")).toEqualTypeOf<Promise<string>>();
  expectTypeOf(client.stopWithSavepoint("/tmp/savepoints")).toEqualTypeOf<Promise<string>>();
  expectTypeOf(client.cancel()).toEqualTypeOf<Promise<void>>();
  const insert = orders.executeInsert("out").getJobClient();
  expectTypeOf(insert.stopWithSavepoint).toEqualTypeOf<(dir: string) => Promise<string>>();
  // @ts-expect-error "Expected 1 arguments, but got 0"
  void client.triggerSavepoint();
  // @ts-expect-error "Argument of type 'number' is not assignable to parameter of type 'string'"
  void client.stopWithSavepoint(42);
}
void clients;

// a writer without the two-phase hooks is still a SinkWriter; with them, they take and return plain data
const plain: SinkWriter = { open() {}, write() {}, close() {}, written: () => 0 };
const twoPhase: SinkWriter = {
  ...plain,
  prepareCommit: (id: number) => ({ upTo: id }),
  commit(committable: unknown) { void committable; },
  restore(committable: unknown) { void committable; },
  abort() {},
};
void twoPhase;
// @ts-expect-error "Type '(id: string) => string' is not assignable to type '(checkpointId: number) => unknown'"
const badId: SinkWriter = { ...plain, prepareCommit: (id: string) => id };
void badId;
