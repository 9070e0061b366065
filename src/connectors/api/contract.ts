/**
 * The public connector contract: what a connector written outside tablestream implements. One
 * definition, registered once by name with `env.registerConnector(definition)`, serves
 * `TableDescriptor.forConnector(name)` and SQL `CREATE TABLE ... WITH ('connector' = name, ...)`.
 *
 * Rows cross the contract as positional arrays in the table's physical column order (the order of
 * `ctx.columns`), with values in tablestream's representation of each column type (docs/types.md: `number`
 * for the integer and floating types including BIGINT, `Decimal` for DECIMAL, `Date` for DATE and the
 * timestamps, `string`, `boolean`, arrays, `Map`, plain objects for ROW, `null` for NULL). Rows a source
 * returns are checked and converted against the column types as `fromValues` converts its rows.
 *
 * Checkpoints (docs/connectors.md, "Checkpoints"): a source's `position()` is stored in every checkpoint and
 * handed back as `restoreFrom`; a sink is flushed and prepared (`prepareCommit`) at each checkpoint's barrier,
 * committed once the checkpoint is durable, committed again after a restore, and aborted on cancel or failure.
 */
import type { DataType } from "../../types/data-type.js";
import type { RowKind } from "../../types/row.js";
import type { OptionDecls, OptionValues } from "./options.js";

/** Plain JSON data: what a position or a committable is made of (a checkpoint stores it as JSON). */
export type JsonValue = null | boolean | number | string | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/** One physical column of the table as the connector sees it. */
export interface ConnectorColumn {
  /** The column name. */
  readonly name: string;
  /** Its type (`type.root` is `INT`, `VARCHAR`, `DECIMAL`, ...; `type.isNullable`). */
  readonly type: DataType;
}

/** What every connector factory receives: the table, its typed options, its columns. */
export interface TableContext<O extends OptionDecls = OptionDecls> {
  /** The table's name (`default_catalog`-less, as registered; anonymous descriptors get a generated one). */
  readonly tableName: string;
  /** The connector's name. */
  readonly connector: string;
  /** The options, parsed and validated against the connector's declarations. */
  readonly options: OptionValues<O>;
  /** Every option as given (strings), including framework options (`sink.*`, `lookup.*`, `format`). */
  readonly rawOptions: ReadonlyMap<string, string>;
  /** The physical columns, in the order of every row that crosses the contract. */
  readonly columns: readonly ConnectorColumn[];
  /** The primary key columns, when the schema declares one. */
  readonly primaryKey?: readonly string[];
  /** The table's format (when the connector declares `formats` and the table sets `format`). */
  readonly format?: RowFormat;
  /**
   * The in-process object the table's descriptor carries (`{ attachmentOf: connector name, ... }`): what an
   * in-process connector reads from or writes into — the `CollectionSink` of a `collection` table.
   */
  readonly attachment?: { readonly attachmentOf: string };
  /** The table's `PARTITIONED BY` keys, in order; empty when it is not partitioned. */
  readonly partitionKeys: readonly string[];
}

/** A partition: each partition key's value as text (`{ dt: "2024-01-01", hr: "10" }`), as Flink's partition specs. */
export type PartitionSpec = Readonly<Record<string, string>>;

/**
 * Partition pruning (Flink's SupportsPartitionPushDown): the source lists its partitions when a query is planned;
 * the planner evaluates the query's filters on partition columns against them (values typed from the schema, the
 * text `__DEFAULT_PARTITION__` as NULL) and removes those filters from the plan, so the reader must read exactly
 * the partitions it is handed in `SourceContext.partitions`. `explain()` shows them (`partitions=[{dt=...}]`).
 */
export interface SourcePartitions<O extends OptionDecls = OptionDecls> {
  /** Every partition of the table now (Flink's listPartitions). */
  list(table: TableContext<O>): readonly PartitionSpec[];
  /**
   * The partition value text that stands for NULL (Flink's `partition.default-name`); default
   * `__DEFAULT_PARTITION__`. A connector with that option answers it per table.
   */
  defaultName?(table: TableContext<O>): string;
}

