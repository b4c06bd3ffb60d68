import { donationDeps } from '~/domain/donations/deps.server';
import { ProviderError } from '~/domain/donations/providers/types';
import type { DonationDeps } from '~/domain/donations/context.server';
import { handleWebhook } from '~/domain/donations/payments.server';
import { availableMethods } from '~/domain/donations/providers/settings.server';
import { donateLimit, startGift, type GiftStarted } from '~/domain/giving/start.server';
import { detectLang } from '~/lib/i18n.server';
import { assertSameOrigin } from '~/lib/origin.server';
import { requestInfoContext } from '~/lib/request-context.server';

export const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...headers } });

type RequestContext = { get: (c: typeof requestInfoContext) => { clientIp: string } };

/** A POST of the donate page's script: same origin only, and the payments' dependencies for this request. */
async function ownPost(request: Request): Promise<{ deps: DonationDeps } | { response: Response }> {
  if (request.method !== 'POST') return { response: json({ error: 'method' }, 405) };
  assertSameOrigin(request);
  return { deps: await donationDeps(request) };
}

/** The PayPal tab's buttons' approval: an own POST, the means on offer, within the donate page's rate limit. */
export async function captureApi(request: Request, context: RequestContext): Promise<{ deps: DonationDeps } | { response: Response }> {
  const own = await ownPost(request);
  if ('response' in own) return own;
  if (!availableMethods(own.deps.settings).paypal) return { response: json({ error: 'donate.unavailable' }, 400) };
  const limit = await donateLimit(own.deps.db, context.get(requestInfoContext).clientIp);
  if (!limit.allowed) return { response: json({ error: 'donate.tooMany' }, 429, { 'Retry-After': String(limit.retryAfter) }) };
  return own;
}

/**
 * The donate page's own API starting a gift (PayPal buttons, mobile money checkout): an own POST;
 * the gift is started by startGift (app/domain/giving/start.server.ts: the method on offer, the
 * rate limit, the form's rules), and a refusal is answered as JSON.
 */
export async function giftApi(request: Request, context: RequestContext, method: 'paypal' | 'mobileMoney'): Promise<{ deps: DonationDeps; started: GiftStarted } | { response: Response }> {
  const own = await ownPost(request);
  if ('response' in own) return own;
  const { clientIp } = context.get(requestInfoContext);
  const r = await startGift(own.deps, { method, fields: await readBody(request), lang: detectLang(request).lang, clientIp });
  if (r.ok) return { deps: own.deps, started: r };
  const fields = r.tax?.errors.map((e) => e.field).join(',');
  return { response: json({ error: r.error, detail: r.detail, vars: r.vars, fields }, r.status, r.retryAfter ? { 'Retry-After': String(r.retryAfter) } : {}) };
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
 * POST /webhooks/{provider}: the raw body (size-capped, read as text so a signature is checked over
 * the exact bytes) and the headers go to the payment pipeline's `handleWebhook` (ADR 019), which
 * hands them to the provider the address names; a provider that could not be asked to confirm gets
 * 503 so that it retries later.
 */
export async function webhook(request: Request, provider: string): Promise<Response> {
  if (request.method !== 'POST') return new Response('Method Not Allowed', { status: 405 });
  const raw = (await request.text()).slice(0, 100_000);
  try {
    const out = await handleWebhook(await donationDeps(request), provider, raw, request.headers);
    return new Response(out.message, { status: out.status, headers: { 'Content-Type': 'text/plain', 'Cache-Control': 'no-store' } });
  } catch (e) {
    if (e instanceof ProviderError) return new Response('provider unavailable', { status: 503 });
    throw e;
  }
}

export function postOnly() {
  return new Response('Method Not Allowed', { status: 405, headers: { Allow: 'POST' } });
}
