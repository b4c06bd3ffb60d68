/**
 * In-memory cache of rendered public pages for anonymous visitors, keyed by path and language.
 * Any content change empties it at once (see runtime.server.ts `contentChanged`). Entries keep the
 * CSP nonce they were rendered with, so that each hit can be served with a fresh one.
 */
export interface CachedPage {
  status: number;
  headers: [string, string][];
  body: string;
  nonce: string;
}

export class HtmlCache {
  private entries = new Map<string, CachedPage>();
  private generation = 0;

  constructor(private readonly maxEntries = 500) {}

  get(key: string): CachedPage | undefined {
    return this.entries.get(key);
  }

  /** Token to pass back to `set`: a page rendered before an invalidation is not stored. */
  begin(): number {
    return this.generation;
  }

  set(key: string, page: CachedPage, generation: number): void {
    if (generation !== this.generation) return;
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, page);
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
