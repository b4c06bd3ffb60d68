import { PostgresAdapter, sql } from 'kysely';
import type { DB } from './index';

/** Whether a Kysely instance (or an open transaction) talks to PostgreSQL. */
export function isPostgres(db: DB): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/**
 * Serializes transactions that check-then-write a rule spanning several rows (the last Admin,
 * the first user): a transaction-scoped advisory lock on PostgreSQL. SQLite runs one write
 * transaction at a time through its single connection, so nothing is needed there.
 */
export async function lockFor(trx: DB, name: string): Promise<void> {
  if (!isPostgres(trx)) return;
  await sql`select pg_advisory_xact_lock(hashtext(${name}))`.execute(trx);
}

/** A unique constraint refused the write (SQLite or PostgreSQL). */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string } | undefined;
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
