import { createContext, data, redirect, type MiddlewareFunction, type RouterContextProvider } from 'react-router';
import { HOME_PATH, LOGIN_PATH, LOGOUT_PATH } from '~/domain/users/paths';
import { canOpenPath, can, type AdminArea, type Role } from '~/domain/users/permissions';
import type { Actor } from '~/domain/audit/audit.server';
import { clearRateLimit, hitRateLimit, peekRateLimit } from './rate-limit.server';
import { requestInfoContext } from './request-context.server';
import type { DB } from '~db/index';
import { db, runtime } from './runtime.server';
import { clearSessionCookie, createSession, destroySession, readSession, readSessionToken, sessionCookie, type SessionUser } from './session.server';

/**
 * The back office's gate (ADR 005): who is signed in, whether their role may open the path, and
 * whether a state-changing request comes from our own pages.
 */

/** The request's signed-in user once read (false: not read yet; null: nobody). */
const userContext = createContext<SessionUser | null | false>(false);

type Ctx = Readonly<RouterContextProvider>;

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
  if (opts.area && !can(user.role, opts.area)) forbidden();
  if (opts.role && user.role !== opts.role) forbidden();
  return user;
}

/**
 * Middleware of the admin layout: every page and action under it needs a session, a role allowed
 * for its path (permissions.ts), and same-origin for state changes.
 */
export const adminGuard: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  assertSameOrigin(request);
  const user = await requireUser(request, context);
  if (!canOpenPath(user.role, new URL(request.url).pathname.replace(/\.data$/, ''))) forbidden();
  const response = await next();
  // Back-office pages are per user: never stored by a browser or a proxy.
  response.headers.set('Cache-Control', 'private, no-store');
  return response;
};

export function actorOf(user: SessionUser): Actor {
  return { id: user.id, name: user.name };
}

export function isSecure(request: Request): boolean {
  return new URL(request.url).protocol === 'https:' || Boolean(runtime().publicUrl?.startsWith('https://'));
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

/* ---------- Throttling of sign-in and reset requests (shared by every instance) ---------- */

export const AUTH_LIMIT = 5;
export const AUTH_WINDOW_MS = 15 * 60 * 1000;
/** Failures of one address on one account before it must wait for the window's end (ADR 010). */
export const PAIR_LIMIT = AUTH_LIMIT;
/** Failures of one address over every account (password spraying) before it must wait. */
export const ADDRESS_LIMIT = 20;
/** Failures on one account from anywhere that warn its owner; they never refuse anyone. */
export const NOTICE_AFTER = 10;

/** The counters of one kind of request (sign-in failures, reset requests): per pair, per address, per account. */
const throttleKeys = (kind: 'login' | 'reset', email: string, ip: string) => {
  const e = email.trim().toLowerCase();
  return { pair: `${kind}:pair:${e}|${ip}`, address: `${kind}:ip:${ip}`, account: `${kind}:account:${e}` };
};
const loginKeys = (email: string, ip: string) => throttleKeys('login', email, ip);

/**
 * Seconds to wait when this address failed too often on this account, or on every account, else
 * 0; and how many recent failures count towards a progressive delay. Failures on the account
 * from other addresses never count: a stranger cannot refuse the owner's password.
 */
export async function loginBlockedFor(database: DB, email: string, ip: string, now = Date.now()): Promise<{ retryAfter: number; failures: number }> {
  const keys = loginKeys(email, ip);
  const [pair, address] = await Promise.all([peekRateLimit(database, keys.pair, now), peekRateLimit(database, keys.address, now)]);
  const over = [pair.count >= PAIR_LIMIT ? pair : null, address.count >= ADDRESS_LIMIT ? address : null].filter((x) => x !== null);
  return {
    retryAfter: over.length ? Math.max(...over.map((x) => x.retryAfter)) : 0,
    failures: Math.max(pair.count, Math.floor(address.count / PAIR_LIMIT)),
  };
}

/** Counts a failure for the pair, the address and the account; returns the account's count. */
export async function recordLoginFailure(database: DB, email: string, ip: string, now = Date.now()): Promise<number> {
  const keys = loginKeys(email, ip);
  await hitRateLimit(database, keys.pair, PAIR_LIMIT, AUTH_WINDOW_MS, now);
  await hitRateLimit(database, keys.address, ADDRESS_LIMIT, AUTH_WINDOW_MS, now);
  return (await hitRateLimit(database, keys.account, NOTICE_AFTER, AUTH_WINDOW_MS, now)).count;
}

/** A successful sign-in forgets the pair's failures (not the address's: it may try others). */
export async function clearLoginFailures(database: DB, email: string, ip: string): Promise<void> {
  await clearRateLimit(database, loginKeys(email, ip).pair);
}

/**
 * Counts a reset request; returns the seconds to wait when over the limit, else 0. Counted per
 * (account, address) pair and per address, like sign-in failures (ADR 010): requests from
 * elsewhere never stop the owner's own reset mails.
 */
export async function hitResetLimit(database: DB, email: string, ip: string, now = Date.now()): Promise<number> {
  const keys = throttleKeys('reset', email, ip);
  const pair = await hitRateLimit(database, keys.pair, PAIR_LIMIT, AUTH_WINDOW_MS, now);
  const address = await hitRateLimit(database, keys.address, ADDRESS_LIMIT, AUTH_WINDOW_MS, now);
  return [pair, address].filter((x) => !x.allowed).reduce((max, x) => Math.max(max, x.retryAfter), 0);
}

export function retryMessage(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return `Trop de tentatives. Réessayez dans ${minutes} minute${minutes > 1 ? 's' : ''}.`;
}

