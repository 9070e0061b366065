import * as arrow from "apache-arrow";
import { ValidationError } from "../../types/errors.js";
import { KIND_SHORT } from "../../types/row.js";
import { ResolvedSchema } from "../../types/resolved-schema.js";
import { valuesNode } from "../../plan/nodes.js";
import { Table } from "../table.js";
import { TableResult } from "../table-result.js";
import type { TableEnvironment } from "../table-environment.js";
import { columnData, readColumn } from "./arrow-columns.js";
import { fromArrowType, toArrowType } from "./arrow-types.js";

/** Name of the extra column holding each row's kind (`+I -U +U -D`) in the Arrow table of an updating result. */
export const ARROW_KIND_COLUMN = "$row_kind";

/**
 * Runs a bounded table (or consumes a result) and returns its rows as an `apache-arrow` Table, built
 * column by column from the job's records (one typed buffer per column, one record batch per job slice).
 * An updating table (its changelog mode is not `[I]`; for a TableResult: any row is not +I) gets the
 * extra Utf8 column `$row_kind` with each row's kind; an insert-only one does not.
 */
export async function toArrow(source: Table<object> | TableResult<object>): Promise<arrow.Table> {
  const result = source instanceof Table ? source.execute() : source;
  const updating = source instanceof Table ? source.changelogMode() !== "[I]" : undefined;
  const schema = result.getResolvedSchema();
  const names = schema.names;
  const types = schema.types;
  if (names.includes(ARROW_KIND_COLUMN)) throw new ValidationError(`toArrow: a column may not be named '${ARROW_KIND_COLUMN}' (it holds the row kind)`);
  const arrowTypes = types.map((t, j) => toArrowType(t.withTimeAttribute(undefined), names[j]!));
  const fields = names.map((n, j) => new arrow.Field(n, arrowTypes[j]!, types[j]!.isNullable));
  const chunks: { kinds: number[]; data: arrow.Data[] }[] = [];
  let sawUpdate = false;
  for await (const { kinds, rows } of result.rawSlices()) {
    if (!sawUpdate) for (let i = 0; i < kinds.length; i++) if (kinds[i] !== 0) { sawUpdate = true; break; }
    chunks.push({ kinds, data: types.map((t, j) => columnData(t, arrowTypes[j]!, rows, j)) });
  }
  const withKind = updating ?? sawUpdate;
  const allFields = withKind ? [...fields, new arrow.Field(ARROW_KIND_COLUMN, new arrow.Utf8(), false)] : fields;
  const arrowSchema = new arrow.Schema(allFields);
  const batches = chunks.map(({ kinds, data }) => {
    const cols = withKind ? [...data, kindData(kinds)] : data;
    const struct = arrow.makeData({ type: new arrow.Struct(allFields), length: kinds.length, nullCount: 0, children: cols });
    return new arrow.RecordBatch(arrowSchema, struct);
  });
  return batches.length > 0 ? new arrow.Table(batches) : new arrow.Table(arrowSchema);
}

function kindData(kinds: readonly number[]): arrow.Data {
  // "+I" "-U" "+U" "-D" are two ASCII bytes each
  const n = kinds.length;
  const offsets = new Int32Array(n + 1);
  const bytes = new Uint8Array(n * 2);
  for (let i = 0; i < n; i++) {
    const k = KIND_SHORT[kinds[i]!]!;
    bytes[2 * i] = k.charCodeAt(0);
    bytes[2 * i + 1] = k.charCodeAt(1);
    offsets[i + 1] = 2 * i + 2;
  }
  return arrow.makeData({ type: new arrow.Utf8(), length: n, nullCount: 0, valueOffsets: offsets, data: bytes });
}

/**
 * An `apache-arrow` Table as a tablestream Table (bounded, insert-only; a `$row_kind` column, as toArrow
 * writes it, gives the rows their kinds). The schema is mapped from the Arrow fields (nullability
 * included); values are read column by column into the job's positional records.
 */
export function fromArrow(env: TableEnvironment, source: arrow.Table): Table<Record<string, unknown>> {
  if (!(source instanceof arrow.Table)) throw new ValidationError("fromArrow: expected an apache-arrow Table");
  const fields = source.schema.fields.filter((f) => f.name !== ARROW_KIND_COLUMN);
  const kindVec = source.getChild(ARROW_KIND_COLUMN);
  const columns = fields.map((f) => ({ name: f.name, type: fromArrowType(f, `fromArrow: column '${f.name}'`) }));
  const schema = new ResolvedSchema(columns);
  const n = source.numRows;
  const rows: unknown[][] = new Array(n);
  for (let i = 0; i < n; i++) rows[i] = new Array(columns.length);
  fields.forEach((f, j) => readColumn(source.getChild(f.name)!, columns[j]!.type, rows, j, f.name));
  if (kindVec) {
    const kinds = new Array<number>(n);
    for (let i = 0; i < n; i++) {
      const k = KIND_SHORT.indexOf(kindVec.get(i));
      if (k < 0) throw new ValidationError(`fromArrow: row ${i + 1}: '${kindVec.get(i)}' in column '${ARROW_KIND_COLUMN}' is not a row kind (+I, -U, +U, -D)`);
      kinds[i] = k;
    }
    return new Table(env, valuesNode({ schema, rows, kinds }));
  }
  return new Table(env, valuesNode({ schema, rows }));
}
