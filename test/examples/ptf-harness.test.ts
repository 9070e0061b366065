// examples/ptf/testing-with-harness.ts: TtlCountingFunction tested with PtfTestHarness, with its exact transcript.
import { describe, expect, it } from "vitest";
import { ttlCountingTranscript } from "../../examples/ptf/testing-with-harness.js";

describe("example: testing a PTF with PtfTestHarness", () => {
  it("TtlCountingFunction: pairs within a day, a lone first event expires after one day", () => {
    expect(ttlCountingTranscript()).toEqual([
      " 0h  Bob 1        output -",
      ' 0h  state(Bob) = {"memory":{"first":"+I[Bob, 1]"}}',
      "23h  Alice 2      output -",
      "23h  Bob 3        output +I[Bob, Event 1: +I[Bob, 1] and Event 2: +I[Bob, 3]]",
      '23h  state(Bob) = {"memory":null}',
      '46h  state(Alice) = {"memory":{"first":"+I[Alice, 2]"}}',
      '47h  state(Alice) = {"memory":null}',
      "47h  keys holding state: []",
      "47h  Alice 4      output -",
      "47h  Alice 5      output +I[Alice, Event 1: +I[Alice, 4] and Event 2: +I[Alice, 5]]",
    ]);
  });
});
