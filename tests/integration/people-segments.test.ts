import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { DB } from '~db/index';
import { storedAs } from '~/domain/means/means';
import { listPeople, personOfEmail, type ListQuery } from '~/domain/people/register.server';
import { tagPerson } from '~/domain/people/notes.server';
import { BUILT_IN_SEGMENTS, builtInSegment, readSegmentForm, type SegmentRules } from '~/domain/people/segments';
import { deleteSegment, getSegment, listSegments, majorThreshold, saveSegment, segmentCounts, segmentCsv, segmentMembers, setMajorThreshold } from '~/domain/people/segments.server';
import { createLetter, getLetter, sendNow, updateLetter } from '~/domain/letters/letters.server';
import { enqueue } from '~/domain/letters/queue.server';
import { getRevision } from '~/domain/revisions/revisions.server';
import { createTestDb, describeEachDialect, type TestDb } from '../support/db';
import { gift, subscriber } from '../support/people';

/**
 * Segments of the donors register (ADR 040): the ready-made ones on a moved clock (lapsed on
 * 1 January), each rule at its boundaries, a saved segment's round trip with bad rules refused,
 * the CSV export.
 */
const ACTOR = { id: 'u1', name: 'Admin' };
const ALL: ListQuery = { sort: 'name', desc: false, page: 1, donorsOnly: false, searchEmails: true };

/** The names of the records a segment's rules keep at `now`. */
async function names(db: DB, rules: SegmentRules, now: Date, majorCents = 100_000): Promise<string[]> {
  return (await listPeople(db, { ...ALL, segment: { rules, majorCents } }, now)).rows.map((r) => r.name);
}
const builtIn = (id: string) => builtInSegment(id)!.rules;

/** A dated `form.get` over plain fields (`tagIds` may repeat). */
function form(fields: Record<string, string | string[]>) {
  return {
    get: (n: string) => (Array.isArray(fields[n]) ? fields[n][0] : (fields[n] ?? null)),
    getAll: (n: string) => (Array.isArray(fields[n]) ? fields[n] : fields[n] !== undefined ? [fields[n]] : []),
  };
}

describe('the segment form (pure)', () => {
  it('reads euros, counts, days and choices into rules; refuses bounds that make no sense, in French', () => {
    const ok = readSegmentForm(form({ name: ' Fidèles ', totalMin: '1 000,50', lastYearMax: '20', giftsMin: '2', firstFrom: '2024-01-01', firstTo: '2024-12-31', monthly: 'non', subscribed: 'oui', tagIds: ['t1', 't1', 't2'], means: 'paypal', language: 'en', campaignId: 'c1' }));
    expect(ok).toEqual({ ok: true, name: 'Fidèles', rules: { totalMin: 100_050, lastYearMax: 2000, giftsMin: 2, firstFrom: '2024-01-01', firstTo: '2024-12-31', monthly: false, subscribed: true, tagIds: ['t1', 't2'], means: 'paypal', language: 'en', campaignId: 'c1' } });
    const bad = readSegmentForm(form({ name: '', totalMin: '50', totalMax: '49,99', giftsMin: 'deux', lastFrom: '2026-02-30', firstFrom: '2026-03-01', firstTo: '2026-02-28', means: 'troc', language: 'de', largestMin: '-5' }));
    expect(bad).toEqual({
      ok: false,
      errors: {
        name: 'Donnez un nom au segment.',
        totalMax: 'Le maximum est plus petit que le minimum.',
        giftsMin: 'Un nombre entier de dons.',
        lastFrom: 'Une date, par exemple 2026-01-31.',
        firstTo: 'Cette date est avant la date de début.',
        means: 'Choisissez un moyen de paiement de la liste.',
        language: 'Choisissez une langue de la liste.',
        largestMin: 'Un montant en euros, par exemple 50 ou 12,50.',
      },
    });
    // Equal bounds are a range of one value, not an error.
    expect(readSegmentForm(form({ name: 'x', totalMin: '50', totalMax: '50', firstFrom: '2026-01-01', firstTo: '2026-01-01' })).ok).toBe(true);
    expect(readSegmentForm(form({ name: 'x'.repeat(81) }))).toMatchObject({ ok: false, errors: { name: 'Un nom tient en 80 caractères au plus.' } });
  });
});