// ---- sources ----------------------------------------------------------------------------------------

/** What a source produces: inserts only, every kind (`+I -U +U -D`), or upserts by primary key (`+I +U -D`). */
export type SourceChangelog = "insert-only" | "all" | "upsert";

/** A batch of rows a source reader returns; `kinds` (one per row) defaults to all `+I`. */
export interface SourceBatch {
  /** Positional rows in the physical column order. The job takes ownership: do not reuse the arrays. */
  readonly rows: readonly unknown[][];
  /** The kind of each row (same length as `rows`); absent means every row is `+I`. */
  readonly kinds?: readonly RowKind[];
}

/**
 * A running scan (Flink's SourceReader): **pull-based**. The job calls `read()` only when it wants rows
 * and never calls it again before the previous call settled, so a reader never needs to buffer ahead
 * (that is the backpressure: a slow job reads slowly). `read()` resolves to the next batch, to an empty
 * batch when nothing is available yet (unbounded sources; the job asks again later), or to `null` at
 * the end (bounded sources). A rejection fails the job with an ExecutionError naming connector and table.
 */
export interface SourceReader {
  /** The next rows; may return synchronously when rows are at hand (no Promise per batch then). */
  read(): SourceBatch | null | Promise<SourceBatch | null>;
  /**
   * Where the reader stands after the rows it returned so far (a file offset, a last primary key, a
   * log sequence number). Plain JSON; a checkpoint stores it and a restored job passes it back as
   * `SourceContext.restoreFrom`, then drops the rows of the first batches it had already received (a
   * checkpoint may fall inside a batch), so from a position a reader must return the same rows again.
   * `null` means "from the start".
   */
  position(): JsonValue;
  /** Releases connections and files. Called exactly once: at end of input, on cancel, on failure. */
  close(): void | Promise<void>;
}

/** A filter the planner offers to a source (Flink's SupportsFilterPushDown); declared with the plan. */
export type { PushedFilter } from "../../plan/pushed-filter.js";
import type { PushedFilter } from "../../plan/pushed-filter.js";

/** What the planner may push into a bounded source (Flink's SupportsProjectionPushDown / SupportsFilterPushDown). */
export interface SourcePushdown<O extends OptionDecls = OptionDecls> {
  /** The source reads only the requested columns (rows then carry `ctx.columns` = the projected ones). */
  readonly projection?: boolean;
  /**
   * Which of the offered filters the source applies itself. Filters it accepts are removed from the
   * plan, so it must apply them exactly; the others stay in the plan. Default: none accepted.
   */
  acceptFilter?(filter: PushedFilter, table: TableContext<O>): boolean;
}

/** What a source reader is created with. */
export interface SourceContext<O extends OptionDecls = OptionDecls> extends TableContext<O> {
  /** The position to resume after (from a checkpoint); undefined for a fresh start. */
  readonly restoreFrom?: JsonValue;
  /** Aborted when the job is cancelled or fails: pending requests may stop early. */
  readonly signal: AbortSignal;
  /** Filters the source accepted (see SourcePushdown); it must return only rows that pass all of them. */
  readonly filters: readonly PushedFilter[];
  /** With projection pushdown: the positions, in the declared physical columns, of `columns`. */
  readonly projection?: readonly number[];
  /**
   * The metadata the scan reads (the table's METADATA columns; keys among `SourceDefinition.metadata`, `name` is
   * the key): every row carries their values after those of `columns`, in this order. Empty without any.
   */
  readonly metadata: readonly ConnectorColumn[];
  /** With `SourceDefinition.partitions`, after pruning: the partitions to read (absent: every partition). */
  readonly partitions?: readonly PartitionSpec[];
  /**
   * The job's processing-time clock in epoch milliseconds (`Date.now` unless `env.setClock` replaced it): a
   * source that stamps rows with the current time reads it here, so tests with a fixed clock are reproducible.
   */
  readonly clock: () => number;
  /**
   * The table's declared physical columns: `columns` are these, or with projection pushdown the projected ones
   * (`projection` indexes this list). A source applying pushed filters reads the filtered columns here.
   */
  readonly physicalColumns: readonly ConnectorColumn[];
  /**
   * The scan's metric group (`<connector>[<table>]`, beside the job's own `numRecordsOut`): a reader registers
   * what it counts, as Flink's source metric group (`numSkippedRecords` of a format ignoring parse errors).
   */
  readonly metrics: SourceMetricGroup;
}

