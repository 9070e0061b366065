import { DataType } from "../../types/data-type.js";
import { DataTypes } from "../../types/data-types.js";
import { setOwn } from "../../types/own.js";
import { type ParquetElement, parquetElement, readConverter, writeConverter } from "./types.js";

/**
 * ARRAY, MAP and ROW columns in Parquet, laid out as Flink's ParquetSchemaConverter lays them out:
 *
 * - `ARRAY<T>`: a LIST group with the three-level layout, `<name> (LIST) { repeated group list { element } }`;
 * - `MAP<K, V>`: a MAP group, `<name> (MAP) { repeated group key_value { required key; value } }` (Parquet
 *   keys are never NULL: a NULL key is an error naming the column);
 * - `ROW<...>`: a group with one field per row field;
 * - `MULTISET<T>`: as Flink stores it, the `MAP<T, INT NOT NULL>` of element to count (a value is that Map already).
 *
 * Each level is OPTIONAL or REQUIRED after its type's nullability, so NULL is kept at every level: a NULL
 * array and an empty one, a NULL element, a NULL row and a row of NULL fields, a NULL map value.
 */

/** A schema element with its children (the file's flat, preorder schema as a tree). */
export interface ElementTree {
  readonly element: ParquetElement;
  readonly children: readonly ElementTree[];
}

/** A MULTISET's Parquet shape: the map of element to count. */
const countsMap = (t: DataType): DataType => new DataType("MAP", t.isNullable, { keyType: t.elementType!, valueType: DataTypes.INT().notNull() });

/** The preorder schema elements of a column (one element for a scalar; the group and its subtree for nested types). */
export function parquetElements(name: string, t: DataType, forceRequired = false): ParquetElement[] {
  const repetition_type = t.isNullable && !forceRequired ? "OPTIONAL" as const : "REQUIRED" as const;
  switch (t.root) {
    case "MULTISET": return parquetElements(name, countsMap(t), forceRequired);
    case "ARRAY":
      return [
        { name, repetition_type, converted_type: "LIST", num_children: 1 },
        { name: "list", repetition_type: "REPEATED" as const, num_children: 1 },
        ...parquetElements("element", t.elementType!),
      ];
    case "MAP":
      return [
        { name, repetition_type, converted_type: "MAP", num_children: 1 },
        { name: "key_value", repetition_type: "REPEATED" as const, num_children: 2 },
        ...parquetElements("key", t.keyType!, true),
        ...parquetElements("value", t.valueType!),
      ];
    case "ROW":
      return [{ name, repetition_type, num_children: t.fields.length }, ...t.fields.flatMap((f) => parquetElements(f.name, f.type))];
    default: {
      const e = parquetElement({ name, type: t });
      return forceRequired ? [{ ...e, repetition_type: "REQUIRED" }] : [e];
    }
  }
}

/** The values hyparquet-writer takes for a column: lists as arrays, maps as `{ key, value }` entries, rows as objects. */
export function nestedWriteConverter(t: DataType, column: string): ((v: unknown) => unknown) | undefined {
  switch (t.root) {
    case "MULTISET": return nestedWriteConverter(countsMap(t), column);
    case "ARRAY": {
      const el = nestedWriteConverter(t.elementType!, column);
      return (v) => (v === null || v === undefined ? null : el === undefined ? v : (v as unknown[]).map((x) => (x === null ? null : el(x))));
    }
    case "MAP": {
      const k = nestedWriteConverter(t.keyType!, column) ?? ((x: unknown) => x);
      const val = nestedWriteConverter(t.valueType!, column) ?? ((x: unknown) => x);
      return (v) => {
        if (v === null || v === undefined) return null;
        const out: { key: unknown; value: unknown }[] = [];
        for (const [key, x] of v as Map<unknown, unknown>) {
          if (key === null || key === undefined) throw new Error(`column '${column}': a MAP key is NULL, which Parquet cannot store (map keys are required)`);
          out.push({ key: k(key), value: x === null ? null : val(x) });
        }
        return out;
      };
    }
    case "ROW": {
      const fields = t.fields.map((f) => ({ name: f.name, conv: nestedWriteConverter(f.type, column) }));
      return (v) => {
        if (v === null || v === undefined) return null;
        // no prototype: a field named like an Object.prototype member is read as the field
        const out = Object.create(null) as Record<string, unknown>;
        for (const f of fields) {
          const x = Object.hasOwn(v as object, f.name) ? (v as Record<string, unknown>)[f.name] : null;
          out[f.name] = x === null || x === undefined || f.conv === undefined ? x ?? null : f.conv(x);
        }
        return out;
      };
    }
    default:
      return writeConverter(t);
  }
}

