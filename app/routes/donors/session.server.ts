import { redirect } from 'react-router';
import { DONOR_PATH, readDonorSession, type DonorSession } from '~/domain/donors/links.server';
import { isSecure } from '~/lib/origin.server';
import { LANGS, sitePath } from '~/lib/lang-path';
import { inRequestLang, readCookie } from '~/lib/i18n.server';
import { db } from '~/lib/runtime.server';
import { NO_STORE } from '~/lib/cache-headers';

/**
 * Cookie of the donor space only (Path=/mon-espace, and /en/mon-espace, /es/mon-espace: the same
 * space in each language, ADR 026): never the admin's `__session`, and never sent with a public
 * page, which any cache may keep. The HTML cache in server/app.ts skips every request that carries
 * it: keep them in step.
 */
export const DONOR_COOKIE = '__donor';

export function donorCookie(token: string, maxAgeSeconds: number, secure: boolean, path: string = DONOR_PATH): string {
  return [`${DONOR_COOKIE}=${token}`, `Path=${path}`, 'HttpOnly', 'SameSite=Lax', `Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}`, ...(secure ? ['Secure'] : [])].join('; ');
}

/**
 * The headers of an answer that opens (or, with an empty token, closes) the donor's session: one
 * cookie per language's space, and never stored.
 */
export function donorSessionHeaders(token: string, maxAgeSeconds: number, secure: boolean): Headers {
  const headers = new Headers(NO_STORE);
  for (const lang of LANGS) headers.append('Set-Cookie', donorCookie(token, maxAgeSeconds, secure, sitePath(lang, DONOR_PATH)));
  return headers;
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
  throw redirect(inRequestLang(request, DONOR_PATH), { headers: donorToken(request) ? donorSessionHeaders('', 0, isSecure(request)) : NO_STORE });
}
