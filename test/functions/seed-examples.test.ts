import { describe, expect, it } from "vitest";
import { HashFunction, hashedOrders, javaStringHashCode, javaToHexString } from "../../examples/table-api/hash-function.js";
import { splitTags, splitTagsKeepingAll } from "../../examples/table-api/split-function.js";
import { printed } from "../support.js";

describe("seed 003: user-defined functions", () => {
  it("HashFunction reproduces Java's Integer.toHexString(s.hashCode())", () => {
    // values from Java: "".hashCode() = 0, "Bob".hashCode() = 66965, "polygenelubricants".hashCode() = Integer.MIN_VALUE,
    // "Aa".hashCode() = "BB".hashCode() = 2112, "hello".hashCode() = 99162322; Java hashes UTF-16 code units,
    // so an emoji counts as its two surrogates: 0xD83D * 31 + 0xDE00
    expect(javaStringHashCode("")).toBe(0);
    expect(javaStringHashCode("Bob")).toBe(66965);
    expect(javaStringHashCode("polygenelubricants")).toBe(-2147483648);
    expect(javaStringHashCode("Aa")).toBe(2112);
    expect(javaStringHashCode("BB")).toBe(2112);
    expect(javaStringHashCode("hello")).toBe(99162322);
    expect(javaStringHashCode("😀")).toBe(0xd83d * 31 + 0xde00);
    expect(javaToHexString(-1)).toBe("ffffffff");
    expect(javaToHexString(-2147483648)).toBe("80000000");
    expect(HashFunction.spec.eval("Bob")).toBe("10595");
  });

  it("the HashFunction example prints the hashed names", async () => {
    expect(await printed(hashedOrders().execute())).toBe([
      "+----+-------------+--------------------------------+",
      "| op |          id |                    hashed_name |",
      "+----+-------------+--------------------------------+",
      "| +I |           1 |                        3c6a660 |",
      "| +I |           2 |                          10595 |",
      "| +I |           3 |                       80000000 |",
      "| +I |           4 |                         <NULL> |",
      "+----+-------------+--------------------------------+",
      "4 rows in set",
    ].join("\n"));
  });

  it("the SplitFunction example joins each order with its trimmed tags", async () => {
    expect(await splitTags().execute().toChangelog()).toEqual([
      "+I[1, red, green, red]", "+I[1, red, green, green]", "+I[2, blue, blue]",
    ]);
    const rows = await splitTagsKeepingAll().execute().toArray();
    expect(rows).toEqual([
      { id: 1, tags: "red, green", tag: "red" }, { id: 1, tags: "red, green", tag: "green" },
      { id: 2, tags: "blue", tag: "blue" }, { id: 3, tags: null, tag: null },
    ]);
  });
});
