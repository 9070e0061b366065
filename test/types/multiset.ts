// Type tests of MULTISET<T>: its TS value is a Map of element to count, from DataTypes and from SQL type strings.
import { expectTypeOf } from "vitest";
import { $, DataTypes, Row, type SqlTypeValue, type ValueOf } from "../../src/index.js";
import { env } from "./fixtures.js";
import type { SchemaOf } from "./helpers.js";

expectTypeOf<ValueOf<ReturnType<typeof DataTypes.MULTISET<string | null>>>>().toEqualTypeOf<Map<string | null, number> | null>();
const tags = DataTypes.MULTISET(DataTypes.STRING().notNull()).notNull();
expectTypeOf<ValueOf<typeof tags>>().toEqualTypeOf<Map<string, number>>();
expectTypeOf<SqlTypeValue<"MULTISET<INT>">>().toEqualTypeOf<Map<number | null, number> | null>();
expectTypeOf<SqlTypeValue<"MULTISET<STRING NOT NULL> NOT NULL">>().toEqualTypeOf<Map<string, number>>();

const bags = env.fromValues(
  DataTypes.ROW(DataTypes.FIELD("id", DataTypes.INT().notNull()), DataTypes.FIELD("tags", DataTypes.MULTISET(DataTypes.STRING()))),
  Row.of(1, new Map([["a", 2]])),
);
expectTypeOf<SchemaOf<typeof bags>>().toEqualTypeOf<{ id: number; tags: Map<string | null, number> | null }>();
// @ts-expect-error a MULTISET is not an array
DataTypes.MULTISET(DataTypes.INT()).__value satisfies number[] | null;

// COLLECT in the Table API: MULTISET<T> NOT NULL of the argument's type
const collected = bags.groupBy($("id")).select($("id"), $("tags").count().as("n"), $("id").collect().as("ids"));
expectTypeOf<SchemaOf<typeof collected>>().toEqualTypeOf<{ id: number; n: number; ids: Map<number, number> }>();
// @ts-expect-error aggregate functions cannot be nested
bags.groupBy($("id")).select($("id").collect().count().as("x"));
