/**
 * The lookup contract of a lookup-capable source (Flink's LookupTableSource / LookupFunction): the rows whose
 * lookup key columns equal `key`, as they are at the moment of the call (processing time). Connectors
 * implement it (connectors/collection-source.ts); the lookup join operator calls it once per input row.
 */
export interface LookupReader {
  lookup(key: readonly unknown[]): readonly (readonly unknown[])[];
}
