import { ValidationError } from "../../types/errors.js";
import { ResolvedSchema } from "../../types/resolved-schema.js";
import { setOwn, getOwn } from "../../types/own.js";
import type { ConnectorTable } from "../connector-spec.js";
import { CsvParser } from "../filesystem/csv-parser.js";
import { decodeJson, decodeText, encodeCsv, encodeJson, FieldError } from "../filesystem/codec.js";
import { CSV_OPTIONS, fileFormat, JSON_OPTIONS } from "../filesystem/format.js";
import { parseJsonLine } from "../filesystem/json-exact.js";
import type { ConnectorColumn, FormatDefinition, RowFormat } from "./contract.js";
import { defineFormat } from "./define.js";
import { option, type OptionDecls } from "./options.js";

/**
 * The built-in row formats, usable by any connector that declares `formats`: `csv` and `json` (JSON
 * Lines) are the filesystem connector's formats (same options, same codec, same rules), `raw` is one
 * STRING column holding the whole record text (Flink's raw format).
 */
function asTable(columns: readonly ConnectorColumn[], tableName: string, format: string, options: Record<string, unknown>): ConnectorTable {
  const opts = new Map<string, string>([["format", format]]);
  for (const [k, v] of Object.entries(options)) if (v !== undefined) opts.set(`${format}.${k}`, String(v));
  return { tableName, connector: format, options: opts, physical: new ResolvedSchema(columns.map((c) => ({ name: c.name, type: c.type }))) };
}

function stringOptions(keys: readonly string[], prefix: string): OptionDecls {
  return Object.fromEntries(keys.map((k) => [k.slice(prefix.length), option.string()]));
}

function fieldFailure(tableName: string, format: string, columns: readonly ConnectorColumn[], i: number, e: unknown): never {
  if (e instanceof FieldError) throw new ValidationError(`table '${tableName}' (format '${format}'), column ${i + 1} ('${columns[i]?.name}'): ${e.message}`);
  throw e;
}

export const csvFormat = defineFormat({
  name: "csv",
  options: stringOptions(CSV_OPTIONS, "csv."),
  create(columns, options, tableName): RowFormat {
    const f = fileFormat(asTable(columns, tableName, "csv", options));
    if (f.kind !== "csv") throw new Error("unreachable");
    const types = columns.map((c) => c.type);
    let fields: (string | null)[] | undefined;
    let problem: string | undefined;
    const parser = () => new CsvParser(
      { delimiter: f.delimiter, quote: f.quote, escape: f.escape, comments: f.comments, nullLiteral: f.nullLiteral },
      (fs) => { fields ??= fs; },
      (_line, column, message) => { problem ??= `column ${column}: malformed CSV: ${message}`; },
    );
    return {
      name: "csv",
      decode(text) {
        fields = undefined;
        problem = undefined;
        const p = parser();
        p.push(text);
        p.end();
        if (problem !== undefined) throw new ValidationError(`table '${tableName}' (format 'csv'): ${problem}`);
        const fs = fields ?? [null];
        if (fs.length !== types.length) throw new ValidationError(`table '${tableName}' (format 'csv'): expected ${types.length} field(s) [${columns.map((c) => c.name).join(", ")}], got ${fs.length}`);
        const row = new Array<unknown>(types.length);
        for (let i = 0; i < types.length; i++) {
          try { row[i] = fs[i] === null ? null : decodeText(types[i]!, fs[i]!, f); } catch (e) { fieldFailure(tableName, "csv", columns, i, e); }
        }
        return row;
      },
      encode(row) {
        return encodeCsv(types, row, f);
      },
    };
  },
});

export const jsonFormat = defineFormat({
  name: "json",
  options: stringOptions(JSON_OPTIONS, "json."),
  create(columns, options, tableName): RowFormat {
    const f = fileFormat(asTable(columns, tableName, "json", options));
    if (f.kind !== "json") throw new Error("unreachable");
    const names = columns.map((c) => c.name);
    return {
      name: "json",
      decode(text) {
        let obj: unknown;
        try { obj = parseJsonLine(text); } catch (e) {
          throw new ValidationError(`table '${tableName}' (format 'json'): malformed JSON: ${(e as Error).message}`);
        }
        if (obj === null || typeof obj !== "object" || Array.isArray(obj)) throw new ValidationError(`table '${tableName}' (format 'json'): expected a JSON object, got ${text.slice(0, 40)}`);
        const row = new Array<unknown>(columns.length);
        for (let i = 0; i < columns.length; i++) {
          const v = getOwn(obj as Record<string, unknown>, names[i]!);
          if (v === undefined && f.failOnMissingField) throw new ValidationError(`table '${tableName}' (format 'json'), column ${i + 1} ('${names[i]}'): the field is missing (json.fail-on-missing-field)`);
          try { row[i] = decodeJson(columns[i]!.type, v === undefined ? null : v, f.failOnMissingField); } catch (e) { fieldFailure(tableName, "json", columns, i, e); }
        }
        return row;
      },
      encode(row) {
        const o: Record<string, unknown> = {};
        for (let i = 0; i < columns.length; i++) setOwn(o, names[i]!, encodeJson(columns[i]!.type, row[i], f.isoTimestamps));
        return JSON.stringify(o);
      },
    };
  },
});

export const rawFormat = defineFormat({
  name: "raw",
  options: { "null-literal": option.string({ description: "Text that reads as NULL (and NULL is written as)." }) },
  create(columns, options, tableName): RowFormat {
    if (columns.length !== 1 || !["VARCHAR", "CHAR"].includes(columns[0]!.type.root)) {
      throw new ValidationError(`table '${tableName}': format 'raw' needs exactly one STRING column, got [${columns.map((c) => `${c.name} ${c.type}`).join(", ")}]`);
    }
    const nullText = options["null-literal"];
    return {
      name: "raw",
      decode: (text) => [nullText !== undefined && text === nullText ? null : text],
      encode: (row) => (row[0] === null ? (nullText ?? "") : String(row[0])),
    };
  },
});

const BUILT_IN_FORMATS: readonly FormatDefinition[] = [csvFormat as FormatDefinition, jsonFormat as FormatDefinition, rawFormat as FormatDefinition];

/** The names of the formats a connector declaring `formats: true` accepts. */
export function formatNames(): string[] {
  return BUILT_IN_FORMATS.map((f) => f.name);
}

/** The built-in format of that name. */
export function formatDefinition(name: string): FormatDefinition {
  const f = BUILT_IN_FORMATS.find((x) => x.name === name);
  if (!f) throw new ValidationError(`unknown format '${name}'; available: [${formatNames().join(", ")}]`);
  return f;
}
