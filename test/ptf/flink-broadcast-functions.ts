// Flink's broadcast and notify test PTFs ("Broadcast" and "Notify stateful sets") and
// the fixtures they run on (§1).
import { ArgumentTrait, DataTypes, ProcessTableFunction, Row, Schema, StateKind, mapView, tableArg, valueState, valueView } from "../../src/index.js";
import type { MapView, TableEnvironment } from "../../src/index.js";
import { Score } from "./flink-functions.js";
import { OUT, emitObjects } from "./support.js";

const { ROW_SEMANTIC_TABLE: ROW, SET_SEMANTIC_TABLE: SET, BROADCAST_SEMANTIC_TABLE: BCAST, NOTIFY_STATEFUL_SETS: NOTIFY } = ArgumentTrait;
const BROADCAST = { kind: StateKind.BROADCAST } as const;

/** §2.3 RuleStats{rules int = 0, lastName STRING}. */
export class RuleStats {
  rules = 0;
  lastName: string | null = null;
  toString(): string { return `RuleStats(rules=${this.rules}, lastName=${this.lastName})`; }
}

/** §2.3 SetStats{name STRING, rows int = 0}. */
export class SetStats {
  name: string | null = null;
  rows = 0;
  toString(): string { return `SetStats(name=${this.name}, rows=${this.rows})`; }
}

