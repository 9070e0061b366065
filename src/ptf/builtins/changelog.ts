import type { ExprNode } from "../../expressions/node.js";
import { DataType } from "../../types/data-type.js";
import { DataTypes } from "../../types/data-types.js";
import { TableRuntimeException, ValidationError } from "../../types/errors.js";
import type { ResolvedSchema } from "../../types/resolved-schema.js";
import { Row, type RowKind } from "../../types/row.js";
import { ScalarArgDecl, TableArgDecl } from "../arguments.js";
import { ChangelogMode } from "../changelog.js";
import { ProcessTableFunction } from "../function.js";
import { ArgumentTrait } from "../traits.js";

/** Flink's default op codes: the RowKind names. */
const OP_TO_KIND: Readonly<Record<string, RowKind>> = { INSERT: "+I", UPDATE_BEFORE: "-U", UPDATE_AFTER: "+U", DELETE: "-D" };
const KIND_TO_OP: Readonly<Record<string, string>> = { "+I": "INSERT", "-U": "UPDATE_BEFORE", "+U": "UPDATE_AFTER", "-D": "DELETE" };

const row = (schema: ResolvedSchema, skip: number) =>
  DataTypes.ROW(...schema.columns.filter((_, i) => i !== skip).map((c) => DataTypes.FIELD(c.name, c.type)));

/**
 * `FROM_CHANGELOG(input => TABLE t [, op => DESCRIPTOR(op_column)])`: an append-only table with an
 * operation-code column becomes a changelog. The op column (default `op`) is consumed; the other columns
 * are forwarded in a row of the kind the code names (`INSERT`, `UPDATE_BEFORE`, `UPDATE_AFTER`, `DELETE`).
 * Output mode: retract (`[INSERT, UPDATE_BEFORE, UPDATE_AFTER, DELETE]`).
 */
export const FromChangelog = ProcessTableFunction.define({
  name: "FROM_CHANGELOG",
  args: {
    input: new TableArgDecl([ArgumentTrait.ROW_SEMANTIC_TABLE]),
    op: new ScalarArgDecl(new DataType("DESCRIPTOR", true), true),
  },
  output: DataTypes.ROW(),
  eval() {
    throw new TableRuntimeException("FROM_CHANGELOG runs only as specialised for its input table");
  },
  internal: {
    specialize(tables: ReadonlyMap<string, ResolvedSchema>, nodes: ReadonlyMap<string, ExprNode>): ProcessTableFunction<unknown, unknown, unknown> {
      const schema = tables.get("input");
      if (schema === undefined) throw new ValidationError("Invalid argument value. Argument 'input' expects a table to be passed.");
      const opNode = nodes.get("op");
      let opName = "op";
      if (opNode !== undefined) {
        if (opNode.kind !== "Descriptor" || opNode.names.length !== 1) {
          throw new ValidationError("The 'op' argument of FROM_CHANGELOG must be a descriptor of one column, e.g. op => DESCRIPTOR(operation).");
        }
        opName = opNode.names[0]!;
      }
      const opIndex = schema.names.indexOf(opName);
      if (opIndex < 0) {
        throw new ValidationError(`Invalid op column '${opName}' for FROM_CHANGELOG. Available columns are: [${schema.names.join(", ")}]`);
      }
      const opType = schema.columns[opIndex]!.type;
      if (opType.root !== "VARCHAR" && opType.root !== "CHAR") {
        throw new ValidationError(`The op column '${opName}' of FROM_CHANGELOG must be a character string, but has data type '${opType}'.`);
      }
      const n = schema.size;
      return ProcessTableFunction.define({
        name: "FROM_CHANGELOG",
        args: FromChangelog.args.reduce((o, a) => ({ ...o, [a.name]: a.decl }), {}) as { input: TableArgDecl; op: ScalarArgDecl<unknown, true> },
        output: row(schema, opIndex),
        changelogMode: ChangelogMode.all(),
        eval(ctx, _s, { input }) {
          const values = Object.values(input as object);
          const code = values[opIndex];
          const kind = typeof code === "string" ? OP_TO_KIND[code] : undefined;
          if (kind === undefined) {
            throw new TableRuntimeException(`Received invalid op code '${String(code)}' in column '${opName}'. Valid op codes are: [${Object.keys(OP_TO_KIND).join(", ")}]`);
          }
          const out: unknown[] = [];
          for (let i = 0; i < n; i++) if (i !== opIndex) out.push(values[i]);
          ctx.collect(Row.ofKind(kind, ...out));
        },
      }) as unknown as ProcessTableFunction<unknown, unknown, unknown>;
    },
  },
});

/**
 * `TO_CHANGELOG(input => TABLE t)`: the inverse of FROM_CHANGELOG. Every change of a (possibly updating)
 * table becomes an appended row `op, <columns>` whose `op` names its kind (`INSERT`, `UPDATE_BEFORE`,
 * `UPDATE_AFTER`, `DELETE`); updates arrive as retractions.
 */
export const ToChangelog = ProcessTableFunction.define({
  name: "TO_CHANGELOG",
  args: { input: new TableArgDecl([ArgumentTrait.ROW_SEMANTIC_TABLE, ArgumentTrait.SUPPORT_UPDATES]) },
  output: DataTypes.ROW(),
  eval() {
    throw new TableRuntimeException("TO_CHANGELOG runs only as specialised for its input table");
  },
  internal: {
    specialize(tables: ReadonlyMap<string, ResolvedSchema>): ProcessTableFunction<unknown, unknown, unknown> {
      const schema = tables.get("input");
      if (schema === undefined) throw new ValidationError("Invalid argument value. Argument 'input' expects a table to be passed.");
      if (schema.names.includes("op")) throw new ValidationError(`TO_CHANGELOG adds a column 'op'; the input table has one already: [${schema.names.join(", ")}]`);
      return ProcessTableFunction.define({
        name: "TO_CHANGELOG",
        args: { input: ToChangelog.args[0]!.decl as TableArgDecl },
        output: DataTypes.ROW(DataTypes.FIELD("op", DataTypes.STRING().notNull()), ...schema.columns.map((c) => DataTypes.FIELD(c.name, c.type))),
        eval(ctx, _s, { input }) {
          ctx.collect(Row.of(KIND_TO_OP[Row.kindOf(input)], ...Object.values(input)));
        },
      }) as unknown as ProcessTableFunction<unknown, unknown, unknown>;
    },
  },
});
