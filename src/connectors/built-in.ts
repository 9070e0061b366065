import { ValidationError } from "../types/errors.js";
import { asyncIterableConnector } from "./async-iterable.js";
import { collectionConnector } from "./collection.js";
import type { Connector } from "./connector.js";
import { datagenConnector } from "./datagen/index.js";
import { filesystemConnector } from "./filesystem/index.js";
import { blackholeConnector, printConnector } from "./print.js";
import { connectorFromDefinition } from "./api/adapter.js";
import { jdbcConnector } from "./jdbc/index.js";
import { parquetConnector } from "./parquet/index.js";

/**
 * The connectors tablestream knows, by name. Every one is written against the public connector API
 * (`defineConnector`, as a user's connector would be) and adapted by `connectorFromDefinition`; `filesystem` is
 * two such definitions picked by the table's `format` (filesystem/index.ts). A new connector is one file (or
 * folder) with its definition and one line here.
 */
export const BUILT_IN_CONNECTORS: readonly Connector[] = [
  filesystemConnector, connectorFromDefinition(asyncIterableConnector),
  connectorFromDefinition(datagenConnector), connectorFromDefinition(printConnector), connectorFromDefinition(blackholeConnector),
  connectorFromDefinition(collectionConnector), connectorFromDefinition(jdbcConnector), connectorFromDefinition(parquetConnector),
];

const byName = new Map(BUILT_IN_CONNECTORS.map((c) => [c.name, c]));

/** Whether `name` is a built-in connector's. */
export function isBuiltInConnector(name: string): boolean {
  return byName.has(name);
}

/**
 * The connector named `name`; unknown names list the available ones, built-in and `more` (the
 * environment's registered connectors) (Flink: "Could not find any factory").
 */
export function connectorByName(name: string, more: readonly string[] = []): Connector {
  const c = byName.get(name);
  if (!c) {
    throw new ValidationError(`Could not find any factory for identifier '${name}' that implements a connector. Available factory identifiers are: [${[...byName.keys(), ...more].sort().join(", ")}]`);
  }
  return c;
}
