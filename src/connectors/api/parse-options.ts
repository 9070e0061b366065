import { ValidationError } from "../../types/errors.js";
import type { OptionDecl, OptionDecls } from "./options.js";

/**
 * Parses a table's string options against declarations: every given key must be declared (or be a
 * `<prefix>.`-qualified format option accepted by `extraKeys`), required ones must be given, and each
 * value must parse. Messages name the option and the table and list the valid options.
 */
export function parseOptions(
  connector: string,
  tableName: string,
  given: ReadonlyMap<string, string>,
  decls: OptionDecls,
  extraKeys: readonly string[] = [],
  patterns: readonly string[] = [],
): Record<string, unknown> {
  const unknown = [...given.keys()].filter((k) => !Object.hasOwn(decls, k) && !extraKeys.includes(k) && !patterns.some((p) => matchesPattern(p, k)));
  const valid = () => [...Object.keys(decls), ...extraKeys, ...patterns].sort();
  if (unknown.length > 0) {
    throw new ValidationError(`Unsupported options found for '${connector}' (table '${tableName}').\n\nUnsupported options:\n\n${unknown.sort().join("\n")}\n\nSupported options:\n\n${valid().join("\n")}`);
  }
  const out: Record<string, unknown> = {};
  for (const [key, d] of Object.entries(decls) as [string, OptionDecl<unknown>][]) {
    const text = given.get(key);
    if (text === undefined) {
      if (d.required) throw new ValidationError(`table '${tableName}' (connector '${connector}') needs the option '${key}' (${d.typeName}${d.description ? `: ${d.description}` : ""}); options: [${valid().join(", ")}]`);
      out[key] = d.defaultValue;
      continue;
    }
    try {
      out[key] = d.parse(text);
    } catch (e) {
      const shown = d.secret ? "" : ` (${(e as Error).message})`;
      throw new ValidationError(`option '${key}' of table '${tableName}' (connector '${connector}') is invalid: expected ${d.typeName}${shown}`, { cause: e });
    }
  }
  return out;
}

/** Whether `key` matches `pattern`, whose one `#` stands for a non-empty part (`fields.#.kind`). */
export function matchesPattern(pattern: string, key: string): boolean {
  const at = pattern.indexOf("#");
  if (at < 0) return key === pattern;
  const pre = pattern.slice(0, at);
  const post = pattern.slice(at + 1);
  return key.length > pre.length + post.length && key.startsWith(pre) && key.endsWith(post);
}
