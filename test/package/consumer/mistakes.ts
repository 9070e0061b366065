// Each marked line must be a compile error containing the quoted text (consumers.test.ts), and no other line.
import { $, ArgumentTrait, DataTypes, ProcessTableFunction, TableDescriptor, descriptor, lit, tableArg } from "tablestream";
import { Threshold, env, people, peopleView, totals } from "./ptf-module.js";

people.select($("agee")); // expect: column 'agee' is not in
people.filter($("name").isGreater(18)); // expect: cannot compare STRING with NUMERIC
people.partitionBy($("name")).process(Threshold, "ten"); // expect: argument 'limit' expects a NUMERIC value, got STRING
people.partitionBy($("name")).process(Threshold); // expect: missing required argument(s): [limit]
people.process(Threshold, 1); // expect: table argument 'input' has set semantics
people.partitionBy($("name")).process(Threshold, lit(1).asArgument("limt")); // expect: unknown argument 'limt'
people.partitionBy($("name")).process(Threshold, 1, descriptor("tss")); // expect: on_time column 'tss' is not in
people.partitionBy($("nmae")); // expect: column 'nmae' is not in
ProcessTableFunction.define({ args: { t: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE) }, output: DataTypes.STRING(), eval(ctx) { ctx.timeContext().registerOnTime(1); } }); // expect: registerOnTime needs an onTimer declaration
env.from(peopleView).select($("agee")); // expect: column 'agee' is not in
people.groupBy($("nam")) // expect: column 'nam' is not in
  .select($("name"), $("age").sum().as("total"));
people.groupBy($("name")).select($("name"), $("age").sum().as("total")).executeInsert(TableDescriptor.forConnector("filesystem").option("path", "/tmp/x").format("csv").build()); // expect: cannot be written to an append-only sink
totals.executeInsert(TableDescriptor.forConnector("filesystem").option("path", "/tmp/x").format("csv").build());
