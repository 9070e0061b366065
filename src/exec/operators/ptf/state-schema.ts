import type { StateDecl } from "../../../ptf/state.js";

/**
 * How a PTF state entry is described in a checkpoint, so that restoring it into a function that now declares
 * the entry differently (a value became a list view, a view's element type changed) fails naming the entry,
 * instead of handing eval data of the wrong shape. Eager value state declared by defaults or a class is only
 * `value`: its fields may come and go across versions (a new field starts at its default, as Flink's POJO
 * serializer evolves); a value of a ROW type names the type.
 */
export function describeStateDecl(decl: StateDecl): string {
  const t = (x: unknown) => (x === undefined ? "?" : String(x));
  switch (decl.kind) {
    case "value": return decl.init.kind === "row" ? `value ${decl.init.type}` : "value";
    case "valueView": return `ValueView<${t(decl.type)}>`;
    case "listView": return `ListView<${t(decl.elementType)}>`;
    case "mapView": return `MapView<${t(decl.keyType)}, ${t(decl.valueType)}>`;
  }
}
