/**
 * PostgreSQL's array text format (the `array_out` / `array_in` syntax): `{1,NULL,3}`, `{"a b","x\"y",NULL,"NULL"}`,
 * optionally preceded by explicit bounds (`[0:2]={…}`). Only one-dimensional arrays are mapped (Flink's
 * PostgreSQL dialect converts one level of ARRAY); a nested `{` is an error.
 */

/** The elements of an array literal as text, `null` for an unquoted NULL. */
export function parseArrayLiteral(text: string): (string | null)[] {
  let i = 0;
  if (text.startsWith("[")) {
    const eq = text.indexOf("=");
    if (eq < 0) throw new Error(`'${text}' is not an array`);
    i = eq + 1;
  }
  if (text[i] !== "{") throw new Error(`'${text}' is not an array`);
  i++;
  const out: (string | null)[] = [];
  const skipSpace = () => { while (i < text.length && /\s/.test(text[i]!)) i++; };
  skipSpace();
  if (text[i] === "}") return out;
  for (;;) {
    skipSpace();
    const c = text[i];
    if (c === undefined) throw new Error(`'${text}' is not an array (unterminated)`);
    if (c === "{") throw new Error(`'${text}' is a multi-dimensional array; only one-dimensional arrays are mapped to ARRAY`);
    if (c === '"') {
      let s = "";
      i++;
      while (i < text.length && text[i] !== '"') {
        if (text[i] === "\\") i++;
        s += text[i++] ?? "";
      }
      if (text[i] !== '"') throw new Error(`'${text}' is not an array (unterminated quote)`);
      i++;
      out.push(s);
    } else {
      let s = "";
      let escaped = false;
      while (i < text.length && text[i] !== "," && text[i] !== "}") {
        if (text[i] === "\\") { escaped = true; i++; }
        s += text[i++] ?? "";
      }
      const trimmed = s.trim();
      out.push(!escaped && trimmed.toUpperCase() === "NULL" ? null : trimmed);
    }
    skipSpace();
    if (text[i] === ",") { i++; continue; }
    if (text[i] === "}") { i++; break; }
    throw new Error(`'${text}' is not an array (unexpected '${text[i] ?? "end"}' at position ${i})`);
  }
  skipSpace();
  if (i !== text.length) throw new Error(`'${text}' is not an array (text after the closing brace)`);
  return out;
}

/** An array literal of element texts: every element quoted (PostgreSQL accepts `{"1","2"}` for an integer[]). */
export function formatArrayLiteral(elements: readonly (string | null)[]): string {
  let s = "{";
  for (let i = 0; i < elements.length; i++) {
    if (i > 0) s += ",";
    const e = elements[i]!;
    s += e === null ? "NULL" : `"${e.replace(/[\\"]/g, (ch) => `\\${ch}`)}"`;
  }
  return `${s}}`;
}
