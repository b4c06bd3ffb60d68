import { expiryFrom, signature, signatureMatches, stillValid } from '~/lib/signed-link.server';
import type { EntityRef } from './editorial';

/**
 * Signed preview links (ADR 015): `?apercu=<expiry>.<hmac>` lets someone without an account see
 * an item's draft until the expiry. The HMAC (app secret) covers the item and the expiry, so a
 * link opens one item only and cannot be extended.
 */
export const PREVIEW_LINK_MS = 7 * 24 * 60 * 60 * 1000;

/** What a preview link signs: its purpose, the item and the expiry. */
const previewMessage = (ref: EntityRef, expires: number) => `preview\n${ref.type}\n${ref.id}\n${expires}`;

export function previewToken(secret: string, ref: EntityRef, now = new Date(), ttlMs = PREVIEW_LINK_MS): string {
  const expires = expiryFrom(now, ttlMs);
  return `${expires}.${signature(secret, previewMessage(ref, expires))}`;
}

export function checkPreviewToken(secret: string, ref: EntityRef, token: string, now = new Date()): boolean {
  const m = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!m) return false;
  const expires = Number(m[1]);
  return stillValid(expires, now) && signatureMatches(secret, previewMessage(ref, expires), m[2]);
}
