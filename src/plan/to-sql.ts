import type { AggNode, ExprNode } from "../expressions/node.js";
import { exprToSql, intervalToSql, literalToSql, quoteIdentifier as q, sqlTypeString, type SqlRenderContext } from "../expressions/to-sql.js";
import { ValidationError } from "../types/errors.js";
import type { ResolvedSchema } from "../types/resolved-schema.js";
import type { PlanNode, SinkNode } from "./nodes.js";
import type { AggCall } from "./nodes/agg-call.js";
import type { IntervalJoinNode } from "./nodes/interval-join.js";
import type { JoinNode } from "./nodes/join.js";
import type { LookupJoinNode } from "./nodes/lookup-join.js";
import type { ProcessNode } from "./nodes/process.js";
import type { SortKey } from "./nodes/sort.js";
import type { TemporalJoinNode } from "./nodes/temporal-join.js";
import type { OverAggregateNode } from "./nodes/over-aggregate.js";
import type { WindowAggregateNode } from "./nodes/window-aggregate.js";
import { matchToSql } from "./match-to-sql.js";

/** What the renderer needs from the environment: the registered name of a function (object or name). */
export interface ToSqlContext {
  functionName(udfOrName: unknown): string | undefined;
  /** The name of the registered view whose plan is exactly `node` (a view that has no SQL form of its own appears by name). */
  viewName?(node: PlanNode): string | undefined;
}

/**
 * Renders a logical plan as Flink SQL (`Table.toSql()`, `StatementSet.toSql()`): each node becomes a
 * query over its input as a derived table, so the text mirrors the plan one node at a time and every
 * node's output columns keep their names. Values are written with CASTs to their exact types; tables
 * by their registered names; functions by the names they are registered under. An input that SQL must name
 * (the TABLE argument of a PTF call or a window TVF) is a WITH query `tN`. A part without a SQL form
 * raises a ValidationError naming it. The text is read back by `executeSql` onto the same plan shapes
 * (property tests check that both give the same changelog). docs/sql.md lists the rules.
 */
export function planToSql(node: PlanNode, ctx: ToSqlContext): string {
  return new Renderer(ctx, node).statement(node);
}

