import { RouterContextProvider } from 'react-router';
import type { DB } from '~db/index';
import { requestInfoContext } from '~/lib/request-context.server';
import { createSession } from '~/domain/users/sessions.server';

/** The context the server gives a route (its request's details: nonce, client address, request id), to call a loader or an action directly. */
export function routeContext(clientIp = '127.0.0.1'): RouterContextProvider {
  const context = new RouterContextProvider();
  context.set(requestInfoContext, { nonce: 'n', clientIp, requestId: 'r', secure: true });
  return context;
}

/** What a route's loader or action answered: its data, headers and status (`data(…)` or a plain object). */
export function answer(result: unknown): { body: Record<string, unknown>; headers: Headers; status: number } {
  const r = result as { type?: string; data?: Record<string, unknown>; init?: ResponseInit | null };
  if (r?.type === 'DataWithResponseInit') return { body: r.data!, headers: new Headers(r.init?.headers), status: r.init?.status ?? 200 };
  return { body: result as Record<string, unknown>, headers: new Headers(), status: 200 };
}

/** A back-office account made straight in the database, signed in: its session cookie. */
export async function sessionCookie(db: DB, user: { id: string; name: string; email: string; role?: 'Admin' | 'Éditeur' }): Promise<string> {
  const now = new Date().toISOString();
  await db.insertInto('users').values({ id: user.id, name: user.name, email: user.email, role: user.role ?? 'Éditeur', password_hash: 'x', version: 1, created_at: now, updated_at: now }).execute();
  return `__session=${(await createSession(db, user.id)).token}`;
}