describeEachDialect('segments of the donors register on %s', (dialect) => {
  let t: TestDb;
  beforeEach(async () => {
    await t?.destroy();
    t = await createTestDb(dialect);
  });
  afterAll(async () => t?.destroy());

  it('the ready-made segments on a moved clock: last year’s donor is lapsed from 1 January, not on 31 December', async () => {
    await gift(t.db, 'l1', 'lea@example.org', '2025-03-01T10:00:00.000Z', { donor_name: 'Léa Only2025', eur_cents: 5000 });
    await gift(t.db, 'o1', 'olga@example.org', '2024-05-01T10:00:00.000Z', { donor_name: 'Olga Old', eur_cents: 2000 });
    await gift(t.db, 'k1', 'karim@example.org', '2025-06-01T10:00:00.000Z', { donor_name: 'Karim Kept', eur_cents: 2000 });
    await gift(t.db, 'k2', 'karim@example.org', '2026-01-01T00:00:00.000Z', { donor_name: 'Karim Kept', eur_cents: 100_000 });
    const dec31 = new Date('2025-12-31T23:59:59.000Z');
    const jan1 = new Date('2026-01-01T00:00:01.000Z');
    // 31 December 2025: Léa gave this year; Olga gave in 2024 only (last year's lapsed then); Karim gave in 2025.
    expect(await names(t.db, builtIn('perdus-an-dernier'), dec31)).toEqual(['Olga Old']);
    expect(await names(t.db, builtIn('perdus'), dec31)).toEqual(['Olga Old']);
    expect(await names(t.db, builtIn('nouveaux'), dec31)).toEqual(['Karim Kept', 'Léa Only2025']);
    // 1 January 2026: Léa gave last year and not this one; Karim gave again at midnight; Olga is lapsed for longer.
    expect(await names(t.db, builtIn('perdus-an-dernier'), jan1)).toEqual(['Léa Only2025']);
    expect(await names(t.db, builtIn('perdus'), jan1)).toEqual(['Léa Only2025', 'Olga Old']);
    expect(await names(t.db, builtIn('nouveaux'), jan1)).toEqual([]);
    // Grands donateurs: total at least the Admin's threshold (1 000 € until set), the threshold itself included.
    expect(await majorThreshold(t.db)).toBe(100_000);
    expect(await names(t.db, builtIn('grands'), jan1, 102_000)).toEqual(['Karim Kept']);
    expect(await names(t.db, builtIn('grands'), jan1, 102_001)).toEqual([]);
    await setMajorThreshold(t.db, ACTOR, 5000);
    expect(await majorThreshold(t.db)).toBe(5000);
    const counts = await segmentCounts(t.db, BUILT_IN_SEGMENTS, { now: jan1, majorCents: await majorThreshold(t.db) });
    expect(Object.fromEntries(counts)).toEqual({ mensuels: 0, nouveaux: 0, 'perdus-an-dernier': 1, perdus: 2, grands: 2 });
  });

  it('monthly: a monthly gift within 31 days', async () => {
    await gift(t.db, 'm1', 'mona@example.org', '2026-05-15T12:00:00.000Z', { donor_name: 'Mona Monthly', frequency: 'monthly' });
    await gift(t.db, 'n1', 'nils@example.org', '2026-06-10T12:00:00.000Z', { donor_name: 'Nils Once' });
    expect(await names(t.db, builtIn('mensuels'), new Date('2026-06-15T12:00:00.000Z'))).toEqual(['Mona Monthly']);
    expect(await names(t.db, { monthly: false }, new Date('2026-06-15T12:00:00.000Z'))).toEqual(['Nils Once']);
    expect(await names(t.db, builtIn('mensuels'), new Date('2026-06-16T12:00:01.000Z'))).toEqual([]);
  });

  it('each rule on the figures keeps its boundaries', async () => {
    const now = new Date('2026-06-15T12:00:00.000Z');
    // Ana: 2 gifts (30 € in 2025, 70 € in 2026); Ben: 1 gift of 100 € in 2026; Cy: 3 gifts of 10 € in 2024.
    await gift(t.db, 'a1', 'ana@example.org', '2025-02-10T10:00:00.000Z', { donor_name: 'Ana', eur_cents: 3000 });
    await gift(t.db, 'a2', 'ana@example.org', '2026-03-10T10:00:00.000Z', { donor_name: 'Ana', eur_cents: 7000 });
    await gift(t.db, 'b1', 'ben@example.org', '2026-01-01T00:00:00.000Z', { donor_name: 'Ben', eur_cents: 10000 });
    for (const d of [29, 30, 31]) await gift(t.db, `c${d}`, 'cy@example.org', `2024-12-${d}T23:00:00.000Z`, { donor_name: 'Cy', eur_cents: 1000 });
    await subscriber(t.db, 's1', 'dee@example.org');
    expect(await names(t.db, { totalMin: 10000 }, now)).toEqual(['Ana', 'Ben']);
    expect(await names(t.db, { totalMin: 10001 }, now)).toEqual([]);
    expect(await names(t.db, { totalMax: 3000 }, now)).toEqual(['Cy', 'dee@example.org']);
    expect(await names(t.db, { totalMax: 2999 }, now)).toEqual(['dee@example.org']);
    expect(await names(t.db, { giftsMin: 2, giftsMax: 2 }, now)).toEqual(['Ana']);
    expect(await names(t.db, { giftsMin: 3 }, now)).toEqual(['Cy']);
    expect(await names(t.db, { largestMin: 7000, largestMax: 7000 }, now)).toEqual(['Ana']);
    expect(await names(t.db, { thisYearMin: 7000 }, now)).toEqual(['Ana', 'Ben']);
    expect(await names(t.db, { thisYearMin: 7001, thisYearMax: 10000 }, now)).toEqual(['Ben']);
    expect(await names(t.db, { thisYearMax: 6999 }, now)).toEqual(['Cy', 'dee@example.org']);
    expect(await names(t.db, { lastYearMin: 3000 }, now)).toEqual(['Ana']);
    expect(await names(t.db, { lastYearMin: 3001 }, now)).toEqual([]);
    expect(await names(t.db, { lastYearMax: 2999, giftsMin: 1 }, now)).toEqual(['Ben', 'Cy']);
    // Days inclusive at both ends, in UTC.
    expect(await names(t.db, { firstFrom: '2026-01-01', firstTo: '2026-01-01' }, now)).toEqual(['Ben']);
    expect(await names(t.db, { firstTo: '2024-12-31' }, now)).toEqual(['Cy']);
    expect(await names(t.db, { firstFrom: '2025-02-10' }, now)).toEqual(['Ana', 'Ben']);
    expect(await names(t.db, { firstFrom: '2025-02-11' }, now)).toEqual(['Ben']);
    expect(await names(t.db, { lastFrom: '2026-03-10', lastTo: '2026-03-10' }, now)).toEqual(['Ana']);
    expect(await names(t.db, { lastTo: '2026-03-09' }, now)).toEqual(['Ben', 'Cy']);
    // No rule: every live record.
    expect(await names(t.db, {}, now)).toEqual(['Ana', 'Ben', 'Cy', 'dee@example.org']);
  });

  it('tags, campaign, means, language and the subscription', async () => {
    const now = new Date('2026-06-15T12:00:00.000Z');
    await gift(t.db, 'a1', 'ana@example.org', '2026-02-10T10:00:00.000Z', { donor_name: 'Ana', campaign_id: 'camp1', language: 'en' });
    await gift(t.db, 'b1', 'ben@example.org', '2026-02-10T10:00:00.000Z', { donor_name: 'Ben', provider: storedAs('paypal') });
    await gift(t.db, 'c1', 'cy@example.org', '2026-02-10T10:00:00.000Z', { donor_name: 'Cy', method: 'sepa_debit' });
    // A refunded gift to the campaign by PayPal in Spanish does not make Dan one of them.
    await gift(t.db, 'd1', 'dan@example.org', '2026-02-10T10:00:00.000Z', { donor_name: 'Dan', campaign_id: 'camp1', provider: storedAs('paypal'), language: 'es', status: 'refunded' });
    await subscriber(t.db, 's1', 'Cy@Example.org');
    await t.db.insertInto('subscribers').values({ id: 's2', email: 'dan@example.org', language: 'es', source: 'signup', status: 'unsubscribed', suppressed_reason: null, soft_bounces: 0, created_at: '2026-01-05T10:00:00.000Z', updated_at: '2026-01-05T10:00:00.000Z' }).execute();
    await listPeople(t.db, ALL, now);
    await tagPerson(t.db, (await personOfEmail(t.db, 'ben@example.org'))!, 'Gala');
    await tagPerson(t.db, (await personOfEmail(t.db, 'cy@example.org'))!, 'Presse');
    const tags = await t.db.selectFrom('tags').select(['id', 'name']).orderBy('name').execute();
    expect(await names(t.db, { tagIds: [tags[0].id] }, now)).toEqual(['Ben']);
    expect(await names(t.db, { tagIds: tags.map((x) => x.id) }, now)).toEqual(['Ben', 'Cy']);
    expect(await names(t.db, { campaignId: 'camp1' }, now)).toEqual(['Ana']);
    expect(await names(t.db, { means: 'paypal' }, now)).toEqual(['Ben']);
    expect(await names(t.db, { means: 'sepa' }, now)).toEqual(['Cy']);
    expect(await names(t.db, { means: 'card' }, now)).toEqual(['Ana']);
    expect(await names(t.db, { language: 'en' }, now)).toEqual(['Ana']);
    // An unsubscribed address still says the language it chose.
    expect(await names(t.db, { language: 'es' }, now)).toEqual(['Dan']);
    expect(await names(t.db, { subscribed: true }, now)).toEqual(['Cy']);
    expect(await names(t.db, { subscribed: false }, now)).toEqual(['Ana', 'Ben', 'Dan']);
    expect(await names(t.db, { subscribed: true, means: 'card' }, now)).toEqual([]);
  });

  it('a saved segment: created, read back, listed after the ready-made ones, changed, deleted; a ready-made one never', async () => {
    const bad = readSegmentForm(form({ name: 'Fidèles', giftsMin: '3', giftsMax: '2' }));
    expect(bad.ok).toBe(false);
    const good = readSegmentForm(form({ name: 'Fidèles', giftsMin: '2', subscribed: 'oui' }));
    if (!good.ok) throw new Error('refused');
    const id = (await saveSegment(t.db, ACTOR, null, good.name, good.rules))!;
    expect(await getSegment(t.db, id)).toEqual({ id, name: 'Fidèles', rules: { giftsMin: 2, subscribed: true }, builtIn: false });
    expect((await listSegments(t.db)).map((s) => s.name)).toEqual([...BUILT_IN_SEGMENTS.map((s) => s.name), 'Fidèles']);
    expect(await saveSegment(t.db, ACTOR, id, 'Très fidèles', { giftsMin: 5 })).toBe(id);
    expect(await getSegment(t.db, id)).toMatchObject({ name: 'Très fidèles', rules: { giftsMin: 5 } });
    expect(await saveSegment(t.db, ACTOR, 'nope', 'X', {})).toBeUndefined();
    // Stored rules that no longer read select nobody, never everyone.
    await t.db.updateTable('segments').set({ rules: '{"giftsMin":"beaucoup"}' }).where('id', '=', id).execute();
    await gift(t.db, 'a1', 'ana@example.org', '2026-02-10T10:00:00.000Z');
    expect(await names(t.db, (await getSegment(t.db, id))!.rules, new Date('2026-06-15T12:00:00.000Z'))).toEqual([]);
    expect(await deleteSegment(t.db, ACTOR, 'perdus')).toBe(false);
    expect(await deleteSegment(t.db, ACTOR, id)).toBe(true);
    expect(await getSegment(t.db, id)).toBeUndefined();
    const audits = await t.db.selectFrom('audit_log').select('action').where('target', '=', id).orderBy('at').orderBy('id').execute();
    expect(audits.map((a) => a.action)).toEqual(['segment.create', 'segment.update', 'segment.delete']);
  });

  it('the CSV export: one line per record with its addresses, postal code, language and figures', async () => {
    const now = new Date('2026-06-15T12:00:00.000Z');
    await gift(t.db, 'a1', 'ana@example.org', '2025-02-10T10:00:00.000Z', { donor_name: 'Ana Diallo', eur_cents: 3050, language: 'en', tax_details: JSON.stringify({ name: 'Ana Diallo', postalCode: '75011' }) });
    await gift(t.db, 'a2', 'ANA.d@example.org', '2026-06-01T10:00:00.000Z', { donor_name: 'Ana Diallo', eur_cents: 1000, frequency: 'monthly', language: 'es' });
    await gift(t.db, 'b1', 'ben@example.org', '2026-03-10T10:00:00.000Z', { donor_name: '=Ben', eur_cents: 1000 });
    await subscriber(t.db, 's1', 'ana.d@example.org');
    await listPeople(t.db, ALL, now);
    const { mergePeople } = await import('~/domain/people/merge.server');
    await mergePeople(t.db, ACTOR, (await personOfEmail(t.db, 'ana@example.org'))!, (await personOfEmail(t.db, 'ana.d@example.org'))!, now);
    const members = await segmentMembers(t.db, { id: 'x', name: 'x', rules: { totalMin: 4000 }, builtIn: false }, now);
    const csv = segmentCsv(members, 2026);
    expect(csv.startsWith('\uFEFF')).toBe(true);
    expect(csv.slice(1).split('\r\n')).toEqual([
      '"Nom";"E-mail";"Code postal";"Langue";"Premier don";"Dernier don";"Nombre de dons";"Total (€)";"2026 (€)";"2025 (€)";"Plus grand don (€)";"Mensuel"',
      // The subscription's language before the gifts'.
      '"Ana Diallo";"ana.d@example.org, ana@example.org";"75011";"fr";"2025-02-10";"2026-06-01";"2";"40,50";"10,00";"30,50";"30,50";"oui"',
      '',
    ]);
    const everyone = segmentCsv(await segmentMembers(t.db, { id: 'y', name: 'y', rules: {}, builtIn: false }, now), 2026).split('\r\n');
    // A name starting with "=" is never a formula; the language of the gifts when there is no subscription.
    expect(everyone[2]).toBe('"\'=Ben";"ben@example.org";"";"fr";"2026-03-10";"2026-03-10";"1";"10,00";"10,00";"0,00";"10,00";"non"');
    expect(everyone).toHaveLength(4);
  });

  it('a letter to a segment is queued for its subscribed members only, the segment judged when it is sent', async () => {
    const sub = (id: string, email: string, status = 'subscribed') =>
      t.db.insertInto('subscribers').values({ id, email, language: 'fr', source: 'signup', status, suppressed_reason: null, soft_bounces: 0, created_at: '2025-01-05T10:00:00.000Z', updated_at: '2025-01-05T10:00:00.000Z' }).execute();
    await gift(t.db, 'l1', 'Lea@Example.org', '2025-03-01T10:00:00.000Z', { donor_name: 'Léa' });
    await sub('s-lea', 'lea@example.org');
    await gift(t.db, 'm1', 'marc@example.org', '2025-04-01T10:00:00.000Z', { donor_name: 'Marc' });
    await sub('s-marc', 'marc@example.org', 'unsubscribed');
    await gift(t.db, 'p1', 'paul@example.org', '2025-04-01T10:00:00.000Z', { donor_name: 'Paul' });
    await gift(t.db, 'n1', 'nina@example.org', '2025-05-01T10:00:00.000Z', { donor_name: 'Nina' });
    await gift(t.db, 'n2', 'nina@example.org', '2026-01-01T09:00:00.000Z', { donor_name: 'Nina' });
    await sub('s-nina', 'nina@example.org');
    await sub('s-sam', 'sam@example.org');
    const versions = { fr: { subject: 'Vous nous manquez', body: 'Bonjour', link: '', image: '' } };
    const id = await createLetter(t.db, ACTOR, versions, { language: '', source: '', segment: 'perdus-an-dernier' });
    expect((await getLetter(t.db, id))!.audience).toEqual({ language: '', source: '', segment: 'perdus-an-dernier' });
    // The segment is kept by each save and its revision.
    expect(await updateLetter(t.db, ACTOR, id, versions, { language: '', source: '', segment: 'perdus-an-dernier' }, 1)).toBe('ok');
    expect((await getRevision(t.db, { type: 'letter', id }, 2))!.snapshot).toMatchObject({ audience: { segment: 'perdus-an-dernier' } });
    // Léa (subscribed, gave last year only) receives it; Marc (unsubscribed), Paul (no subscription),
    // Nina (gave again this year) and Sam (subscribed, no gift) do not.
    expect(await sendNow(t.db, ACTOR, id, new Date('2026-01-02T10:00:00.000Z'))).toBe('ok');
    const queued = await t.db.selectFrom('letter_queue').select('subscriber_id').where('letter_id', '=', id).execute();
    expect(queued.map((q) => q.subscriber_id)).toEqual(['s-lea']);
    // On 31 December the same segment was Léa's neither: judged by the clock of the sending.
    const other = await createLetter(t.db, ACTOR, versions, { language: '', source: '', segment: 'perdus-an-dernier' });
    expect(await enqueue(t.db, other, { language: '', source: '', segment: 'perdus-an-dernier' }, new Date('2025-12-31T10:00:00.000Z'))).toBe(0);
    // A segment that no longer exists reaches nobody, never every subscriber.
    expect(await enqueue(t.db, other, { language: '', source: '', segment: 'gone' }, new Date('2026-01-02T10:00:00.000Z'))).toBe(0);
    // No segment: every subscribed address, as before.
    expect(await enqueue(t.db, other, { language: '', source: '' }, new Date('2026-01-02T10:00:00.000Z'))).toBe(3);
  });
});
