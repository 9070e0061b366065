// Seed 003, "스칼라 함수": a ScalarFunction that hashes a string as Java does
// (Integer.toHexString(input.hashCode())), registered by name and called with call("hash", ...).
import { $, call, DataTypes, EnvironmentSettings, Row, ScalarFunction, TableEnvironment } from "../../src/index.js";

/** Java's String.hashCode: s[0]*31^(n-1) + ... + s[n-1] over UTF-16 code units, in 32-bit arithmetic. */
export function javaStringHashCode(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(31, h) + s.charCodeAt(i)) | 0;
  return h;
}

/** Java's Integer.toHexString: the two's-complement bits as unsigned hex. */
export function javaToHexString(i: number): string {
  return (i >>> 0).toString(16);
}

export const HashFunction = ScalarFunction.define({
  name: "hash",
  args: [DataTypes.STRING().notNull()],
  result: DataTypes.STRING().notNull(),
  eval: (input) => javaToHexString(javaStringHashCode(input)),
});

export function hashedOrders(env = TableEnvironment.create(EnvironmentSettings.inStreamingMode())) {
  const orders = env.fromValues(
    DataTypes.ROW(DataTypes.FIELD("id", DataTypes.INT().notNull()), DataTypes.FIELD("customer_name", DataTypes.STRING())),
    Row.of(1, "Alice"),
    Row.of(2, "Bob"),
    Row.of(3, "polygenelubricants"),
    Row.of(4, null),
  );
  // Register and use
  env.createTemporaryFunction("hash", HashFunction);
  return orders.select($("id"), call("hash", $("customer_name")).as("hashed_name"));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await hashedOrders().execute().print();
}
