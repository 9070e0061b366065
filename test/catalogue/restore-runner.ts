// Runs a relational catalogue program (Flink's TableTestProgram) in its two-phase restore form through the
// public SQL API: the sources are declared with the program's own DDL columns (computed columns,
// watermarks, primary keys), phase one reads the rows "before restore" from sources that do not end, is
// stopped with a savepoint once the sources have handed over their rows, and phase two starts the same
// statement from that savepoint, reads the rows "after restore" to their end and writes into the same
// sink. The result is split at the savepoint, so Flink's consumedBeforeRestore / consumedAfterRestore can
// be asserted separately.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CollectionSink, EnvironmentSettings, manualClock, PositionalRow, Row, RowKind, TableDescriptor, TableEnvironment } from "../../src/index.js";
import type { Schema } from "../../src/index.js";
import type { IterableAttachment } from "../../src/connectors/async-iterable.js";
import { materialize } from "../joins/fixtures.js";

/** A source row: plain values (+I), or a row with a kind (`kind("-U", ...)`). */
export type SourceRow = readonly unknown[] | PositionalRow;

const KINDS: Record<string, RowKind> = { "+I": RowKind.INSERT, "-U": RowKind.UPDATE_BEFORE, "+U": RowKind.UPDATE_AFTER, "-D": RowKind.DELETE };
/** A source row of the given kind, as Flink's `Row.ofKind(RowKind.X, ...)`. */
export const kind = (k: "+I" | "-U" | "+U" | "-D", ...values: unknown[]): PositionalRow => Row.ofKind(KINDS[k]!, ...values);

export interface CatalogueSource {
  readonly name: string;
  /** The column list of the program's CREATE TABLE, exactly: `a INT, ts AS TO_TIMESTAMP(s), WATERMARK FOR ...`. */
  readonly columns: string;
  readonly before: readonly SourceRow[];
  readonly after: readonly SourceRow[];
  /** Rows carry kinds other than +I (Flink's `changelog-mode = I,UB,UA,D`). */
  readonly changelog?: boolean;
}

export interface CatalogueProgram {
  readonly sources: readonly CatalogueSource[];
  /** The sink's name and column list (a PRIMARY KEY makes it an upsert sink, as in Flink). */
  readonly sink: {
    readonly name: string; readonly columns: string;
    /** Flink's addDistribution / addPartitionKeys on the sink: `(d) => d.toBuilder().partitionedBy("b").build()`. */
    readonly layout?: (d: TableDescriptor<object>) => TableDescriptor<object>;
  };
  /** The program's statement, `INSERT INTO <sink> ...` exactly. */
  readonly sql: string;
  /** setupConfig(...) options. */
  readonly config?: Readonly<Record<string, string>>;
  /**
   * Sources hand over their rows in turns (row 1 of each, then row 2 of each, ...) instead of one source
   * after the other: for programs whose expected rows show that both inputs' watermarks advanced together
   * (a window join drops a late row of one input because the other input's watermark had passed too).
   */
  readonly interleaved?: boolean;
  /**
   * Phase one is stopped once the sink holds this many rows (Flink's runner waits for its
   * consumedBeforeRestore rows); by default as soon as the sources have handed over their rows.
   */
  readonly beforeRows?: number;
  /**
   * Statements run before the INSERT in both phases (CREATE VIEW, CREATE FUNCTION ...); `phase` tells which,
   * for programs whose lookup (dimension) tables hold other rows after the restore.
   */
  readonly setup?: (env: TableEnvironment, phase: "before" | "after") => void;
  /**
   * The job clock (processing time, epoch millis) of each phase, for PROCTIME() programs: Flink runs the two
   * phases at two moments of processing time; each phase here reads the clock standing at its own moment.
   */
  readonly clock?: {
    readonly before: number; readonly after: number;
    /**
     * Where processing time stands when phase one is stopped: once phase one's rows were handed over, its
     * clock (a manualClock) moves on to this moment, as Flink's wall clock moves on while its runner waits
     * for the rows — timers that come due fire in phase one, with the sources idle.
     */
    readonly beforeSavepoint?: number;
  };
}

export interface RestoreResult {
  /** The sink's changelog when phase one was stopped. */
  readonly before: string[];
  /** What phase two appended. */
  readonly after: string[];
}

/** The schema a CREATE TABLE column list declares, parsed by the SQL front end itself. */
function schemaOf(env: TableEnvironment, columns: string): Schema<object> {
  const probe = "__catalogue_probe";
  env.executeSql(`CREATE TEMPORARY TABLE ${probe} (${columns}) WITH ('connector' = 'blackhole')`);
  const spec = env.tables.get(probe)!.descriptor.schemaSpec!;
  env.dropTemporaryTable(probe);
  return spec;
}

