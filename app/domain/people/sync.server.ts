/**
 * The register kept in step with where people already are (ADR 038): the gifts, the members and
 * the subscribers are folded in on read, from where the last fold stopped (`updated_at` of each
 * source, which every write of theirs raises). A new address makes a new record; an address seen
 * again updates what the duplicate rules compare; a gift recorded, refunded or disputed computes
 * its record's figures again. Nothing in the other areas calls this module.
 */
import { createHash } from 'node:crypto';
import type { DB } from '~db/index';
import { chunks, computeFigures, emailsOfPeople, searchText, writeFigures } from './figures.server';
import { emailKey, nameKey, phoneKey, postalKey, sortName } from './keys';

type Source = 'donations' | 'memberships' | 'subscribers';

interface Seen {
  name: string;
  postalCode: string;
  phone: string;
  at: string;
}

interface SourceRow {
  id: string;
  email: string | null;
  updated_at: string;
  name: string;
  postalCode: string;
  phone: string;
}

/** A record's id, from the address it was first made for (two folds at once make the same record). */
export function personIdFor(email: string): string {
  return `p_${createHash('sha256').update(email).digest('hex').slice(0, 24)}`;
}

interface Mark {
  at: string;
  /** Rows already folded whose `updated_at` is `at` exactly (a later row of the same millisecond is still read). */
  ids: string[];
}

async function readMark(db: DB, source: Source): Promise<Mark> {
  const row = await db.selectFrom('people_sync').select('mark').where('source', '=', source).executeTakeFirst();
  return row ? (JSON.parse(row.mark) as Mark) : { at: '', ids: [] };
}

async function rowsSince(db: DB, source: Source, mark: Mark): Promise<SourceRow[]> {
  let rows: SourceRow[];
  if (source === 'donations') {
    const raw = await db.selectFrom('donations').select(['id', 'donor_email', 'donor_name', 'tax_details', 'updated_at']).where('updated_at', '>=', mark.at).where('donor_email', 'is not', null).execute();
    rows = raw.map((r) => {
      const tax = taxNameAndPostal(r.tax_details);
      return { id: r.id, email: r.donor_email, updated_at: r.updated_at, name: tax?.name || r.donor_name || '', postalCode: tax?.postalCode ?? '', phone: '' };
    });
  } else if (source === 'memberships') {
    const raw = await db.selectFrom('memberships').select(['id', 'email', 'first_name', 'last_name', 'postal_code', 'phone', 'updated_at']).where('updated_at', '>=', mark.at).execute();
    rows = raw.map((r) => ({ id: r.id, email: r.email, updated_at: r.updated_at, name: `${r.first_name} ${r.last_name}`.trim(), postalCode: r.postal_code, phone: r.phone }));
  } else {
    const raw = await db.selectFrom('subscribers').select(['id', 'email', 'updated_at']).where('updated_at', '>=', mark.at).execute();
    rows = raw.map((r) => ({ id: r.id, email: r.email, updated_at: r.updated_at, name: '', postalCode: '', phone: '' }));
  }
  const done = new Set(mark.ids);
  return rows.filter((r) => !(r.updated_at === mark.at && done.has(r.id)));
}

/** The name and postal code a gift's receipt details carry (read here, not through the receipts area, which reads this one). */
export function taxNameAndPostal(json: string | null): { name: string; postalCode: string } | null {
  try {
    const v = json ? (JSON.parse(json) as unknown) : null;
    if (!v || typeof v !== 'object') return null;
    const o = v as Record<string, unknown>;
    return { name: typeof o.name === 'string' ? o.name : '', postalCode: typeof o.postalCode === 'string' ? o.postalCode : '' };
  } catch {
    return null;
  }
}

function nextMark(mark: Mark, rows: SourceRow[]): Mark {
  const at = rows.reduce((m, r) => (r.updated_at > m ? r.updated_at : m), mark.at);
  const ids = rows.filter((r) => r.updated_at === at).map((r) => r.id);
  return { at, ids: at === mark.at ? [...mark.ids, ...ids] : ids };
}

/** Keeps, per address, the latest non-empty name, postal code and phone seen. */
function absorb(seen: Map<string, Seen>, r: SourceRow): void {
  const email = emailKey(r.email);
  if (!email) return;
  const old = seen.get(email);
  const newer = !old || r.updated_at >= old.at;
  const pick = (a: string, b: string) => (newer ? a || b : b || a);
  seen.set(email, old ? { name: pick(r.name, old.name), postalCode: pick(r.postalCode, old.postalCode), phone: pick(r.phone, old.phone), at: newer ? r.updated_at : old.at } : { name: r.name, postalCode: r.postalCode, phone: r.phone, at: r.updated_at });
}

