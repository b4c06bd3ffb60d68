import { randomBytes } from 'node:crypto';

export function newNonce(): string {
  return randomBytes(18).toString('base64url');
}

/**
 * The enforced Content-Security-Policy. Pages that load React (hydrated routes) allow inline and
 * module scripts carrying the request's nonce; public pages have no inline script at all and
 * only allow our own script files (`nonce` null), which lets their cached HTML be byte-identical
 * for every visitor.
 */
export function contentSecurityPolicy(nonce: string | null, extra: { scriptSrc?: string[]; frameSrc?: string[]; connectSrc?: string[]; formAction?: string[] } = {}): string {
  const scripts = nonce ? [`'nonce-${nonce}'`, "'strict-dynamic'"] : ["'self'"];
  return [
    "default-src 'self'",
    `script-src ${[...scripts, ...(extra.scriptSrc ?? [])].join(' ')}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: https:",
    "font-src 'self'",
    `connect-src ${["'self'", ...(extra.connectSrc ?? [])].join(' ')}`,
    `frame-src ${['https:', ...(extra.frameSrc ?? [])].join(' ')}`,
    "frame-ancestors 'none'",
    `form-action ${["'self'", ...(extra.formAction ?? [])].join(' ')}`,
    "base-uri 'self'",
    "object-src 'none'",
  ].join('; ');
}
