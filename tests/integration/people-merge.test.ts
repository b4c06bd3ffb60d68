import { afterAll, beforeEach, expect, it } from 'vitest';
import { personPage } from '~/domain/donors/record.server';
import { donorExportCsv, eraseDonorData, exportDonorData } from '~/domain/donors/personal-data.server';
import { mergePeople, undoBlockerOf, undoMerge } from '~/domain/people/merge.server';
import { addNote, mergeTags, renameTag, tagPerson, tagsOfPerson, listTags } from '~/domain/people/notes.server';
import { getPerson, listPeople, personOfEmail } from '~/domain/people/register.server';
import { issueAnnualStatements } from '~/domain/receipts/register.server';
import { createTestDb, describeEachDialect, type TestDb } from '../support/db';
import { gift, member, receiptRow, subscriber } from '../support/people';
import { DONOR, setReceiptSettings } from '../support/receipts';

/**
 * Merging two records of one person (issue 44, ADR 038): every kind of row follows (gifts,
 * receipts with their numbers, monthly gifts, membership, consents, subscriptions, letters, notes,
 * tags) and none of those rows is written; the annual statement sums both; audited; taken back
 * while nothing new depends on it.
 */
const NOW = new Date('2026-06-15T12:00:00.000Z');
const ACTOR = { id: 'u1', name: 'Admin Une' };
const A = 'awa@example.org';
const B = 'awa.diallo@work.example';

