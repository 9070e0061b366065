import { describe, expect, it } from "vitest";
import { DataTypes, EnvironmentSettings, Row, RowKind, TableEnvironment } from "../../src/index.js";
import { ROW_KIND } from "../../src/types/row.js";

describe("Row.kindOf", () => {
  it("reads a result row's kind from its prototype, for each kind; positional rows and plain objects as before", async () => {
    const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    const t = env.fromValues(DataTypes.ROW(DataTypes.FIELD("a", DataTypes.INT())),
      Row.ofKind(RowKind.INSERT, 1), Row.ofKind(RowKind.UPDATE_BEFORE, 1), Row.ofKind(RowKind.UPDATE_AFTER, 2), Row.ofKind(RowKind.DELETE, 2));
    const rows = await t.execute().toArray();
    expect(rows.map((r) => Row.kindOf(r))).toEqual(["+I", "-U", "+U", "-D"]);
    // the kind is not an own property
    expect(rows.map((r) => Object.getOwnPropertySymbols(r).length)).toEqual([0, 0, 0, 0]);
    expect(Row.kindOf(Row.ofKind(RowKind.DELETE, 1))).toBe("-D");
    expect(Row.kindOf(Row.of(1))).toBe("+I");
    expect(Row.kindOf({ a: 1 })).toBe("+I");
    expect(Row.kindOf(Row.withKind(RowKind.UPDATE_AFTER, { a: 1 }))).toBe("+U");
    // a nullish symbol value means no kind, as before
    expect(Row.kindOf({ [ROW_KIND]: undefined })).toBe("+I");
    expect(Row.kindOf({ [ROW_KIND]: null })).toBe("+I");
  });
});