/**
 * The metrics of one scan: a gauge is read only when someone asks for a metrics snapshot, so a reader keeps the
 * number in a field of its own and registers a function reading it (no work per row).
 */
export interface SourceMetricGroup {
  /** The group's scope in the job (`filesystem[orders]`, a second scan of the table `filesystem[orders]#2`). */
  readonly scope: string;
  /** Registers `<scope>.<name>`, read by `read()` whenever a snapshot is taken. */
  gauge(name: string, read: () => number): void;
}

/** The scan side of a connector (Flink's ScanTableSource). */
export interface SourceDefinition<O extends OptionDecls = OptionDecls> {
  /** Whether a scan of the table ends (batch mode reads only bounded tables). Default: bounded. */
  bounded?(table: TableContext<O>): boolean;
  /** What the scan produces. Default: insert-only. `upsert` needs a primary key. */
  changelog?(table: TableContext<O>): SourceChangelog;
  /** What the planner may push into the scan. */
  readonly pushdown?: SourcePushdown<O>;
  /**
   * The metadata the source can deliver per row (Flink's SupportsReadingMetadata): key to type, e.g.
   * `{ "file.path": DataTypes.STRING().notNull() }`. A table declares `col TYPE METADATA FROM 'key'` to read one;
   * an unknown key is Flink's error listing these. The reader gets the keys it must deliver in `SourceContext.metadata`.
   */
  readonly metadata?: Readonly<Record<string, DataType>>;
  /** A partitioned source that lets the planner prune partitions (Flink's SupportsPartitionPushDown). */
  readonly partitions?: SourcePartitions<O>;
  /**
   * The reader's values are already in tablestream's representation of their column types (it generates them
   * from the types, as `datagen` does): the job skips the per-value check of every row. Default false: rows are
   * checked and converted as `fromValues` checks its rows. A wrong value then reaches the query unchecked.
   */
  readonly validRows?: boolean;
  /**
   * Whether the source can return the rows from a position again (files, tables, generators: the default).
   * `false` for a source that cannot (an iterable handed in by the program): after a restore the reader is
   * created with `restoreFrom` = its position at the last batch the job received entirely and reads what it is
   * given as the rows that follow the checkpoint — no row is dropped, and its watermarks start afresh. Such a
   * source should return small batches (one row): rows it returned but the job had not taken at the checkpoint
   * are not read again.
   */
  readonly replayable?: boolean;
  /**
   * A position stored by a checkpoint of an earlier version of the connector, before it was written against this
   * API (any stored value that is not the job's own `{ at, skip }` form): the position to resume after, handed to
   * the reader as `restoreFrom`. Absent: such a checkpoint cannot be restored (an error names the position).
   */
  legacyPosition?(stored: JsonValue): JsonValue;
  /** Opens a reader (connect, open files); called when the job starts. */
  createReader(ctx: SourceContext<O>): SourceReader | Promise<SourceReader>;
}

// ---- sinks ------------------------------------------------------------------------------------------

/** What a sink accepts: only inserts, upserts by primary key (`+I +U -D`, never `-U`), or every kind. */
export type SinkChangelog = "insert-only" | "upsert" | "all";

