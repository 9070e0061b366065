/**
 * Fields by name, own properties only. A column may be called anything — `constructor`, `toString`,
 * `__proto__`, `hasOwnProperty` — so every read of a field by name asks for an own property (a missing
 * field is `undefined`, never a function inherited from `Object.prototype`), and every write defines an
 * own data property (assigning `__proto__` would replace the prototype; assigning `toString` on a row
 * fails, its prototype is frozen). Code that reads or writes fields by name goes through this module;
 * generated code gets its source text from `readOwnSource` / `writeOwnSource`.
 */

const hasOwnProperty = Object.prototype.hasOwnProperty;

/** True for names an object inherits from `Object.prototype` (`toString`, `__proto__`, ...). */
export function isInheritedName(name: string): boolean {
  return name in Object.prototype;
}

export function hasOwn(o: object, name: string): boolean {
  return hasOwnProperty.call(o, name);
}

/** The own property `name` of `o`, or undefined. */
export function getOwn(o: object, name: string): unknown {
  return hasOwnProperty.call(o, name) ? (o as Record<string, unknown>)[name] : undefined;
}

/** Defines `name` as an own enumerable, writable data property of `o` (whatever the name). */
export function setOwn(o: object, name: string, value: unknown): void {
  if (isInheritedName(name)) Object.defineProperty(o, name, { value, enumerable: true, writable: true, configurable: true });
  else (o as Record<string, unknown>)[name] = value;
}

/** Copies the own enumerable string-keyed fields of `from` onto `to` as own properties. */
export function assignOwn<T extends object>(to: T, from: object): T {
  for (const k of Object.keys(from)) setOwn(to, k, (from as Record<string, unknown>)[k]);
  return to;
}

/**
 * JS source reading field `name` of the object in variable `obj`. For a name `Object.prototype` does not
 * define, a plain property read (fast, and the own value for plain objects, rows and class instances with
 * own fields); for the others an own-property check first.
 */
export function readOwnSource(obj: string, name: string): string {
  const key = JSON.stringify(name);
  return isInheritedName(name) ? `(Object.prototype.hasOwnProperty.call(${obj},${key})?${obj}[${key}]:undefined)` : `${obj}[${key}]`;
}

/** JS source (a statement) making `name` an own data property of `obj` with the value of expression `value`. */
export function writeOwnSource(obj: string, name: string, value: string): string {
  const key = JSON.stringify(name);
  return isInheritedName(name)
    ? `Object.defineProperty(${obj},${key},{value:${value},enumerable:true,writable:true,configurable:true});`
    : `${obj}[${key}]=${value};`;
}
