/**
 * The lookup contract of a lookup-capable source (Flink's LookupTableSource / LookupFunction): the rows whose
 * lookup key columns equal `key`, as they are at the moment of the call (processing time). Connectors
 * implement it (connectors/collection-source.ts); the lookup join operator calls it once per input row. A
 * result may be a Promise (an asynchronous source): the join then keeps rows in flight, in order.
 */
export interface LookupReader {
  lookup(key: readonly unknown[]): readonly (readonly unknown[])[] | Promise<readonly (readonly unknown[])[]>;
}

/**
 * A lookup source whose reader is opened per job (connections, caches): the join calls `open()` when the
 * job starts and `close()` on the reader it returned when the job ends. `maxConcurrent` bounds the rows
 * waiting for a lookup (the job reads no input beyond it).
 */
export interface LookupReaderFactory {
  readonly maxConcurrent: number;
  open(signal: AbortSignal): LookupReader & { close(): void };
}

export function isLookupReaderFactory(r: unknown): r is LookupReaderFactory {
  return typeof (r as Partial<LookupReaderFactory>)?.open === "function";
}
