import { BaseOperator } from "../operator.js";

/** UNION ALL: forwards every input; the watermark is the minimum over the inputs. */
export class UnionOperator extends BaseOperator {
  processElement(_input: number, kind: number, row: unknown[]): void {
    this.out.record(kind, row);
  }
}
