import { sql, type Kysely } from 'kysely';

/**
 * Indexes for the donation reports (ADR 016), so that each report reads an index instead of the
 * ledger: succeeded gifts by date with what the figures need (covering), and by donor (the
 * lower-cased email, as the reports compare addresses) for new, returning and retained donors.
 * Written as plain SQL: both SQLite and PostgreSQL accept an expression among the columns.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index donations_report on donations (status, succeeded_at, eur_cents, provider, frequency, donor_email)`.execute(db);
  await sql`create index donations_donor on donations (status, lower(donor_email), succeeded_at, eur_cents)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('donations_donor').execute();
  await db.schema.dropIndex('donations_report').execute();
}