describeEachDialect('merging records on %s', (dialect) => {
  let t: TestDb;
  beforeEach(async () => {
    await t?.destroy();
    t = await createTestDb(dialect);
  });
  afterAll(async () => t?.destroy());

  /** Two records of one person, each with every kind of row. */
  async function twoRecords() {
    await gift(t.db, 'a1', A, '2026-01-10T10:00:00.000Z', { eur_cents: 5000 });
    await gift(t.db, 'a2', A, '2026-05-20T10:00:00.000Z', { eur_cents: 1000, frequency: 'monthly', secondary_ref: 'sub_a' });
    await t.db.insertInto('monthly_gifts').values({ id: 'sub_a', provider: 'stripe', first_donation_id: 'a2', amount_minor: 1000, currency: 'EUR', status: 'active', updated_at: '2026-05-20T10:00:00.000Z' }).execute();
    await gift(t.db, 'b1', B, '2025-11-10T10:00:00.000Z', { eur_cents: 20000, donor_name: 'Awa Diallo' });
    await t.db.insertInto('receipts').values([receiptRow('r1', '2026-000001', A, ['a1']), receiptRow('r2', '2025-000007', B, ['b1'], { amount_cents: 20000 })]).execute();
    await t.db.insertInto('donor_consents').values([{ id: 'c1', donation_id: 'a1', kind: 'newsletter', given_at: '2026-01-10T10:00:00.000Z', withdrawn_at: null }, { id: 'c2', donation_id: 'b1', kind: 'newsletter', given_at: '2025-11-10T10:00:00.000Z', withdrawn_at: null }]).execute();
    await subscriber(t.db, 's1', A);
    await subscriber(t.db, 's2', B);
    const at = '2026-03-01T10:00:00.000Z';
    await t.db.insertInto('letters').values({ id: 'l1', versions: JSON.stringify({ fr: { subject: 'Nouvelles de mars', body: 'x', link: '', image: '' } }), post_id: null, audience_language: 'all', audience_source: 'all', status: 'sent', scheduled_at: null, pause_reason: null, created_by: 'Admin', created_at: at, updated_at: at, sent_at: at, version: 1 }).execute();
    await t.db.insertInto('letter_queue').values({ id: 'q1', letter_id: 'l1', subscriber_id: 's2', status: 'sent', claimed_by: null, claimed_at: null, done_at: at, error: null }).execute();
    await member(t.db, { first_name: 'Awa', last_name: 'Diallo', email: B });
    await listPeople(t.db, { sort: 'name', desc: false, page: 1, donorsOnly: true }, NOW);
    const [a, b] = [(await personOfEmail(t.db, A))!, (await personOfEmail(t.db, B))!];
    expect(await addNote(t.db, ACTOR, b, 'Rencontrée au gala, préfère le courrier.', NOW)).toEqual({ ok: true });
    await tagPerson(t.db, b, 'Gala 2026');
    await tagPerson(t.db, b, 'VIP');
    await tagPerson(t.db, a, 'vip');
    return { a, b };
  }

  const snapshot = async () => ({
    donations: await t.db.selectFrom('donations').selectAll().orderBy('id').execute(),
    receipts: await t.db.selectFrom('receipts').selectAll().orderBy('id').execute(),
    memberships: await t.db.selectFrom('memberships').selectAll().execute(),
    consents: await t.db.selectFrom('donor_consents').selectAll().orderBy('id').execute(),
    subscribers: await t.db.selectFrom('subscribers').selectAll().orderBy('id').execute(),
    monthly: await t.db.selectFrom('monthly_gifts').selectAll().execute(),
  });

  it('moves every kind of row to the survivor without writing one; receipts keep their numbers; audited; taken back', async () => {
    const { a, b } = await twoRecords();
    const before = await snapshot();
    const merged = await mergePeople(t.db, ACTOR, a, b, NOW);
    expect(merged).toMatchObject({ ok: true, moved: { emails: [B], tags: expect.any(Array), addedTags: expect.any(Array) } });
    expect(await snapshot()).toEqual(before);

    const page = (await personPage(t.db, a, NOW))!;
    expect(page.person.emails.map((e) => e.email)).toEqual([B, A]);
    expect(page.gifts.map((g) => g.id).sort()).toEqual(['a1', 'a2', 'b1']);
    expect(page.monthly.map((m) => m.id)).toEqual(['sub_a']);
    expect(page.memberships.map((m) => m.email)).toEqual([B]);
    expect(page.receipts.map((r) => r.number).sort()).toEqual(['2025-000007', '2026-000001']);
    expect(page.subscriptions.map((s) => s.email).sort()).toEqual([B, A].sort());
    expect(page.letters.map((l) => l.subject)).toEqual(['Nouvelles de mars']);
    expect(page.consents.map((c) => c.donationId).sort()).toEqual(['a1', 'b1']);
    expect(page.notes.map((n) => [n.body, n.authorName])).toEqual([['Rencontrée au gala, préfère le courrier.', 'Admin Une']]);
    expect(page.tags.map((x) => x.name)).toEqual(['Gala 2026', 'VIP']);
    expect(page.person).toMatchObject({ gifts: 3, totalCents: 26000, thisYearCents: 6000, lastYearCents: 20000, largestCents: 20000 });
    expect(await getPerson(t.db, b, NOW)).toMatchObject({ mergedInto: a, emails: [], gifts: 0 });
    expect((await listPeople(t.db, { sort: 'name', desc: false, page: 1, donorsOnly: false }, NOW)).rows.map((r) => r.id)).toEqual([a]);
    const line = await t.db.selectFrom('audit_log').select(['action', 'target', 'user_name']).where('action', '=', 'person.merge').executeTakeFirstOrThrow();
    expect(line).toEqual({ action: 'person.merge', target: a, user_name: 'Admin Une' });

    expect(await mergePeople(t.db, ACTOR, a, b, NOW)).toEqual({ ok: false, refusal: 'already_merged' });
    expect(await mergePeople(t.db, ACTOR, a, a, NOW)).toEqual({ ok: false, refusal: 'same' });
    expect(await mergePeople(t.db, ACTOR, a, 'nobody', NOW)).toEqual({ ok: false, refusal: 'missing' });

    // Taken back: the address, the note and the tags go home; the survivor keeps its own.
    expect(await undoMerge(t.db, ACTOR, merged.ok ? merged.mergeId : '', NOW)).toEqual({ ok: true });
    expect(await snapshot()).toEqual(before);
    expect((await personPage(t.db, b, NOW))!).toMatchObject({ person: { mergedInto: null, emails: [{ email: B }], gifts: 1, totalCents: 20000 }, notes: [{ body: 'Rencontrée au gala, préfère le courrier.' }] });
    expect((await tagsOfPerson(t.db, b)).map((x) => x.name)).toEqual(['Gala 2026', 'VIP']);
    expect((await tagsOfPerson(t.db, a)).map((x) => x.name)).toEqual(['VIP']);
    expect((await getPerson(t.db, a, NOW))!).toMatchObject({ gifts: 2, totalCents: 6000, emails: [{ email: A }] });
    expect(await undoMerge(t.db, ACTOR, merged.ok ? merged.mergeId : '', NOW)).toEqual({ ok: false, blocker: 'undone' });
    expect(await t.db.selectFrom('audit_log').select('action').where('action', '=', 'person.unmerge').execute()).toHaveLength(1);
  });

  it('the annual statement sums both records once merged, and the merge can no longer be taken back; a later merge must be taken back first', async () => {
    await setReceiptSettings(t.db, { model: 'annual_monthly' });
    const tax = JSON.stringify(DONOR);
    await gift(t.db, 'm1', A, '2026-02-05T10:00:00.000Z', { eur_cents: 1000, frequency: 'monthly', tax_details: tax });
    await gift(t.db, 'm2', B, '2026-03-05T10:00:00.000Z', { eur_cents: 1500, frequency: 'monthly', tax_details: tax });
    await gift(t.db, 'c1', 'other@example.org', '2026-03-05T10:00:00.000Z', { eur_cents: 700 });
    await listPeople(t.db, { sort: 'name', desc: false, page: 1, donorsOnly: true }, NOW);
    const [a, b, c] = [(await personOfEmail(t.db, A))!, (await personOfEmail(t.db, B))!, (await personOfEmail(t.db, 'other@example.org'))!];
    const first = await mergePeople(t.db, ACTOR, a, b, NOW);
    const second = await mergePeople(t.db, ACTOR, a, c, new Date(NOW.getTime() + 1000));
    if (!first.ok || !second.ok) throw new Error('not merged');
    expect(await undoBlockerOf(t.db, first.mergeId)).toBe('later_merge');
    expect(await undoMerge(t.db, ACTOR, second.mergeId, NOW)).toEqual({ ok: true });
    expect(await undoBlockerOf(t.db, first.mergeId)).toBeNull();

    const issued = await issueAnnualStatements(t.db, 2026, new Date('2027-01-05T10:00:00.000Z'));
    expect(issued.map((r) => [r.amount_cents, JSON.parse(r.donation_ids).sort()])).toEqual([[2500, ['m1', 'm2']]]);
    expect(await undoMerge(t.db, ACTOR, first.mergeId, NOW)).toEqual({ ok: false, blocker: 'joint_receipt' });
  });

  it('tags are made on the fly, renamed and merged; the donor’s export holds the record’s notes and tags; erasure removes the record', async () => {
    const { a, b } = await twoRecords();
    const tags = await listTags(t.db);
    expect(tags.map((x) => [x.name, x.count])).toEqual([['Gala 2026', 1], ['VIP', 2]]);
    const gala = tags.find((x) => x.name === 'Gala 2026')!;
    const vip = tags.find((x) => x.name === 'VIP')!;
    expect(await tagPerson(t.db, a, '  ')).toEqual({ ok: false, error: expect.stringContaining('nom') });
    expect(await renameTag(t.db, ACTOR, gala.id, 'vip')).toEqual({ ok: false, error: expect.stringContaining('fusionnez') });
    expect(await renameTag(t.db, ACTOR, gala.id, 'Gala de juin')).toEqual({ ok: true });
    expect(await mergeTags(t.db, ACTOR, vip.id, gala.id)).toEqual({ ok: true });
    expect((await listTags(t.db)).map((x) => [x.name, x.count])).toEqual([['Gala de juin', 2]]);

    const x = await exportDonorData(t.db, B);
    expect(x.record).toEqual({ tags: ['Gala de juin'], notes: [{ createdAt: NOW.toISOString(), text: 'Rencontrée au gala, préfère le courrier.' }] });
    expect(donorExportCsv(x)).toContain('staff_note');
    expect(await eraseDonorData(t.db, B, ACTOR)).toMatchObject({ ok: true });
    expect(await getPerson(t.db, b, NOW, { fold: false })).toBeUndefined();
    expect(await t.db.selectFrom('person_notes').selectAll().execute()).toEqual([]);
    expect((await exportDonorData(t.db, A)).record).toEqual({ tags: ['Gala de juin'], notes: [] });
  });
});
