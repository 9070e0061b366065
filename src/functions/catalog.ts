import { CodegenContext, compileExpr } from "../expressions/compile.js";
import { callNode } from "../expressions/node.js";
import { TableError, ValidationError } from "../types/errors.js";
import { ResolvedSchema } from "../types/resolved-schema.js";
import { checkFunctionName } from "./signature.js";

/** A registered function: the name as the user wrote it and the function object (a UDF, or a PTF from src/ptf). */
export interface CatalogEntry {
  readonly name: string;
  readonly fn: object;
  readonly temporary: boolean;
}

/**
 * The one function catalog of a TableEnvironment: names -> function objects, for scalar, table and
 * aggregate functions and for Process Table Functions alike.
 *
 * Resolution follows Flink for an unqualified name: built-in functions first, then temporary functions,
 * then (permanent) catalog functions. A temporary function therefore shadows a catalog function of the
 * same name, and a name that is a built-in function cannot be registered at all (Flink would accept it
 * and never call it — a silent surprise we refuse). Names are case-insensitive, as Flink normalizes
 * function identifiers; messages use the name as registered.
 */
export class FunctionCatalog {
  private readonly temporary = new Map<string, CatalogEntry>();
  private readonly permanent = new Map<string, CatalogEntry>();

  /** Registers a temporary function; fails if a temporary function of that name exists. */
  createTemporaryFunction(name: string, fn: object): void {
    const key = this.checkNew(name, fn, "createTemporaryFunction");
    const existing = this.temporary.get(key);
    if (existing) {
      throw new ValidationError(`Could not register temporary function. A function '${existing.name}' does already exist.`);
    }
    this.temporary.set(key, { name, fn, temporary: true });
  }

  /** Registers a catalog function; fails if one of that name exists, unless `ignoreIfExists`. */
  createFunction(name: string, fn: object, ignoreIfExists = false): void {
    const key = this.checkNew(name, fn, "createFunction");
    const existing = this.permanent.get(key);
    if (existing) {
      if (ignoreIfExists) return;
      throw new ValidationError(`Could not register function. A function '${existing.name}' does already exist.`);
    }
    this.permanent.set(key, { name, fn, temporary: false });
  }

  /** Removes a temporary function; false when there was none. */
  dropTemporaryFunction(name: string): boolean {
    return this.temporary.delete(name.toLowerCase());
  }

  /** Removes a catalog function; false when there was none. */
  dropFunction(name: string): boolean {
    return this.permanent.delete(name.toLowerCase());
  }

  /** The function registered under `name` (temporary first), or undefined. */
  lookup(name: string): CatalogEntry | undefined {
    const key = name.toLowerCase();
    return this.temporary.get(key) ?? this.permanent.get(key);
  }

  /** Names of all registered functions, sorted. */
  list(): string[] {
    const names = new Map<string, string>();
    for (const [k, e] of this.permanent) names.set(k, e.name);
    for (const [k, e] of this.temporary) names.set(k, e.name);
    return [...names.values()].sort();
  }

  private checkNew(name: string, fn: object, what: string): string {
    checkFunctionName(name, what);
    if (fn === null || (typeof fn !== "object" && typeof fn !== "function")) {
      throw new ValidationError(`${what}('${name}'): expected a function object (ScalarFunction.define(...), TableFunction.define(...), ...), got ${String(fn)}`);
    }
    if (isBuiltinFunction(name) || BUILTIN_PTF_NAMES.has(name.toLowerCase())) {
      throw new ValidationError(`${what}: '${name}' is the name of a built-in function, which always takes precedence; choose another name`);
    }
    return name.toLowerCase();
  }
}

const EMPTY = new ResolvedSchema([]);

/** Names of the built-in PTFs (src/ptf/builtins), which calls by name find first. */
const BUILTIN_PTF_NAMES: ReadonlySet<string> = new Set(["deduplicate_keep_first", "from_changelog", "to_changelog"]);

/**
 * Whether the expression compiler knows `name` as a built-in: compiling a call of it without a function
 * resolver fails with "unknown function" only for names it does not know.
 */
export function isBuiltinFunction(name: string): boolean {
  try {
    compileExpr(callNode(name, []), new CodegenContext(EMPTY));
    return true;
  } catch (e) {
    return !(e instanceof TableError && e.message.startsWith(`unknown function '${name}'`));
  }
}

