import { createHmac, timingSafeEqual } from 'node:crypto';
import type { EntityRef } from './editorial';

/**
 * Signed preview links (ADR 015): `?apercu=<expiry>.<hmac>` lets someone without an account see
 * an item's draft until the expiry. The HMAC (app secret) covers the item and the expiry, so a
 * link opens one item only and cannot be extended.
 */
export const PREVIEW_LINK_MS = 7 * 24 * 60 * 60 * 1000;

function sign(secret: string, ref: EntityRef, expires: number): string {
  return createHmac('sha256', secret).update(`preview\n${ref.type}\n${ref.id}\n${expires}`).digest('base64url');
}

export function previewToken(secret: string, ref: EntityRef, now = new Date(), ttlMs = PREVIEW_LINK_MS): string {
  const expires = Math.floor((now.getTime() + ttlMs) / 1000);
  return `${expires}.${sign(secret, ref, expires)}`;
}

export function checkPreviewToken(secret: string, ref: EntityRef, token: string, now = new Date()): boolean {
  const m = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!m) return false;
  const expires = Number(m[1]);
  if (expires * 1000 <= now.getTime()) return false;
  const expected = Buffer.from(sign(secret, ref, expires));
  const given = Buffer.from(m[2]);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
