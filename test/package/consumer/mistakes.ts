// Each marked line must be a compile error containing the quoted text (consumers.test.ts), and no other line.
import { $, descriptor, lit } from "tablestream";
import { Threshold, people } from "./ptf-module.js";

people.select($("agee")); // expect: column 'agee' is not in
people.filter($("name").isGreater(18)); // expect: cannot compare STRING with NUMERIC
people.partitionBy($("name")).process(Threshold, "ten"); // expect: argument 'limit' expects a NUMERIC value, got STRING
people.partitionBy($("name")).process(Threshold); // expect: missing required argument(s): [limit]
people.process(Threshold, 1); // expect: table argument 'input' has set semantics
people.partitionBy($("name")).process(Threshold, lit(1).asArgument("limt")); // expect: unknown argument 'limt'
people.partitionBy($("name")).process(Threshold, 1, descriptor("tss")); // expect: on_time column 'tss' is not in
people.partitionBy($("nmae")); // expect: column 'nmae' is not in
