import { randomUUID } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { DB } from '~db/index';
import { isUniqueViolation, lockFor } from '~db/helpers';
import type { UserTable } from '~db/schema';
import { audit, type Actor } from '~/domain/audit/audit.server';
import { hashToken, newToken } from '~/lib/tokens.server';
import { isRole, type Role } from './permissions';
import type { UserInput } from './schemas';

export interface User {
  id: string;
  name: string;
  email: string;
  role: Role;
  /** 'invited' until the invitation link was used to set a password. */
  status: 'active' | 'invited';
  createdAt: string;
  updatedAt: string;
  version: number;
}

export type TokenKind = 'invitation' | 'reset';
export const TOKEN_TTL_MS: Record<TokenKind, number> = {
  invitation: 7 * 24 * 60 * 60 * 1000,
  reset: 60 * 60 * 1000,
};

/** The addresses of the Admins who can sign in: who is told of what happens to the money (refunds, disputes). */
export async function adminEmails(db: DB): Promise<string[]> {
  return (await db.selectFrom('users').select('email').where('role', '=', 'Admin').where('password_hash', 'is not', null).execute()).map((a) => a.email);
}

/** One lock name for every write that must keep at least one Admin. */
const USERS_LOCK = 'users';

export function toUser(row: Selectable<UserTable>): User {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    role: isRole(row.role) ? row.role : 'Éditeur',
    status: row.password_hash ? 'active' : 'invited',
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    version: row.version,
  };
}

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export async function countUsers(db: DB): Promise<number> {
  const row = await db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function listUsers(db: DB): Promise<User[]> {
  const rows = await db.selectFrom('users').selectAll().orderBy('name').orderBy('email').execute();
  return rows.map(toUser);
}

export async function getUser(db: DB, id: string): Promise<User | undefined> {
  const row = await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toUser(row) : undefined;
}

/** The user and their password hash, for signing in. */
export async function findCredentials(db: DB, email: string) {
  return db.selectFrom('users').selectAll().where('email', '=', normalizeEmail(email)).executeTakeFirst();
}

async function countAdmins(db: DB, exceptId?: string): Promise<number> {
  let q = db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).where('role', '=', 'Admin');
  if (exceptId) q = q.where('id', '!=', exceptId);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

/**
 * Creates the first Admin, only while no user exists (the setup form, or ADMIN_EMAIL /
 * ADMIN_PASSWORD at start). Returns undefined when someone was first.
 */
export async function createFirstAdmin(db: DB, input: { name: string; email: string; passwordHash: string }, via: 'setup' | 'env'): Promise<User | undefined> {
  return db.transaction().execute(async (trx) => {
    await lockFor(trx, USERS_LOCK);
    if ((await countUsers(trx)) > 0) return undefined;
    const now = new Date().toISOString();
    const row = await trx
      .insertInto('users')
      .values({ id: randomUUID(), name: input.name, email: normalizeEmail(input.email), role: 'Admin', password_hash: input.passwordHash, version: 1, created_at: now, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
    const user = toUser(row);
    await audit(trx, { id: user.id, name: user.name }, 'auth.setup', user.email, { via });
    return user;
  });
}

export type UserError = 'notFound' | 'emailTaken' | 'lastAdmin' | 'conflict';

/** Adds a user (no password yet) and the invitation token mailed to them. */
export async function createUser(db: DB, actor: Actor, input: UserInput): Promise<{ user: User; token: string } | { error: UserError }> {
  try {
    return await db.transaction().execute(async (trx) => {
      const now = new Date().toISOString();
      const row = await trx
        .insertInto('users')
        .values({ id: randomUUID(), name: input.name, email: normalizeEmail(input.email), role: input.role, password_hash: null, version: 1, created_at: now, updated_at: now })
        .returningAll()
        .executeTakeFirstOrThrow();
      const user = toUser(row);
      const token = await issueToken(trx, user.id, 'invitation');
      await audit(trx, actor, 'user.create', user.email, { name: user.name, role: user.role });
      return { user, token };
    });
  } catch (e) {
    if (isUniqueViolation(e)) return { error: 'emailTaken' };
    throw e;
  }
}

/**
 * Changes name, email and role, if nobody changed the user since `version` was read. Demoting the
 * last Admin is refused.
 */
export async function updateUser(db: DB, actor: Actor, id: string, input: UserInput, version: number): Promise<{ user: User } | { error: UserError }> {
  try {
    return await db.transaction().execute(async (trx) => {
      await lockFor(trx, USERS_LOCK);
      const before = await getUser(trx, id);
      if (!before) return { error: 'notFound' as const };
      if (before.version !== version) return { error: 'conflict' as const };
      if (before.role === 'Admin' && input.role !== 'Admin' && (await countAdmins(trx, id)) === 0) return { error: 'lastAdmin' as const };
      const row = await trx
        .updateTable('users')
        .set({ name: input.name, email: normalizeEmail(input.email), role: input.role, version: version + 1, updated_at: new Date().toISOString() })
        .where('id', '=', id)
        .where('version', '=', version)
        .returningAll()
        .executeTakeFirst();
      if (!row) return { error: 'conflict' as const };
      const user = toUser(row);
      const changes: string[] = [];
      if (before.name !== user.name) changes.push(`nom : ${before.name} → ${user.name}`);
      if (before.email !== user.email) changes.push(`email : ${before.email} → ${user.email}`);
      if (before.role !== user.role) changes.push(`rôle : ${before.role} → ${user.role}`);
      await audit(trx, actor, 'user.update', user.email, { changes });
      return { user };
    });
  } catch (e) {
    if (isUniqueViolation(e)) return { error: 'emailTaken' };
    throw e;
  }
}

/** Deletes a user with their sessions and links; the last Admin stays. */
export async function deleteUser(db: DB, actor: Actor, id: string): Promise<{ user: User } | { error: UserError; onlyUser?: boolean }> {
  return db.transaction().execute(async (trx) => {
    await lockFor(trx, USERS_LOCK);
    const user = await getUser(trx, id);
    if (!user) return { error: 'notFound' as const };
    if (user.role === 'Admin' && (await countAdmins(trx, id)) === 0) {
      return { error: 'lastAdmin' as const, onlyUser: (await countUsers(trx)) === 1 };
    }
    await trx.deleteFrom('sessions').where('user_id', '=', id).execute();
    await trx.deleteFrom('auth_tokens').where('user_id', '=', id).execute();
    await trx.deleteFrom('users').where('id', '=', id).execute();
    await audit(trx, actor, 'user.delete', user.email, { name: user.name, role: user.role });
    return { user };
  });
}

/** A new one-time link for a user; earlier unused links of the same kind stop working. */
export async function issueToken(db: DB, userId: string, kind: TokenKind, now = new Date()): Promise<string> {
  const { token, hash } = newToken();
  await db.deleteFrom('auth_tokens').where('user_id', '=', userId).where('kind', '=', kind).execute();
  await db
    .insertInto('auth_tokens')
    .values({ id: hash, user_id: userId, kind, created_at: now.toISOString(), expires_at: new Date(now.getTime() + TOKEN_TTL_MS[kind]).toISOString(), used_at: null })
    .execute();
  return token;
}

/** The user a link is for, while the link is unused and unexpired (nothing is consumed). */
export async function userForToken(db: DB, token: string, kind: TokenKind, now = new Date()): Promise<User | undefined> {
  if (!token || token.length > 100) return undefined;
  const row = await db
    .selectFrom('auth_tokens')
    .innerJoin('users', 'users.id', 'auth_tokens.user_id')
    .selectAll('users')
    .where('auth_tokens.id', '=', hashToken(token))
    .where('auth_tokens.kind', '=', kind)
    .where('auth_tokens.used_at', 'is', null)
    .where('auth_tokens.expires_at', '>', now.toISOString())
    .executeTakeFirst();
  return row ? toUser(row) : undefined;
}

/**
 * Redeems a link once: sets the password and ends every session of the user, in one transaction.
 * Returns undefined when the link is unknown, used or expired (or was used concurrently).
 */
export async function redeemPasswordToken(db: DB, token: string, kind: TokenKind, passwordHash: string, now = new Date()): Promise<User | undefined> {
  if (!token || token.length > 100) return undefined;
  return db.transaction().execute(async (trx) => {
    const used = await trx
      .updateTable('auth_tokens')
      .set({ used_at: now.toISOString() })
      .where('id', '=', hashToken(token))
      .where('kind', '=', kind)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now.toISOString())
      .returning('user_id')
      .executeTakeFirst();
    if (!used) return undefined;
    const row = await trx
      .updateTable('users')
      .set((eb) => ({ password_hash: passwordHash, version: eb('version', '+', 1), updated_at: now.toISOString() }))
      .where('id', '=', used.user_id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await trx.deleteFrom('sessions').where('user_id', '=', used.user_id).execute();
    const user = toUser(row);
    await audit(trx, { id: user.id, name: user.name }, kind === 'invitation' ? 'auth.invitation_accepted' : 'auth.password_reset', user.email);
    return user;
  });
}

/** The signed-in user changes their password; their other sessions end. */
export async function changePassword(db: DB, userId: string, passwordHash: string, keepSessionId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('users')
      .set((eb) => ({ password_hash: passwordHash, version: eb('version', '+', 1), updated_at: new Date().toISOString() }))
      .where('id', '=', userId)
      .returningAll()
      .executeTakeFirstOrThrow();
    await trx.deleteFrom('sessions').where('user_id', '=', userId).where('id', '!=', keepSessionId).execute();
    await audit(trx, { id: row.id, name: row.name }, 'auth.password_changed', row.email);
  });
}
