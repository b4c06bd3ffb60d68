import { data, type MiddlewareFunction } from 'react-router';
import { runtime } from './runtime.server';

/** localhost, 127.x.x.x or [::1], with or without a port. */
const LOOPBACK_HOST = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])(?::\d+)?$/i;

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_HOST.test(host);
}

/**
 * The origin that something sent to someone else may point at (a link in a mail, the address a
 * payment provider sends the donor back to): PUBLIC_URL, or without it the request's own origin
 * only when the request came to a loopback address. A stranger's request names any Host it likes;
 * a link built from it would carry its token, or the donor, to that host (ADR 010). Undefined: no
 * origin can be trusted, and nothing that needs one is sent.
 */
export function trustedOrigin(request: Request): string | undefined {
  const pub = runtime().publicUrl;
  if (pub) return pub;
  const url = new URL(request.url);
  return isLoopbackHost(url.host) ? url.origin : undefined;
}

/* ---------- Requests from our own pages (ADR 005): the back office, the donor space, the payment API ---------- */

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function forbidden(): never {
  throw data('Accès refusé', { status: 403 });
}

/** The origins our own pages are served from: the request's and PUBLIC_URL's. */
function siteOrigins(request: Request): string[] {
  const origins = [new URL(request.url).origin];
  const pub = runtime().publicUrl;
  if (pub) origins.push(new URL(pub).origin);
  return origins;
}

/**
 * Refuses (403) a state-changing request sent by another site: its Origin must be ours; without
 * Origin, Sec-Fetch-Site must not say cross-site. (A request with neither comes from no browser,
 * and still needs a session cookie.)
 */
export function assertSameOrigin(request: Request): void {
  if (SAFE_METHODS.has(request.method)) return;
  const origin = request.headers.get('origin');
  if (origin) {
    if (!siteOrigins(request).includes(origin)) forbidden();
    return;
  }
  const site = request.headers.get('sec-fetch-site');
  if (site && site !== 'same-origin' && site !== 'none') forbidden();
}

/** Route middleware for pages that need no session (sign-in flows): the origin check only. */
export const originGuard: MiddlewareFunction<Response> = ({ request }, next) => {
  assertSameOrigin(request);
  return next();
};

/** Whether cookies we set should be Secure: the request came over HTTPS, or PUBLIC_URL is https. */
export function isSecure(request: Request): boolean {
  return new URL(request.url).protocol === 'https:' || Boolean(runtime().publicUrl?.startsWith('https://'));
}
