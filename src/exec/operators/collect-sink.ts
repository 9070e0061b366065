import type { JobSink } from "../../table/executor.js";
import { BaseOperator } from "../operator.js";

/** The end of a job: hands every record to the consumer of the TableResult. */
export class CollectSinkOperator extends BaseOperator {
  ended = false;
  constructor(private readonly sink: JobSink) {
    super(1);
  }
  processElement(_input: number, kind: number, row: unknown[]): void {
    this.sink.record(kind, row);
  }
  protected override onWatermark(): void {}
  protected override onEndOfInput(): void {
    this.ended = true;
  }
}
