import { ValidationError } from "./errors.js";
import type { DataType } from "./data-type.js";

export interface Column {
  readonly name: string;
  readonly type: DataType;
}

/**
 * The run-time schema of a table: ordered, named, typed columns. Records are positional arrays in this order.
 */
export class ResolvedSchema {
  private readonly index: ReadonlyMap<string, number>;

  constructor(readonly columns: readonly Column[]) {
    const index = new Map<string, number>();
    columns.forEach((c, i) => {
      if (index.has(c.name)) throw new ValidationError(`duplicate column name '${c.name}' in [${columns.map((x) => x.name).join(", ")}]`);
      index.set(c.name, i);
    });
    this.index = index;
    Object.freeze(this);
  }

  get names(): string[] { return this.columns.map((c) => c.name); }
  get types(): DataType[] { return this.columns.map((c) => c.type); }
  get size(): number { return this.columns.length; }

  has(name: string): boolean { return this.index.has(name); }

  /** Position of a column; a ValidationError naming the column and the available ones when absent. */
  indexOf(name: string, context = "column"): number {
    const i = this.index.get(name);
    if (i === undefined) {
      throw new ValidationError(`${context} '${name}' is not in [${this.names.join(", ")}]`);
    }
    return i;
  }

  column(name: string): Column { return this.columns[this.indexOf(name)]!; }

  /** Flink-style: `(\n  \`name\` STRING,\n  \`age\` INT\n)`. */
  toString(): string {
    return `(\n${this.columns.map((c) => `  \`${c.name}\` ${c.type}`).join(",\n")}\n)`;
  }

  /** One-line form for explain(): `[name: STRING, age: INT]`. */
  toShortString(): string {
    return `[${this.columns.map((c) => `${c.name}: ${c.type}`).join(", ")}]`;
  }
}
