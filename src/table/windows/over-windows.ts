import { Expression } from "../../expressions/expression.js";
import { type ExprNode, callNode, literal } from "../../expressions/node.js";
import type { TCol, TLit } from "../../expressions/type-level.js";
import { ValidationError } from "../../types/errors.js";

/**
 * Over windows, Flink's shape:
 * ```ts
 * table.window(Over.partitionBy($("k")).orderBy($("ts")).preceding(UNBOUNDED_RANGE).as("w"))
 *   .select($("k"), $("v"), $("v").sum().over($("w")).as("running"))
 * ```
 * `preceding` takes UNBOUNDED_RANGE, UNBOUNDED_ROW, a time interval (`lit(10).seconds()`, a RANGE frame)
 * or `rowInterval(n)` (a ROWS frame); the frame always ends at the current row (CURRENT_RANGE / CURRENT_ROW),
 * the only bound Flink supports in streaming.
 */

declare const boundBrand: unique symbol;
/** A frame bound: UNBOUNDED_RANGE, UNBOUNDED_ROW, CURRENT_RANGE, CURRENT_ROW or rowInterval(n). */
export type FrameBound = Expression<TLit<{ readonly [boundBrand]: true }>>;

const bound = (fn: string, ...args: ExprNode[]): FrameBound => new Expression(callNode(fn, args)) as FrameBound;

/** All rows from the start of the partition (RANGE frame: peers of the current row included). */
export const UNBOUNDED_RANGE: FrameBound = bound("unboundedRange");
/** All rows from the start of the partition (ROWS frame). */
export const UNBOUNDED_ROW: FrameBound = bound("unboundedRow");
/** The current row and its peers (same ORDER BY value). */
export const CURRENT_RANGE: FrameBound = bound("currentRange");
/** The current row. */
export const CURRENT_ROW: FrameBound = bound("currentRow");

/** A ROWS frame of `n` preceding rows: `preceding(rowInterval(2))` covers the two previous rows and the current one. */
export function rowInterval(n: number): FrameBound {
  if (!Number.isSafeInteger(n) || n < 0) throw new ValidationError(`rowInterval needs a non-negative whole number of rows, got ${n}`);
  return bound("rowInterval", literal(n));
}

/** An over window definition before it is resolved against a table. */
export interface OverWindowDefinition {
  readonly alias: string;
  readonly partitionBy: readonly ExprNode[];
  readonly orderBy: ExprNode;
  readonly preceding: ExprNode;
  readonly following: ExprNode | undefined;
}

/** A complete over window named `A`, ordered by column `O`: what `table.window(...)` takes. */
export class OverWindow<A extends string = string, O extends string = string> {
  declare readonly __overAlias: A;
  declare readonly __orderBy: O;
  /** @internal */
  constructor(readonly definition: OverWindowDefinition) {
    Object.freeze(this);
  }
}

function nodes(es: readonly unknown[], what: string): ExprNode[] {
  return es.map((e, i) => {
    if (!(e instanceof Expression)) throw new ValidationError(`${what}: argument ${i + 1} is not an expression`);
    return e.node;
  });
}

export const Over = {
  /** Partitions the rows; each partition has its own frame. */
  partitionBy(...fields: Expression<unknown>[]): OverWindowPartitioned {
    return new OverWindowPartitioned(nodes(fields, "Over.partitionBy"));
  },
  /** Orders the rows of one global partition. */
  orderBy<const O extends string>(field: Expression<TCol<O>>): OverWindowPartitionedOrdered<O> {
    return new OverWindowPartitioned([]).orderBy(field);
  },
};

export class OverWindowPartitioned {
  /** @internal */
  constructor(private readonly partitionBy: readonly ExprNode[]) {}
  /** The ORDER BY column: an event-time attribute (rows are emitted as the watermark passes them) or any other column (rows already emitted are updated). */
  orderBy<const O extends string>(field: Expression<TCol<O>>): OverWindowPartitionedOrdered<O> {
    return new OverWindowPartitionedOrdered(this.partitionBy, nodes([field], "Over.orderBy")[0]!);
  }
}

export class OverWindowPartitionedOrdered<O extends string> {
  declare readonly __orderBy: O;
  /** @internal */
  constructor(private readonly partitionBy: readonly ExprNode[], private readonly orderBy: ExprNode) {}
  /** The preceding bound of the frame. */
  preceding(bound: FrameBound | Expression<unknown>): OverWindowPartitionedOrderedPreceding<O> {
    return new OverWindowPartitionedOrderedPreceding(this.partitionBy, this.orderBy, nodes([bound], "Over.preceding")[0]!, undefined);
  }
  /** Names the window; the frame is RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW. */
  as<const A extends string>(alias: A): OverWindow<A, O> {
    return this.preceding(UNBOUNDED_RANGE).as(alias);
  }
}

export class OverWindowPartitionedOrderedPreceding<O extends string> {
  declare readonly __orderBy: O;
  /** @internal */
  constructor(
    private readonly partitionBy: readonly ExprNode[],
    private readonly orderBy: ExprNode,
    private readonly precedingBound: ExprNode,
    private readonly followingBound: ExprNode | undefined,
  ) {}
  /** The following bound: CURRENT_ROW or CURRENT_RANGE (the default matches the preceding bound's kind). */
  following(bound: FrameBound): OverWindowPartitionedOrderedPreceding<O> {
    return new OverWindowPartitionedOrderedPreceding(this.partitionBy, this.orderBy, this.precedingBound, nodes([bound], "Over.following")[0]!);
  }
  as<const A extends string>(alias: A): OverWindow<A, O> {
    if (typeof alias !== "string" || alias.length === 0) throw new ValidationError("Over.as(): the window needs a non-empty alias");
    return new OverWindow({ alias, partitionBy: this.partitionBy, orderBy: this.orderBy, preceding: this.precedingBound, following: this.followingBound });
  }
}