/**
 * The order rows are handed over in: `turns[i]` resolves when row i of a source may go. Sequential sources
 * wait for the previous source's last row; interleaved ones for the previous source's row i (or its end).
 */
interface Feed { iterable: AsyncIterable<SourceRow>; drained: Promise<void>; handed: Promise<void>[] }

function feed(rows: readonly SourceRow[], turn: (i: number) => Promise<void>, endless: boolean): Feed {
  let drained!: () => void;
  const done = new Promise<void>((r) => { drained = r; });
  const release: (() => void)[] = [];
  const handed = rows.map(() => new Promise<void>((r) => { release.push(r); }));
  async function* gen(): AsyncGenerator<SourceRow> {
    for (let i = 0; i < rows.length; i++) {
      await turn(i);
      release[i]!();
      const r = rows[i]!;
      yield r instanceof PositionalRow ? r : Row.of(...r);
    }
    drained();
    if (endless) await new Promise<void>(() => { /* until the job stops and returns the iterator */ });
  }
  return { iterable: gen(), drained: done, handed };
}

const settle = () => new Promise<void>((r) => setTimeout(r, 5));

/**
 * Runs `program` in two phases. Sources are filled one after another in the order given (as Flink's
 * restore runner fills them), each starting when the previous one has handed over its rows, or in turns
 * (`interleaved`).
 */
export async function runRestore(program: CatalogueProgram): Promise<RestoreResult> {
  const dir = mkdtempSync(join(tmpdir(), "ts-catalogue-"));
  try {
    const sink = new CollectionSink();
    const clocks = program.clock === undefined ? undefined : { before: manualClock(program.clock.before), after: manualClock(program.clock.after) };
    const run = (config: Record<string, string>, phase: "before" | "after") => {
      const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
      for (const [k, v] of Object.entries(config)) env.getConfig().set(k, v);
      if (clocks !== undefined) env.setClock(clocks[phase]);
      let previous: Feed | undefined;
      const drained: Promise<void>[] = [];
      for (const s of program.sources) {
        const prev = previous;
        const turn = prev === undefined ? () => Promise.resolve()
          : program.interleaved ? (i: number) => prev.handed[i] ?? prev.drained
          : () => prev.drained;
        const f = feed(s[phase], turn, phase === "before");
        previous = f;
        drained.push(f.drained);
        const attachment: IterableAttachment = { attachmentOf: "async-iterable", source: f.iterable, name: s.name, changelog: s.changelog ?? false };
        env.createTemporaryTable(s.name, TableDescriptor.forConnector("async-iterable").schema(schemaOf(env, s.columns)).attach(attachment).build());
      }
      const declared = sink.descriptor(schemaOf(env, program.sink.columns));
      env.createTemporaryTable(program.sink.name, program.sink.layout ? program.sink.layout(declared) : declared);
      program.setup?.(env, phase);
      return { result: env.executeSql(program.sql), drained: Promise.all(drained) };
    };
    const first = run({ ...program.config }, "before");
    // a job that fails in phase one would otherwise leave its sources waiting forever
    await Promise.race([first.drained, first.result.await().then(() => { throw new Error("phase one ended before its sources were drained"); })]);
    await settle();
    if (program.clock?.beforeSavepoint !== undefined) {
      clocks!.before.advanceTo(program.clock.beforeSavepoint);
      await settle();
    }
    for (let waited = 0; program.beforeRows !== undefined && sink.size < program.beforeRows && waited < 5000; waited += 5) await settle();
    const savepoint = await first.result.getJobClient()!.stopWithSavepoint(dir);
    const before = sink.changelog();
    const second = run({ ...program.config, "execution.savepoint.path": savepoint }, "after");
    await second.result.await();
    return { before, after: sink.changelog().slice(before.length) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const sorted = (rows: readonly string[]): string[] => [...rows].sort();

/**
 * The final table of a changelog keyed by the columns at `key` (an upsert sink's materialization: the last
 * +I/+U of a key wins, -D removes it), sorted. Without a key, as a multiset (fixtures' `materialize`).
 */
export function materialized(changelog: readonly string[], key?: readonly number[]): string[] {
  if (key === undefined) return materialize(changelog);
  const byKey = new Map<string, string>();
  for (const line of changelog) {
    const body = line.slice(3, -1);
    const fields = body.split(", ");
    const k = key.map((i) => fields[i]).join("\u0000");
    if (line.startsWith("+I") || line.startsWith("+U")) byKey.set(k, `+I[${body}]`);
    else byKey.delete(k);
  }
  return sorted([...byKey.values()]);
}
