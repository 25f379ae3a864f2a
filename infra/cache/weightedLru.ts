// A least-recently-used map bounded by entries and by a total weight (what an entry holds, in a
// unit its user picks: results for a run). The most recently used entry is always kept, however
// heavy, so a single large item still caches.

export interface WeightedLruLimits {
  maxEntries: number;
  maxWeight: number;
}

interface Slot<V> {
  value: V;
  weight: number;
}

export class WeightedLru<V> {
  readonly #slots = new Map<string, Slot<V>>();
  #weight = 0;

  constructor(private readonly limits: WeightedLruLimits) {}

  get size(): number {
    return this.#slots.size;
  }

  /** Every value kept, least recently used first, without touching any (for tests and metrics). */
  *values(): IterableIterator<V> {
    for (const slot of this.#slots.values()) yield slot.value;
  }

  /** The value, touched as most recently used. */
  get(key: string): V | undefined {
    const slot = this.#slots.get(key);
    if (!slot) return undefined;
    this.#slots.delete(key); // re-inserted last: the Map's order is the LRU order
    this.#slots.set(key, slot);
    return slot.value;
  }

  /** Stores `value` as the most recently used (replacing any under `key`), then evicts. */
  set(key: string, value: V, weight: number): void {
    this.delete(key);
    this.#slots.set(key, { value, weight });
    this.#weight += weight;
    this.#evict();
  }

  /** Raises an entry's weight to `weight` when it is heavier than known, then evicts. */
  weighAtLeast(key: string, weight: number): void {
    const slot = this.#slots.get(key);
    if (!slot || weight <= slot.weight) return;
    this.#weight += weight - slot.weight;
    slot.weight = weight;
    this.#evict();
  }

  /** Adds `weight` to an entry's (a part of it just loaded), then evicts. */
  addWeight(key: string, weight: number): void {
    const slot = this.#slots.get(key);
    if (!slot) return;
    slot.weight += weight;
    this.#weight += weight;
    this.#evict();
  }

  /** An entry's weight, undefined when it is not kept. */
  weightOf(key: string): number | undefined {
    return this.#slots.get(key)?.weight;
  }

  delete(key: string): void {
    const slot = this.#slots.get(key);
    if (!slot) return;
    this.#slots.delete(key);
    this.#weight -= slot.weight;
  }

  clear(): void {
    this.#slots.clear();
    this.#weight = 0;
  }

  /** Forgets the least recently used entries while over a limit; never the most recent one. */
  #evict(): void {
    const { maxEntries, maxWeight } = this.limits;
    while (this.#slots.size > 1 && (this.#slots.size > maxEntries || this.#weight > maxWeight)) {
      this.delete(this.#slots.keys().next().value as string);
    }
  }
}
