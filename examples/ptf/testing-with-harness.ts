// Testing a PTF on its own with PtfTestHarness (tablestream/testing): TtlCountingFunction
// (counting-functions.ts) waits for a second event of each name and forgets a first event after one
// day. The harness drives it row by row, without a pipeline, on a processing-time clock the test sets,
// and shows the output and the state of each key in between.
import { DataTypes, Row } from "../../src/index.js";
import { PtfTestHarness } from "../../src/testing/index.js";
import { TtlCountingFunction } from "./counting-functions.js";

const Event = DataTypes.ROW(DataTypes.FIELD("name", DataTypes.STRING()), DataTypes.FIELD("score", DataTypes.INT()));

/** What a test of TtlCountingFunction sees, step by step: the time, what happened, output and state. */
export function ttlCountingTranscript(): string[] {
  const h = PtfTestHarness.of(TtlCountingFunction, { input: Event, partitionBy: ["name"] });
  const log: string[] = [];
  const hours = () => `${h.currentProcessingTime() / 3_600_000}h`.padStart(3);
  const step = (what: string) => {
    const out = h.drain().map(String);
    log.push(`${hours()}  ${what.padEnd(12)} output ${out.length === 0 ? "-" : out.join(", ")}`);
  };
  const show = (name: "Bob" | "Alice") => log.push(`${hours()}  state(${name}) = ${JSON.stringify(h.state(name))}`);

  h.processElement(Row.of("Bob", 1));
  step("Bob 1");
  show("Bob");
  h.advanceProcessingTime("23 h");
  h.processElement(Row.of("Alice", 2));
  step("Alice 2");
  h.processElement(Row.of("Bob", 3)); // within a day of Bob 1: a pair, then the state is cleared
  step("Bob 3");
  show("Bob");
  h.advanceProcessingTime("23 h");
  show("Alice");
  h.advanceProcessingTime("1 h"); // Alice 2 is now a day old: expired
  show("Alice");
  log.push(`${hours()}  keys holding state: ${JSON.stringify(h.keys())}`);
  h.processElement(Row.of("Alice", 4)); // a first event again, not a pair
  step("Alice 4");
  h.processElement(Row.of("Alice", 5));
  step("Alice 5");
  return log;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const line of ttlCountingTranscript()) console.log(line);
}
