import type { Expression } from "../../expressions/expression.js";
import type { ExprNode } from "../../expressions/node.js";
import type { Resolve, TCol, TableTypeError } from "../../expressions/type-level.js";
import type { DayTimeInterval } from "../../types/data-type.js";
import type { NodeOfExpr } from "../typing.js";
import { ValidationError } from "../../types/errors.js";

/**
 * Group windows over an event-time attribute, with Flink's typestate builders: each partial window is
 * its own type, so `Tumble.over(lit(1).hours()).on($("ts"))` without `.as("w")` does not compile where a
 * window is expected.
 *
 * ```ts
 * orders.window(Tumble.over(lit(1).hours()).on($("order_time")).as("w"))
 *   .groupBy($("product"), $("w"))
 *   .select($("product"), $("w").start(), $("w").end(), $("amount").sum().as("total_sold"));
 * ```
 */

/** What a window definition holds before it is resolved against a table (sizes are expressions). */
export interface GroupWindowDefinition {
  readonly type: "TUMBLE" | "SLIDE" | "SESSION" | "CUMULATE";
  /** Size (TUMBLE, SLIDE), maximum size (CUMULATE) or gap (SESSION). */
  readonly size: ExprNode;
  /** Slide (SLIDE) or step (CUMULATE). */
  readonly step?: ExprNode;
  readonly timeField: ExprNode;
  readonly alias: string;
  /** Flink's window offset (a day-time interval of any sign): only SQL's window TVFs set it, as in Flink. */
  readonly offset?: ExprNode;
}

/** A complete group window named `A` on time column `T`: what `table.window(...)` takes. */
export class GroupWindow<A extends string = string, T extends string = string> {
  declare readonly __alias: A;
  declare readonly __timeField: T;
  /** @internal */
  constructor(readonly definition: GroupWindowDefinition) {
    Object.freeze(this);
  }
}

/** A size argument must be a day-time interval such as `lit(10).minutes()`. */
export type CheckInterval<E> =
  Resolve<{}, NodeOfExpr<E>> extends infer V
    ? ([NonNullable<V>] extends [DayTimeInterval] ? unknown
      : TableTypeError<"a window size must be a day-time interval such as lit(10).minutes(); row-count windows are not supported">)
    : never;

type Interval<E> = E & CheckInterval<E>;

function nodeOf(e: unknown, what: string): ExprNode {
  if (e === null || typeof e !== "object" || !("node" in e)) throw new ValidationError(`${what}: expected an expression, got ${String(e)}`);
  return (e as Expression<unknown>).node;
}

function alias(a: unknown, what: string): string {
  if (typeof a !== "string" || a.length === 0) throw new ValidationError(`${what}.as(): the window needs a non-empty alias`);
  return a;
}

// ---- Tumble --------------------------------------------------------------------------------------

/** Tumbling (fixed-size, non-overlapping) windows: `Tumble.over(lit(5).seconds()).on($("ts")).as("w")`. */
export const Tumble = {
  over<E extends Expression<unknown>>(size: Interval<E>): TumbleWithSize {
    return new TumbleWithSize(nodeOf(size, "Tumble.over"));
  },
};

export class TumbleWithSize {
  /** @internal */
  constructor(private readonly size: ExprNode) {}
  /** The event-time attribute the windows are on. */
  on<const T extends string>(timeField: Expression<TCol<T>>): TumbleWithSizeOnTime<T> {
    return new TumbleWithSizeOnTime(this.size, nodeOf(timeField, "Tumble.on"));
  }
}

export class TumbleWithSizeOnTime<T extends string> {
  declare readonly __timeField: T;
  /** @internal */
  constructor(private readonly size: ExprNode, private readonly time: ExprNode) {}
  /** Names the window, to be used in groupBy and for `$("w").start()`. */
  as<const A extends string>(name: A): GroupWindow<A, T> {
    return new GroupWindow({ type: "TUMBLE", size: this.size, timeField: this.time, alias: alias(name, "Tumble") });
  }
}

// ---- Slide ---------------------------------------------------------------------------------------

/** Sliding (hopping) windows: `Slide.over(lit(10).seconds()).every(lit(5).seconds()).on($("ts")).as("w")`. */
export const Slide = {
  over<E extends Expression<unknown>>(size: Interval<E>): SlideWithSize {
    return new SlideWithSize(nodeOf(size, "Slide.over"));
  },
};

