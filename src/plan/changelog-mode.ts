import { ValidationError } from "../types/errors.js";
import { Kind } from "../types/row.js";
import type { ExprNode } from "../expressions/node.js";
import type { PlanNode } from "./nodes.js";
import { appendOnlyJoinMode, regularJoinMode } from "./join-mode.js";
import { relationalMode } from "./relational-mode.js";

/**
 * Which row kinds a node can emit, with the upsert key where updates are keyed.
 * Derived bottom-up from the plan; printed by explain() as Flink does (`[I,UB,UA,D]`).
 */
export interface ChangelogMode {
  readonly kinds: readonly Kind[];
  readonly upsertKeys?: readonly string[];
  /** Upsert deletes carry only the key columns (`~D` / `~DELETE`). */
  readonly keyOnlyDeletes?: boolean;
  /**
   * The changelog of a keyed source (a table with a primary key): where a consumer needs retractions the
   * planner inserts a ChangelogNormalize after the source (normalize-upserts.ts) instead of failing.
   */
  readonly normalizable?: boolean;
}

export const INSERT_ONLY: ChangelogMode = Object.freeze({ kinds: [Kind.INSERT] });
export const ALL_KINDS: ChangelogMode = Object.freeze({ kinds: [Kind.INSERT, Kind.UPDATE_BEFORE, Kind.UPDATE_AFTER, Kind.DELETE] });

export const isInsertOnly = (m: ChangelogMode): boolean => m.kinds.length === 1 && m.kinds[0] === Kind.INSERT;
export const hasRetractions = (m: ChangelogMode): boolean =>
  m.kinds.includes(Kind.UPDATE_BEFORE) || m.kinds.includes(Kind.DELETE);

const SHORT = ["I", "UB", "UA", "D"];
const LONG = ["INSERT", "UPDATE_BEFORE", "UPDATE_AFTER", "DELETE"];

/** `[I,UB,UA,D]` as in Flink's explain output. */
export function modeToShortString(m: ChangelogMode): string {
  return `[${m.kinds.map((k) => (k === Kind.DELETE && m.keyOnlyDeletes ? "~D" : SHORT[k])).join(",")}]`;
}

/** `[INSERT, UPDATE_AFTER, ~DELETE]` as Flink's ChangelogMode.toString(). */
export function modeToString(m: ChangelogMode): string {
  return `[${m.kinds.map((k) => (k === Kind.DELETE && m.keyOnlyDeletes ? "~DELETE" : LONG[k])).join(", ")}]`;
}

function union(modes: readonly ChangelogMode[]): ChangelogMode {
  const kinds = new Set<Kind>();
  for (const m of modes) for (const k of m.kinds) kinds.add(k);
  return { kinds: [...kinds].sort() };
}

/** An upsert changelog: updates by key without UPDATE_BEFORE (e.g. a PTF declaring `ChangelogMode.upsert()`). */
export const isKeyedUpsert = (m: ChangelogMode): boolean =>
  m.kinds.includes(Kind.UPDATE_AFTER) && !m.kinds.includes(Kind.UPDATE_BEFORE) && (m.upsertKeys?.length ?? 0) > 0;

/**
 * Operators that retract what an earlier row produced need UPDATE_BEFORE (or full deletes): an upsert
 * input cannot feed them. Flink fails such plans (V-39, V-41); so does tablestream, naming the consumer.
 */
export function requireRetractions(consumer: string, input: ChangelogMode): void {
  if (!isKeyedUpsert(input) && !(input.keyOnlyDeletes === true)) return;
  if (input.normalizable === true) return; // the source is normalized when the job is planned
  throw new ValidationError(
    `Can't generate a valid execution plan for the given query because of a changelog mismatch: ${consumer} needs retractions `
    + `(UPDATE_BEFORE and full deletes) but its input is an upsert changelog ${modeToShortString(input)} keyed by [${(input.upsertKeys ?? []).join(", ")}].`,
  );
}

/** Flink's names of the physical nodes, as its changelog-mismatch message prints them. */
function flinkNodeName(n: PlanNode): string {
  switch (n.kind) {
    case "Process": return "ProcessTableFunction";
    case "Project": case "Filter": return "Calc";
    case "Aggregate": return "GroupAggregate";
    case "Join": return "Join";
    default: return n.kind;
  }
}

/**
 * An upsert changelog into a sink that writes retractions (no primary key): Flink's changelog-mismatch
 * message, which shows the conflict as a plan fragment (the sink and the node that feeds it); the sink is
 * named on the last line. A keyed source below is normalized instead (normalize-upserts.ts).
 */
