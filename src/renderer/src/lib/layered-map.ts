/**
 * A read-only map that one change makes anew without copying every entry: the store keeps
 * `sessionsById` immutable (a new map at each change, compared by reference), and with 10,000
 * sessions listed a copy was 1.5–3 ms per `session:updated`, a few of them between a prompt's
 * Enter and its first text (`first_text_ms_new_session_10gb`).
 *
 * `withEntry(map, key, value)` gives a map equal to `new Map(map).set(key, value)`, in the same
 * iteration order, made of the old map's entries (shared, never changed) and a small map of the
 * entries changed since (copied per change, at most `MAX_CHANGED`; past that one full copy
 * starts over). `get`, `has` and `size` read the two; the first iteration builds the whole map
 * once for that instance.
 */
const MAX_CHANGED = 64;

export class LayeredMap<K, V> implements ReadonlyMap<K, V> {
  private whole: Map<K, V> | undefined;

  private constructor(
    private readonly base: ReadonlyMap<K, V>,
    private readonly changed: ReadonlyMap<K, V>,
    readonly size: number,
  ) {}

  /** `map` with `key` set to `value` (added at the end when new), as a new map; `map` is unchanged. */
  static withEntry<K, V>(map: ReadonlyMap<K, V>, key: K, value: V): ReadonlyMap<K, V> {
    const layered = map instanceof LayeredMap ? (map as LayeredMap<K, V>) : undefined;
    const base = layered ? layered.base : map;
    const changed = layered ? layered.changed : new Map<K, V>();
    const size = map.has(key) ? map.size : map.size + 1;
    if (changed.size >= MAX_CHANGED) return new Map(map).set(key, value);
    return new LayeredMap(base, new Map(changed).set(key, value), size);
  }

  get(key: K): V | undefined {
    return this.changed.has(key) ? this.changed.get(key) : this.base.get(key);
  }

  has(key: K): boolean {
    return this.changed.has(key) || this.base.has(key);
  }

  forEach(fn: (value: V, key: K, map: ReadonlyMap<K, V>) => void, thisArg?: unknown): void {
    for (const [k, v] of this.all()) fn.call(thisArg, v, k, this);
  }

  entries(): MapIterator<[K, V]> {
    return this.all().entries();
  }

  keys(): MapIterator<K> {
    return this.all().keys();
  }

  values(): MapIterator<V> {
    return this.all().values();
  }

  [Symbol.iterator](): MapIterator<[K, V]> {
    return this.all().entries();
  }

  get [Symbol.toStringTag](): string {
    return 'LayeredMap';
  }

  /** Every entry in a map's order: the old map's (changed ones in place), then the new ones. */
  private all(): Map<K, V> {
    if (this.whole) return this.whole;
    const whole = new Map(this.base);
    for (const [k, v] of this.changed) whole.set(k, v);
    this.whole = whole;
    return whole;
  }
}