export class SlideWithSize {
  /** @internal */
  constructor(private readonly size: ExprNode) {}
  /** How far each window starts after the previous one. */
  every<E extends Expression<unknown>>(slide: Interval<E>): SlideWithSizeAndSlide {
    return new SlideWithSizeAndSlide(this.size, nodeOf(slide, "Slide.every"));
  }
}

export class SlideWithSizeAndSlide {
  /** @internal */
  constructor(private readonly size: ExprNode, private readonly slide: ExprNode) {}
  on<const T extends string>(timeField: Expression<TCol<T>>): SlideWithSizeAndSlideOnTime<T> {
    return new SlideWithSizeAndSlideOnTime(this.size, this.slide, nodeOf(timeField, "Slide.on"));
  }
}

export class SlideWithSizeAndSlideOnTime<T extends string> {
  declare readonly __timeField: T;
  /** @internal */
  constructor(private readonly size: ExprNode, private readonly slide: ExprNode, private readonly time: ExprNode) {}
  as<const A extends string>(name: A): GroupWindow<A, T> {
    return new GroupWindow({ type: "SLIDE", size: this.size, step: this.slide, timeField: this.time, alias: alias(name, "Slide") });
  }
}

// ---- Session -------------------------------------------------------------------------------------

/** Session windows, closed after a gap of inactivity per key: `Session.withGap(lit(3).seconds()).on($("ts")).as("w")`. */
export const Session = {
  withGap<E extends Expression<unknown>>(gap: Interval<E>): SessionWithGap {
    return new SessionWithGap(nodeOf(gap, "Session.withGap"));
  },
};

export class SessionWithGap {
  /** @internal */
  constructor(private readonly gap: ExprNode) {}
  on<const T extends string>(timeField: Expression<TCol<T>>): SessionWithGapOnTime<T> {
    return new SessionWithGapOnTime(this.gap, nodeOf(timeField, "Session.on"));
  }
}

export class SessionWithGapOnTime<T extends string> {
  declare readonly __timeField: T;
  /** @internal */
  constructor(private readonly gap: ExprNode, private readonly time: ExprNode) {}
  as<const A extends string>(name: A): GroupWindow<A, T> {
    return new GroupWindow({ type: "SESSION", size: this.gap, timeField: this.time, alias: alias(name, "Session") });
  }
}

// ---- Cumulate ------------------------------------------------------------------------------------

/**
 * Cumulating windows (Flink's CUMULATE window TVF, offered here as a group window): windows share a start
 * and grow by `step` up to `max`, e.g. `Cumulate.over(lit(1).days()).step(lit(1).hours())` gives
 * [00:00, 01:00), [00:00, 02:00), ... [00:00, 24:00) each day. `max` must be a multiple of `step`.
 */
export const Cumulate = {
  over<E extends Expression<unknown>>(maxSize: Interval<E>): CumulateWithSize {
    return new CumulateWithSize(nodeOf(maxSize, "Cumulate.over"));
  },
};

export class CumulateWithSize {
  /** @internal */
  constructor(private readonly size: ExprNode) {}
  /** How much each window of a cycle is longer than the previous one. */
  step<E extends Expression<unknown>>(step: Interval<E>): CumulateWithSizeAndStep {
    return new CumulateWithSizeAndStep(this.size, nodeOf(step, "Cumulate.step"));
  }
}

export class CumulateWithSizeAndStep {
  /** @internal */
  constructor(private readonly size: ExprNode, private readonly stepSize: ExprNode) {}
  on<const T extends string>(timeField: Expression<TCol<T>>): CumulateWithSizeAndStepOnTime<T> {
    return new CumulateWithSizeAndStepOnTime(this.size, this.stepSize, nodeOf(timeField, "Cumulate.on"));
  }
}

export class CumulateWithSizeAndStepOnTime<T extends string> {
  declare readonly __timeField: T;
  /** @internal */
  constructor(private readonly size: ExprNode, private readonly stepSize: ExprNode, private readonly time: ExprNode) {}
  as<const A extends string>(name: A): GroupWindow<A, T> {
    return new GroupWindow({ type: "CUMULATE", size: this.size, step: this.stepSize, timeField: this.time, alias: alias(name, "Cumulate") });
  }
}