export function requireRetractionsAtSink(sink: string, input: PlanNode, mode: ChangelogMode): void {
  if (!isKeyedUpsert(mode) && mode.keyOnlyDeletes !== true) return;
  if (mode.normalizable === true) return;
  throw new ValidationError(
    "Can't generate a valid execution plan for the given query.\n\n"
    + "There is a changelog mismatch between two operators. One produces an upsert changelog (UPDATE_AFTER without UPDATE_BEFORE). "
    + "The other requires a retract changelog (UPDATE_BEFORE and UPDATE_AFTER), for example a sink without a primary key. "
    + "In such cases, ensure that the sink is able to digest upserts where the PRIMARY KEY serves as the upsert key, or make the input produce UPDATE_BEFORE.\n\n"
    + "The conflict is at:\n"
    + `Sink(expectedChangelogMode=${modeToShortString(ALL_KINDS)})\n`
    + `  +- ${flinkNodeName(input)}(changelogMode=${modeToShortString(mode)})\n\n`
    + `${sink} has no primary key; the upsert key of its input is [${(mode.upsertKeys ?? []).join(", ")}].`,
  );
}

/**
 * The upsert key of an upsert changelog after a projection: renamed with its column; a projection that
 * drops a key column leaves rows no consumer can relate (Flink: changelog mismatch).
 */
function projectUpsertKeys(input: ChangelogMode, exprs: readonly ExprNode[], names: readonly string[]): ChangelogMode {
  const upsertKeys = input.upsertKeys!.map((k) => {
    const i = exprs.findIndex((e) => e.kind === "Column" && e.name === k);
    if (i < 0 && input.normalizable === true) return undefined;
    if (i < 0) {
      throw new ValidationError(
        `Can't generate a valid execution plan for the given query because of a changelog mismatch: a projection drops the upsert key column '${k}' `
        + `of an upsert changelog ${modeToShortString(input)} keyed by [${input.upsertKeys!.join(", ")}]; keep the key columns.`,
      );
    }
    return names[i]!;
  });
  // a keyed source's projection without its key: rows are related again once the source is normalized
  if (upsertKeys.includes(undefined)) return { kinds: input.kinds, normalizable: true };
  return { ...input, upsertKeys: upsertKeys as string[] };
}

/**
 * The changelog of a Values table: its row kinds; with a primary key, an updating table is keyed by it
 * (without UPDATE_BEFORE: an upsert changelog; `cdcDuplicates` marks a retract one for normalization too).
 */
function valuesMode(kinds: readonly number[] | undefined, primaryKey: readonly string[] | undefined): ChangelogMode {
  if (!kinds || kinds.every((k) => k === Kind.INSERT)) return INSERT_ONLY;
  const mode = union([{ kinds: kinds as Kind[] }]);
  if (primaryKey === undefined) return mode;
  if (!mode.kinds.includes(Kind.UPDATE_BEFORE)) {
    return { kinds: [Kind.INSERT, Kind.UPDATE_AFTER, Kind.DELETE], upsertKeys: primaryKey, normalizable: true };
  }
  return { kinds: mode.kinds, upsertKeys: primaryKey, normalizable: true };
}


