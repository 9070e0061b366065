/**
 * Text for a value user code threw, for the message of the error that wraps it. User code can throw
 * anything: an Error, a string, a Symbol (which a template literal refuses to convert), an object without
 * a prototype (`Object.create(null)`: no `toString` at all), an object whose `toString` or `message`
 * getter throws, a revoked Proxy. Every access is guarded, so describing the failure never fails itself;
 * the value stays reachable as the wrapping error's `cause`.
 *
 * Errors give their message (with their name in front when `withName`, e.g. "TypeError: x is not a
 * function"); other values their text, or a description of what they are when they have none.
 */
export function describeThrown(e: unknown, withName = false): string {
  if (thrownIs(e, Error)) {
    const message = safe(() => textOf(e.message));
    const name = safe(() => textOf(e.name));
    if (message === undefined) return name ?? "an error without a message";
    return withName && name !== undefined ? `${name}: ${message}` : message;
  }
  switch (typeof e) {
    case "string": return e;
    case "symbol": return safe(() => e.toString()) ?? "a symbol";
    case "object": case "function": return describeObject(e);
    default: return String(e);
  }
}

function describeObject(e: object | null): string {
  if (e === null) return "null";
  const message = safe(() => textOf((e as { message?: unknown }).message));
  if (message !== undefined) return message;
  const text = safe(() => {
    const s: unknown = String(e);
    return typeof s === "string" ? s : undefined;
  });
  if (text !== undefined && text !== "[object Object]") return text;
  const proto = safe(() => Object.getPrototypeOf(e) as unknown);
  if (proto === null) return "a thrown object without a prototype (no toString)";
  const ctor = safe(() => {
    const c = (proto as { constructor?: { name?: unknown } } | undefined)?.constructor?.name;
    return typeof c === "string" && c !== "" ? c : undefined;
  });
  if (text !== undefined) return ctor !== undefined && ctor !== "Object" ? `a thrown ${ctor} object` : "a thrown object";
  return `a thrown ${ctor ?? "object"} that cannot be converted to text`;
}

/**
 * `e instanceof C` that never throws: `instanceof` on a revoked Proxy does. Code that wraps what user
 * code threw tests the value with this.
 */
export function thrownIs<T>(e: unknown, C: abstract new (...args: never[]) => T): e is T {
  try {
    return e instanceof C;
  } catch {
    return false;
  }
}

/** A string property as text; anything else as undefined (a non-string `message` is not a message). */
function textOf(v: unknown): string | undefined {
  return typeof v === "string" ? v : undefined;
}

function safe<T>(f: () => T): T | undefined {
  try {
    return f();
  } catch {
    return undefined;
  }
}
