import { ValidationError } from "../types/errors.js";
import type { PushdownSupport } from "../plan/pushed-filter.js";
import type { ChangelogKind } from "./table.js";
import { Schema } from "./schema.js";
import type { ResolvedSchema } from "../types/resolved-schema.js";

/**
 * What changelogs a connector's sink accepts, known from the connector name alone, so that
 * `executeInsert(descriptor)` of an updating table into an append-only sink is a compile error.
 * Connectors not listed may accept anything; the planner checks them when the job is planned.
 */
export interface KnownSinkKinds {
  filesystem: "append";
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
    readonly attachment: unknown,
  ) {
    Object.freeze(this);
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
    return `${this.schemaSpec ? this.schemaSpec.toString() + "\n" : ""}${this.comment ? `COMMENT '${this.comment}'\n` : ""}WITH (\n${opts.map(([k, v]) => `  '${k}' = '${v}'`).join(",\n")}\n)`;
  }

  /** A builder starting from this descriptor. */
  toBuilder(): TableDescriptorBuilder<S, K> {
    return new TableDescriptorBuilder(this.connector, this.schemaSpec, new Map(this.options), this.comment, this.attachment);
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
    private readonly attachment: unknown,
  ) {}

  /** The table's schema (physical and computed columns, watermark, primary key). */
  schema<S2 extends object>(schema: Schema<S2>): TableDescriptorBuilder<S2, K> {
    if (!(schema instanceof Schema)) throw new ValidationError("TableDescriptor.schema expects a Schema built with Schema.newBuilder()...build()");
    return new TableDescriptorBuilder(this.connector, schema as Schema<object>, this.opts, this.commentText, this.attachment);
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
    return new TableDescriptorBuilder(this.connector, this.schemaSpec, opts, this.commentText, this.attachment);
  }

  /** The format of a filesystem table: `format("csv")` is `option("format", "csv")`. */
  format(format: string): TableDescriptorBuilder<S, K> {
    return this.option("format", format);
  }

  comment(text: string): TableDescriptorBuilder<S, K> {
    return new TableDescriptorBuilder(this.connector, this.schemaSpec, this.opts, text, this.attachment);
  }

  /** @internal an in-process object for the connector (the collection sink) */
  attach(target: unknown): TableDescriptorBuilder<S, K> {
    return new TableDescriptorBuilder(this.connector, this.schemaSpec, this.opts, this.commentText, target);
  }

  build(): TableDescriptor<S, K> {
    return new TableDescriptor(this.connector, this.schemaSpec, this.opts, this.commentText, this.attachment);
  }
}

// ---- connectors, as the planner sees them ----------------------------------------------------------

/** A registered table as a connector sees it when validating: its name, options and physical columns. */
export interface ConnectorTable {
  readonly tableName: string;
  readonly connector: string;
  readonly options: ReadonlyMap<string, string>;
  readonly physical: ResolvedSchema;
  readonly primaryKey?: readonly string[];
  readonly attachment?: unknown;
}

/** Which row kinds a sink takes: only inserts, inserts/updates/deletes by primary key, or everything. */
export type SinkChangelog = "insert-only" | "upsert" | "all";

/**
 * The planning-time side of a connector (src/connectors registers these): option validation and
 * capabilities. The run-time side (readers and writers) is registered with the interpreter.
 */
export interface ConnectorSpec {
  readonly name: string;
  /** Throws a ValidationError naming the option when the table's options are wrong for `role`. */
  validate(table: ConnectorTable, role: "source" | "sink"): void;
  /** Whether the connector can be read from / written to. */
  readonly canRead: boolean;
  readonly canWrite: boolean;
  /** Whether a scan of the table ends (batch mode accepts only bounded sources). */
  isBounded?(table: ConnectorTable): boolean;
  /** What the sink of the table accepts. */
  sinkChangelog?(table: ConnectorTable): SinkChangelog;
  /** Row kinds (0..3 = +I -U +U -D) a source of the table produces; insert-only when absent. */
  sourceKinds?(table: ConnectorTable): readonly number[];
  /** What the planner may push into a scan of the table (projection, filters); nothing when absent. */
  pushdown?(table: ConnectorTable): PushdownSupport | undefined;
}

const connectors = new Map<string, ConnectorSpec>();

export function registerConnector(spec: ConnectorSpec): void {
  connectors.set(spec.name, spec);
}

/** Whether `name` is a built-in connector's. */
export function isBuiltInConnector(name: string): boolean {
  return connectors.has(name);
}

/** The connector named `name`; unknown names list the available ones (Flink: "Could not find any factory"). */
export function connectorSpec(name: string, more: readonly string[] = []): ConnectorSpec {
  const c = connectors.get(name);
  if (!c) {
    throw new ValidationError(`Could not find any factory for identifier '${name}' that implements a connector. Available factory identifiers are: [${[...connectors.keys(), ...more].sort().join(", ")}]`);
  }
  return c;
}

/**
 * Checks options against the keys a connector knows; `patterns` are prefixes with a `#` field part
 * (`fields.#.kind`). Flink's message lists the unsupported and the supported options.
 */
export function checkOptionKeys(table: ConnectorTable, known: readonly string[], patterns: readonly string[] = []): void {
  const unsupported: string[] = [];
  for (const key of table.options.keys()) {
    if (known.includes(key)) continue;
    if (patterns.some((p) => matchesPattern(p, key))) continue;
    unsupported.push(key);
  }
  if (unsupported.length > 0) {
    throw new ValidationError(`Unsupported options found for '${table.connector}' (table '${table.tableName}').\n\nUnsupported options:\n\n${unsupported.sort().join("\n")}\n\nSupported options:\n\n${[...known, ...patterns].sort().join("\n")}`);
  }
}

function matchesPattern(pattern: string, key: string): boolean {
  const [pre, post] = pattern.split("#") as [string, string | undefined];
  if (post === undefined) return key === pattern;
  return key.startsWith(pre) && key.endsWith(post) && key.length > pre.length + post.length;
}

/**
 * The target of `executeInsert` / `insertInto` for a table of changelog kind M: a table name (checked when
 * planned), or a descriptor — whose connector, when known to be append-only, rejects an updating table
 * at compile time.
 */
export type SinkTarget<M extends ChangelogKind, T> =
  T extends TableDescriptor<object, infer K>
    ? ([K] extends ["append"] ? ("append" extends M ? T : SinkModeError<M>) : T)
    : T;

type SinkModeError<M extends string> =
  import("../expressions/type-level.js").TableTypeError<`an updating table (changelog '${M}') cannot be written to an append-only sink; aggregate in windows or use a sink that takes updates (print, collection with a primary key)`>;
