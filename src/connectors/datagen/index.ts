import { randomBytes } from "node:crypto";
import { ValidationError } from "../../types/errors.js";
import { defineConnector } from "../api/define.js";
import { option } from "../api/options.js";
import type { TableContext } from "../api/contract.js";
import { FIELD_OPTIONS, fieldGenerator } from "./fields.js";
import { DatagenReader, type DatagenPosition } from "./reader.js";

/**
 * Flink's `datagen` connector: generated rows for testing and demos, defined with the public connector API
 * as a user's connector is. Options: `rows-per-second` (default 10000), `number-of-rows` (unbounded without),
 * `fields.<f>.*` (see fields.ts) and, beyond Flink, `seed`: with it a table produces the same values on
 * every run (timestamps come from the job's clock, `env.setClock`).
 */
const options = {
  "rows-per-second": option.int({ default: 10000, min: 1, description: "Rows generated per second." }),
  "number-of-rows": option.int({ min: 0, description: "Rows to generate; unbounded when absent." }),
  seed: option.string({ description: "A whole number: the same seed gives the same values on every run." }),
  "scan.parallelism": option.int({ min: 1, description: "Accepted for Flink compatibility; jobs run on one worker." }),
} as const;

type Datagen = TableContext<typeof options>;

/** `fields.<column>.<option>`: the option must be a field option and the column a physical one. */
function checkFieldOptions(table: Datagen): void {
  const names = table.columns.map((c) => c.name);
  for (const key of table.rawOptions.keys()) {
    if (!key.startsWith("fields.")) continue;
    const rest = key.slice("fields.".length);
    const dot = rest.lastIndexOf(".");
    const field = rest.slice(0, dot);
    const opt = rest.slice(dot + 1);
    if (dot < 0 || !(FIELD_OPTIONS as readonly string[]).includes(opt)) {
      throw new ValidationError(`datagen table '${table.tableName}': unsupported option '${key}'; field options are fields.<column>.{${FIELD_OPTIONS.join(", ")}}`);
    }
    if (!names.includes(field)) {
      throw new ValidationError(`datagen table '${table.tableName}': option '${key}' names column '${field}', which is not a physical column of [${names.join(", ")}]`);
    }
  }
}

function seedOf(table: Datagen): string {
  const s = table.options.seed;
  if (s !== undefined && !/^-?\d+$/.test(s.trim())) throw new ValidationError(`option 'seed' of table '${table.tableName}' must be a whole number, got '${s}'`);
  // without a seed every reader draws its own; a restored reader keeps it in its position
  return s ?? randomBytes(8).toString("hex");
}

function generators(table: Datagen, seed: string, clock: () => number) {
  return table.columns.map((c) => fieldGenerator(table, c.name, c.type, seed, clock));
}

export const datagenConnector = defineConnector({
  name: "datagen",
  options,
  optionPatterns: FIELD_OPTIONS.map((o) => `fields.#.${o}`),
  validate(table) {
    checkFieldOptions(table);
    seedOf(table);
    // builds every generator once, so that option errors surface when the table is used, not when it runs
    generators(table, "0", () => 0);
  },
  source: {
    bounded: (table) => table.options["number-of-rows"] !== undefined || table.columns.some((c) => table.rawOptions.get(`fields.${c.name}.kind`) === "sequence"),
    // values come from generators built from the column types
    validRows: true,
    createReader(ctx) {
      const from = ctx.restoreFrom as DatagenPosition | null | undefined;
      const seed = from?.seed ?? seedOf(ctx);
      const fields = generators(ctx, seed, ctx.clock);
      // rows a table produces: number-of-rows, capped by the shortest sequence
      const total = Math.min(ctx.options["number-of-rows"] ?? Infinity, ...fields.map((f) => f.limit));
      const reader = new DatagenReader(fields, seed, ctx.options["rows-per-second"], total);
      if (from !== undefined && from !== null) reader.seek(from);
      return reader;
    },
  },
});