/** A batch of records handed to a sink writer: positional rows with their kinds, in changelog order. */
export interface SinkBatch {
  /** Rows in the physical column order; owned by the writer once handed over. */
  readonly rows: readonly (readonly unknown[])[];
  /** The kind of each row (same length as `rows`). */
  readonly kinds: readonly RowKind[];
}

/** Opaque, JSON-serializable data a writer's `prepareCommit` returns and `commit` later receives. */
export type Committable = JsonValue;

/**
 * A running sink (Flink's SinkWriter plus its committer hooks), **asynchronous**. The job collects
 * records into batches of `sink.batch.max-size` rows and calls `write(batch)`; while
 * `sink.requests.max-inflight` writes have not settled it stops reading its sources (backpressure),
 * so at most max-size × max-inflight rows are in flight. Writes are issued in changelog order; with
 * more than one in flight they may complete in any order (keep the default of 1 for upserts).
 * A rejected write fails the job with an ExecutionError naming the connector, the table and the row
 * (`error.rowIndex`, when the writer sets it, picks the row of the batch; otherwise its first row).
 */
export interface SinkWriter {
  /** Writes a batch; resolve once it is durable enough for `flush()` to rely on. */
  write(batch: SinkBatch): void | Promise<void>;
  /** Makes everything written so far durable (called at each checkpoint's barrier and before close). */
  flush?(): void | Promise<void>;
  /**
   * Checkpoint hook (two-phase commit, phase one): everything written up to the checkpoint is flushed
   * but not yet visible; returns what `commit` needs to make it visible (a transaction id, a file name).
   */
  prepareCommit?(checkpointId: number): Committable | Promise<Committable>;
  /** Checkpoint hook (phase two): the checkpoint completed; make the prepared data visible. Idempotent. */
  commit?(committables: readonly Committable[]): void | Promise<void>;
  /**
   * The job failed, or was cancelled while it takes part in checkpoints: drop what was not committed (the
   * job restored from the last checkpoint writes it again). `close()` follows.
   */
  abort?(reason: unknown): void | Promise<void>;
  /**
   * Ends the writer: release connections. At end of input it follows the last batch, `flush()` and a
   * final `prepareCommit` + `commit`. Called exactly once per writer, also after `abort`.
   */
  close(): void | Promise<void>;
}

/** What a sink writer is created with. */
export interface SinkContext<O extends OptionDecls = OptionDecls> extends TableContext<O> {
  /** The sink's changelog as planned (`upsert` when the table has a primary key and the connector says so). */
  readonly changelog: SinkChangelog;
  /** Aborted when the job is cancelled or fails. */
  readonly signal: AbortSignal;
  /**
   * Committables stored by the checkpoint the job was restored from; empty for a fresh start. The job
   * calls `commit(pendingCommittables)` before the first write (commit is idempotent); a writer may also use
   * them to clean up transactions of the earlier run that are not among them.
   */
  readonly pendingCommittables: readonly Committable[];
  /**
   * `INSERT INTO t PARTITION (k = 'v') ...` (Flink's SupportsPartitioning.applyStaticPartition): the static
   * partition values as text; the rows carry them too. Empty without a PARTITION clause.
   */
  readonly staticPartition: PartitionSpec;
  /** The table's `DISTRIBUTED BY` (with `SinkDefinition.bucketing`); absent when it has none. */
  readonly distribution?: SinkBucketing;
  /**
   * The metadata the sink writes (the table's non-VIRTUAL METADATA columns; keys among `SinkDefinition.metadata`,
   * `name` is the key): every row carries their values after those of `columns`, in this order. Empty without any.
   */
  readonly metadata: readonly ConnectorColumn[];
  /** `INSERT OVERWRITE` (with `SinkDefinition.overwrite`): the job's rows replace the table's contents. */
  readonly overwrite: boolean;
}

