// Flink's restore programs in their two-phase form through the public API: a job reads the rows "before
// restore" from sources that do not end (no final watermark), is stopped with a savepoint once it has
// produced the rows expected before, and a new job of the same query starts from that savepoint, reads the
// rows "after restore" to their end and writes into the same sink. The sink then holds before ∪ after.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CollectionSink, DataTypes, EnvironmentSettings, Row, Schema, TableEnvironment } from "../../src/index.js";
import type { PositionalRow, Table } from "../../src/index.js";
import { activeBackendOptions } from "../support/state-backends.js";

/** A source table of a program: its columns are known only at run time here (the schemas are the programs'). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyTable = Table<any>;

export type SourceRows = readonly (readonly unknown[])[];

/** One source of a program: its schema and rows before and after the restore. */
export interface ProgramSource {
  readonly name: string;
  readonly schema: Schema<object>;
  readonly before: SourceRows;
  readonly after: SourceRows;
}

/** Rows as Row.of(...), a number in a TIMESTAMP column becoming a Date. */
function toRows(schema: Schema<object>, rows: SourceRows): PositionalRow[] {
  const types = schema.columns.map((c) => (c as { type?: { root?: string } }).type?.root);
  return rows.map((r) => Row.of(...r.map((v, i) => (typeof v === "number" && types[i]?.startsWith("TIMESTAMP") ? new Date(v) : v))));
}

/**
 * Yields `rows` one by one after `gate`; then, if `endless`, waits until the job closes it (a source that
 * has not ended when the savepoint is taken). `drained` resolves once every row was handed over.
 */
function feed(rows: readonly PositionalRow[], gate: Promise<void>, endless: boolean): { iterable: AsyncIterable<PositionalRow>; drained: Promise<void> } {
  let drained!: () => void;
  const done = new Promise<void>((r) => { drained = r; });
  async function* gen(): AsyncGenerator<PositionalRow> {
    await gate;
    for (const r of rows) yield r;
    drained();
    if (endless) await new Promise<void>(() => { /* until the job stops and returns the iterator */ });
  }
  return { iterable: gen(), drained: done };
}

/** An environment on the suite's state backend (test/support/state-backends.ts) with `config` on top. */
function env(config: Record<string, string> = {}): TableEnvironment {
  const e = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
  for (const [k, v] of Object.entries({ ...activeBackendOptions(), ...config })) e.getConfig().set(k, v);
  return e;
}

const settle = () => new Promise<void>((r) => setTimeout(r, 5));

/**
 * Runs `query` in two phases. Sources feed one after another in the order given (Flink's restore runs fill
 * them so), each starting when the previous one has handed over its rows. Returns the sink's changelog after
 * each phase.
 */
export async function twoPhase(
  sources: readonly ProgramSource[], query: (e: TableEnvironment, tables: Record<string, AnyTable>) => Table<object>,
  config: Record<string, string> = {},
  /** Query evolution: the restored job runs this query instead, with these options added. */
  evolved: { query?: typeof query; config?: Record<string, string> } = {},
): Promise<{ before: string[]; after: string[]; savepoint: string }> {
  const dir = mkdtempSync(join(tmpdir(), "ts-restore-"));
  try {
    const sink = new CollectionSink();
    const run = (e: TableEnvironment, phase: "before" | "after", q: typeof query) => {
      let gate = Promise.resolve();
      const tables: Record<string, AnyTable> = {};
      const drained: Promise<void>[] = [];
      for (const s of sources) {
        const f = feed(toRows(s.schema, s[phase]), gate, phase === "before");
        gate = f.drained;
        drained.push(f.drained);
        tables[s.name] = e.fromAsyncIterable(s.schema, f.iterable, { name: s.name }) as AnyTable;
      }
      const table = q(e, tables);
      const rs = table.getResolvedSchema();
      e.createTemporaryTable("sink", sink.descriptor(Schema.newBuilder().fromRowDataType(DataTypes.ROW(...rs.columns.map((c) => DataTypes.FIELD(c.name, c.type)))).build()));
      return { result: table.executeInsert("sink"), drained: Promise.all(drained) };
    };
    const first = run(env(config), "before", query);
    await first.drained;
    await settle();
    const savepoint = await first.result.getJobClient().stopWithSavepoint(dir);
    const before = sink.changelog();
    const second = run(env({ ...config, ...evolved.config, "execution.savepoint.path": savepoint }), "after", evolved.query ?? query);
    await second.result.await();
    return { before, after: sink.changelog().slice(before.length), savepoint };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
