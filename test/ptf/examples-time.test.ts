// The seed's time and timer examples (examples/ptf), each with its exact printed output.
import { describe, expect, it } from "vitest";
import { checkoutProcessor } from "../../examples/ptf/checkout-processor.js";
import { greetingWithFollowUp } from "../../examples/ptf/greeting-with-follow-up.js";
import { pingLater } from "../../examples/ptf/ping-later.js";
import { timerFunction } from "../../examples/ptf/timer-function.js";
import { printed } from "../support.js";

const lines = (...l: string[]) => l.join("\n");
const SEP = "+----+--------------------------------+--------------------------------+-------------------------+";

describe("seed 000: time and timers", () => {
  it("PingLaterFunction: a ping one minute after the last event of each id (replaced named timer)", async () => {
    expect(await printed(pingLater().execute())).toBe(lines(
      SEP,
      "| op |                             id |                         EXPR$0 |                 rowtime |",
      SEP,
      "| +I |                              b |                           ping | 2025-03-26 16:56:10.000 |",
      "| +I |                              a |                           ping | 2025-03-26 16:56:30.000 |",
      "| +I |                              c |                           ping | 2025-03-26 16:58:00.000 |",
      SEP,
      "3 rows in set",
    ));
  });

  it("TimerFunction: second event, or timeout after 60 s (clearAll drops the timer)", async () => {
    expect(await printed(timerFunction().execute())).toBe(lines(
      SEP,
      "| op |                           name |                         EXPR$0 |                 rowtime |",
      SEP,
      "| +I |                            Bob |  Second event arrived for: Bob | 2025-03-27 12:00:20.000 |",
      "| +I |                          Alice |             Timeout for: Alice | 2025-03-27 12:01:10.000 |",
      "| +I |                         Charly |            Timeout for: Charly | 2025-03-27 12:02:40.000 |",
      SEP,
      "3 rows in set",
    ));
  });

  it("Greeting with Follow Up: unnamed timers, one follow-up per greeting", async () => {
    const rows = await greetingWithFollowUp().execute().toArray();
    expect(rows.map((r) => `${r.name} | ${r.EXPR$0} | ${r.rowtime.toISOString()}`)).toEqual([
      "Bob | Hello Bob, your 1 time? | 2025-03-27T07:38:31.000Z",
      "Bob | Hello Bob, your 2 time? | 2025-03-27T07:38:32.000Z",
      "Alice | Hello Alice, your 1 time? | 2025-03-27T07:38:33.000Z",
      "Alice | Hello Alice, your 2 time? | 2025-03-27T07:38:34.000Z",
      "Bob | Hello Bob, I hope you enjoyed your stay! Please let us know if there's anything we could have done better. | 2025-03-27T07:39:31.000Z",
      "Bob | Hello Bob, I hope you enjoyed your stay! Please let us know if there's anything we could have done better. | 2025-03-27T07:39:32.000Z",
      "Alice | Hello Alice, I hope you enjoyed your stay! Please let us know if there's anything we could have done better. | 2025-03-27T07:39:33.000Z",
      "Alice | Hello Alice, I hope you enjoyed your stay! Please let us know if there's anything we could have done better. | 2025-03-27T07:39:34.000Z",
    ]);
  });

  it("CheckoutProcessor: REMINDER after 1 s of inactivity, CHECKOUT with the cart (the seed's output)", async () => {
    const S = "+----+--------------------------------+--------------------------------+--------------------------------+-------------------------+";
    expect(await printed(checkoutProcessor().execute())).toBe(lines(
      S,
      "| op |                           user |                  checkout_type |                          items |                 rowtime |",
      S,
      "| +I |                            Bob |                       REMINDER |                          {1=1} | 2025-03-27 12:00:12.000 |",
      "| +I |                          Alice |                       REMINDER |                          {1=1} | 2025-03-27 12:00:22.000 |",
      "| +I |                            Bob |                       CHECKOUT |                     {2=1, 5=1} | 2025-03-27 12:01:50.000 |",
      S,
      "3 rows in set",
    ));
  });
});