class Renderer {
  private aliases = 0;
  /** The program rendered: never replaced by a view's name (SHOW CREATE VIEW renders a view's own plan). */
  constructor(private readonly ctx: ToSqlContext, private readonly root: PlanNode) {}

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
    const name = this.registeredName(n);
    if (name !== undefined) return { sql: `${q(name)} AS ${alias}`, alias };
    return { sql: `(\n${indent(this.query(n))}\n) AS ${alias}`, alias };
  }

  /** The name under which `n` is registered: a catalog table's scan, or a view without a SQL form of its own. */
  private registeredName(n: PlanNode): string | undefined {
    if (n.kind === "SourceScan" && !n.tableName.startsWith("*anonymous")) return n.tableName;
    if (n.kind === "Values" && n !== this.root && (n.kinds !== undefined || n.watermark !== undefined)) return this.ctx.viewName?.(n);
    return undefined;
  }

  /**
   * An input SQL must name (`TABLE x` of a PTF call or a window TVF): a registered table by its name, else
   * a WITH query. Returns the name and the WITH clause to put before the query using it.
   */
  private named(n: PlanNode): { name: string; with: string | undefined } {
    const name = this.registeredName(n);
    if (name !== undefined) return { name: q(name), with: undefined };
    const alias = this.alias();
    return { name: alias, with: `${alias} AS (\n${indent(this.query(n))}\n)` };
  }

  private aggSql(a: AggCall, schema: ResolvedSchema): string {
    // Flink SQL has no SUM0 (Calcite's $SUM0 is internal): the sum, or 0 of the sum's type for no (non-NULL) value
    if (a.fn === "SUM0" && a.udf === undefined) {
      const sum = this.expr({ kind: "Agg", fn: "SUM", args: a.args, distinct: a.distinct }, schema);
      return `COALESCE(${sum}, CAST(0 AS ${sqlTypeString(a.type)}))`;
    }
    const node: AggNode = { kind: "Agg", fn: a.fn, args: a.args, distinct: a.distinct, ...(a.udf !== undefined ? { udf: a.udf } : {}) };
    return this.expr(node, schema);
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
        const view = this.registeredName(n);
        if (view !== undefined) return `SELECT * FROM ${q(view)}`;
        // Flink SQL's VALUES is insert-only and has no watermark; a view of such rows appears by its name
        if (n.kinds !== undefined) throw noSqlForm("a VALUES table with row kinds other than INSERT (a changelog)", "Flink SQL's VALUES is insert-only: register the table with createTemporaryView and the SQL refers to it by name");
        if (n.watermark !== undefined) throw noSqlForm("a VALUES table with a watermark", "Flink SQL declares watermarks on tables only: register it with createTemporaryView (the SQL refers to it by name) or declare a table with CREATE TABLE ... WATERMARK FOR");
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
          ...n.aggCalls.map((a, i) => `${this.aggSql(a, n.input.schema)} AS ${q(names[keys.length + i]!)}`),
        ];
        return `SELECT ${items.join(", ")}\nFROM ${input.sql}${keys.length > 0 ? `\nGROUP BY ${keys.join(", ")}` : ""}`;
      }
      case "Distinct": return `SELECT DISTINCT *\nFROM ${this.from(n.input).sql}`;
      case "Union": return n.inputs.map((i) => `(\n${indent(this.query(i))}\n)`).join("\nUNION ALL\n");
      case "SetOp":
        return `(\n${indent(this.query(n.left))}\n)\n${n.op === "MINUS" ? "EXCEPT" : "INTERSECT"}${n.all ? " ALL" : ""}\n(\n${indent(this.query(n.right))}\n)`;
      case "Join": return this.join(n, []);
      case "IntervalJoin": return this.join(n, [this.intervalBounds(n)]);
      case "TemporalJoin": return this.temporalJoin(n);
      case "LookupJoin": return this.lookupJoin(n);
      case "WindowAggregate": return this.windowAggregate(n);
      case "OverAggregate": return this.overAggregate(n);
      case "Process": return this.process(n);
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
        // in processing-time order, SQL orders by a processing-time attribute (arrival order, as the Table API's)
        const time = n.rowtime ?? n.input.schema.types.findIndex((t) => t.timeAttribute === "PROCTIME");
        if (time < 0) {
          throw noSqlForm("a deduplication in processing-time order over a table without a processing-time attribute", "Flink SQL orders it by one: declare a column `pt AS PROCTIME()` on the source table");
        }
        const inputNames = n.input.schema.names;
        const rn = freshName("rn", inputNames);
        const keys = n.keys.map((k) => q(inputNames[k]!));
        const inner = `SELECT *, ROW_NUMBER() OVER (${keys.length > 0 ? `PARTITION BY ${keys.join(", ")} ` : ""}ORDER BY ${q(inputNames[time]!)} ${n.keepLast ? "DESC" : "ASC"}) AS ${q(rn)}\nFROM ${this.from(n.input).sql}`;
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

  /** A regular or interval join: the output columns are the left's then the right's, renamed as the plan names them. */
  private join(n: JoinNode | IntervalJoinNode, extra: readonly ((l: string, r: string) => string)[]): string {
    const l = this.from(n.left);
    const r = this.from(n.right);
    const leftNames = n.left.schema.names;
    const out = n.schema.names;
    // output column i is the left's column i, or the right's column i - |left| (renamed on a clash)
    const ref = (i: number) => (i < leftNames.length ? `${l.alias}.${q(leftNames[i]!)}` : `${r.alias}.${q(n.right.schema.names[i - leftNames.length]!)}`);
    const items = out.map((name, i) => `${ref(i)} AS ${q(name)}`);
    const conds = n.leftKeys.map((k, i) => `(${this.expr(k, n.left.schema, l.alias)} = ${this.expr(n.rightKeys[i]!, n.right.schema, r.alias)})`);
    conds.push(...extra.map((f) => f(l.alias, r.alias)));
    if (n.residual !== undefined) conds.push(exprToSql(n.residual, this.outputContext(out, ref)));
    const kind = n.joinType === "INNER" ? (conds.length === 0 ? "CROSS JOIN" : "JOIN") : `${n.joinType} JOIN`;
    const on = conds.length === 0 ? (n.joinType === "INNER" ? "" : " ON TRUE") : ` ON ${conds.join(" AND ")}`;
    return `SELECT ${items.join(", ")}\nFROM ${l.sql}\n${kind} ${r.sql}${on}`;
  }

  /** Column references of a join's residual, over its output columns. */
  private outputContext(out: readonly string[], ref: (i: number) => string): SqlRenderContext {
    return {
      column: (name) => {
        const i = out.indexOf(name);
        if (i < 0) throw new ValidationError(`toSql: column '${name}' is not in [${out.join(", ")}]`);
        return ref(i);
      },
      functionName: (f) => this.ctx.functionName(f),
    };
  }

  /** `lower <= l.t - r.t <= upper` as Flink writes it: `l.t BETWEEN r.t + lower AND r.t + upper`. */
  private intervalBounds(n: IntervalJoinNode): (l: string, r: string) => string {
    return (l, r) => {
      const lt = `${l}.${q(n.left.schema.names[n.leftTime]!)}`;
      const rt = `${r}.${q(n.right.schema.names[n.rightTime]!)}`;
      const shifted = (ms: number) => (ms === 0 ? rt : `(${rt} ${ms < 0 ? "-" : "+"} ${intervalToSql(Math.abs(ms))})`);
      return `(${lt} BETWEEN ${shifted(n.lower)} AND ${shifted(n.upper)})`;
    };
  }

  /** `JOIN versioned FOR SYSTEM_TIME AS OF l.t ON l.k = r.pk`: the versioned table must be registered (a table or view). */
  private temporalJoin(n: TemporalJoinNode): string {
    const right = this.registeredName(n.right) ?? (n.right === this.root ? undefined : this.ctx.viewName?.(n.right));
    if (right === undefined) {
      throw noSqlForm("a temporal join with a versioned table that is not registered", "FOR SYSTEM_TIME AS OF needs a table name: register the versioned table with createTable or createTemporaryView");
    }
    const l = this.from(n.left);
    const r = this.alias();
    const leftNames = n.left.schema.names;
    const rightNames = n.right.schema.names;
    const out = n.schema.names;
    const ref = (i: number) => (i < leftNames.length ? `${l.alias}.${q(leftNames[i]!)}` : `${r}.${q(rightNames[i - leftNames.length]!)}`);
    const items = out.map((name, i) => `${ref(i)} AS ${q(name)}`);
    const conds = n.leftKeys.map((k, i) => `(${this.expr(k, n.left.schema, l.alias)} = ${r}.${q(rightNames[n.rightKeys[i]!]!)})`);
    if (n.residual !== undefined) conds.push(exprToSql(n.residual, this.outputContext(out, ref)));
    return `SELECT ${items.join(", ")}\nFROM ${l.sql}\n${n.joinType === "LEFT" ? "LEFT JOIN" : "JOIN"} ${q(right)} FOR SYSTEM_TIME AS OF ${l.alias}.${q(leftNames[n.leftTime]!)} AS ${r}`
      + ` ON ${conds.join(" AND ")}`;
  }

  /**
   * Flink's lookup join: `JOIN t FOR SYSTEM_TIME AS OF l.proc_time AS r ON l.x = r.key` — it needs a
   * processing-time attribute of the probe side. tablestream's SQL reads it back as a lookup join when the
   * table can be looked up (docs/sql.md), so the text runs here too.
   */
  private lookupJoin(n: LookupJoinNode): string {
    const inputNames = n.input.schema.names;
    const proc = n.input.schema.types.findIndex((t) => t.timeAttribute === "PROCTIME");
    if (n.tableName.startsWith("*anonymous")) throw noSqlForm("a lookup join with an anonymous TableDescriptor table", "register the table with createTable");
    if (proc < 0 || n.keyColumns === undefined) {
      throw noSqlForm(`a lookup join with '${n.tableName}' over a table without a processing-time attribute`,
        "Flink SQL writes it JOIN t FOR SYSTEM_TIME AS OF l.proc_time: declare a column `proc_time AS PROCTIME()` on the probe table");
    }
    const l = this.from(n.input);
    const r = this.alias();
    const lookupNames = n.lookupSchema.names;
    const out = n.schema.names;
    const ref = (i: number) => (i < inputNames.length ? `${l.alias}.${q(inputNames[i]!)}` : `${r}.${q(lookupNames[i - inputNames.length]!)}`);
    const items = out.map((name, i) => `${ref(i)} AS ${q(name)}`);
    const keyColumns = n.keyColumns;
    const conds = n.keys.map((k, i) => `(${this.expr(k, n.input.schema, l.alias)} = ${r}.${q(lookupNames[keyColumns[i]!]!)})`);
    if (n.residual !== undefined) conds.push(exprToSql(n.residual, this.outputContext(out, ref)));
    return `SELECT ${items.join(", ")}\nFROM ${l.sql}\n${n.joinType === "LEFT" ? "LEFT JOIN" : "JOIN"} ${q(n.tableName)} FOR SYSTEM_TIME AS OF ${l.alias}.${q(inputNames[proc]!)} AS ${r}`
      + ` ON ${conds.join(" AND ")}`;
  }

  /**
   * A group window as Flink recommends writing it: a window TVF (TUMBLE, HOP, CUMULATE, SESSION) grouped by
   * `window_start, window_end` and the keys; the window's start / end / rowtime are `window_start` /
   * `window_end` / `window_time`. A session window's keys are its PARTITION BY (sessions are per key).
   */
  private windowAggregate(n: WindowAggregateNode): string {
    const w = n.window;
    const input = this.named(n.input);
    const schema = n.input.schema;
    const keys = n.groupKeys.map((k) => this.expr(k, schema));
    let partition = "";
    if (w.type === "SESSION" && n.groupKeys.length > 0) {
      const cols = n.groupKeys.map((k) => {
        if (k.kind !== "Column") throw noSqlForm("a session window grouped by an expression", "SESSION partitions by columns: select the key as a column first");
        return q(k.name);
      });
      partition = ` PARTITION BY ${cols.length === 1 ? cols[0] : `(${cols.join(", ")})`}`;
    }
    const fn = w.type === "SLIDE" ? "HOP" : w.type;
    const args = [`TABLE ${input.name}${partition}`, `DESCRIPTOR(${q(w.timeColumn)})`, ...(w.step !== undefined ? [intervalToSql(w.step)] : []), intervalToSql(w.size)];
    const names = n.schema.names;
    const PROPERTY = { start: "window_start", end: "window_end", rowtime: "window_time" } as const;
    const items = [
      ...keys.map((k, i) => `${k} AS ${q(names[i]!)}`),
      ...n.aggCalls.map((a, i) => `${this.aggSql(a, schema)} AS ${q(names[keys.length + i]!)}`),
      ...n.properties.map((p, i) => `${PROPERTY[p]} AS ${q(names[keys.length + n.aggCalls.length + i]!)}`),
    ];
    const query = `SELECT ${items.join(", ")}\nFROM TABLE(${fn}(${args.join(", ")}))\nGROUP BY ${["window_start", "window_end", ...keys].join(", ")}`;
    return input.with === undefined ? query : `WITH ${input.with}\n${query}`;
  }

  /** `AGG(x) OVER (PARTITION BY ... ORDER BY t ROWS|RANGE BETWEEN ... PRECEDING AND CURRENT ROW)` next to the input's columns. */
  private overAggregate(n: OverAggregateNode): string {
    const w = n.window;
    const schema = n.input.schema;
    const input = this.from(n.input);
    const partition = w.partitionBy.length > 0 ? `PARTITION BY ${w.partitionBy.map((p) => this.expr(p, schema)).join(", ")} ` : "";
    const preceding = w.preceding === undefined ? "UNBOUNDED"
      : w.frame === "RANGE" && schema.column(w.orderBy).type.timeAttribute !== undefined ? intervalToSql(w.preceding) : String(w.preceding);
    const spec = `${partition}ORDER BY ${q(w.orderBy)} ${w.ascending ? "ASC" : "DESC"} ${w.frame} BETWEEN ${preceding} PRECEDING AND CURRENT ROW`;
    const names = n.schema.names;
    const items = [
      ...schema.names.map((c) => `${q(c)} AS ${q(c)}`),
      ...n.aggCalls.map((a, i) => `${this.aggSql(a, schema)} OVER (${spec}) AS ${q(names[schema.size + i]!)}`),
    ];
    return `SELECT ${items.join(", ")}\nFROM ${input.sql}`;
  }

  /** `SELECT * FROM f(t => TABLE x PARTITION BY k ORDER BY ts, n => 1, uid => 'u')`, the function by its registered name. */
  private process(n: ProcessNode): string {
    const form = n.call.sqlForm;
    if (form === undefined) throw noSqlForm(`the call of process table function '${n.call.functionName}'`);
    const name = form.name ?? this.ctx.functionName(form.fn);
    if (name === undefined) {
      throw new ValidationError(`toSql: the process table function '${n.call.functionName}' is not registered, and SQL calls a function by its name: `
        + `register it with env.createFunction("${n.call.functionName}", F) (or createTemporaryFunction) before calling toSql()`);
    }
    const withs: string[] = [];
    const args = form.args.map((a) => {
      if (a.kind === "scalar") {
        const v = a.node.kind === "Descriptor" ? `DESCRIPTOR(${a.node.names.map(q).join(", ")})` : exprToSql(a.node, {
          column: (c) => { throw new ValidationError(`toSql: argument '${a.name}' of '${name}' reads column '${c}'; a PTF's scalar arguments are constants`); },
          functionName: (f) => this.ctx.functionName(f),
        });
        return `${argName(a.name)} => ${v}`;
      }
      const input = this.named(n.inputs[a.inputIndex]!);
      if (input.with !== undefined) withs.push(input.with);
      const list = (xs: readonly string[]) => (xs.length === 1 ? xs[0]! : `(${xs.join(", ")})`);
      const partition = a.partitionBy.length > 0 ? ` PARTITION BY ${list(a.partitionBy.map(q))}` : "";
      const order = a.orderBy.length > 0
        ? ` ORDER BY ${list(a.orderBy.map((o) => `${q(o.name)} ${o.ascending ? "ASC" : "DESC"}${o.nullsFirst === undefined ? "" : o.nullsFirst ? " NULLS FIRST" : " NULLS LAST"}`))}`
        : "";
      return `${argName(a.name)} => TABLE ${input.name}${partition}${order}`;
    });
    const query = `SELECT * FROM ${q(name)}(${args.join(", ")})`;
    return withs.length === 0 ? query : `WITH ${withs.join(",\n")}\n${query}`;
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

/** A named argument's name: plain when it is a simple identifier (as Flink's docs write `input => TABLE t`). */
function argName(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : q(name);
}

/** `toSql: <what> has no Flink SQL form in tablestream yet`, or, when Flink SQL itself cannot say it, what to do instead. */
function noSqlForm(what: string, instead?: string): ValidationError {
  return new ValidationError(`toSql: ${what} has no Flink SQL form${instead === undefined ? " in tablestream yet" : `; ${instead}`}`);
}
