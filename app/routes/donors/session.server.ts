import { redirect } from 'react-router';
import { DONOR_PATH, readDonorSession, type DonorSession } from '~/domain/donors/links.server';
import { isSecure } from '~/lib/origin.server';
import { readCookie } from '~/lib/i18n.server';
import { db } from '~/lib/runtime.server';
import { NO_STORE } from '~/lib/cache-headers';

/**
 * Cookie of the donor space only (Path=/mon-espace): never the admin's `__session`. The HTML cache
 * in server/app.ts skips every request that carries it: keep them in step.
 */
export const DONOR_COOKIE = '__donor';

export function donorCookie(token: string, maxAgeSeconds: number, secure: boolean): string {
  return [`${DONOR_COOKIE}=${token}`, `Path=${DONOR_PATH}`, 'HttpOnly', 'SameSite=Lax', `Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}`, ...(secure ? ['Secure'] : [])].join('; ');
}

/** The donor space's pages are per person: never stored by a browser, a proxy or the HTML cache. */
export { NO_STORE };

export const donorToken = (request: Request) => readCookie(request.headers.get('cookie'), DONOR_COOKIE) || undefined;

export async function donorOf(request: Request): Promise<DonorSession | null> {
  return readDonorSession(db(), donorToken(request));
}

/** The signed-in donor, or back to the sign-in form (clearing a cookie that names no live session). */
export async function requireDonor(request: Request): Promise<DonorSession> {
  const donor = await donorOf(request);
  if (donor) return donor;
  throw redirect('/mon-espace', { headers: { ...NO_STORE, ...(donorToken(request) ? { 'Set-Cookie': donorCookie('', 0, isSecure(request)) } : {}) } });
}
