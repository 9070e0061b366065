import { ValidationError } from "../types/errors.js";
import { type ChangelogMode as PlanMode, INSERT_ONLY, modeToString } from "../plan/changelog-mode.js";
import { Kind } from "../types/row.js";
import type { ChangelogKind } from "../plan/planning-context.js";
import type { ChangelogModeInfo } from "./context.js";

type KindName = ChangelogModeInfo["kinds"][number];
const NAMES: readonly KindName[] = ["INSERT", "UPDATE_BEFORE", "UPDATE_AFTER", "DELETE"];

/**
 * The row kinds a PTF emits (Flink's `org.apache.flink.table.connector.ChangelogMode`), returned by
 * the `changelogMode` of a declaration. `M` is the changelog kind of the resulting `Table` type:
 * `insertOnly()` → `"append"`, `all()` / `retract()` → `"retract"`, `upsert()` → `"upsert"`.
 */
export class ChangelogMode<out M extends ChangelogKind = ChangelogKind> implements ChangelogModeInfo {
  declare readonly __mode: M;
  readonly kinds: readonly KindName[];

  private constructor(kinds: readonly Kind[], readonly keyOnlyDeletes: boolean) {
    this.kinds = Object.freeze(kinds.map((k) => NAMES[k]!));
    Object.freeze(this);
  }

  /** `[INSERT]`: an append-only output (the default of every PTF). */
  static insertOnly(): ChangelogMode<"append"> {
    return new ChangelogMode<"append">([Kind.INSERT], false);
  }

  /** `[INSERT, UPDATE_BEFORE, UPDATE_AFTER, DELETE]`: updates as retractions (Flink's `ChangelogMode.all()`). */
  static all(): ChangelogMode<"retract"> {
    return new ChangelogMode<"retract">([Kind.INSERT, Kind.UPDATE_BEFORE, Kind.UPDATE_AFTER, Kind.DELETE], false);
  }

  /**
   * `[INSERT, UPDATE_AFTER, DELETE]`: updates by upsert key (the PARTITION BY columns), no UPDATE_BEFORE.
   * With `keyOnlyDeletes` a DELETE needs only the key columns (`[INSERT, UPDATE_AFTER, ~DELETE]`).
   */
  static upsert(keyOnlyDeletes = false): ChangelogMode<"upsert"> {
    return new ChangelogMode<"upsert">([Kind.INSERT, Kind.UPDATE_AFTER, Kind.DELETE], keyOnlyDeletes === true);
  }

  /**
   * Any set of kinds (Flink's `ChangelogMode.newBuilder().addContainedKind(...)`): with UPDATE_BEFORE a
   * retract mode, with UPDATE_AFTER but without UPDATE_BEFORE an upsert mode.
   */
  static of(kinds: readonly KindName[], options?: { keyOnlyDeletes?: boolean }): ChangelogMode {
    const ks = [...new Set(kinds.map((k) => {
      const i = NAMES.indexOf(k);
      if (i < 0) throw new ValidationError(`ChangelogMode.of: unknown row kind '${String(k)}'; expected ${NAMES.join(", ")}`);
      return i as Kind;
    }))].sort();
    if (ks.length === 0) throw new ValidationError("ChangelogMode.of: a changelog mode needs at least one row kind");
    if (ks.includes(Kind.UPDATE_BEFORE) && !ks.includes(Kind.UPDATE_AFTER)) {
      throw new ValidationError("ChangelogMode.of: UPDATE_BEFORE without UPDATE_AFTER is not a valid changelog mode");
    }
    const keyOnly = options?.keyOnlyDeletes === true;
    if (keyOnly && !ks.includes(Kind.DELETE)) throw new ValidationError("ChangelogMode.of: keyOnlyDeletes needs DELETE among the kinds");
    return new ChangelogMode(ks, keyOnly);
  }

  /** Whether the mode contains exactly INSERT. */
  containsOnlyInserts(): boolean {
    return this.kinds.length === 1 && this.kinds[0] === "INSERT";
  }

  contains(kind: KindName): boolean {
    return this.kinds.includes(kind);
  }

  /** `[INSERT, UPDATE_AFTER, ~DELETE]` as Flink prints it. */
  toString(): string {
    return modeToString(toPlanMode(this));
  }
}

/** The planner's form of a mode (numeric kinds). */
export function toPlanMode(m: ChangelogModeInfo, upsertKeys?: readonly string[]): PlanMode {
  const kinds = m.kinds.map((k) => NAMES.indexOf(k) as Kind);
  if (kinds.length === 1 && kinds[0] === Kind.INSERT) return INSERT_ONLY;
  return {
    kinds,
    ...(m.keyOnlyDeletes ? { keyOnlyDeletes: true } : {}),
    ...(upsertKeys !== undefined ? { upsertKeys } : {}),
  };
}

/** A planner mode as the `ChangelogModeInfo` functions see (`tableSemanticsFor(...).changelogMode()`). */
export function modeInfo(m: PlanMode): ChangelogModeInfo {
  return Object.freeze({
    kinds: Object.freeze(m.kinds.map((k) => NAMES[k]!)),
    keyOnlyDeletes: m.keyOnlyDeletes === true,
    toString: () => modeToString(m),
  });
}

/**
 * What `changelogMode(ctx)` of a declaration receives (Flink's `ChangelogFunction.ChangelogContext`):
 * the changelog modes in which the table arguments arrive, and the mode the downstream requires.
 */
export interface ChangelogContext {
  /** The mode of the table argument at `index` (0 = the first table argument), as delivered to eval. */
  getTableChangelogMode(index: number): ChangelogModeInfo;
  /**
   * The mode the consumer of the PTF's output requires. tablestream does not negotiate modes with the
   * sink (Flink's planner asks twice): this is always `all()`, i.e. retractions and full deletes are
   * understood; an upsert output is accepted by every consumer too.
   */
  getRequiredChangelogMode(): ChangelogModeInfo;
}
