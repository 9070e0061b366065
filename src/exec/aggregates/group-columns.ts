import { type Accumulator, type Float64Column, type RowCounter, type Uint8Column, growFloat64 } from "./accumulator.js";
import { anchorShape } from "../shape-anchors.js";

/** Grows a flag column to `length` slots. */
function growUint8(a: Uint8Column, length: number): Uint8Column {
  if (length <= a.length) return a;
  const b = new Uint8Array(length);
  b.set(a);
  return b;
}

/**
 * The aggregate state of a set of groups, column-wise by group id (gid): the row count per group, the
 * typed columns of the accumulators that generated code updates inline (`f`: numbers, `u`: flags), and the
 * accumulator objects of the other aggregate calls. Which call uses which column is the business of the
 * AggregateLayout that created it; generated code reads the columns into local variables after `alloc`,
 * since growing replaces the arrays.
 */
export class GroupColumns implements RowCounter {
  counts = new Float64Array(16);
  readonly f: Float64Column[];
  readonly u: Uint8Column[];
  readonly accs: readonly Accumulator[];
  private capacity = 16;
  /** The next never-used gid (= number of groups when gids are not released). */
  next = 0;
  private readonly free: number[] = [];

  constructor(numbers: number, flags: number, accs: (rows: RowCounter) => Accumulator[]) {
    this.f = Array.from({ length: numbers }, () => new Float64Array(16));
    this.u = Array.from({ length: flags }, () => new Uint8Array(16));
    this.accs = accs(this);
    for (const a of this.accs) a.grow(16);
  }

  /** A gid for a new group (a released one first), with its slots reset. */
  alloc(): number {
    let gid = this.free.pop();
    if (gid === undefined) {
      gid = this.next++;
      if (gid >= this.capacity) this.grow(gid + 1);
    }
    this.reset(gid);
    return gid;
  }

  /** Makes a gid available to `alloc` again (streaming operators whose groups can empty). */
  release(gid: number): void {
    this.free.push(gid);
  }

  /** Makes room for gids below `n`. */
  grow(n: number): void {
    if (n <= this.capacity) return;
    let c = this.capacity;
    while (c < n) c *= 2;
    this.capacity = c;
    this.counts = growFloat64(this.counts, c);
    const f = this.f;
    for (let i = 0; i < f.length; i++) f[i] = growFloat64(f[i]!, c);
    const u = this.u;
    for (let i = 0; i < u.length; i++) u[i] = growUint8(u[i]!, c);
    for (const a of this.accs) a.grow(c);
  }

  /** Prepares the slots of a new (or reused) group. */
  reset(gid: number): void {
    this.counts[gid] = 0;
    const f = this.f;
    for (let i = 0; i < f.length; i++) f[i]![gid] = 0;
    const u = this.u;
    for (let i = 0; i < u.length; i++) u[i]![gid] = 0;
    const accs = this.accs;
    for (let i = 0; i < accs.length; i++) accs[i]!.reset(gid);
  }
}

// its shape outlives the jobs (exec/shape-anchors.ts)
anchorShape(new GroupColumns(1, 1, () => []));
