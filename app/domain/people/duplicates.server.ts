/**
 * Records that look like one person (ADR 038): addresses of different records sharing a name and a
 * postal code, or a phone (the SQL finds the shared keys, rules.ts says why and pairs them). Two
 * addresses differing only by case are one record from the start (keys.ts `emailKey`).
 * A pair staff dismissed is not suggested again.
 */
import { sql } from 'kysely';
import type { DB } from '~db/index';
import type { Actor } from '~/domain/audit/audit.server';
import { chunks } from './figures.server';
import { nameKey, phoneKey, postalKey } from './keys';
import { pairKey, suggestPairs, type Facet, type SuggestedPair } from './rules';
import { foldIn } from './sync.server';

/** The facets of addresses whose name and postal code, or phone, another record shares. */
async function sharedFacets(db: DB): Promise<Facet[]> {
  const byNamePostal = db
    .selectFrom('person_emails')
    .select(['name_key', 'postal_code'])
    .where('name_key', '<>', '')
    .where('postal_code', '<>', '')
    .groupBy(['name_key', 'postal_code'])
    .having(sql<number>`count(distinct person_id)`, '>', 1);
  const byPhone = db.selectFrom('person_emails').select('phone').where('phone', '<>', '').groupBy('phone').having(sql<number>`count(distinct person_id)`, '>', 1);
  const columns = ['e.person_id', 'e.email', 'e.name', 'e.postal_code', 'e.phone'] as const;
  const named = await db
    .selectFrom('person_emails as e')
    .innerJoin(byNamePostal.as('g'), (j) => j.onRef('g.name_key', '=', 'e.name_key').onRef('g.postal_code', '=', 'e.postal_code'))
    .select(columns)
    .limit(5000)
    .execute();
  const phoned = await db.selectFrom('person_emails as e').select(columns).where('e.phone', 'in', byPhone).limit(5000).execute();
  const rows = [...named, ...phoned];
  return rows.map((r) => ({ personId: r.person_id, email: r.email, name: r.name, postalCode: r.postal_code, phone: r.phone }));
}

/** The pairs to review, most reasons first. */
export async function suggestedPairs(db: DB, now = new Date()): Promise<SuggestedPair[]> {
  await foldIn(db, now);
  const facets = await sharedFacets(db);
  const dismissed = await db.selectFrom('person_pair_dismissals').select(['a_id', 'b_id']).execute();
  // Facets of one key together: pairing is only tried within a group, never across the whole table.
  const groups = new Map<string, Facet[]>();
  for (const f of facets) {
    const keys = [nameKey(f.name) && postalKey(f.postalCode) ? `n:${nameKey(f.name)}|${postalKey(f.postalCode)}` : '', phoneKey(f.phone) ? `t:${phoneKey(f.phone)}` : ''];
    for (const key of keys.filter(Boolean)) {
      groups.set(key, [...(groups.get(key) ?? []), f]);
    }
  }
  const all = new Map<string, SuggestedPair>();
  const skip = new Set(dismissed.map((d) => `${d.a_id}|${d.b_id}`));
  for (const group of groups.values()) {
    for (const p of suggestPairs(group, skip)) {
      const k = `${p.a}|${p.b}`;
      const known = all.get(k);
      all.set(k, known ? { ...known, reasons: [...new Set([...known.reasons, ...p.reasons])] } : p);
    }
  }
  return [...all.values()].sort((x, y) => y.reasons.length - x.reasons.length || x.a.localeCompare(y.a) || x.b.localeCompare(y.b));
}

/** Staff say these two records are two people: the pair is not suggested again. */
export async function dismissPair(db: DB, actor: Actor, x: string, y: string, now = new Date()): Promise<void> {
  const [a, b] = pairKey(x, y);
  await db.insertInto('person_pair_dismissals').values({ a_id: a, b_id: b, by_name: actor.name, at: now.toISOString() }).onConflict((oc) => oc.columns(['a_id', 'b_id']).doNothing()).execute();
}

/** The display names of these records. */
export async function namesOf(db: DB, ids: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const part of chunks(ids)) for (const r of await db.selectFrom('people').select(['id', 'display_name']).where('id', 'in', part).execute()) out.set(r.id, r.display_name);
  return out;
}
