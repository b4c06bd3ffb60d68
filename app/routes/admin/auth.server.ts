import { createContext, redirect, type MiddlewareFunction, type RouterContextProvider } from 'react-router';
import type { Actor } from '~/domain/audit/audit.server';
import { HOME_PATH, LOGIN_PATH, LOGOUT_PATH } from '~/domain/users/paths';
import { canOpenPath, can, dependsOnGrant, sectionForPath, type AdminArea, type Role } from '~/domain/users/permissions';
import { getOfflineGiftSettings } from '~/domain/offline-gifts/settings.server';
import { createSession, destroySession, readSession, type SessionUser } from '~/domain/users/sessions.server';
import { readCookie } from '~/lib/i18n.server';
import { assertSameOrigin, forbidden, isSecure } from '~/lib/origin.server';
import { requestInfoContext } from '~/lib/request-context.server';
import { db } from '~/lib/runtime.server';

/**
 * The back office's gate (ADR 005): who is signed in, whether their role may open the path, and
 * whether a state-changing request comes from our own pages; and the cookie that carries the
 * session. The session rows are app/domain/users/sessions.server.ts, the sign-in throttling
 * app/domain/users/throttle.server.ts; the same-origin check (shared with the donor space and the
 * payment API) is app/lib/origin.server.ts.
 */

/**
 * The admin session's cookie. The HTML cache in server/app.ts skips every request that carries
 * this cookie name, server/request-guard.ts gives it the admin forms' body limit and
 * app/lib/log.server.ts redacts it: keep them in step.
 */
export const SESSION_COOKIE = '__session';

/** The request's signed-in user once read (false: not read yet; null: nobody). */
const userContext = createContext<SessionUser | null | false>(false);

type Ctx = Readonly<RouterContextProvider>;

export async function currentUser(request: Request, context: Ctx): Promise<SessionUser | null> {
  const known = context.get(userContext);
  if (known !== false) return known;
  const user = await readSession(db(), readSessionToken(request));
  (context as RouterContextProvider).set(userContext, user);
  return user;
}

/** Only paths under /admin are places to come back to after signing in. */
export function safeRedirect(to: string | null | undefined, fallback = HOME_PATH): string {
  if (!to || !to.startsWith('/admin') || to.startsWith('//') || to.includes('\\')) return fallback;
  const path = to.split(/[?#]/)[0];
  if (path === LOGIN_PATH || path === LOGOUT_PATH) return fallback;
  return to;
}

function loginRedirect(request: Request): never {
  const url = new URL(request.url);
  const back = `${url.pathname.replace(/\.data$/, '')}${url.search}`;
  const target = back === '/admin' || back === HOME_PATH ? LOGIN_PATH : `${LOGIN_PATH}?redirectTo=${encodeURIComponent(back)}`;
  const headers = new Headers();
  // A cookie that named no live session (expired, ended elsewhere) goes too.
  if (readSessionToken(request)) headers.append('Set-Cookie', clearSessionCookie(isSecure(request)));
  throw redirect(target, { headers });
}

/**
 * Returns the signed-in user, or sends the visitor to the sign-in page (and back here after it);
 * answers 403 when the user's role may not open `area` or hold `role`.
 */
export async function requireUser(request: Request, context: Ctx, opts: { area?: AdminArea; role?: Role } = {}): Promise<SessionUser> {
  const user = await currentUser(request, context);
  if (!user) loginRedirect(request);
  if (opts.area && !can(user.role, opts.area, dependsOnGrant(user.role, opts.area) ? await grantedAreas(user.role) : [])) forbidden();
  if (opts.role && user.role !== opts.role) forbidden();
  return user;
}

/**
 * The areas an Admin's setting opens to this role today (permissions.ts `grantable`): only
 * Éditeurs and gifts received by post or at the bank so far (ADR 028).
 */
export async function grantedAreas(role: Role): Promise<AdminArea[]> {
  if (role !== 'Éditeur') return [];
  return (await getOfflineGiftSettings(db())).editorsMayRecord ? ['offline-gifts'] : [];
}

/**
 * Middleware of the admin layout: every page and action under it needs a session, a role allowed
 * for its path (permissions.ts), and same-origin for state changes.
 */
export const adminGuard: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  assertSameOrigin(request);
  const user = await requireUser(request, context);
  const path = new URL(request.url).pathname.replace(/\.data$/, '');
  const section = sectionForPath(path);
  // The setting is read only for a path whose opening depends on it.
  if (!canOpenPath(user.role, path, section && dependsOnGrant(user.role, section.area) ? await grantedAreas(user.role) : [])) forbidden();
  const response = await next();
  // Back-office pages are per user: never stored by a browser or a proxy.
  response.headers.set('Cache-Control', 'private, no-store');
  return response;
};

export function actorOf(user: SessionUser): Actor {
  return { id: user.id, name: user.name };
}

function secureFrom(request: Request, context: Ctx): boolean {
  return context.get(requestInfoContext).secure || isSecure(request);
}

/** Starts a new session (a new id every time) and returns the cookie that carries it. */
export async function startSession(request: Request, context: Ctx, userId: string): Promise<string> {
  // Whatever session the browser had is not reused.
  await destroySession(db(), readSessionToken(request));
  const { token, expiresAt } = await createSession(db(), userId);
  return sessionCookie(token, expiresAt, secureFrom(request, context));
}

/** Ends the request's session on the server and returns the cookie that clears it. */
export async function endSession(request: Request, context: Ctx): Promise<string> {
  await destroySession(db(), readSessionToken(request));
  return clearSessionCookie(secureFrom(request, context));
}

/* ---------- The session cookie ---------- */

export function readSessionToken(request: Request): string | undefined {
  return readCookie(request.headers.get('cookie'), SESSION_COOKIE) || undefined;
}

function cookie(value: string, secure: boolean, maxAge: number): string {
  return [`${SESSION_COOKIE}=${value}`, 'Path=/', 'HttpOnly', 'SameSite=Lax', `Max-Age=${maxAge}`, ...(secure ? ['Secure'] : [])].join('; ');
}

export function sessionCookie(token: string, expiresAt: Date, secure: boolean, now = new Date()): string {
  return cookie(token, secure, Math.max(0, Math.floor((expiresAt.getTime() - now.getTime()) / 1000)));
}

export function clearSessionCookie(secure: boolean): string {
  return cookie('', secure, 0);
}
