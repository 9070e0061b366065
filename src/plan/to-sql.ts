import type { ExprNode } from "../expressions/node.js";
import { exprToSql, literalToSql, quoteIdentifier as q, type SqlRenderContext } from "../expressions/to-sql.js";
import { ValidationError } from "../types/errors.js";
import type { ResolvedSchema } from "../types/resolved-schema.js";
import type { PlanNode, SinkNode } from "./nodes.js";
import type { SortKey } from "./nodes/sort.js";
import { matchToSql } from "./match-to-sql.js";

/** What the renderer needs from the environment: the registered name of a function (object or name). */
export interface ToSqlContext {
  functionName(udfOrName: unknown): string | undefined;
}

/**
 * Renders a logical plan as Flink SQL (`Table.toSql()`, `StatementSet.toSql()`): each node becomes a
 * query over its input as a derived table, so the text mirrors the plan one node at a time and every
 * node's output columns keep their names. Values are written with CASTs to their exact types; tables
 * by their registered names; functions by the names they are registered under. A node kind without a
 * SQL form here (PTF calls, group windows, over windows, interval / temporal / lookup joins) raises a
 * ValidationError naming it. The text is read back by `executeSql` onto the same plan shapes
 * (a property test checks that both give the same changelog).
 */
export function planToSql(node: PlanNode, ctx: ToSqlContext): string {
  return new Renderer(ctx).statement(node);
}

class Renderer {
  private aliases = 0;
  constructor(private readonly ctx: ToSqlContext) {}

  statement(n: PlanNode): string {
    if (n.kind === "Sink") return this.insert(n);
    if (n.kind === "StatementSet") return `EXECUTE STATEMENT SET\nBEGIN\n${n.sinks.map((s) => `${this.insert(s)};\n`).join("")}END`;
    return this.query(n);
  }

  private insert(s: SinkNode): string {
    if (s.tableName.startsWith("*anonymous")) throw noSqlForm("an insert into an anonymous TableDescriptor sink (register the table with createTable)");
    return `INSERT ${s.overwrite ? "OVERWRITE" : "INTO"} ${q(s.tableName)}\n${this.query(s.input)}`;
  }

  private alias(): string {
    return `t${this.aliases++}`;
  }

  /** A derived table: `(query) AS tN`. */
  private from(n: PlanNode): { sql: string; alias: string } {
    const alias = this.alias();
    if (n.kind === "SourceScan" && !n.tableName.startsWith("*anonymous")) return { sql: `${q(n.tableName)} AS ${alias}`, alias };
    return { sql: `(\n${indent(this.query(n))}\n) AS ${alias}`, alias };
  }

  private expr(e: ExprNode, schema: ResolvedSchema, qualifier?: string): string {
    const c: SqlRenderContext = {
      column: (name) => {
        if (!schema.has(name)) throw new ValidationError(`toSql: column '${name}' is not in [${schema.names.join(", ")}]`);
        return qualifier === undefined ? q(name) : `${qualifier}.${q(name)}`;
      },
      functionName: (f) => this.ctx.functionName(f),
    };
    return exprToSql(e, c);
  }

