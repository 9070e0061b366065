import { ValidationError } from "../../types/errors.js";
import type { ConnectorDefinition, FormatDefinition } from "./contract.js";
import type { OptionDecls } from "./options.js";

const NAME = /^[a-z][a-z0-9-]*$/;

/**
 * Declares a connector, inferring its option types from the declarations so that every factory sees
 * `ctx.options` typed (`ctx.options.path: string`). Checks the definition's shape at once.
 *
 * ```ts
 * const kv = defineConnector({
 *   name: "kv",
 *   options: { url: option.string({ required: true }), "batch-size": option.int({ default: 100, min: 1 }) },
 *   sink: { createWriter: (ctx) => new KvWriter(ctx.options.url, ctx.options["batch-size"]) },
 * });
 * env.registerConnector(kv);
 * ```
 */
export function defineConnector<const O extends OptionDecls>(definition: ConnectorDefinition<O>): ConnectorDefinition<O> {
  if (definition === null || typeof definition !== "object") throw new ValidationError("defineConnector expects an object { name, options, source?, sink?, lookup? }");
  const { name } = definition;
  if (typeof name !== "string" || !NAME.test(name)) {
    throw new ValidationError(`defineConnector: the name must be lowercase letters, digits and '-', starting with a letter, got '${String(name)}'`);
  }
  if (definition.options === null || typeof definition.options !== "object") throw new ValidationError(`connector '${name}': 'options' must be an object of option declarations (option.string(), option.int(), ...)`);
  for (const [key, d] of Object.entries(definition.options)) {
    if (d === null || typeof d !== "object" || typeof d.parse !== "function") throw new ValidationError(`connector '${name}': option '${key}' must be declared with option.string(), option.int(), ...`);
    // `format` is the framework's when the connector declares `formats`; otherwise the connector may own it
    if (key === "connector" || (key === "format" && definition.formats !== undefined && definition.formats !== false)) throw new ValidationError(`connector '${name}': option '${key}' is reserved`);
  }
  if (!definition.source && !definition.sink && !definition.lookup) throw new ValidationError(`connector '${name}' has neither a source, a sink nor a lookup`);
  const roles = ["source", "sink", "lookup"] as const;
  const factory = { source: "createReader", sink: "createWriter", lookup: "createReader" } as const;
  for (const r of roles) {
    const role = definition[r] as Record<string, unknown> | undefined;
    if (role !== undefined && typeof role[factory[r]] !== "function") throw new ValidationError(`connector '${name}': '${r}' needs a ${factory[r]}(ctx) function`);
  }
  return Object.freeze({ ...definition });
}

/** Declares a row format (see RowFormat), with its options typed as for connectors. */
export function defineFormat<const O extends OptionDecls>(definition: FormatDefinition<O>): FormatDefinition<O> {
  if (typeof definition?.name !== "string" || !NAME.test(definition.name)) throw new ValidationError(`defineFormat: invalid name '${String(definition?.name)}'`);
  if (typeof definition.create !== "function") throw new ValidationError(`format '${definition.name}' needs a create(columns, options, tableName) function`);
  return Object.freeze({ ...definition });
}
