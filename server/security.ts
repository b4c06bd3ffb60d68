import { randomBytes } from 'node:crypto';
import type * as express from 'express';

export function newNonce(): string {
  return randomBytes(18).toString('base64url');
}

/**
 * Content-Security-Policy with a per-request nonce (enforced), plus the other headers every
 * response carries. HSTS only when the visitor is on HTTPS.
 */
export function contentSecurityPolicy(nonce: string, extraScriptSrc: string[] = [], extraFrameSrc: string[] = []): string {
  return [
    "default-src 'self'",
    `script-src 'nonce-${nonce}' 'strict-dynamic' ${extraScriptSrc.join(' ')}`.trim(),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: https:",
    "font-src 'self'",
    "connect-src 'self'",
    `frame-src ${['https:', ...extraFrameSrc].join(' ')}`,
    "frame-ancestors 'none'",
    "form-action 'self'",
    "base-uri 'self'",
    "object-src 'none'",
  ].join('; ');
}

export function baseSecurityHeaders(req: express.Request, res: express.Response): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  res.setHeader('Permissions-Policy', 'camera=(), microphone=(), geolocation=()');
  if (req.secure) res.setHeader('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
}