/** The file's flat schema as a tree (root included). */
export function schemaTree(schema: readonly ParquetElement[]): ElementTree {
  let i = 0;
  const node = (): ElementTree => {
    const element = schema[i++]!;
    const children: ElementTree[] = [];
    for (let n = 0; n < (element.num_children ?? 0); n++) children.push(node());
    return { element, children };
  };
  return node();
}

/** Number of leaf columns (column chunks) below a node. */
export function leafCount(n: ElementTree): number {
  return n.children.length === 0 ? 1 : n.children.reduce((s, c) => s + leafCount(c), 0);
}

const isList = (n: ElementTree): boolean => n.element.converted_type === "LIST" || n.element.logical_type?.type === "LIST";
const isMap = (n: ElementTree): boolean => n.element.converted_type === "MAP" || n.element.converted_type === "MAP_KEY_VALUE" || n.element.logical_type?.type === "MAP";

/**
 * Checks that a file's column has the declared type's shape; returns why not (for the error message), or
 * undefined when it fits.
 */
export function shapeMismatch(t: DataType, n: ElementTree): string | undefined {
  switch (t.root) {
    case "MULTISET": return shapeMismatch(countsMap(t), n);
    case "ARRAY": {
      if (!isList(n) || n.children.length !== 1) return `is not a LIST group`;
      const item = listItem(n);
      return shapeMismatch(t.elementType!, item);
    }
    case "MAP": {
      const kv = n.children[0];
      if (!isMap(n) || kv === undefined || kv.children.length !== 2) return `is not a MAP group`;
      return shapeMismatch(t.keyType!, kv.children[0]!) ?? shapeMismatch(t.valueType!, kv.children[1]!);
    }
    case "ROW": {
      if (n.children.length === 0 || isList(n) || isMap(n)) return `is not a group of fields`;
      for (const f of t.fields) {
        const c = n.children.find((x) => x.element.name === f.name);
        if (c === undefined) return `has no field '${f.name}' (its fields: ${n.children.map((x) => x.element.name).join(", ")})`;
        const why = shapeMismatch(f.type, c);
        if (why !== undefined) return `field '${f.name}' ${why}`;
      }
      return undefined;
    }
    default:
      return n.children.length > 0 ? `is a nested group, not ${t}` : undefined;
  }
}

/** The element node of a LIST (three-level `list.element`, or the legacy two-level repeated field). */
function listItem(n: ElementTree): ElementTree {
  const repeated = n.children[0]!;
  return repeated.children.length === 1 ? repeated.children[0]! : repeated;
}

/**
 * A converter of what hyparquet assembles for a column into tablestream's values: arrays stay arrays, maps
 * (read as their `key_value` entries: the reader strips the MAP annotation, as hyparquet would turn the keys
 * into strings of a plain object) become `Map`s with typed keys, groups become row objects; leaves go through
 * the scalar converters. Undefined for a scalar column that needs none.
 */
export function nestedReadConverter(t: DataType, n: ElementTree): ((v: unknown) => unknown) | undefined {
  const orNull = (f: ((v: unknown) => unknown) | undefined) => (x: unknown) => (x === null || x === undefined ? null : f === undefined ? x : f(x));
  switch (t.root) {
    case "MULTISET": return nestedReadConverter(countsMap(t), n);
    case "ARRAY": {
      const el = orNull(nestedReadConverter(t.elementType!, listItem(n)));
      return (v) => (v === null || v === undefined ? null : (v as unknown[]).map(el));
    }
    case "MAP": {
      const kvNode = n.children[0]!;
      const entries = kvNode.element.name;
      const k = orNull(nestedReadConverter(t.keyType!, kvNode.children[0]!));
      const val = orNull(nestedReadConverter(t.valueType!, kvNode.children[1]!));
      const keyName = kvNode.children[0]!.element.name;
      const valueName = kvNode.children[1]!.element.name;
      return (v) => {
        if (v === null || v === undefined) return null;
        const list = ((v as Record<string, unknown>)[entries] ?? []) as Record<string, unknown>[];
        const m = new Map<unknown, unknown>();
        for (const e of list) m.set(k(e[keyName]), val(e[valueName]));
        return m;
      };
    }
    case "ROW": {
      const fields = t.fields.map((f) => ({ name: f.name, conv: orNull(nestedReadConverter(f.type, n.children.find((c) => c.element.name === f.name)!)) }));
      return (v) => {
        if (v === null || v === undefined) return null;
        const out: Record<string, unknown> = {};
        for (const f of fields) setOwn(out, f.name, f.conv(Object.hasOwn(v as object, f.name) ? (v as Record<string, unknown>)[f.name] : null));
        return out;
      };
    }
    default:
      return readConverter(t, n.element);
  }
}
