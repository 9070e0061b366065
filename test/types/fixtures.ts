// Tables shared by the type tests. Their schemas are the starting points every test file reasons about.
import { DataTypes, EnvironmentSettings, Row, TableEnvironment } from "../../src/index.js";

export const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());

/** `{ name: string | null; age: number | null }` (nullable columns, as DataTypes are by default). */
export const people = env.fromValues(
  DataTypes.ROW(DataTypes.FIELD("name", DataTypes.STRING()), DataTypes.FIELD("age", DataTypes.INT())),
  Row.of("Alice", 35),
  Row.of("Bob", 12),
);

/** NOT NULL and nullable columns of several type families. */
export const orders = env.fromValues(
  DataTypes.ROW(
    DataTypes.FIELD("order_id", DataTypes.INT().notNull()),
    DataTypes.FIELD("product", DataTypes.STRING().notNull()),
    DataTypes.FIELD("amount", DataTypes.INT().notNull()),
    DataTypes.FIELD("price", DataTypes.DECIMAL(10, 2)),
    DataTypes.FIELD("paid", DataTypes.BOOLEAN().notNull()),
    DataTypes.FIELD("created_at", DataTypes.TIMESTAMP(3)),
  ),
  Row.of(1, "widget", 3, "9.99", true, "2025-03-27 07:38:31.134"),
);
