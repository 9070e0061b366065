import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CsvParser, type CsvParserOptions } from "../../src/connectors/filesystem/csv-parser.js";
import { encodeCsv } from "../../src/connectors/filesystem/codec.js";
import type { CsvFormat } from "../../src/connectors/filesystem/format.js";
import { DataTypes } from "../../src/index.js";

const base: CsvParserOptions = { delimiter: ",", quote: "\"", escape: undefined, comments: false, nullLiteral: undefined };

/** Parses `chunks` (fed one by one) into records `[line, fields]` and malformed reports. */
function parse(chunks: string[], o: Partial<CsvParserOptions> = {}) {
  const records: [number, (string | null)[]][] = [];
  const errors: [number, number, string][] = [];
  const p = new CsvParser({ ...base, ...o }, (f, l) => records.push([l, f]), (l, c, m) => errors.push([l, c, m]));
  for (const c of chunks) p.push(c);
  p.end();
  return { records, errors };
}

describe("CSV parser", () => {
  it("reads fields, NULL for unquoted empty fields, quoted strings as they are", () => {
    expect(parse(['a,,"",b\n"x, ""y""",1\n']).records).toEqual([
      [1, ["a", null, "", "b"]],
      [2, ["x, \"y\"", "1"]],
    ]);
  });

  it("reports the line a record starts on, across quoted line breaks, CRLF and chunk borders", () => {
    const text = 'a,"multi\nline\nfield"\r\nb,c\rd,e\n\nlast';
    const whole = parse([text]).records;
    expect(whole).toEqual([[1, ["a", "multi\nline\nfield"]], [4, ["b", "c"]], [5, ["d", "e"]], [6, [null]], [7, ["last"]]]);
    // every split of the text into two chunks gives the same records
    for (let i = 0; i <= text.length; i++) expect(parse([text.slice(0, i), text.slice(i)]).records).toEqual(whole);
  });

  it("supports another delimiter, an escape character, no quoting, comments and a null literal", () => {
    expect(parse(["a;\"b;c\"\n"], { delimiter: ";" }).records).toEqual([[1, ["a", "b;c"]]]);
    expect(parse(['"a\\"b\\\\",c\n'], { escape: "\\" }).records).toEqual([[1, ["a\"b\\", "c"]]]);
    expect(parse(['"a",b\n'], { quote: false }).records).toEqual([[1, ["\"a\"", "b"]]]);
    expect(parse(["# note\na,b\n#x,y\n"], { comments: true }).records).toEqual([[2, ["a", "b"]]]);
    expect(parse(['N,"N",x\n'], { nullLiteral: "N" }).records).toEqual([[1, [null, "N", "x"]]]);
  });

  it("reports malformed records with line and column and continues with the next line", () => {
    const { records, errors } = parse(['ok,1\n"a"b,2\nok,3\n"open,4\n']);
    expect(records).toEqual([[1, ["ok", "1"]], [3, ["ok", "3"]]]);
    expect(errors).toEqual([
      [2, 1, "unexpected character 'b' after the closing quote of a field"],
      [4, 1, "a quoted field opened on line 4 is not closed at the end of the file"],
    ]);
  });

  it("reads back what the writer writes (property)", () => {
    const types = [DataTypes.STRING(), DataTypes.STRING(), DataTypes.STRING()];
    const format: CsvFormat = {
      kind: "csv", delimiter: ",", quote: "\"", escape: undefined, comments: true, nullLiteral: undefined, arrayDelimiter: ";", ignoreParseErrors: false,
    };
    const cell = fc.option(fc.string({ unit: fc.constantFrom("a", ",", "\"", "\n", "\r", "#", " ", "é", "\\") }), { nil: null });
    fc.assert(fc.property(fc.array(fc.tuple(cell, cell, cell), { minLength: 1, maxLength: 8 }), fc.integer({ min: 1, max: 7 }), (rows, cut) => {
      const text = rows.map((r) => encodeCsv(types, r, format) + "\n").join("");
      const chunks: string[] = [];
      for (let i = 0; i < text.length; i += cut) chunks.push(text.slice(i, i + cut));
      const { records, errors } = parse(chunks, { comments: true });
      expect(errors).toEqual([]);
      expect(records.map(([, f]) => f)).toEqual(rows);
    }), { numRuns: 300 });
  });
});

describe("CSV positions across read chunks (issue 7)", () => {
  // records whose quoted fields hold CRLF, LF and CR line breaks, then one malformed record
  const field = fc.oneof(
    fc.constantFrom("a", "b c", "\"\""),
    fc.array(fc.constantFrom("x", "\r\n", "\n", "\r", "\"\""), { minLength: 1, maxLength: 5 }).map((parts) => `"${parts.join("")}"`),
  );
  const record = fc.array(field, { minLength: 1, maxLength: 3 }).map((fs) => fs.join(","));
  const lineBreak = fc.constantFrom("\n", "\r\n", "\r");
  /** The line each record starts on, counted on the whole text: every \r\n, \n or \r is one line break. */
  const breaks = (s: string) => (s.match(/\r\n|\r|\n/g) ?? []).length;

  it("property: record lines and the malformed record's line and column do not depend on the chunk size", () => {
    fc.assert(fc.property(fc.array(fc.tuple(record, lineBreak), { minLength: 1, maxLength: 6 }), fc.integer({ min: 1, max: 12 }), (recs, size) => {
      let text = "";
      const expectedLines: number[] = [];
      for (const [r, nl] of recs) {
        expectedLines.push(breaks(text) + 1);
        text += r + nl;
      }
      const badLine = breaks(text) + 1;
      text += "ok,\"closed\"junk\r\nlast\r\n";
      const chunks: string[] = [];
      for (let i = 0; i < text.length; i += size) chunks.push(text.slice(i, i + size));
      const { records, errors } = parse(chunks);
      expect(records.map(([l]) => l)).toEqual([...expectedLines, badLine + 1]);
      expect(errors.map(([l, c]) => [l, c])).toEqual([[badLine, 2]]);
    }), { numRuns: 300 });
  });
});
