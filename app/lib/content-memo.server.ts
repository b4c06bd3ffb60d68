/**
 * Published content read once per content version, not once per request (ADR 017): the site's
 * settings, a managed page's texts, the stored images a page shows. Every render of a public page
 * needs them and they change only when an editor publishes, which calls `contentChanged()`: the
 * memo is dropped then, with the HTML cache, in every worker and instance (the same change feed).
 * So a value is exactly as fresh as a cached page, also when the HTML cache is off or the visitor
 * is signed in.
 *
 * Loads in flight are shared: fifty requests arriving after a change run one query, not fifty. A
 * load that fails is forgotten (the next request tries again). Values are frozen, deeply: they are
 * shared by every request, and a caller that changed one would change every later page.
 */
export class ContentMemo {
  private entries = new Map<string, Promise<unknown>>();

  constructor(private readonly maxEntries = 1000) {}

  get<T>(key: string, load: () => Promise<T>): Promise<T> {
    const known = this.entries.get(key);
    if (known) return known as Promise<T>;
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    const loading = load().then(deepFreeze);
    this.entries.set(key, loading);
    loading.catch(() => {
      if (this.entries.get(key) === loading) this.entries.delete(key);
    });
    return loading;
  }

  /** Content changed: what is remembered is dropped; loads in flight serve only those already waiting. */
  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}

/** Plain data only (objects, arrays, strings, numbers…): a frozen Map or Set could still be changed. */
function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value;
  if (value instanceof Map || value instanceof Set) throw new TypeError('content memo: keep plain data (a Map or Set cannot be frozen)');
  for (const v of Object.values(value)) deepFreeze(v);
  return Object.freeze(value);
}
