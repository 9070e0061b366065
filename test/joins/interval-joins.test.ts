import { describe, expect, it } from "vitest";
import { $, DataTypes, Row, RowKind, Schema, type TableEnvironment, ValidationError, lit } from "../../src/index.js";
import { batch, sorted, streaming } from "./fixtures.js";
import { backendSuite } from "../support/state-backends.js";

/** IntervalJoinTestPrograms fixtures (event time): before rows, then after rows. */
const ORDERS_SCHEMA = Schema.newBuilder()
  .column("id", DataTypes.INT())
  .column("order_ts_str", DataTypes.STRING())
  .columnByExpression("order_ts", "TO_TIMESTAMP(order_ts_str)")
  .watermark("order_ts", "`order_ts` - INTERVAL '1' SECOND")
  .build();
const SHIPMENTS_SCHEMA = Schema.newBuilder()
  .column("s_id", DataTypes.INT())
  .column("order_id", DataTypes.INT())
  .column("shipment_ts_str", DataTypes.STRING())
  .columnByExpression("shipment_ts", "TO_TIMESTAMP(shipment_ts_str)")
  .watermark("shipment_ts", "`shipment_ts` - INTERVAL '1' SECOND")
  .build();
const ORDERS = [
  Row.of(1, "2020-04-15 08:00:01"), Row.of(2, "2020-04-15 08:00:02"), Row.of(4, "2020-04-15 08:00:04"), Row.of(5, "2020-04-15 08:00:05"),
  Row.of(3, "2020-04-15 08:00:03"),
  Row.of(7, "2020-04-15 08:00:09"), Row.of(10, "2020-04-15 08:00:11"),
];
const SHIPMENTS = [
  Row.of(2, 1, "2020-04-15 08:00:02"), Row.of(5, 2, "2020-04-15 08:00:05"), Row.of(6, 5, "2020-04-15 08:00:06"),
  Row.of(15, 4, "2020-04-15 08:00:15"), Row.of(16, 6, "2020-04-15 08:00:15"),
  Row.of(7, 3, "2020-04-15 08:00:15"), Row.of(11, 7, "2020-04-15 08:00:16"), Row.of(13, 10, "2020-04-15 08:00:16"),
];
const tables = (env: TableEnvironment) => ({ o: env.fromValues(ORDERS_SCHEMA, ORDERS), s: env.fromValues(SHIPMENTS_SCHEMA, SHIPMENTS) });

