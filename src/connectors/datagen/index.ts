import { randomBytes } from "node:crypto";
import { ValidationError } from "../../types/errors.js";
import { checkOptionKeys, type ConnectorTable } from "../connector-spec.js";
import { type Connector, intOption } from "../connector.js";
import { FIELD_OPTIONS, fieldGenerator } from "./fields.js";
import { DatagenReader } from "./reader.js";

/**
 * Flink's `datagen` connector: generated rows for testing and demos. Options: `rows-per-second`
 * (default 10000), `number-of-rows` (unbounded without), `fields.<f>.*` (see fields.ts) and, beyond
 * Flink, `seed`: with it a table produces the same values on every run (timestamps come from the job's
 * clock, `env.setClock`).
 */
function checkFieldOptions(table: ConnectorTable): void {
  for (const key of table.options.keys()) {
    if (!key.startsWith("fields.")) continue;
    const rest = key.slice("fields.".length);
    const dot = rest.lastIndexOf(".");
    const field = rest.slice(0, dot);
    const opt = rest.slice(dot + 1);
    if (dot < 0 || !(FIELD_OPTIONS as readonly string[]).includes(opt)) {
      throw new ValidationError(`datagen table '${table.tableName}': unsupported option '${key}'; field options are fields.<column>.{${FIELD_OPTIONS.join(", ")}}`);
    }
    if (!table.physical.has(field)) {
      throw new ValidationError(`datagen table '${table.tableName}': option '${key}' names column '${field}', which is not a physical column of [${table.physical.names.join(", ")}]`);
    }
  }
}

function seedOf(table: ConnectorTable): string {
  const s = table.options.get("seed");
  if (s !== undefined && !/^-?\d+$/.test(s.trim())) throw new ValidationError(`option 'seed' of table '${table.tableName}' must be a whole number, got '${s}'`);
  return s ?? randomBytes(8).toString("hex");
}

/** Rows a table produces: number-of-rows, capped by the shortest sequence. */
function totalRows(table: ConnectorTable, limits: readonly number[]): number {
  const n = intOption(table, "number-of-rows", 0);
  return Math.min(n ?? Infinity, ...limits);
}

export const datagenConnector: Connector = {
  name: "datagen",
  canRead: true,
  canWrite: false,
  validate(table) {
    checkOptionKeys(table, ["rows-per-second", "number-of-rows", "seed", "scan.parallelism"], FIELD_OPTIONS.map((o) => `fields.#.${o}`));
    checkFieldOptions(table);
    intOption(table, "rows-per-second", 1);
    intOption(table, "number-of-rows", 0);
    seedOf(table);
    // builds every generator once, so that option errors surface when the table is used, not when it runs
    table.physical.columns.forEach((c) => fieldGenerator(table, c.name, c.type, "0", () => 0));
  },
  isBounded(table) {
    if (table.options.has("number-of-rows")) return true;
    return table.physical.names.some((n) => table.options.get(`fields.${n}.kind`) === "sequence");
  },
  createReader(table, settings) {
    const seed = seedOf(table);
    const fields = table.physical.columns.map((c) => fieldGenerator(table, c.name, c.type, seed, settings.clock));
    return new DatagenReader(fields, intOption(table, "rows-per-second", 1, 10000)!, totalRows(table, fields.map((f) => f.limit)));
  },
};