  private query(n: PlanNode): string {
    switch (n.kind) {
      case "SourceScan":
        if (n.tableName.startsWith("*anonymous")) throw noSqlForm("a scan of an anonymous TableDescriptor (register the table with createTable)");
        return `SELECT * FROM ${q(n.tableName)}`;
      case "Values": {
        if (n.kinds !== undefined) throw noSqlForm("a VALUES table with row kinds other than INSERT");
        if (n.watermark !== undefined) throw noSqlForm("a VALUES table with a watermark (declare it with CREATE TABLE)");
        if (n.rows.length === 0) throw noSqlForm("an empty VALUES table");
        const types = n.schema.types;
        const rows = n.rows.map((r) => `(${r.map((v, i) => literalToSql(v, types[i])).join(", ")})`);
        return `SELECT * FROM (VALUES ${rows.join(", ")}) AS ${this.alias()} (${n.schema.names.map(q).join(", ")})`;
      }
      case "Project": {
        const input = this.from(n.input);
        const items = n.exprs.map((e, i) => `${this.expr(e, n.input.schema)} AS ${q(n.schema.names[i]!)}`);
        return `SELECT ${items.join(", ")}\nFROM ${input.sql}`;
      }
      case "Filter": {
        const input = this.from(n.input);
        return `SELECT *\nFROM ${input.sql}\nWHERE ${this.expr(n.predicate, n.input.schema)}`;
      }
      case "Aggregate": {
        const input = this.from(n.input);
        const keys = n.groupKeys.map((k) => this.expr(k, n.input.schema));
        const names = n.schema.names;
        const items = [
          ...keys.map((k, i) => `${k} AS ${q(names[i]!)}`),
          ...n.aggCalls.map((a, i) => `${this.expr({ kind: "Agg", fn: a.fn, args: a.args, distinct: a.distinct, ...(a.udf !== undefined ? { udf: a.udf } : {}) }, n.input.schema)} AS ${q(names[keys.length + i]!)}`),
        ];
        return `SELECT ${items.join(", ")}\nFROM ${input.sql}${keys.length > 0 ? `\nGROUP BY ${keys.join(", ")}` : ""}`;
      }
      case "Distinct": return `SELECT DISTINCT *\nFROM ${this.from(n.input).sql}`;
      case "Union": return n.inputs.map((i) => `(\n${indent(this.query(i))}\n)`).join("\nUNION ALL\n");
      case "SetOp":
        return `(\n${indent(this.query(n.left))}\n)\n${n.op === "MINUS" ? "EXCEPT" : "INTERSECT"}${n.all ? " ALL" : ""}\n(\n${indent(this.query(n.right))}\n)`;
      case "Join": {
        const l = this.from(n.left);
        const r = this.from(n.right);
        const leftNames = n.left.schema.names;
        const out = n.schema.names;
        // output column i is the left's column i, or the right's column i - |left| (renamed on a clash)
        const ref = (i: number) => (i < leftNames.length ? `${l.alias}.${q(leftNames[i]!)}` : `${r.alias}.${q(n.right.schema.names[i - leftNames.length]!)}`);
        const items = out.map((name, i) => `${ref(i)} AS ${q(name)}`);
        const onOutput: SqlRenderContext = {
          column: (name) => {
            const i = out.indexOf(name);
            if (i < 0) throw new ValidationError(`toSql: column '${name}' is not in [${out.join(", ")}]`);
            return ref(i);
          },
          functionName: (f) => this.ctx.functionName(f),
        };
        const conds = n.leftKeys.map((k, i) => `(${this.expr(k, n.left.schema, l.alias)} = ${this.expr(n.rightKeys[i]!, n.right.schema, r.alias)})`);
        if (n.residual !== undefined) conds.push(exprToSql(n.residual, onOutput));
        const kind = n.joinType === "INNER" ? (conds.length === 0 ? "CROSS JOIN" : "JOIN") : `${n.joinType} JOIN`;
        const on = conds.length === 0 ? (n.joinType === "INNER" ? "" : " ON TRUE") : ` ON ${conds.join(" AND ")}`;
        return `SELECT ${items.join(", ")}\nFROM ${l.sql}\n${kind} ${r.sql}${on}`;
      }
      case "Sort": {
        const input = this.from(n.input);
        const order = n.keys.length > 0 ? `\nORDER BY ${this.sortKeys(n.keys, n.input.schema)}` : "";
        const offset = n.offset > 0 ? `\nOFFSET ${n.offset} ROWS` : "";
        const fetch = n.fetch !== undefined ? `\nFETCH NEXT ${n.fetch} ROWS ONLY` : "";
        return `SELECT *\nFROM ${input.sql}${order}${offset}${fetch}`;
      }
      case "Rank": {
        const inputNames = n.input.schema.names;
        const rn = n.rankNumber ?? freshName("rn", inputNames);
        const partition = n.partitionKeys.map((k) => q(inputNames[k]!));
        const inner = `SELECT *, ROW_NUMBER() OVER (${partition.length > 0 ? `PARTITION BY ${partition.join(", ")} ` : ""}ORDER BY ${this.sortKeys(n.orderKeys, n.input.schema)}) AS ${q(rn)}\nFROM ${this.from(n.input).sql}`;
        const cond = n.rankStart === 1 ? `${q(rn)} <= ${n.rankEnd}` : `${q(rn)} BETWEEN ${n.rankStart} AND ${n.rankEnd}`;
        return `SELECT ${n.schema.names.map(q).join(", ")}\nFROM (\n${indent(inner)}\n) AS ${this.alias()}\nWHERE ${cond}`;
      }
      case "Deduplicate": {
        if (n.rowtime === undefined) throw noSqlForm("a deduplication in processing-time order (PROCTIME() does not exist yet)");
        const inputNames = n.input.schema.names;
        const rn = freshName("rn", inputNames);
        const keys = n.keys.map((k) => q(inputNames[k]!));
        const inner = `SELECT *, ROW_NUMBER() OVER (${keys.length > 0 ? `PARTITION BY ${keys.join(", ")} ` : ""}ORDER BY ${q(inputNames[n.rowtime]!)} ${n.keepLast ? "DESC" : "ASC"}) AS ${q(rn)}\nFROM ${this.from(n.input).sql}`;
        return `SELECT ${n.schema.names.map(q).join(", ")}\nFROM (\n${indent(inner)}\n) AS ${this.alias()}\nWHERE ${q(rn)} = 1`;
      }
      case "Correlate": {
        const l = this.from(n.input);
        const r = this.alias();
        const name = this.ctx.functionName(n.udf) ?? n.functionName;
        const inputNames = n.input.schema.names;
        const fnColumns = n.schema.names.slice(inputNames.length);
        const args = n.args.map((a) => this.expr(a, n.input.schema, l.alias));
        const lateral = `LATERAL TABLE(${q(name)}(${args.join(", ")})) AS ${r} (${fnColumns.map(q).join(", ")})`;
        const items = [...inputNames.map((c) => `${l.alias}.${q(c)} AS ${q(c)}`), ...fnColumns.map((c) => `${r}.${q(c)} AS ${q(c)}`)];
        const cond = n.condition === undefined ? undefined : exprToSql(n.condition, {
          column: (c) => (fnColumns.includes(c) ? `${r}.${q(c)}` : `${l.alias}.${q(c)}`),
          functionName: (f) => this.ctx.functionName(f),
        });
        const join = n.joinType === "LEFT" ? `LEFT JOIN ${lateral} ON ${cond ?? "TRUE"}` : cond === undefined ? `, ${lateral}` : `JOIN ${lateral} ON ${cond}`;
        return `SELECT ${items.join(", ")}\nFROM ${l.sql}${join.startsWith(",") ? join : `\n${join}`}`;
      }
      case "MatchRecognize": {
        // the input of MATCH_RECOGNIZE has no alias of its own (Calcite's grammar: the alias follows the clause)
        const input = this.from(n.input).sql.replace(/ AS t\d+$/, "");
        return matchToSql(n, input, this.alias(), (f) => this.ctx.functionName(f));
      }
      case "ChangelogNormalize": return this.query(n.input);
      case "Sink": case "StatementSet": throw noSqlForm("an INSERT inside a query");
      default: throw noSqlForm(`a ${n.kind} node`);
    }
  }

  private sortKeys(keys: readonly SortKey[], schema: ResolvedSchema): string {
    return keys.map((k) => `${q(schema.names[k.column]!)} ${k.ascending ? "ASC" : "DESC"} NULLS ${k.nullsFirst ? "FIRST" : "LAST"}`).join(", ");
  }
}

function freshName(base: string, taken: readonly string[]): string {
  let name = base;
  for (let i = 0; taken.includes(name); i++) name = `${base}${i}`;
  return name;
}

function indent(s: string): string {
  return s.split("\n").map((l) => `  ${l}`).join("\n");
}

function noSqlForm(what: string): ValidationError {
  return new ValidationError(`toSql: ${what} has no Flink SQL form in tablestream yet`);
}
