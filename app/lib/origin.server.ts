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
