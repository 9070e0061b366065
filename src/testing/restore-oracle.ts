import fc from "fast-check";
import type { RowInput } from "../table/table-environment.js";
import { type RowKind } from "../types/row.js";
import { diffTables, formatTable } from "./table-literal.js";
import { type InputRow, PipelineHarness, type PipelineHarnessOptions, type PipelineInputs, type PipelineSnapshot } from "./pipeline-harness.js";

/**
 * One step of a harnessed run: a row sent to an input, an input's watermark moved, or the processing-time
 * clock moved forward (milliseconds or a duration such as "2 min"; state TTL runs on it).
 */
export type HarnessStep<I extends PipelineInputs> =
  | {
    [N in keyof I & string]:
      | { readonly input: N; readonly row: RowInput<InputRow<I[N]>> }
      | { readonly input: N; readonly watermark: number | Date };
  }[keyof I & string]
  | { readonly advanceProcessingTime: number | string };

/** What `checkRestoreAtAnyRecord` runs: a harnessed program and the steps of one run of it. */
export interface RestoreCheck<I extends PipelineInputs, R extends object> extends PipelineHarnessOptions<I, R> {
  /** The run, in order: rows to inputs and watermarks; the inputs end after the last step. */
  readonly steps: readonly HarnessStep<I>[];
  /**
   * How many cut points to try. With at least as many as there are cut points (steps + 1), every one is
   * tried, in order; otherwise fast-check draws them (and shrinks a failing one). Default 100.
   */
  readonly runs?: number;
  readonly seed?: number;
}

interface Captured { readonly kind: RowKind; readonly cells: (string | null)[] }

/**
 * Throws unless restoring at any record gives the uninterrupted run's changelog: for each cut point k, the
 * program runs the first k steps, its state is snapshotted (and passed through JSON, as a checkpoint is
 * stored), a new job of the same program is restored from it and runs the remaining steps to the end; the
 * rows emitted before the snapshot and after the restore, one after the other, must be exactly those of the
 * run without a restore (kinds, values and order), as Flink's exactly-once sinks would see them. The
 * failure shows the steps with the cut and the two changelogs as a diff.
 *
 * The snapshot is the operators' own (src/testing/operator-checkpoint.ts); when job-level checkpoints
 * exist the oracle uses them through the same module.
 */
export function checkRestoreAtAnyRecord<const I extends PipelineInputs, R extends object>(check: RestoreCheck<I, R>): void {
  const steps = check.steps;
  const make = () => PipelineHarness.of<I, R>(check);
  const reference = make();
  for (const s of steps) apply(reference, s);
  reference.endInput();
  const want = captured(reference);

  const runCut = (cut: number): Captured[] => {
    const first = make();
    for (let i = 0; i < cut; i++) apply(first, steps[i]!);
    const snapshot = JSON.parse(JSON.stringify(first.snapshot())) as PipelineSnapshot;
    const before = captured(first);
    const second = make().restore(snapshot);
    for (let i = cut; i < steps.length; i++) apply(second, steps[i]!);
    second.endInput();
    return [...before, ...captured(second)];
  };
  const same = (got: readonly Captured[]) => JSON.stringify(got) === JSON.stringify(want);

  const runs = check.runs ?? 100;
  let failing: number | undefined;
  if (runs >= steps.length + 1) {
    for (let cut = 0; cut <= steps.length && failing === undefined; cut++) if (!same(runCut(cut))) failing = cut;
  } else {
    const outcome = fc.check(fc.property(fc.integer({ min: 0, max: steps.length }), (cut) => same(runCut(cut))),
      { numRuns: runs, ...(check.seed !== undefined ? { seed: check.seed } : {}) });
    if (outcome.failed) failing = outcome.counterexample![0] as number;
  }
  if (failing === undefined) return;

  const got = runCut(failing);
  const names = reference.outputColumns();
  const asLiteral = (rows: readonly Captured[]) => formatTable(names, rows);
  throw new RestoreMismatchError(
    `restoring from a snapshot taken after step ${failing} of ${steps.length} changes the changelog; the steps:\n`
    + `${indent(stepsTable(reference, steps, failing))}\n`
    + `the changelog (- without a restore, + restored after step ${failing}):\n${indent(diffTables(asLiteral(want), asLiteral(got)))}`,
    failing,
  );
}

/** The failure of `checkRestoreAtAnyRecord`: the (smallest found) number of steps after which the snapshot was taken. */
export class RestoreMismatchError extends Error {
  constructor(message: string, readonly cut: number) {
    super(message);
    this.name = "RestoreMismatchError";
  }
}

function apply<I extends PipelineInputs>(h: PipelineHarness<I, object>, step: HarnessStep<I>): void {
  const s = step as { input: keyof I & string; row?: unknown; watermark?: number | Date; advanceProcessingTime?: number | string };
  if ("advanceProcessingTime" in s) h.advanceProcessingTime(s.advanceProcessingTime!);
  else if ("watermark" in s) h.watermark(s.input, s.watermark!);
  else h.send(s.input, s.row as never);
}

function captured(h: PipelineHarness<PipelineInputs, object>): Captured[] {
  return h.capturedRows();
}

/** The steps as a table, with a line where the snapshot was taken and restored. */
function stepsTable<I extends PipelineInputs>(h: PipelineHarness<I, object>, steps: readonly HarnessStep<I>[], cut: number): string {
  const rows: { cells: string[] }[] = steps.map((step, i) => {
    const s = step as { input: keyof I & string; row?: unknown; watermark?: number | Date; advanceProcessingTime?: number | string };
    if ("advanceProcessingTime" in s) return { cells: [String(i + 1), "clock", "PT", `+${String(s.advanceProcessingTime)}`] };
    if ("watermark" in s) {
      const ms = s.watermark instanceof Date ? s.watermark.getTime() : s.watermark!;
      return { cells: [String(i + 1), s.input, "WM", Number.isFinite(ms) ? new Date(ms).toISOString() : String(ms)] };
    }
    const r = h.describeInputRow(s.input, s.row);
    return { cells: [String(i + 1), s.input, r.kind, r.values] };
  });
  rows.splice(cut, 0, { cells: ["--", "snapshot", "--", "restored into a new job"] });
  return formatTable(["step", "input", "op", "row"], rows, false);
}

const indent = (s: string) => s.split("\n").map((l) => `  ${l}`).join("\n");
