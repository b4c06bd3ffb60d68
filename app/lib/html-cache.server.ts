import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/**
 * In-memory cache of rendered public pages for anonymous visitors, keyed by language and path
 * (ADR 004). Pages without a nonce (all public pages) are stored pre-compressed, so a hit costs a
 * map lookup and a write. A page rendered with a nonce keeps it, and each hit swaps in a new one.
 */
export interface CachedPage {
  status: number;
  headers: [string, string][];
  body: Buffer;
  gzip?: Buffer;
  br?: Buffer;
  etag: string;
  nonce: string | null;
}

export function makeCachedPage(status: number, headers: [string, string][], html: string, nonce: string | null): CachedPage {
  const body = Buffer.from(html);
  const page: CachedPage = { status, headers, body, nonce, etag: `"${createHash('sha1').update(body).digest('base64url')}"` };
  if (!nonce) {
    // Stryker disable next-line ObjectLiteral: the compression level changes the size, not the bytes a client gets back
    page.gzip = gzipSync(body, { level: 9 });
    // Stryker disable next-line ObjectLiteral: the compression level changes the size, not the bytes a client gets back
    page.br = brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } });
  }
  return page;
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
      // Stryker disable next-line ConditionalExpression: at the limit there is always an oldest entry (deleting undefined is a no-op)
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, page);
  }

  clear(): void {
    // Stryker disable next-line UpdateOperator: any change of generation invalidates the renders in flight
    this.generation++;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
