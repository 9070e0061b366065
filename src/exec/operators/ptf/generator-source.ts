import type { ResolvedPtfCall } from "../../../ptf/resolved-call.js";
import { ExecutionError, TableError } from "../../../types/errors.js";
import type { Output } from "../../operator.js";
import type { PollResult, SourceReader } from "../../source.js";
import { makeCollector } from "./collector.js";
import { RuntimeContext } from "./runtime-context.js";
import { modeInfo } from "../../../ptf/changelog.js";
import { describeThrown, thrownIs } from "../../../types/describe-thrown.js";

const NO_RECORD: readonly unknown[] = Object.freeze([]);

/**
 * A PTF without table arguments (a generator such as `env.fromCall(OrderGenerator)`) is a source: its
 * eval runs exactly once, on an empty input (PTF rule 15), then the source ends.
 */
export class GeneratorSource implements SourceReader {
  private done = false;
  private readonly ctx: RuntimeContext;

  constructor(private readonly call: ResolvedPtfCall) {
    const collect = makeCollector({
      functionName: call.functionName, outputType: call.fn.outputType, columns: call.functionColumns, prefix: [], mode: call.outputMode,
    });
    this.ctx = new RuntimeContext(call.functionName, collect, [], []);
    this.ctx.outputMode = modeInfo(call.outputMode);
  }

  poll(out: Output, _max: number): PollResult {
    if (!this.done) {
      this.done = true;
      const ctx = this.ctx;
      ctx.out = out;
      ctx.record = NO_RECORD;
      ctx.inEval = true;
      try {
        this.call.fn.evalFn(ctx, {}, { ...this.call.scalars });
      } catch (e) {
        if (thrownIs(e, TableError)) throw e;
        throw new ExecutionError(`Process table function '${this.call.functionName}' failed in eval(): ${describeThrown(e)}`, { cause: e });
      } finally {
        ctx.inEval = false;
      }
    }
    out.watermark(Infinity);
    out.endInput();
    return "end";
  }

  position(): unknown { return this.done; }
  seek(position: unknown): void { this.done = position === true; }
  close(): void {}
}