backendSuite("interval joins", () => {
  describe("interval joins: Flink's programs", () => {
    it("R-015 interval-join-event-time: o.order_ts BETWEEN s.shipment_ts - 5 s AND s.shipment_ts + 5 s", async () => {
      const { o, s } = tables(streaming());
      const q = o.join(s, $("id").isEqual($("order_id")))
        .where($("order_ts").between($("shipment_ts").minus(lit(5).seconds()), $("shipment_ts").plus(lit(5).seconds())))
        .select($("id").as("order_id2"), $("order_ts_str"), $("shipment_ts_str"));
      expect(q.changelogMode()).toBe("[I]");
      expect(sorted(await q.execute().toChangelog())).toEqual(sorted([
        "+I[1, 2020-04-15 08:00:01, 2020-04-15 08:00:02]", "+I[2, 2020-04-15 08:00:02, 2020-04-15 08:00:05]",
        "+I[5, 2020-04-15 08:00:05, 2020-04-15 08:00:06]",
        "+I[10, 2020-04-15 08:00:11, 2020-04-15 08:00:16]",
      ]));
    });

    it("R-017 interval-join-negative-interval: LEFT OUTER with lower bound +10 s above upper bound +5 s pads every order", async () => {
      const { o, s } = tables(streaming());
      const q = o.leftOuterJoin(s, $("id").isEqual($("order_id"))
        .and($("order_ts").between($("shipment_ts").plus(lit(10).seconds()), $("shipment_ts").plus(lit(5).seconds()))))
        .select($("id"), $("order_ts_str"), $("shipment_ts_str"));
      expect(q.changelogMode()).toBe("[I]");
      expect(sorted(await q.execute().toChangelog())).toEqual(sorted([
        "+I[1, 2020-04-15 08:00:01, null]", "+I[2, 2020-04-15 08:00:02, null]", "+I[4, 2020-04-15 08:00:04, null]",
        "+I[5, 2020-04-15 08:00:05, null]", "+I[3, 2020-04-15 08:00:03, null]",
        "+I[7, 2020-04-15 08:00:09, null]", "+I[10, 2020-04-15 08:00:11, null]",
      ]));
    });
  });

  describe("interval joins: rules", () => {
    it("batch mode gives the same rows (R-015 in batch)", async () => {
      const { o, s } = tables(batch());
      const q = o.join(s, $("id").isEqual($("order_id"))
        .and($("order_ts").between($("shipment_ts").minus(lit(5).seconds()), $("shipment_ts").plus(lit(5).seconds()))))
        .select($("id"), $("shipment_ts_str"));
      expect(sorted(await q.execute().toChangelog())).toEqual(sorted([
        "+I[1, 2020-04-15 08:00:02]", "+I[2, 2020-04-15 08:00:05]", "+I[5, 2020-04-15 08:00:06]", "+I[10, 2020-04-15 08:00:16]",
      ]));
    });

    it("is planned from >= / <= bounds too, keeps both time attributes and explains its bounds", () => {
      const { o, s } = tables(streaming());
      const q = o.join(s).where($("id").isEqual($("order_id")).and($("order_ts").isGreaterOrEqual($("shipment_ts").minus(lit(1).hours())))
        .and($("order_ts").isLess($("shipment_ts"))));
      expect(q.node.kind).toBe("IntervalJoin");
      expect(q.explain()).toContain("windowBounds=[isRowTime=true, leftLowerBound=-3600000, leftUpperBound=-1, leftTimeIndex=2, rightTimeIndex=3]");
      const types = q.getResolvedSchema().columns.filter((c) => c.type.timeAttribute === "ROWTIME").map((c) => c.name);
      expect(types).toEqual(["order_ts", "shipment_ts"]);
    });

    it("a regular join turns time attributes into plain timestamps", () => {
      const { o, s } = tables(streaming());
      const q = o.join(s, $("id").isEqual($("order_id")));
      expect(q.node.kind).toBe("Join");
      expect(q.getResolvedSchema().columns.some((c) => c.type.timeAttribute !== undefined)).toBe(false);
    });

    it("outer interval joins pad a row when it leaves state unmatched, and both sides of a FULL join", async () => {
      const { o, s } = tables(streaming());
      const q = o.fullOuterJoin(s, $("id").isEqual($("order_id"))
        .and($("order_ts").between($("shipment_ts").minus(lit(5).seconds()), $("shipment_ts").plus(lit(5).seconds()))))
        .select($("id"), $("s_id"));
      expect(sorted(await q.execute().toChangelog())).toEqual(sorted([
        "+I[1, 2]", "+I[2, 5]", "+I[5, 6]", "+I[10, 13]",
        "+I[3, null]", "+I[4, null]", "+I[7, null]",
        "+I[null, 15]", "+I[null, 16]", "+I[null, 7]", "+I[null, 11]",
      ]));
    });

    it("an updating input is an error naming the interval join", () => {
      const env = streaming();
      const o = env.fromValues(ORDERS_SCHEMA, Row.of(1, "2020-04-15 08:00:01"), Row.ofKind(RowKind.DELETE, 1, "2020-04-15 08:00:01"));
      const s = env.fromValues(SHIPMENTS_SCHEMA, SHIPMENTS);
      const q = o.join(s, $("id").isEqual($("order_id")).and($("order_ts").between($("shipment_ts"), $("shipment_ts").plus(lit(1).seconds()))));
      expect(q.node.kind).toBe("IntervalJoin");
      expect(() => q.changelogMode()).toThrow(ValidationError);
      expect(() => q.changelogMode()).toThrow(/an interval join doesn't support consuming update and delete changes: its left input produces \[I,D\]/);
    });
  });
});