/** A map view's entries sorted by key, rendered like Java's map: `{Dave=3, Eve=4}`. */
export function sortedEntries(view: MapView<string, unknown>, keep: (v: unknown) => boolean = () => true): string {
  const entries = [...view.entries()].filter(([, v]) => keep(v)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${k}=${String(v)}`).join(", ")}}`;
}

/** BroadcastLookupFunction: rules fill the broadcast map; every input row counts per key and looks its name up. */
export const BroadcastLookupFunction = ProcessTableFunction.define({
  args: { input: tableArg(SET), rules: tableArg(BCAST) },
  state: {
    count: valueView(DataTypes.INT()),
    score: valueState(Score),
    weights: mapView(DataTypes.STRING(), DataTypes.INT(), BROADCAST),
  },
  output: OUT,
  eval(ctx, { count, weights }, { input, rules }) {
    if (rules !== null) {
      // no key context: keyed state is null and clearing it is a no-op
      if (count !== null) throw new Error("keyed state must be null for a broadcast row");
      ctx.clearState("count");
      weights.put(rules.name as string, rules.weight as number);
      return;
    }
    const c = (count!.getValue() ?? 0) + 1;
    count!.setValue(c);
    emitObjects(ctx, input, c, weights.get(input!.name as string), weights.constructor.name);
    ctx.timeContext("millis").registerOnTime("end", Infinity);
  },
  onTimer(ctx, { count, weights }) {
    emitObjects(ctx, count.getValue(), sortedEntries(weights));
  },
});

/** BroadcastFilterFunction: a row-semantics table filtered by a broadcast block list. */
export const BroadcastFilterFunction = ProcessTableFunction.define({
  args: { input: tableArg(ROW), rule: tableArg(BCAST) },
  state: { blocked: mapView(DataTypes.STRING(), DataTypes.BOOLEAN(), BROADCAST) },
  output: DataTypes.STRING(),
  eval(ctx, { blocked }, { input, rule }) {
    if (rule !== null) {
      blocked.put(rule.name as string, true);
      return;
    }
    if (!blocked.contains(input!.name as string)) ctx.collect("not blocked");
  },
});

/** MultiBroadcastFunction: two co-partitioned tables beside two broadcast tables. */
export const MultiBroadcastFunction = ProcessTableFunction.define({
  args: { in1: tableArg(SET), rules1: tableArg(BCAST), in2: tableArg(SET), rules2: tableArg(BCAST) },
  state: { weights: mapView(DataTypes.STRING(), DataTypes.INT(), BROADCAST), stats: valueState(RuleStats, BROADCAST) },
  output: OUT,
  eval(ctx, { weights, stats }, { in1, rules1, in2, rules2 }) {
    if (rules1 !== null) {
      weights.put(rules1.name as string, rules1.weight as number);
      return;
    }
    if (rules2 !== null) {
      stats.rules++;
      stats.lastName = rules2.name as string;
      return;
    }
    const r = in1 ?? in2!;
    emitObjects(ctx, in1, in2, weights.get(r.name as string));
    stats.lastName = "discarded"; // eager broadcast state is read-only here: the change is discarded
    ctx.timeContext("millis").registerOnTime("end", Infinity);
  },
  onTimer(ctx, { weights, stats }) {
    emitObjects(ctx, sortedEntries(weights), stats);
  },
});

/** BroadcastTimersFunction: time() is available for broadcast rows. */
export const BroadcastTimersFunction = ProcessTableFunction.define({
  args: { input: tableArg(SET), rule: tableArg(BCAST) },
  state: { ruleTimes: mapView(DataTypes.STRING(), DataTypes.BIGINT(), BROADCAST) },
  output: OUT,
  eval(ctx, { ruleTimes }, { input, rule }) {
    const tc = ctx.timeContext("millis");
    if (rule !== null) {
      ruleTimes.put(rule.name as string, tc.time()!);
      return;
    }
    emitObjects(ctx, `Processing input row ${String(input)} at time ${tc.time()}`);
    tc.registerOnTime("end", 1000);
  },
  onTimer(ctx, { ruleTimes }) {
    emitObjects(ctx, sortedEntries(ruleTimes));
  },
});

/** BroadcastClearStateFunction: clearAllState() of a broadcast row clears broadcast state only. */
export const BroadcastClearStateFunction = ProcessTableFunction.define({
  args: { input: tableArg(SET), rule: tableArg(BCAST) },
  state: { count: valueView(DataTypes.INT()), weights: mapView(DataTypes.STRING(), DataTypes.INT(), BROADCAST) },
  output: OUT,
  eval(ctx, { count, weights }, { rule }) {
    if (rule !== null) {
      weights.put(rule.name as string, rule.weight as number);
      if (rule.name === "Dave") ctx.clearAllState();
      return;
    }
    count!.setValue((count!.getValue() ?? 0) + 1);
    ctx.timeContext("millis").registerOnTime("end", Infinity);
  },
  onTimer(ctx, { count, weights }) {
    emitObjects(ctx, count.getValue(), sortedEntries(weights));
  },
});

/** BroadcastStateFunction: keyed count beside broadcast map, value view and eager POJO. */
export const BroadcastStateFunction = ProcessTableFunction.define({
  args: { input: tableArg(SET), rule: tableArg(BCAST) },
  state: {
    count: valueView(DataTypes.INT()),
    weights: mapView(DataTypes.STRING(), DataTypes.INT(), BROADCAST),
    totalWeight: valueView(DataTypes.INT(), BROADCAST),
    stats: valueState(RuleStats, BROADCAST),
  },
  output: OUT,
  eval(ctx, { count, weights, totalWeight, stats }, { input, rule }) {
    if (rule !== null) {
      weights.put(rule.name as string, rule.weight as number);
      totalWeight.setValue((totalWeight.getValue() ?? 0) + (rule.weight as number));
      stats.rules++;
      stats.lastName = rule.name as string;
      return;
    }
    if ((input!.score as number) < 0) {
      emitObjects(ctx, input);
      return;
    }
    const c = (count!.getValue() ?? 0) + 1;
    count!.setValue(c);
    emitObjects(ctx, input, c, weights.get(input!.name as string), totalWeight.getValue(), stats);
  },
});

export const InvalidBroadcastCollectFunction = ProcessTableFunction.define({
  args: { input: tableArg(SET), rule: tableArg(BCAST) },
  output: OUT,
  eval(ctx, _s, { input, rule }) { emitObjects(ctx, input, rule); },
});

export const InvalidBroadcastTimerFunction = ProcessTableFunction.define({
  args: { input: tableArg(SET), rule: tableArg(BCAST) },
  output: OUT,
  eval(ctx, _s, { rule }) { if (rule !== null) ctx.timeContext("millis").registerOnTime(42); },
  onTimer() {},
});

export const InvalidBroadcastStateWriteFunction = ProcessTableFunction.define({
  args: { input: tableArg(SET), rule: tableArg(BCAST) },
  state: { weights: mapView(DataTypes.STRING(), DataTypes.INT(), BROADCAST) },
  output: OUT,
  eval(_ctx, { weights }, { input }) { if (input !== null) weights.put(input.name as string, 42); },
});

/** NotifyStatefulSetsFunction: a control row resets the set it names. */
export const NotifyStatefulSetsFunction = ProcessTableFunction.define({
  args: { input: tableArg(SET), control: tableArg(BCAST, NOTIFY) },
  state: { stats: valueState(SetStats), resets: valueView(DataTypes.INT(), BROADCAST) },
  output: OUT,
  eval(ctx, { stats, resets }, { input, control }) {
    if (input !== null) {
      stats!.name = input.name as string;
      stats!.rows++;
      emitObjects(ctx, input, stats!.rows);
      return;
    }
    const name = control!.name as string | null;
    if (name === null) return; // marker
    if (stats === null) {
      resets.setValue((resets.getValue() ?? 0) + 1); // the broadcast pass, without key context
      return;
    }
    emitObjects(ctx, name, stats, resets.getValue());
    if (name === stats.name) ctx.clearAllState();
  },
});

/** NotifyStatefulSetsRulesFunction: every set applies each rule once, new sets copy the rules seen so far. */
export const NotifyStatefulSetsRulesFunction = ProcessTableFunction.define({
  args: { input: tableArg(SET), rule: tableArg(BCAST, NOTIFY) },
  state: {
    rows: valueView(DataTypes.INT()),
    appliedRules: mapView(DataTypes.STRING(), DataTypes.BIGINT()),
    rules: mapView(DataTypes.STRING(), DataTypes.BIGINT(), BROADCAST),
  },
  output: OUT,
  eval(ctx, { rows, appliedRules, rules }, { input, rule }) {
    const tc = ctx.timeContext("millis");
    if (input !== null) {
      if ((input.score as number) < 0) {
        emitObjects(ctx, input);
        return;
      }
      if (rows!.getValue() === null) {
        for (const [k, v] of rules.entries()) appliedRules!.put(k, v);
        tc.registerOnTime("middle", 3);
        tc.registerOnTime("end", 1000);
      }
      rows!.setValue((rows!.getValue() ?? 0) + 1);
      return;
    }
    const name = rule!.name as string;
    if (rows === null) {
      rules.put(name, tc.time()!);
      return;
    }
    if (rules.get(name) !== tc.time()) throw new Error(`rule ${name} must be stored at ${tc.time()}`);
    if (appliedRules!.contains(name)) throw new Error(`rule ${name} applied twice`);
    let readOnly = false;
    try {
      rules.remove(name);
    } catch (e) {
      readOnly = (e as Error).constructor.name === "TableRuntimeException";
    }
    if (!readOnly) throw new Error("broadcast state must be read-only while notifying stateful sets");
    appliedRules!.put(name, tc.time()!);
  },
  onTimer(ctx, { rows, appliedRules }) {
    const tc = ctx.timeContext("millis");
    if (ctx.currentTimer() === "middle") emitObjects(ctx, sortedEntries(appliedRules, (v) => (v as number) <= tc.time()!));
    else emitObjects(ctx, rows.getValue(), sortedEntries(appliedRules));
  },
});

// ---- fixtures (§1) -------------------------------------------------------------------------------
/** BROADCAST_RULES_VALUES: view rules (name, weight) = (Dave, 3), (Eve, 4). */
export function broadcastRulesValues(env: TableEnvironment) {
  const t = env.fromValues(Row.of("Dave", 3), Row.of("Eve", 4)).as("name", "weight");
  env.createTemporaryView("rules", t as never);
  return t;
}

/** `rules (name, weight, ts)` with a watermark `ts - delay`. */
export function rulesSchema(delay: string) {
  return Schema.newBuilder().column("name", DataTypes.STRING()).column("weight", DataTypes.INT()).column("ts", DataTypes.TIMESTAMP_LTZ(3))
    .watermark("ts", delay).build();
}

/** TIMED_BROADCAST_RULES_SOURCE: (Dave, 3, 2), (Eve, 4, 5), watermark ts − 1 ms. */
export function timedBroadcastRulesSource(env: TableEnvironment) {
  const t = env.fromValues(rulesSchema("ts - INTERVAL '0.001' SECOND"), Row.of("Dave", 3, new Date(2)), Row.of("Eve", 4, new Date(5)));
  env.createTemporaryView("rules", t as never);
  return t;
}
