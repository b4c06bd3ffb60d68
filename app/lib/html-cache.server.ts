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
  /** The page's own Content-Security-Policy when it is not the site's default (a page without a nonce). */
  csp?: string;
  /**
   * Headers the full chain sent with this page, by "scheme|host", as a flat name, value, name,
   * value… list ready for `writeHead` (server/app.ts's fast path replays them).
   */
  sent?: Map<string, string[]>;
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

/** One coding of an Accept-Encoding list, with its q-value when it has one. */
const codingIn = (name: string) => new RegExp(`(?:^|,)\\s*${name}\\s*(?:;\\s*q\\s*=\\s*([\\d.]+))?\\s*(?=,|$)`, 'i');
const CODINGS = { br: codingIn('br'), gzip: codingIn('gzip') };
const takes = (acceptEncoding: string, coding: keyof typeof CODINGS): boolean => {
  const m = CODINGS[coding].exec(acceptEncoding);
  return m !== null && (m[1] === undefined || Number(m[1]) > 0);
};

/**
 * The encoding a client's Accept-Encoding takes, ours preferred: brotli (smaller), else gzip, else
 * none. A coding with `q=0` is refused. For cached pages and rendered ones alike.
 */
export function acceptedEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | null {
  const header = acceptEncoding ?? '';
  return takes(header, 'br') ? 'br' : takes(header, 'gzip') ? 'gzip' : null;
}

/** The bytes of a cached page for a client's Accept-Encoding, and their encoding (null: the HTML itself). */
export function cachedBytes(page: CachedPage, acceptEncoding: string | undefined): [encoding: 'br' | 'gzip' | null, bytes: Buffer] {
  const header = acceptEncoding ?? '';
  if (page.br && takes(header, 'br')) return ['br', page.br];
  if (page.gzip && takes(header, 'gzip')) return ['gzip', page.gzip];
  return [null, page.body];
}

/** Bytes a page holds in memory: its HTML and its compressed copies. */
export function pageBytes(page: CachedPage): number {
  return page.body.length + (page.gzip?.length ?? 0) + (page.br?.length ?? 0);
}

/**
 * Bounded by entries and by bytes (a site with many long posts in three languages must not grow
 * without limit): the oldest entries go first.
 */
export class HtmlCache {
  private entries = new Map<string, CachedPage>();
  private generation = 0;
  private bytes = 0;

  constructor(
    private readonly maxEntries = 500,
    private readonly maxBytes = 32 * 1024 * 1024,
  ) {}

  get(key: string): CachedPage | undefined {
    return this.entries.get(key);
  }

  /** Token to pass back to `set`: a page rendered before an invalidation is not stored. */
  begin(): number {
    return this.generation;
  }

  set(key: string, page: CachedPage, generation: number): void {
    if (generation !== this.generation) return;
    const size = pageBytes(page);
    if (size > this.maxBytes) return;
    this.delete(key);
    while (this.entries.size >= this.maxEntries || this.bytes + size > this.maxBytes) {
      const oldest = this.entries.keys().next().value;
      // Stryker disable next-line ConditionalExpression,BlockStatement: the loop runs only while entries remain (a page is never larger than the budget)
      if (oldest === undefined) break;
      this.delete(oldest);
    }
    this.entries.set(key, page);
    this.bytes += size;
  }

  private delete(key: string): void {
    const page = this.entries.get(key);
    if (!page) return;
    this.entries.delete(key);
    this.bytes -= pageBytes(page);
  }

  clear(): void {
    // Stryker disable next-line UpdateOperator: any change of generation invalidates the renders in flight
    this.generation++;
    this.entries.clear();
    this.bytes = 0;
  }

  get size(): number {
    return this.entries.size;
  }

  /** Bytes held now. */
  get byteSize(): number {
    return this.bytes;
  }
}