/** A table's bucketing (Flink's TableDistribution): `DISTRIBUTED BY HASH(k) INTO 4 BUCKETS`, `DISTRIBUTED INTO 3 BUCKETS`. */
export interface SinkBucketing {
  /** `unknown` when the statement names no algorithm (the connector picks one). */
  readonly kind: "hash" | "range" | "unknown";
  readonly bucketKeys: readonly string[];
  readonly bucketCount?: number;
}

/** The write side of a connector (Flink's DynamicTableSink). */
export interface SinkDefinition<O extends OptionDecls = OptionDecls> {
  /** What the sink accepts. Default: `upsert` when the table has a primary key, else `insert-only`. */
  changelog?(table: TableContext<O>): SinkChangelog;
  /**
   * Whether the sink writes `PARTITIONED BY` tables (Flink's SupportsPartitioning); without it writing such a
   * table is Flink's error naming the table and the connector. The writer gets the keys in `partitionKeys` and a
   * static partition in `staticPartition`.
   */
  readonly partitioning?: boolean;
  /** Whether the sink writes `DISTRIBUTED BY` tables (Flink's SupportsBucketing); the writer gets `distribution`. */
  readonly bucketing?: boolean;
  /**
   * Whether `INSERT OVERWRITE` (batch mode) may write the table (Flink's SupportsOverwrite); without it the statement
   * is Flink's error. The writer is told by `SinkContext.overwrite` and replaces the table's contents when the job
   * finishes (`close` after the last commit); a failed job (`abort`) must leave them as they were.
   */
  readonly overwrite?: boolean;
  /**
   * The metadata the sink can write per row (Flink's SupportsWritingMetadata): key to type. A table's
   * `col TYPE METADATA [FROM 'key']` column (not VIRTUAL) is then filled by INSERT and handed to the writer
   * (`SinkContext.metadata`); without it, such a column is Flink's error.
   */
  readonly metadata?: Readonly<Record<string, DataType>>;
  /** The same declared per table, from its options (as the `collection` connector's `writable-metadata`); wins over `metadata`. */
  metadataOf?(table: TableContext<O>): Readonly<Record<string, DataType>>;
  /**
   * `"step"`: `write()` also receives the rows of every job step when the step ends, not only full batches of
   * `sink.batch.max-size` rows, so the rows are visible while the job runs (in-process sinks: print, collection).
   * Default `"batch"`: rows wait until a batch is full, a checkpoint or the end of input.
   */
  readonly handOver?: "batch" | "step";
  /**
   * The sink state a checkpoint of an earlier version of the connector stored (before it was written against this
   * API; anything not in the job's own `{ checkpointId, committables }` form): the committables it stands for. The
   * restored writer receives them in `pendingCommittables` and commits them again. Absent: such a checkpoint
   * cannot be restored.
   */
  legacyCommittables?(stored: JsonValue): readonly Committable[];
  /** Opens a writer (connect, create files); called when the job starts. */
  createWriter(ctx: SinkContext<O>): SinkWriter | Promise<SinkWriter>;
}

// ---- lookup sources ---------------------------------------------------------------------------------

/**
 * A lookup reader (Flink's AsyncLookupFunction): the rows whose key columns equal `key`, at the moment
 * of the call. The lookup join caches results per `lookup.cache` (`NONE` or `PARTIAL`, with
 * `lookup.partial-cache.max-rows`, `.expire-after-write`, `.expire-after-access`, `.cache-missing-key`)
 * and keeps at most `lookup.async.max-concurrent` lookups in flight.
 */
export interface LookupReader {
  /** The matching rows (physical column order); a synchronous return skips the Promise. */
  lookup(key: readonly unknown[]): readonly (readonly unknown[])[] | Promise<readonly (readonly unknown[])[]>;
  /** Releases connections. Called once when the job ends. */
  close?(): void | Promise<void>;
}

