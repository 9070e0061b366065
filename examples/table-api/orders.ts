// Sample data for the Table API examples of seed 003 ("Table API 배우기").
import { DataTypes, Row, type TableEnvironment } from "../../src/index.js";

/** Orders with the columns the seed's snippets use. */
export function orders(env: TableEnvironment) {
  return env.fromValues(
    DataTypes.ROW(
      DataTypes.FIELD("internal_id", DataTypes.INT().notNull()),
      DataTypes.FIELD("product", DataTypes.STRING().notNull()),
      DataTypes.FIELD("amount", DataTypes.INT().notNull()),
      DataTypes.FIELD("price", DataTypes.DECIMAL(10, 2).notNull()),
      DataTypes.FIELD("status", DataTypes.STRING()),
    ),
    Row.of(1, "widget", 2, "1.50", "paid"),
    Row.of(2, "gadget", 1, "20.00", "cancelled"),
    Row.of(3, "widget", 0, "1.50", "paid"),
    Row.of(4, "gizmo", 5, "3.25", null),
    Row.of(5, "widget", 4, "1.40", "paid"),
  );
}