/** Derives the changelog mode of a node; `batch` mode makes every aggregate insert-only. */
export function deriveChangelogMode(node: PlanNode, batch: boolean, cache = new Map<PlanNode, ChangelogMode>()): ChangelogMode {
  const hit = cache.get(node);
  if (hit) return hit;
  let mode: ChangelogMode;
  switch (node.kind) {
    case "Values":
      mode = valuesMode(node.kinds, node.primaryKey);
      break;
    case "ChangelogNormalize":
      mode = { kinds: ALL_KINDS.kinds, upsertKeys: node.uniqueKeys };
      break;
    case "SourceScan":
      mode = node.kinds && node.kinds.some((k) => k !== Kind.INSERT) ? union([{ kinds: node.kinds as Kind[] }]) : INSERT_ONLY;
      break;
    case "Sink":
    case "StatementSet":
      mode = INSERT_ONLY;
      break;
    case "Project": {
      const input = deriveChangelogMode(node.input, batch, cache);
      mode = isKeyedUpsert(input) ? projectUpsertKeys(input, node.exprs, node.schema.names) : input;
      break;
    }
    case "Filter":
      mode = deriveChangelogMode(node.input, batch, cache);
      break;
    case "Correlate": {
      // same kinds as the input; an input key no longer identifies an output row (one row, many results)
      const input = deriveChangelogMode(node.input, batch, cache);
      requireRetractions("a lateral table function (Correlate)", input);
      mode = { kinds: input.kinds };
      break;
    }
    case "Aggregate": {
      const input = deriveChangelogMode(node.input, batch, cache);
      requireRetractions("a group aggregate", input);
      if (batch) mode = INSERT_ONLY;
      else {
        const kinds = [Kind.INSERT, Kind.UPDATE_BEFORE, Kind.UPDATE_AFTER];
        if (hasRetractions(input)) kinds.push(Kind.DELETE);
        mode = { kinds, upsertKeys: node.schema.names.slice(0, node.groupKeys.length) };
      }
      break;
    }
    case "Distinct": {
      const input = deriveChangelogMode(node.input, batch, cache);
      requireRetractions("DISTINCT", input);
      mode = batch || isInsertOnly(input) ? INSERT_ONLY : { kinds: [Kind.INSERT, Kind.DELETE], upsertKeys: node.schema.names };
      break;
    }
    case "Union": {
      const inputs = node.inputs.map((i) => deriveChangelogMode(i, batch, cache));
      for (const m of inputs) requireRetractions("UNION ALL", m);
      mode = union(inputs);
      break;
    }
    case "TableAggregate": {
      // a group's rows are replaced by retracting (-D) what it emitted before and inserting (+I) the new rows
      const input = deriveChangelogMode(node.input, batch, cache);
      requireRetractions("a table aggregate (flatAggregate)", input);
      mode = batch ? INSERT_ONLY : { kinds: [Kind.INSERT, Kind.DELETE] };
      break;
    }
    case "MatchRecognize":
      // Flink's StreamExecMatch: "Match Recognize doesn't support consuming update and delete changes"
      if (!isInsertOnly(deriveChangelogMode(node.input, batch, cache))) {
        throw new ValidationError(`MATCH_RECOGNIZE doesn't support consuming update and delete changes, but its input produces updates ${modeToShortString(deriveChangelogMode(node.input, batch, cache))}`);
      }
      mode = INSERT_ONLY;
      break;
    case "WindowRank":
    case "WindowTableFunction":
      if (!isInsertOnly(deriveChangelogMode(node.input, batch, cache))) {
        throw new ValidationError(`${node.kind === "WindowRank" ? "a window top-N" : `${node.window.type}(TABLE ...): a windowing table function`} needs an insert-only input, but its input produces updates ${modeToShortString(deriveChangelogMode(node.input, batch, cache))}`);
      }
      mode = INSERT_ONLY;
      break;
    case "WindowAggregate":
      mode = INSERT_ONLY; // one final row per window (the input is insert-only, checked when planned)
      break;
    case "OverAggregate": {
      // event-time OVER emits each row once; a non-time ORDER BY updates rows already emitted
      const input = deriveChangelogMode(node.input, batch, cache);
      requireRetractions("an OVER aggregate", input);
      if (node.window.timeBased) mode = INSERT_ONLY;
      else mode = { kinds: hasRetractions(input) ? ALL_KINDS.kinds : [Kind.INSERT, Kind.UPDATE_BEFORE, Kind.UPDATE_AFTER] };
      break;
    }
    case "Join":
      mode = regularJoinMode(node.joinType, deriveChangelogMode(node.left, batch, cache), deriveChangelogMode(node.right, batch, cache), batch);
      break;
    case "SemiJoin": {
      // the left rows pass with their kinds; a right change adds (semi) or removes (anti) left rows: +I / -D
      const left = deriveChangelogMode(node.left, batch, cache);
      const right = deriveChangelogMode(node.right, batch, cache);
      requireRetractions(node.anti ? "an anti join" : "a semi join", left);
      requireRetractions(node.anti ? "an anti join" : "a semi join", right);
      if (batch) { mode = INSERT_ONLY; break; }
      const kinds = new Set<Kind>([Kind.INSERT, ...left.kinds]);
      if (node.anti || !isInsertOnly(right)) kinds.add(Kind.DELETE);
      mode = kinds.size === 1 ? INSERT_ONLY : { kinds: [...kinds].sort() };
      break;
    }
    case "WindowJoin":
      mode = appendOnlyJoinMode("a window join", [deriveChangelogMode(node.left, batch, cache), deriveChangelogMode(node.right, batch, cache)]);
      break;
    case "IntervalJoin":
      mode = appendOnlyJoinMode("an interval join", [deriveChangelogMode(node.left, batch, cache), deriveChangelogMode(node.right, batch, cache)]);
      break;
    case "TemporalJoin":
      mode = appendOnlyJoinMode("a temporal join", [deriveChangelogMode(node.left, batch, cache), deriveChangelogMode(node.right, batch, cache)], [false, true]);
      break;
    case "LookupJoin":
      mode = appendOnlyJoinMode("a lookup join", [deriveChangelogMode(node.input, batch, cache)]);
      break;
    case "Sort":
    case "Rank":
    case "Deduplicate":
    case "SetOp":
      mode = relationalMode(node, batch, (n) => deriveChangelogMode(n, batch, cache));
      break;
    case "Process":
      // the function's declared output mode, resolved when the call was planned (src/ptf/updating-output.ts)
      for (const i of node.inputs) deriveChangelogMode(i, batch, cache);
      mode = node.call.outputMode;
      break;
    case "AsyncCalc":
      // the row passes through with the results appended: same kinds, same keys
      mode = deriveChangelogMode(node.input, batch, cache);
      break;
  }
  cache.set(node, mode);
  return mode;
}