/** Folds in what changed since the last fold. Answers how many addresses it read. */
export async function foldIn(db: DB, now = new Date()): Promise<number> {
  const seen = new Map<string, Seen>();
  const giftEmails = new Set<string>();
  const marks: [Source, Mark][] = [];
  for (const source of ['donations', 'memberships', 'subscribers'] as const) {
    const mark = await readMark(db, source);
    const rows = await rowsSince(db, source, mark);
    if (rows.length === 0) continue;
    for (const r of rows) absorb(seen, r);
    if (source === 'donations') for (const r of rows) giftEmails.add(emailKey(r.email));
    marks.push([source, nextMark(mark, rows)]);
  }
  if (marks.length === 0) return 0;
  await db.transaction().execute(async (trx) => {
    await store(trx, seen, giftEmails, now.toISOString());
    for (const [source, mark] of marks) {
      await trx.insertInto('people_sync').values({ source, mark: JSON.stringify(mark) }).onConflict((oc) => oc.column('source').doUpdateSet({ mark: JSON.stringify(mark) })).execute();
    }
  });
  return seen.size;
}

async function store(trx: DB, seen: Map<string, Seen>, giftEmails: Set<string>, now: string): Promise<void> {
  const known = new Map<string, { person_id: string; name: string; postal_code: string; phone: string }>();
  for (const part of chunks([...seen.keys()])) {
    for (const r of await trx.selectFrom('person_emails').select(['email', 'person_id', 'name', 'postal_code', 'phone']).where('email', 'in', part).execute()) known.set(r.email, r);
  }
  const fresh = [...seen.entries()].filter(([email]) => !known.has(email));
  // New records, their figures computed before they are written (the first fold writes them all at once).
  const newFigures = await computeFigures(trx, new Map(fresh.map(([email]) => [personIdFor(email), [email]])));
  for (const part of chunks(fresh, 200)) {
    await trx
      .insertInto('people')
      .values(part.map(([email, s]) => {
        const name = s.name || email;
        return { id: personIdFor(email), display_name: name, sort_name: sortName(name), search_text: searchText(name, [email]), merged_into: null, ...newFigures.get(personIdFor(email))!.figures, created_at: now, updated_at: now };
      }))
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    await trx
      .insertInto('person_emails')
      .values(part.map(([email, s]) => ({ email, person_id: personIdFor(email), name: s.name, name_key: nameKey(s.name), postal_code: postalKey(s.postalCode), phone: phoneKey(s.phone), seen_at: s.at })))
      .onConflict((oc) => oc.column('email').doNothing())
      .execute();
    const years = part.flatMap(([email]) => newFigures.get(personIdFor(email))!.years.map((y) => ({ person_id: personIdFor(email), ...y })));
    for (const rows of chunks(years, 500)) await trx.insertInto('person_years').values(rows).onConflict((oc) => oc.columns(['person_id', 'year']).doNothing()).execute();
  }
  // Addresses known already: what was seen with them, and a name for a record that had none.
  for (const [email, s] of seen) {
    const k = known.get(email);
    if (!k) continue;
    const next = { name: s.name || k.name, postal_code: postalKey(s.postalCode) || k.postal_code, phone: phoneKey(s.phone) || k.phone };
    if (next.name !== k.name || next.postal_code !== k.postal_code || next.phone !== k.phone) {
      await trx.updateTable('person_emails').set({ ...next, name_key: nameKey(next.name), seen_at: s.at }).where('email', '=', email).execute();
    }
    if (s.name) {
      const person = await trx.selectFrom('people').select('display_name').where('id', '=', k.person_id).executeTakeFirst();
      if (person?.display_name === email) {
        const emails = (await emailsOfPeople(trx, [k.person_id])).get(k.person_id)!;
        await trx.updateTable('people').set({ display_name: s.name, sort_name: sortName(s.name), search_text: searchText(s.name, emails), updated_at: now }).where('id', '=', k.person_id).execute();
      }
    }
  }
  const touched = [...new Set([...giftEmails].map((e) => known.get(e)?.person_id).filter((id): id is string => Boolean(id)))];
  if (touched.length) await writeFigures(trx, await computeFigures(trx, await emailsOfPeople(trx, touched)), now);
}
