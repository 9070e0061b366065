import { describe, expect, it } from "vitest";
import { $, DataTypes, ifThenElse, lit } from "../../src/index.js";
import { CodegenContext, compileExpr } from "../../src/expressions/compile.js";
import type { Expression } from "../../src/expressions/expression.js";
import { ResolvedSchema } from "../../src/types/resolved-schema.js";

/** The generated JS for an expression over (a INT NOT NULL, b INT, x DOUBLE NOT NULL, s STRING NOT NULL). */
function src(e: Expression<unknown>): string {
  const schema = new ResolvedSchema([
    { name: "a", type: DataTypes.INT().notNull() }, { name: "b", type: DataTypes.INT() },
    { name: "x", type: DataTypes.DOUBLE().notNull() }, { name: "s", type: DataTypes.STRING().notNull() },
  ]);
  return compileExpr(e.node, new CodegenContext(schema)).src;
}

describe("generated code", () => {
  it("NOT NULL operands get no null test", () => {
    expect(src($("x").times(0.908))).toBe("(r[2]*0.908)");
    expect(src($("a").plus(1))).toBe("(h.i32(r[0]+1,c[0]))");
    expect(src($("a").mod(123).isEqual(0))).toBe("((r[0]%123+0)===0)");
    expect(src($("s").upperCase())).toBe("(r[3].toUpperCase())");
    expect(src($("x").isGreater(1).and($("a").isLess(5)))).toBe("((r[2]>1)&&(r[0]<5))");
    expect(src(ifThenElse($("a").isGreater(0), $("a"), 0))).toBe("((r[0]>0)?r[0]:0)");
  });

  it("a nullable operand is read once into a temporary and tested once", () => {
    expect(src($("b").plus(1))).toBe("((t0=r[1])===null?null:h.i32(t0+1,c[0]))");
    expect(src($("a").plus($("b")).times(2))).toBe("((t1=((t0=r[1])===null?null:h.i32(r[0]+t0,c[0])))===null?null:h.i32(t1*2,c[1]))");
  });

  it("literal IN lists become one Set lookup", () => {
    expect(src($("s").in("INSERT", "UPDATE_AFTER"))).toBe("(c[0].has(r[3]))");
    expect(src(lit("x").isEqual($("s")))).toBe("(\"x\"===r[3])");
  });
});
