// The hooks the built-in connectors use, as a user's connector uses them: option patterns, the job's clock in
// the source context, validRows, the attachment, step hand-over, and writers whose hooks return at once.
import { describe, expect, it } from "vitest";
import {
  DataTypes, EnvironmentSettings, Row, Schema, TableDescriptor, TableEnvironment, ValidationError,
  defineConnector, option, type SinkBatch, type SourceBatch,
} from "../../../src/index.js";

const env = () => TableEnvironment.create(EnvironmentSettings.inStreamingMode());
const schema = Schema.newBuilder().column("id", DataTypes.INT()).column("ts", DataTypes.TIMESTAMP_LTZ(3)).build();

/** A source of `count` rows stamped with the job's clock; `fields.<column>.scale` multiplies a column. */
const stamped = defineConnector({
  name: "stamped",
  options: { count: option.int({ default: 3, min: 0 }) },
  optionPatterns: ["fields.#.scale"],
  validate(table) {
    for (const [k, v] of table.rawOptions) {
      if (k.startsWith("fields.") && !/^\d+$/.test(v)) throw new ValidationError(`option '${k}' of table '${table.tableName}' must be a whole number, got '${v}'`);
    }
  },
  source: {
    validRows: true,
    createReader(ctx) {
      let n = 0;
      const scale = Number(ctx.rawOptions.get("fields.id.scale") ?? "1");
      return {
        read: (): SourceBatch | null => (n >= ctx.options.count ? null : { rows: [[++n * scale, new Date(ctx.clock())]] }),
        position: () => n,
        close() {},
      };
    },
  },
});

describe("definition hooks of the built-in connectors", () => {
  it("option patterns are accepted and listed; other keys are Flink's error", async () => {
    const e = env().registerConnector(stamped);
    e.setClock(() => 5000);
    const t = e.from(TableDescriptor.forConnector("stamped").schema(schema).option("count", "2").option("fields.id.scale", "10").build());
    expect(await t.execute().toChangelog()).toEqual(["+I[10, 1970-01-01T00:00:05Z]", "+I[20, 1970-01-01T00:00:05Z]"]);
    expect(() => e.from(TableDescriptor.forConnector("stamped").schema(schema).option("fields.id.scale", "x").build()))
      .toThrow(/option 'fields\.id\.scale' of table '.*' must be a whole number, got 'x'/);
    expect(() => e.from(TableDescriptor.forConnector("stamped").schema(schema).option("fields.id.size", "1").build()))
      .toThrow(/Unsupported options:\n\nfields\.id\.size\n\nSupported options:\n\ncount\nfields\.#\.scale$/);
  });

  it("a validRows source is not checked: its values reach the query as returned", async () => {
    const e = env().registerConnector(defineConnector({
      name: "trusting",
      options: {},
      source: { validRows: true, createReader: () => { let done = false; return { read: () => (done ? null : (done = true, { rows: [["not an int"]] })), position: () => null, close() {} }; } },
    }));
    const t = e.from(TableDescriptor.forConnector("trusting").schema(Schema.newBuilder().column("id", DataTypes.STRING()).build()).build());
    expect(await t.execute().toChangelog()).toEqual(["+I[not an int]"]);
  });

  it("a 'step' sink sees the rows of every step while the job runs; a 'batch' sink only at the end", async () => {
    const seen: Record<string, number> = { step: 0, batch: 0 };
    const sink = (handOver: "step" | "batch") => defineConnector({
      name: `${handOver}-sink`,
      options: {},
      sink: { handOver, createWriter: () => ({ write(b: SinkBatch) { seen[handOver]! += b.rows.length; }, close() {} }) },
    });
    let release!: () => void;
    const gate = new Promise<void>((r) => { release = r; });
    async function* rows() {
      yield { id: 1 }; yield { id: 2 };
      await gate;
      yield { id: 3 };
    }
    const one = Schema.newBuilder().column("id", DataTypes.INT()).build();
    for (const handOver of ["step", "batch"] as const) {
      const e = env().registerConnector(sink(handOver));
      const job = e.fromAsyncIterable(one, rows()).executeInsert(TableDescriptor.forConnector(`${handOver}-sink`).schema(one).build());
      await new Promise((r) => setTimeout(r, 100));
      // the source waits after two rows: a step sink has them, a batch sink (500 rows per batch) not yet
      expect(seen[handOver]).toBe(handOver === "step" ? 2 : 0);
      if (handOver === "batch") { release(); await job.await(); expect(seen.batch).toBe(3); }
      else { await job.getJobClient().cancel(); await job.await().catch(() => {}); }
    }
  });

  it("the attachment a descriptor carries reaches the sink factory", async () => {
    const store = { attachmentOf: "memory", rows: [] as unknown[][] };
    const memory = defineConnector({
      name: "memory",
      options: {},
      sink: {
        createWriter: (ctx) => {
          const target = ctx.attachment as typeof store;
          return { write(b: SinkBatch) { target.rows.push(...b.rows.map((r) => [...r])); }, close() {} };
        },
      },
    });
    const e = env().registerConnector(memory);
    const one = Schema.newBuilder().column("x", DataTypes.INT()).build();
    const values = e.fromValues(DataTypes.ROW(DataTypes.FIELD("x", DataTypes.INT())), Row.of(1), Row.of(2), Row.of(3));
    await values.executeInsert(TableDescriptor.forConnector("memory").schema(one).attach(store).build()).await();
    expect(store.rows).toEqual([[1], [2], [3]]);
  });
});
