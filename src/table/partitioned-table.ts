import type { Expression } from "../expressions/expression.js";
import type { ChangelogKind } from "../plan/planning-context.js";
import { resolveProcessCall } from "../ptf/call.js";
import { type OrderItem, orderItems } from "../ptf/order-by.js";
import { type CheckOrderKeys, PARTITIONED_TABLE, type PartitionedTableLike, TableArgument } from "../ptf/table-arguments.js";
import type { AnyProcessTableFunction, CheckUpdatingInput, ProcessMode, ProcessOutput, TableArgType } from "../ptf/typing.js";
import type { CheckCall, CheckedFunction, ImplicitTable } from "../ptf/call-checks.js";
import { Table } from "./table.js";

type AnyExpr = Expression<unknown>;

/**
 * A table with PARTITION BY keys, ready to be passed to a set-semantics PTF: `process(F, ...)` or
 * `asArgument("name")` for `env.fromCall`.
 *
 * ```ts
 * names.partitionBy($("name")).process(GreetingWithMemory)   // columns: name | EXPR$0
 * ```
 */
export class PartitionedTable<S extends object = Record<string, unknown>, K extends string = string, M extends ChangelogKind = ChangelogKind>
  implements TableArgType<S, K>, PartitionedTableLike {
  /** @internal recognized by the PTF call binder */
  get [PARTITIONED_TABLE](): true {
    return true;
  }
  declare readonly __tableArg: { readonly schema: S; readonly keys: K };
  declare readonly __mode: M;

  constructor(readonly table: Table<S, M>, readonly keys: readonly string[], readonly order: readonly OrderItem[] = []) {
    Object.freeze(this);
  }

  /**
   * ORDER BY within each partition (PTF rule 10): the first column is the time attribute,
   * ascending; the others order rows of equal time. Rows are buffered per key and handed to eval sorted
   * once the table's watermark passes their time; late rows are dropped.
   *
   * ```ts
   * events.partitionBy($("name")).orderBy($("ts").asc(), $("score").desc()).process(OrderedProcessor)
   * ```
   */
  orderBy<const O extends readonly AnyExpr[]>(...columns: O & CheckOrderKeys<S, O>): PartitionedTable<S, K, M> {
    return new PartitionedTable<S, K, M>(this.table, this.keys, orderItems(this.table, columns));
  }

  /** Calls a PTF (object or registered name) with this table as its table argument. */
  process<F extends AnyProcessTableFunction | string, const A extends readonly unknown[]>(
    fn: CheckedFunction<F, ImplicitTable<S, K>, A> & CheckUpdatingInput<M, F>, ...args: A & CheckCall<F, ImplicitTable<S, K>, A>
  ): Table<ProcessOutput<F, S, K, A>, ProcessMode<F>> {
    const node = resolveProcessCall(this.table.env, fn, args, new TableArgument(undefined, this.table, this.keys, this.order));
    return new Table(this.table.env, node);
  }

  /** This partitioned table as the named table argument `name` of a call. */
  asArgument<const N extends string>(name: N): TableArgument<S, K, N> {
    return new TableArgument(name, this.table, this.keys, this.order);
  }
}
