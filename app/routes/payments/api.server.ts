import { donationDeps } from '~/domain/donations/deps.server';
import { ProviderError } from '~/domain/donations/providers/types';
import { availableMethods } from '~/domain/donations/payment-settings.server';
import type { DonationDeps } from '~/domain/donations/service.server';
import { assertSameOrigin } from '~/lib/origin.server';
import { hitRateLimit } from '~/lib/rate-limit.server';
import { requestInfoContext } from '~/lib/request-context.server';

export const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...headers } });

/**
 * The donate page's own API (PayPal buttons, mobile money checkout): same origin only, rate
 * limited per address, and only for a method that is on offer.
 */
export async function donationApi(
  request: Request,
  context: { get: (c: typeof requestInfoContext) => { clientIp: string } },
  method: 'paypal' | 'mobileMoney',
): Promise<{ deps: DonationDeps } | { response: Response }> {
  if (request.method !== 'POST') return { response: json({ error: 'method' }, 405) };
  assertSameOrigin(request);
  const deps = await donationDeps(request);
  if (!availableMethods(deps.settings)[method]) return { response: json({ error: 'donate.unavailable' }, 400) };
  const { clientIp } = context.get(requestInfoContext);
  const limit = await hitRateLimit(deps.db, `donate:${clientIp}`, 20, 10 * 60 * 1000);
  if (!limit.allowed) return { response: json({ error: 'donate.tooMany' }, 429, { 'Retry-After': String(limit.retryAfter) }) };
  return { deps };
}

/** A JSON or form body as flat strings. */
export function parseBody(raw: string, contentType: string | null): Record<string, string> {
  if ((contentType ?? '').includes('json')) {
    try {
      const v = JSON.parse(raw) as Record<string, unknown>;
      return Object.fromEntries(Object.entries(v && typeof v === 'object' ? v : {}).map(([k, x]) => [k, typeof x === 'string' ? x : String(x ?? '')]));
    } catch {
      return {};
    }
  }
  return Object.fromEntries(new URLSearchParams(raw));
}

/** A JSON or form body, at most 10 kB. */
export async function readBody(request: Request): Promise<Record<string, string>> {
  return parseBody((await request.text()).slice(0, 10_000), request.headers.get('content-type'));
}

/**
 * A provider's webhook: the raw body (size-capped) and headers go to `handle`; a provider that
 * could not be asked to confirm gets 503 so that it retries later.
 */
export async function webhook(request: Request, handle: (raw: string) => Promise<{ status: number; message: string }>): Promise<Response> {
  if (request.method !== 'POST') return new Response('Method Not Allowed', { status: 405 });
  const raw = (await request.text()).slice(0, 100_000);
  try {
    const out = await handle(raw);
    return new Response(out.message, { status: out.status, headers: { 'Content-Type': 'text/plain', 'Cache-Control': 'no-store' } });
  } catch (e) {
    if (e instanceof ProviderError) return new Response('provider unavailable', { status: 503 });
    throw e;
  }
}

export function postOnly() {
  return new Response('Method Not Allowed', { status: 405, headers: { Allow: 'POST' } });
}
