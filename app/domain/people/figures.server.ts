/**
 * The figures of records, computed again from the ledger (ADR 038): every gift that counts as the
 * reports count it (`countsAsMoney`, ADR 016) made under one of the record's addresses, summed by
 * `summarize`. Run for the records a change touched: a gift recorded or moved between statuses, a
 * merge, a merge taken back, an address erased, an import undone.
 */
import type { DB } from '~db/index';
import { countsAsMoney } from '~/domain/means/counted';
import { emailKey } from './keys';
import { summarize, type CountedGift, type StoredFigures } from './figures';

export const CHUNK = 400;

export function chunks<T>(list: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/** The counted gifts (purpose 'gift') made under these addresses, by address. */
export async function countedGiftsOf(db: DB, emails: readonly string[]): Promise<Map<string, CountedGift[]>> {
  const out = new Map<string, CountedGift[]>();
  for (const part of chunks(emails)) {
    const rows = await db
      .selectFrom('donations')
      .select((eb) => [eb.fn<string>('lower', ['donor_email']).as('email'), 'eur_cents', 'succeeded_at', 'frequency'])
      .where(countsAsMoney())
      .where('purpose', '=', 'gift')
      .where((eb) => eb(eb.fn('lower', ['donor_email']), 'in', part))
      .execute();
    for (const r of rows) out.set(r.email, [...(out.get(r.email) ?? []), { eurCents: Number(r.eur_cents), succeededAt: r.succeeded_at!, frequency: r.frequency }]);
  }
  return out;
}

export interface ComputedFigures {
  figures: StoredFigures;
  years: { year: number; gifts: number; cents: number }[];
}

/** The figures of each record from its addresses' counted gifts. */
export async function computeFigures(db: DB, emailsByPerson: ReadonlyMap<string, readonly string[]>): Promise<Map<string, ComputedFigures>> {
  const gifts = await countedGiftsOf(db, [...emailsByPerson.values()].flat());
  const out = new Map<string, ComputedFigures>();
  for (const [personId, emails] of emailsByPerson) {
    const { figures, years } = summarize(emails.flatMap((e) => gifts.get(e) ?? []));
    out.set(personId, { figures, years: [...years].map(([year, y]) => ({ year, ...y })) });
  }
  return out;
}

/** Each record's addresses now. */
export async function emailsOfPeople(db: DB, personIds: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>(personIds.map((id) => [id, []]));
  for (const part of chunks(personIds)) {
    const rows = await db.selectFrom('person_emails').select(['email', 'person_id']).where('person_id', 'in', part).orderBy('email').execute();
    for (const r of rows) out.get(r.person_id)!.push(r.email);
  }
  return out;
}

/** Writes the figures and years of records that exist (their year rows replaced). */
export async function writeFigures(db: DB, computed: ReadonlyMap<string, ComputedFigures>, now: string): Promise<void> {
  for (const part of chunks([...computed.keys()])) {
    await db.deleteFrom('person_years').where('person_id', 'in', part).execute();
    const years = part.flatMap((id) => computed.get(id)!.years.map((y) => ({ person_id: id, ...y })));
    for (const rows of chunks(years, 500)) await db.insertInto('person_years').values(rows).execute();
  }
  for (const [id, c] of computed) await db.updateTable('people').set({ ...c.figures, updated_at: now }).where('id', '=', id).execute();
}

/** Computes again and writes the figures, addresses and search text of these records. */
export async function refreshPeople(db: DB, personIds: readonly string[], now = new Date().toISOString()): Promise<void> {
  const emails = await emailsOfPeople(db, personIds);
  await writeFigures(db, await computeFigures(db, emails), now);
  for (const [id, list] of emails) {
    const p = await db.selectFrom('people').select('display_name').where('id', '=', id).executeTakeFirst();
    if (p) await db.updateTable('people').set({ search_text: searchText(p.display_name, list) }).where('id', '=', id).execute();
  }
}

/**
 * Gifts under these addresses were deleted (an import undone, ADR 036): the fold reads rows changed
 * since its mark and never sees a row that is gone, so the deleting area calls this, in its
 * transaction, to compute the figures of the records owning these addresses again. Addresses the
 * register does not know yet change nothing.
 */
export async function giftsDeletedFor(db: DB, emails: readonly string[], now = new Date().toISOString()): Promise<void> {
  const ids = new Set<string>();
  for (const part of chunks([...new Set(emails.map(emailKey).filter(Boolean))])) {
    for (const r of await db.selectFrom('person_emails').select('person_id').where('email', 'in', part).execute()) ids.add(r.person_id);
  }
  if (ids.size) await writeFigures(db, await computeFigures(db, await emailsOfPeople(db, [...ids])), now);
}

/** What the list's search looks in: the name and every address, lowercased. */
export function searchText(name: string, emails: readonly string[]): string {
  return [name, ...emails].join(' ').toLowerCase();
}

