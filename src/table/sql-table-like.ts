import { ValidationError } from "../types/errors.js";
import type { TableDescriptor } from "./table-descriptor.js";
import type { ColumnDef, CreateTableStatement } from "../sql/ast.js";
import type { LikeOption } from "../sql/catalog-ast.js";

type Mode = LikeOption["mode"];
type Feature = "CONSTRAINTS" | "PARTITIONS" | "GENERATED" | "OPTIONS" | "WATERMARKS" | "METADATA";

/**
 * Flink's merging strategies of `CREATE TABLE t (...) WITH (...) LIKE source (options)`, applied in the
 * order written: the default is `INCLUDING ALL OVERWRITING OPTIONS`; `ALL` sets every feature; a later
 * option overrides an earlier one for the same feature.
 */
export function likeStrategies(options: readonly LikeOption[]): Record<Feature, Mode> {
  const s: Record<Feature, Mode> = {
    CONSTRAINTS: "INCLUDING", PARTITIONS: "INCLUDING", GENERATED: "INCLUDING", OPTIONS: "OVERWRITING", WATERMARKS: "INCLUDING", METADATA: "INCLUDING",
  };
  for (const o of options) {
    if (o.feature === "ALL") {
      for (const k of Object.keys(s) as Feature[]) s[k] = o.mode;
    } else {
      s[o.feature] = o.mode;
    }
  }
  return s;
}

/**
 * The statement with the source table's declarations merged in, as Flink's MergeTableLikeUtil does:
 * the source's columns first (physical always; computed and metadata per GENERATED / METADATA), then the
 * new ones; the primary key per CONSTRAINTS, the watermark per WATERMARKS, the options per OPTIONS.
 * Conflicts raise Flink's messages. `fail(pos, message)` raises at a position of the statement.
 */
export function mergeLike(s: CreateTableStatement, source: TableDescriptor<object>, fail: (pos: number, message: string) => never): CreateTableStatement {
  const like = s.like!;
  const st = likeStrategies(like.options);
  const base = source.schemaSpec;
  const columns: ColumnDef[] = [];
  if (base !== undefined) {
    for (const c of base.columns) {
      if (c.kind === "physical") {
        columns.push({ kind: "physical", name: c.name, type: c.type, pos: like.pos });
      } else if (c.kind === "metadata") {
        if (st.METADATA !== "EXCLUDING") columns.push({ kind: "metadata", name: c.name, type: c.type, key: c.key, virtual: c.virtual, pos: like.pos });
      } else if (st.GENERATED !== "EXCLUDING") {
        columns.push({ kind: "computed", name: c.name, sql: c.sql ?? "", ...(c.sql === undefined ? { node: c.expr } : {}), pos: like.pos });
      }
    }
  }
  for (const c of s.columns) {
    const i = columns.findIndex((x) => x.name === c.name);
    if (i < 0) { columns.push(c); continue; }
    const existing = columns[i]!;
    if (existing.kind === "physical" || c.kind === "physical") fail(c.pos, `A column named '${c.name}' already exists in the base table.`);
    const feature = existing.kind === "computed" ? "GENERATED" : "METADATA";
    const what = existing.kind === "computed" ? "generated" : "metadata";
    if (st[feature] !== "OVERWRITING" || existing.kind !== c.kind) {
      fail(c.pos, `A ${what} column named '${c.name}' already exists in the base table. You might want to specify EXCLUDING ${feature} or OVERWRITING ${feature}.`);
    }
    columns[i] = c;
  }

  let watermark = s.watermark;
  const baseWm = base?.watermarkSpec;
  if (baseWm !== undefined && st.WATERMARKS !== "EXCLUDING") {
    if (watermark === undefined) {
      watermark = { column: baseWm.column, sql: baseWm.sql ?? "", ...(baseWm.sql === undefined ? { node: baseWm.expr } : {}), pos: like.pos };
    } else if (st.WATERMARKS === "INCLUDING") {
      fail(watermark.pos, watermark.column === baseWm.column
        ? `There already exists a watermark spec for column '${baseWm.column}' in the base table. You might want to specify EXCLUDING WATERMARKS or OVERWRITING WATERMARKS.`
        : "Multiple watermark definitions are not supported yet.");
    }
  }

  let primaryKey = s.primaryKey;
  const basePk = base?.primaryKeySpec;
  if (basePk !== undefined && st.CONSTRAINTS === "INCLUDING") {
    if (primaryKey !== undefined) fail(s.pos, "The base table already has a primary key. You might want to specify EXCLUDING CONSTRAINTS.");
    primaryKey = basePk.columns;
  }

  const options: [string, string, number][] = [];
  if (st.OPTIONS !== "EXCLUDING") {
    options.push(["connector", source.connector, like.pos]);
    for (const [k, v] of source.options) options.push([k, v, like.pos]);
  }
  for (const o of s.options) {
    const i = options.findIndex(([k]) => k === o[0]);
    if (i < 0) { options.push([o[0], o[1], o[2]]); continue; }
    if (st.OPTIONS === "INCLUDING") {
      fail(o[2], `There already exists an option ['${o[0]}' -> '${options[i]![1]}'] in the base table. You might want to specify EXCLUDING OPTIONS or OVERWRITING OPTIONS.`);
    }
    options[i] = [o[0], o[1], o[2]];
  }
  const { like: _like, ...rest } = s;
  return { ...rest, columns, watermark, primaryKey, options, comment: s.comment };
}

/** Flink's message for a LIKE source that is missing or a view. */
export function likeSourceError(name: string, isView: boolean): ValidationError {
  return new ValidationError(isView
    ? `Source table '\`default_catalog\`.\`default_database\`.\`${name}\`' of the LIKE clause can not be a VIEW`
    : `Source table '\`default_catalog\`.\`default_database\`.\`${name}\`' of the LIKE clause not found in the catalog`);
}
