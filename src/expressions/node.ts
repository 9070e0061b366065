import type { DataType } from "../types/data-type.js";

/**
 * The runtime expression tree: immutable plain objects with a `kind` equal to their role.
 * Built by the fluent Expression API, resolved against a schema (resolve.ts), compiled to JS (compile.ts).
 */
export type ExprNode =
  | ColumnNode
  | LiteralNode
  | CallNode
  | AliasNode
  | AggNode
  | SortNode
  | ArgumentNode
  | DescriptorNode
  | DefaultNode
  | TableArgNode;

export interface ColumnNode { readonly kind: "Column"; readonly name: string }
/** `type` is set for typed literals (`lit(1, DataTypes.BIGINT())`, intervals); otherwise inferred from the value. */
export interface LiteralNode { readonly kind: "Literal"; readonly value: unknown; readonly type?: DataType }
export interface CallNode { readonly kind: "Call"; readonly fn: string; readonly args: readonly ExprNode[]; readonly udf?: unknown }
export interface AliasNode { readonly kind: "Alias"; readonly name: string; readonly extraNames: readonly string[]; readonly expr: ExprNode }
export interface AggNode { readonly kind: "Agg"; readonly fn: string; readonly args: readonly ExprNode[]; readonly distinct: boolean; readonly udf?: unknown }
export interface SortNode { readonly kind: "Sort"; readonly ascending: boolean; readonly nullsFirst: boolean | undefined; readonly expr: ExprNode }
/** `expr.asArgument("name")`: a named argument of a function call (PTFs). */
export interface ArgumentNode { readonly kind: "Argument"; readonly name: string; readonly expr: ExprNode }
/** `descriptor("a", "b")`: a column list argument (PTF on_time). */
export interface DescriptorNode { readonly kind: "Descriptor"; readonly names: readonly string[] }
/** A positional `null` / DEFAULT argument. */
export interface DefaultNode { readonly kind: "Default" }
/** A table passed as a PTF argument (`table.asArgument("r")`, `table.partitionBy(...).asArgument(...)`). */
export interface TableArgNode { readonly kind: "TableArg"; readonly table: unknown }

export const col = (name: string): ColumnNode => ({ kind: "Column", name });
export const literal = (value: unknown, type?: DataType): LiteralNode =>
  type === undefined ? { kind: "Literal", value } : { kind: "Literal", value, type };
export const callNode = (fn: string, args: readonly ExprNode[]): CallNode => ({ kind: "Call", fn, args });

/** Renders a node the way Flink's Table API prints expressions, for error messages and explain(). */
export function nodeToString(n: ExprNode): string {
  switch (n.kind) {
    case "Column": return n.name;
    case "Literal": return literalToString(n.value);
    case "Call": return callToString(n);
    case "Alias": return `${nodeToString(n.expr)} AS ${n.name}`;
    case "Agg": return `${n.fn}(${n.distinct ? "DISTINCT " : ""}${n.args.map(nodeToString).join(", ")})`;
    case "Sort": return `${nodeToString(n.expr)} ${n.ascending ? "ASC" : "DESC"}`;
    case "Argument": return `${n.name} => ${nodeToString(n.expr)}`;
    case "Descriptor": return `DESCRIPTOR(${n.names.join(", ")})`;
    case "Default": return "DEFAULT";
    case "TableArg": return "TABLE";
  }
}

function literalToString(v: unknown): string {
  if (v === null || v === undefined) return "NULL";
  if (typeof v === "string") return `'${v}'`;
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? "Invalid Date" : v.toISOString();
  return String(v);
}

/** A call with its Flink Table API name (`ifThenElse`, a user function's name); a CAST shows its target type. */
function callToString(n: CallNode): string {
  const name = n.udf ? (n.udf as { name: string }).name : n.fn === "if" ? "ifThenElse" : n.fn;
  const target = n.args[1];
  const args = (n.fn === "cast" || n.fn === "tryCast") && target?.kind === "Literal" && target.type
    ? [nodeToString(n.args[0]!), String(target.type)]
    : n.args.map(nodeToString);
  return `${name}(${args.join(", ")})`;
}
