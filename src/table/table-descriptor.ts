import { ValidationError } from "../types/errors.js";
import type { ChangelogKind } from "./table.js";
import type { TableTypeError } from "../expressions/type-level.js";
import { Schema } from "./schema.js";
import type { ResolvedSchema } from "../types/resolved-schema.js";
import type { ConnectorAttachment } from "../plan/nodes.js";
import { type TableDistribution, distributionToString, tableDistribution } from "./table-distribution.js";

/** Where a sink puts its rows: Flink's distribution (buckets) and partition keys. */
export interface TableLayout {
  readonly distribution?: TableDistribution;
  readonly partitionKeys?: readonly string[];
}

/**
 * What changelogs a connector's sink accepts, known from the connector name alone, so that
 * `executeInsert(descriptor)` of an updating table into an append-only sink is a compile error.
 * Connectors not listed may accept anything; the planner checks them when the job is planned.
 */
export interface KnownSinkKinds {
  filesystem: "append";
  parquet: "append";
  print: ChangelogKind;
  blackhole: ChangelogKind;
  collection: ChangelogKind;
}
export type SinkKindOf<C extends string> = C extends keyof KnownSinkKinds ? KnownSinkKinds[C] : ChangelogKind;

/**
 * How a table is connected to the outside: a connector name, a Schema and string options, as Flink's
 * TableDescriptor. `K` is the changelog the connector's sink accepts (from the connector name).
 *
 * ```ts
 * env.createTable("Names", TableDescriptor.forConnector("datagen")
 *   .schema(Schema.newBuilder().column("ts", "TIMESTAMP_LTZ(3)").column("random", "INT")
 *     .columnByExpression("name", "IF(random % 2 = 0, 'Bob', 'Alice')")
 *     .watermark("ts", "ts - INTERVAL '1' SECOND").build())
 *   .option("rows-per-second", "1")
 *   .build());
 * ```
 */
export class TableDescriptor<S extends object = Record<string, unknown>, K extends ChangelogKind = ChangelogKind> {
  declare readonly __schema: S;
  declare readonly __sinkKinds: K;

  /** @internal use TableDescriptor.forConnector(...) */
  constructor(
    readonly connector: string,
    readonly schemaSpec: Schema<object> | undefined,
    readonly options: ReadonlyMap<string, string>,
    readonly comment: string | undefined,
    /** An in-process object the connector works with (the collection sink's store); never an option. */
    readonly attachment: ConnectorAttachment | undefined,
    /** DISTRIBUTED BY / PARTITIONED BY. */
    readonly layout: TableLayout = {},
  ) {
    Object.freeze(this);
  }

  /** `DISTRIBUTED BY ...`, when declared. */
  get distribution(): TableDistribution | undefined {
    return this.layout.distribution;
  }

  /** `PARTITIONED BY (...)`: the partition columns, in order (empty when not partitioned). */
  get partitionKeys(): readonly string[] {
    return this.layout.partitionKeys ?? [];
  }

  /** Starts a descriptor for a connector: `datagen`, `filesystem`, `print`, `blackhole`, `collection`. */
  static forConnector<const C extends string>(connector: C): TableDescriptorBuilder<Record<string, unknown>, SinkKindOf<C>> {
    if (typeof connector !== "string" || connector.length === 0) throw new ValidationError("TableDescriptor.forConnector needs a connector name");
    return new TableDescriptorBuilder(connector, undefined, new Map(), undefined, undefined);
  }

  /** The value of an option. */
  getOption(key: string): string | undefined {
    return this.options.get(key);
  }

