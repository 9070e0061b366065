import type { KeyedStore } from "../../state/keyed-store.js";

/**
 * Incremental TTL cleanup (Flink's incremental cleanup strategy): every state access also looks at a
 * couple of other keys through a live iterator and removes what has expired, so keys that are never
 * touched again still leave memory while the job runs. Reads never return expired entries either way.
 */
const ENTRIES_PER_STEP = 2;

export class TtlCleaner<K, V> {
  private it: Iterator<[unknown, V]> | undefined;

  /**
   * `expire(key, value, now)` drops what has expired for one key (e.g. old list elements) and returns
   * true when the whole key is to be removed from `map`; `onRemove` removes it from companion maps.
   */
  constructor(
    private readonly map: KeyedStore<V>,
    private readonly expire: (key: K, value: V, now: number) => boolean,
    private readonly onRemove: (key: K) => void = () => {},
  ) {}

  step(now: number): void {
    for (let i = 0; i < ENTRIES_PER_STEP; i++) {
      if (this.it === undefined) {
        if (this.map.size === 0) return;
        this.it = this.map.entries();
      }
      const r = this.it.next();
      if (r.done) {
        this.it = undefined;
        return;
      }
      const [k, v] = r.value as [K, V];
      if (this.expire(k, v, now)) {
        this.map.delete(k);
        this.onRemove(k);
      }
    }
  }
}
