import { ValidationError } from "../types/errors.js";
import { type SinkNode, type StatementSetNode } from "../plan/nodes.js";
import { statementSetNode } from "../plan/nodes/statement-set.js";
import { explainStatementSet } from "../plan/statement-set-explain.js";
import type { InsertTableResult, TablePipeline } from "./insert.js";
import type { ChangelogKind, Table } from "./table.js";
import type { SinkTarget, TableDescriptor } from "./table-descriptor.js";
import type { TableEnvironment } from "./table-environment.js";
import { toSqlText } from "./sql-text.js";

/**
 * Several inserts run as one job (Flink's StatementSet): `env.createStatementSet()`, then `addInsert`
 * / `add` per sink, then one `execute()`.
 *
 * ```ts
 * const checkouts = events.partitionBy($("user")).process(CheckoutProcessor, ..., lit("cart-processor").asArgument("uid"));
 * await env.createStatementSet()
 *   .addInsert("EmailNotifications", checkouts.filter($("checkout_type").isEqual("REMINDER")))
 *   .addInsert("CheckoutEvents", checkouts.filter($("checkout_type").isEqual("CHECKOUT")))
 *   .execute().await();
 * ```
 * A table used by several inserts (the same Table object, a view, or PTF calls with one `uid`) is
 * computed once and its rows are fanned out to every consumer; the rules are in docs/statement-sets.md.
 */
export class StatementSet {
  private sinks: SinkNode[] = [];

  /** @internal */
  constructor(private readonly env: TableEnvironment) {}

  /**
   * Adds `INSERT INTO target SELECT * FROM table`: the target is a registered table name or a
   * TableDescriptor, checked as `table.insertInto(target)` checks it (columns by position, changelog).
   */
  addInsert<M extends ChangelogKind, const T extends string | TableDescriptor<object>>(target: SinkTarget<M, T>, table: Table<object, M>): this {
    if (table?.env !== this.env) throw new ValidationError("addInsert: the table belongs to another TableEnvironment");
    this.sinks.push(this.env.planInsert(table.node, target as string | TableDescriptor<object>));
    return this;
  }

  /** Adds a table already bound to its sink: `set.add(table.insertInto("out"))`. */
  add(pipeline: TablePipeline): this {
    this.sinks.push(pipeline.sinkNode);
    return this;
  }

  /** The number of inserts added since the last execute(). */
  get size(): number {
    return this.sinks.length;
  }

  /** @internal The root of the job: every sink added so far. */
  planRoot(): StatementSetNode {
    return statementSetNode({ sinks: this.sinks });
  }

  /**
   * The plan of all inserts: one tree per sink; shared sub-plans are printed once with `reuse_id=[n]`
   * and referred to as `Reused(reference_id=[n])`. With `{ sql: true }` a section `== Flink SQL ==` follows:
   * the set as one `EXECUTE STATEMENT SET BEGIN ... END;` statement (toSql()), to hand to a Flink cluster.
   */
  explain(options: { readonly sql?: boolean } = {}): string {
    const plan = explainStatementSet(this.env.negotiate(this.planRoot(), false) as StatementSetNode, this.env.isBatch());
    return options.sql === true ? `${plan}\n\n== Flink SQL ==\n${this.toSql()};` : plan;
  }

  /**
   * The inserts as one Flink SQL statement set: `EXECUTE STATEMENT SET BEGIN INSERT INTO ...; ... END`
   * (see Table.toSql()); `executeSql` of the text runs the same job.
   */
  toSql(): string {
    return toSqlText(this.env, this.planRoot());
  }

  /**
   * Submits all inserts as one job and empties the set (as Flink does). The result has one BIGINT column
   * per sink (`default_catalog.default_database.<table>`) holding -1; `await()` waits for the job.
   */
  execute(options: { signal?: AbortSignal } = {}): InsertTableResult {
    const root = this.planRoot();
    const result = this.env.startInsert(root, options.signal);
    this.sinks = [];
    return result;
  }
}
