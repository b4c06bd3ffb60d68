/**
 * One person's page in the donors register (ADR 038): the record (people area) and, for each of
 * its addresses, what the rest of the site keeps under that address — gifts, monthly gifts, dues
 * and memberships, receipts, the subscription and the letters received, consents. Read through the
 * same queries as the donor's own space and export (personal-data.server.ts), so the page shows
 * exactly what a merge moved.
 */
import type { DB } from '~db/index';
import { monthlyGiftsOf, type MonthlyGiftView } from '~/domain/donations/monthly.server';
import { exportMembershipData, type MembershipExport } from '~/domain/membership/personal-data.server';
import { getPerson, type PersonRecord } from '~/domain/people/register.server';
import { mergesOf, type MergeView } from '~/domain/people/merge.server';
import { notesOf, tagsOfPerson, type Note } from '~/domain/people/notes.server';
import { receiptsOfEmail } from '~/domain/receipts/register.server';
import { subscriptionOf } from '~/domain/subscribers/subscribers.server';
import { consentsOf, type ConsentRecord } from './consent.server';
import { historyOf, type HistoryRow } from './personal-data.server';

export interface PersonPage {
  person: PersonRecord;
  gifts: (HistoryRow & { email: string })[];
  monthly: (MonthlyGiftView & { email: string })[];
  memberships: MembershipExport[];
  receipts: { id: string; number: string; kind: string; year: number; amountCents: number; status: string; issuedAt: string; email: string }[];
  subscriptions: { email: string; status: string; language: string; createdAt: string }[];
  letters: { id: string; subject: string; doneAt: string | null; email: string }[];
  consents: (ConsentRecord & { email: string })[];
  notes: Note[];
  tags: { id: string; name: string }[];
  merges: MergeView[];
}

/** Letters sent to the subscriptions of these addresses, newest first. */
async function lettersTo(db: DB, emails: string[]): Promise<PersonPage['letters']> {
  if (!emails.length) return [];
  const rows = await db
    .selectFrom('letter_queue as q')
    .innerJoin('subscribers as s', 's.id', 'q.subscriber_id')
    .innerJoin('letters as l', 'l.id', 'q.letter_id')
    .select(['l.id', 'l.versions', 'q.done_at', 's.email'])
    .where('q.status', '=', 'sent')
    .where('s.email', 'in', emails)
    .orderBy('q.done_at', 'desc')
    .limit(200)
    .execute();
  return rows.map((r) => ({ id: r.id, subject: (JSON.parse(r.versions) as { fr?: { subject?: string } }).fr?.subject ?? '', doneAt: r.done_at, email: r.email }));
}

export async function personPage(db: DB, personId: string, now = new Date()): Promise<PersonPage | undefined> {
  const person = await getPerson(db, personId, now);
  if (!person) return undefined;
  const emails = person.emails.map((e) => e.email);
  const each = async <T>(read: (email: string) => Promise<T[]>) => (await Promise.all(emails.map(async (email) => (await read(email)).map((row) => ({ ...row, email }))))).flat();
  const subscriptions = (await Promise.all(emails.map(async (email) => ({ email, s: await subscriptionOf(db, email) })))).flatMap(({ email, s }) => (s ? [{ email, status: s.status, language: s.language, createdAt: s.createdAt }] : []));
  return {
    person,
    gifts: (await each((e) => historyOf(db, e))).sort((a, b) => b.date.localeCompare(a.date)),
    monthly: await each((e) => monthlyGiftsOf(db, e)),
    memberships: (await Promise.all(emails.map((e) => exportMembershipData(db, e)))).flat(),
    receipts: (await each((e) => receiptsOfEmail(db, e))).map((r) => ({ id: r.id, number: r.number, kind: r.kind, year: r.year, amountCents: r.amount_cents, status: r.status, issuedAt: r.issued_at, email: r.email })),
    subscriptions,
    letters: await lettersTo(db, emails),
    consents: await each((e) => consentsOf(db, e)),
    notes: await notesOf(db, personId),
    tags: await tagsOfPerson(db, personId),
    merges: await mergesOf(db, personId),
  };
}