/** What a lookup reader is created with. */
export interface LookupContext<O extends OptionDecls = OptionDecls> extends TableContext<O> {
  /** The key columns the join looks up by, in the order of `lookup(key)`'s values. */
  readonly keys: readonly string[];
  /**
   * Conditions of the lookup join on this table's columns alone that `acceptFilter` accepted (empty without):
   * the reader returns only rows passing all of them (SQL's NULL rule: a NULL value fails every comparison).
   */
  readonly filters: readonly PushedFilter[];
  /** Aborted when the job is cancelled or fails. */
  readonly signal: AbortSignal;
}

/** The lookup side of a connector (Flink's LookupTableSource). */
export interface LookupDefinition<O extends OptionDecls = OptionDecls> {
  /** Creates a reader for lookups by `ctx.keys`. */
  createReader(ctx: LookupContext<O>): LookupReader | Promise<LookupReader>;
  /**
   * Filter pushdown into lookups (Flink's SupportsFilterPushDown on a lookup source): whether the reader
   * applies `filter` itself. Accepted filters leave the join's condition and arrive in `ctx.filters`.
   */
  acceptFilter?(filter: PushedFilter, table: TableContext<O>): boolean;
}

// ---- formats ----------------------------------------------------------------------------------------

/**
 * A row format (CSV, JSON Lines, raw) any connector can use for text records: one record per line.
 * A connector that declares `formats` accepts the `format` option and that format's own options
 * (`csv.*`, `json.*`, `raw.*`); its context then carries the format, bound to the table's columns.
 */
export interface RowFormat {
  /** The format's name: `csv`, `json`, `raw`, or a user format's. */
  readonly name: string;
  /** Decodes one record's text into a positional row; throws a ValidationError naming column and value. */
  decode(text: string): unknown[];
  /** Encodes one row (physical column order) into its text, without a line break. */
  encode(row: readonly unknown[]): string;
}

/** A format definition: its options and how it binds to a table's columns. */
export interface FormatDefinition<O extends OptionDecls = OptionDecls> {
  /** The value of the `format` option that selects it. */
  readonly name: string;
  /** Its options, without the `<name>.` prefix the table writes them with (`field-delimiter` for `csv.field-delimiter`). */
  readonly options: O;
  /** Binds the format to a table's columns; throws a ValidationError for a column type it cannot hold. */
  create(columns: readonly ConnectorColumn[], options: OptionValues<O>, tableName: string): RowFormat;
}

// ---- the connector ----------------------------------------------------------------------------------

/**
 * A connector: a name, its options and the roles it plays. Build it with `defineConnector({...})`
 * (which infers the option types) and register it with `env.registerConnector(connector)`.
 */
export interface ConnectorDefinition<O extends OptionDecls = OptionDecls> {
  /** The identifier tables name it by (`'connector' = 'name'`); lowercase, `[a-z0-9-]`. */
  readonly name: string;
  /** The options it reads (framework options such as `sink.batch.max-size` are accepted in addition). */
  readonly options: O;
  /**
   * Families of options whose keys are built from the table (Flink's `validateExcept` prefixes): patterns with
   * one `#` for the variable part, `fields.#.kind` accepts `fields.id.kind`. Such options are accepted and left
   * to `validate` (read them from `rawOptions`); any other undeclared key is an error listing the valid ones.
   */
  readonly optionPatterns?: readonly string[];
  /**
   * Whether the connector reads and writes rows through a format (`format` option); `true` = every known format.
   * A connector without it may declare a `format` option of its own and bind the formats itself.
   */
  readonly formats?: boolean | readonly string[];
  /** Checks across options, after each was parsed (e.g. "either 'table' or 'query'"); throw a ValidationError. */
  validate?(table: TableContext<O>, role: "source" | "sink" | "lookup"): void;
  /** The scan side, when tables of this connector can be read. */
  readonly source?: SourceDefinition<O>;
  /** The write side, when tables of this connector can be written. */
  readonly sink?: SinkDefinition<O>;
  /** The lookup side, when tables of this connector can be the dimension of a lookup join. */
  readonly lookup?: LookupDefinition<O>;
}
