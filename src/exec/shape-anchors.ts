/**
 * Objects kept alive for their hidden classes only. V8 holds the shape an object reaches through its
 * constructor's field stores weakly (its transition tree); when every object of a per-job class is garbage
 * at a full GC — between two jobs of a long-running process — the shape dies, V8 discards the optimised code
 * specialised to it (the class's methods and what inlined them), and the next job's objects get a new shape
 * that is compiled for again. One small instance per hot per-job class, made when its module loads and kept
 * here, keeps the shape (docs/benchmarks.md, `npm run bench:deopts -- --gc`). Row objects have their own
 * anchors (table/row-converter.ts).
 */
const ANCHORS: object[] = [];
/** The classes `anchorFirst` has kept an instance of. */
const ANCHORED = new Set<unknown>();

/** Keeps `o` alive for the process; returns it. */
export function anchorShape<T extends object>(o: T): T {
  ANCHORS.push(o);
  return o;
}

/**
 * Keeps the first instance of `o`'s class alive, for a class that cannot make a small instance of its own
 * when its module loads (it needs a schema or a sink); called from its constructor, once per instance.
 */
export function anchorFirst(o: object): void {
  if (ANCHORED.has(o.constructor)) return;
  ANCHORED.add(o.constructor);
  ANCHORS.push(o);
}
