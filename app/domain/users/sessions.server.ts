import type { DB } from '~db/index';
import { hashToken, newToken } from '~/lib/tokens.server';
import { isRole, type Role } from './permissions';

/**
 * Server-side sessions (ADR 005): the rows of `sessions`, no HTTP. The cookie that carries a
 * session (app/routes/admin/auth.server.ts) holds a random 32-byte token; the database holds only
 * its sha256, so reading the table gives nobody a session.
 */

/** Signed out after this long without a request. */
export const SESSION_IDLE_MS = 2 * 60 * 60 * 1000;
/** Signed out this long after signing in, however active. */
export const SESSION_ABSOLUTE_MS = 12 * 60 * 60 * 1000;
/** last_seen_at is written at most this often (not on every request). */
const TOUCH_INTERVAL_MS = 60 * 1000;

export interface SessionUser {
  /** The session's row id (the token's hash), never the token. */
  sessionId: string;
  id: string;
  name: string;
  email: string;
  role: Role;
}

export async function createSession(db: DB, userId: string, now = new Date()): Promise<{ token: string; expiresAt: Date }> {
  const { token, hash } = newToken();
  const expiresAt = new Date(now.getTime() + SESSION_ABSOLUTE_MS);
  const at = now.toISOString();
  await db
    .insertInto('sessions')
    .values({ id: hash, user_id: userId, created_at: at, last_seen_at: at, expires_at: expiresAt.toISOString() })
    .execute();
  return { token, expiresAt };
}

/** The signed-in user behind a cookie token, or null when the session is unknown or expired. */
export async function readSession(db: DB, token: string | undefined, now = new Date()): Promise<SessionUser | null> {
  if (!token || token.length > 100) return null;
  const id = hashToken(token);
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select(['sessions.id as sessionId', 'sessions.last_seen_at', 'sessions.expires_at', 'users.id', 'users.name', 'users.email', 'users.role'])
    .where('sessions.id', '=', id)
    .executeTakeFirst();
  if (!row) return null;
  const lastSeen = Date.parse(row.last_seen_at);
  const expired = Date.parse(row.expires_at) <= now.getTime() || lastSeen + SESSION_IDLE_MS <= now.getTime();
  if (expired || !isRole(row.role)) {
    await db.deleteFrom('sessions').where('id', '=', id).execute();
    return null;
  }
  if (now.getTime() - lastSeen >= TOUCH_INTERVAL_MS) {
    await db.updateTable('sessions').set({ last_seen_at: now.toISOString() }).where('id', '=', id).execute();
  }
  return { sessionId: row.sessionId, id: row.id, name: row.name, email: row.email, role: row.role };
}

export async function destroySession(db: DB, token: string | undefined): Promise<void> {
  if (!token) return;
  await db.deleteFrom('sessions').where('id', '=', hashToken(token)).execute();
}

/** Ends every session of a user (password reset, deletion), or every other one (password change). */
export async function destroyUserSessions(db: DB, userId: string, exceptSessionId?: string): Promise<void> {
  let query = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (exceptSessionId) query = query.where('id', '!=', exceptSessionId);
  await query.execute();
}

/** Removes sessions past their absolute or idle end; the users' hourly job (server/runtime-hooks.ts). */
export async function pruneSessions(db: DB, now = new Date()): Promise<void> {
  const idleCutoff = new Date(now.getTime() - SESSION_IDLE_MS).toISOString();
  await db
    .deleteFrom('sessions')
    .where((eb) => eb.or([eb('expires_at', '<=', now.toISOString()), eb('last_seen_at', '<=', idleCutoff)]))
    .execute();
}