  /** Flink's rendering: the schema, then `WITH (...)`. */
  toString(): string {
    const opts = [["connector", this.connector] as const, ...[...this.options].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))];
    const d = this.distribution;
    const partitioned = this.partitionKeys.length === 0 ? "" : `PARTITIONED BY (${this.partitionKeys.map((k) => `\`${k}\``).join(", ")})\n`;
    const layout = `${d ? distributionToString(d) + "\n" : ""}${partitioned}`;
    return `${this.schemaSpec ? this.schemaSpec.toString() + "\n" : ""}${this.comment ? `COMMENT '${this.comment}'\n` : ""}${layout}WITH (\n${opts.map(([k, v]) => `  '${k}' = '${v}'`).join(",\n")}\n)`;
  }

  /** A builder starting from this descriptor. */
  toBuilder(): TableDescriptorBuilder<S, K> {
    return new TableDescriptorBuilder(this.connector, this.schemaSpec, new Map(this.options), this.comment, this.attachment, this.layout);
  }
}

/** Builds a TableDescriptor; every step returns a new builder. */
export class TableDescriptorBuilder<S extends object, K extends ChangelogKind> {
  /** @internal */
  constructor(
    private readonly connector: string,
    private readonly schemaSpec: Schema<object> | undefined,
    private readonly opts: Map<string, string>,
    private readonly commentText: string | undefined,
    private readonly attachment: ConnectorAttachment | undefined,
    private readonly layout: TableLayout = {},
  ) {}

  /** The table's schema (physical and computed columns, watermark, primary key). */
  schema<S2 extends object>(schema: Schema<S2>): TableDescriptorBuilder<S2, K> {
    if (!(schema instanceof Schema)) throw new ValidationError("TableDescriptor.schema expects a Schema built with Schema.newBuilder()...build()");
    return new TableDescriptorBuilder(this.connector, schema as Schema<object>, this.opts, this.commentText, this.attachment, this.layout);
  }

  /** A connector or format option; values are strings as in Flink (`.option("rows-per-second", "1")`). */
  option(key: string, value: string | number | boolean): TableDescriptorBuilder<S, K> {
    if (typeof key !== "string" || key.length === 0) throw new ValidationError("TableDescriptor.option needs a non-empty key");
    if (key === "connector") throw new ValidationError("TableDescriptor.option: 'connector' is set by forConnector(...)");
    if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") {
      throw new ValidationError(`TableDescriptor.option('${key}'): the value must be a string, number or boolean, got ${String(value)}`);
    }
    const opts = new Map(this.opts);
    opts.set(key, String(value));
    return new TableDescriptorBuilder(this.connector, this.schemaSpec, opts, this.commentText, this.attachment, this.layout);
  }

  /** The format of a filesystem table: `format("csv")` is `option("format", "csv")`. */
  format(format: string): TableDescriptorBuilder<S, K> {
    return this.option("format", format);
  }

  comment(text: string): TableDescriptorBuilder<S, K> {
    return new TableDescriptorBuilder(this.connector, this.schemaSpec, this.opts, text, this.attachment, this.layout);
  }

  /** @internal an in-process object for the connector (the collection sink) */
  attach(target: ConnectorAttachment): TableDescriptorBuilder<S, K> {
    return new TableDescriptorBuilder(this.connector, this.schemaSpec, this.opts, this.commentText, target, this.layout);
  }

  /** `DISTRIBUTED BY HASH(keys) [INTO n BUCKETS]`: `distributedByHash("a")`, `distributedByHash(3, "a")`. */
  distributedByHash(...args: [number, ...string[]] | string[]): TableDescriptorBuilder<S, K> {
    return this.distributed("hash", args);
  }

  /** `DISTRIBUTED BY RANGE(keys) [INTO n BUCKETS]`. */
  distributedByRange(...args: [number, ...string[]] | string[]): TableDescriptorBuilder<S, K> {
    return this.distributed("range", args);
  }

  /** `DISTRIBUTED BY (keys) [INTO n BUCKETS]`: the connector picks the algorithm. */
  distributedBy(...args: [number, ...string[]] | string[]): TableDescriptorBuilder<S, K> {
    return this.distributed("unknown", args);
  }

  /** `DISTRIBUTED INTO n BUCKETS`. */
  distributedInto(bucketCount: number): TableDescriptorBuilder<S, K> {
    return this.distributed("unknown", [bucketCount]);
  }

  /** `PARTITIONED BY (keys)`: each a physical column, checked when the table is registered. */
  partitionedBy(...keys: string[]): TableDescriptorBuilder<S, K> {
    if (keys.length === 0 || keys.some((k) => typeof k !== "string" || k.length === 0)) throw new ValidationError("partitionedBy needs one or more column names");
    return new TableDescriptorBuilder(this.connector, this.schemaSpec, this.opts, this.commentText, this.attachment, { ...this.layout, partitionKeys: Object.freeze([...keys]) });
  }

  private distributed(kind: TableDistribution["kind"], args: readonly (number | string)[]): TableDescriptorBuilder<S, K> {
    const count = typeof args[0] === "number" ? args[0] : undefined;
    const keys = (count === undefined ? args : args.slice(1)) as readonly string[];
    if (keys.some((k) => typeof k !== "string" || k.length === 0)) throw new ValidationError("a bucket key must be a column name");
    const distribution = tableDistribution(kind, keys, count);
    return new TableDescriptorBuilder(this.connector, this.schemaSpec, this.opts, this.commentText, this.attachment, { ...this.layout, distribution });
  }

  build(): TableDescriptor<S, K> {
    return new TableDescriptor(this.connector, this.schemaSpec, this.opts, this.commentText, this.attachment, this.layout);
  }
}

// ---- connectors, as the planner sees them: declared in connectors/connector-spec.ts ----------------
export type { ConnectorSpec, ConnectorTable, SinkChangelog } from "../connectors/connector-spec.js";

/**
 * The target of `executeInsert` / `insertInto` for a table of changelog kind M: a table name (checked when
 * planned), or a descriptor — whose connector, when known to be append-only, rejects an updating table
 * at compile time.
 */
export type SinkTarget<M extends ChangelogKind, T> =
  T extends TableDescriptor<object, infer K>
    // ([M] extends ["append"]: also a batch table's kind, an "append" with a brand)
    ? ([K] extends ["append"] ? ([M] extends ["append"] ? T : "append" extends M ? T : TableTypeError<SinkModeMessage<M>>) : T)
    : T;

// (the error is written as TableTypeError<...> where it is used: a named alias would be what the
// compiler prints, and the message would not be in the error's first line)
type SinkModeMessage<M extends string> =
  `an updating table (changelog '${M}') cannot be written to an append-only sink; aggregate in windows, run in batch mode, or use a sink that takes updates (print, collection with a primary key)`;
