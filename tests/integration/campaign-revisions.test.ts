import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaignEditable } from '~/domain/campaigns/editable.server';
import { campaignSnapshot, deleteCampaign, getCampaign, getPublicCampaign, saveCampaign, type CampaignInput } from '~/domain/campaigns/campaigns.server';
import { compareSnapshots } from '~/domain/revisions/editorial';
import { editable, editableAt } from '~/domain/revisions/registry.server';
import { getRevision, listRevisions } from '~/domain/revisions/revisions.server';
import { restoreRevision } from '~/domain/revisions/workflow.server';
import { createTestDb, type TestDb, describeEachDialect } from '../support/db';

/** Campaigns in the editorial workflow (issue #17 wired into #16, ADR 015): revisions, comparison, restore. */
const marie = { id: 'u-marie', name: 'Marie Curie' };
const paul = { id: 'u-paul', name: 'Paul Éluard' };

const first: CampaignInput = {
  slug: 'un-puits-a-kaya',
  status: 'active',
  image: '/media/kaya.webp',
  goalCents: 1_000_000,
  startsOn: '2026-03-01',
  endsOn: '2026-06-30',
  projectId: null,
  translations: {
    fr: { title: 'Un puits à Kaya', summary: 'De l’eau pour « 2 000 » habitants & leurs bêtes', story: '<p>Le <strong>récit</strong></p><ul><li>un</li></ul>' },
    en: { title: 'A well in Kaya', summary: 'Water for 2,000 people', story: '<p>The <em>story</em></p>' },
    es: { title: 'Un pozo en Kaya', summary: 'Agua para 2.000 personas', story: '<p>La historia</p>' },
  },
  amounts: [
    { cents: 2500, impact: { fr: '25 € = un kit scolaire', en: '€25 = a school kit', es: '25 € = un kit escolar' } },
    { cents: 10000, impact: { fr: '100 € = un mètre de forage', en: '€100 = one metre drilled', es: '100 € = un metro perforado' } },
  ],
};

const second: CampaignInput = {
  ...first,
  slug: 'un-puits-profond-a-kaya',
  status: 'ended',
  image: '/media/kaya-2.webp',
  goalCents: 1_500_000,
  endsOn: '2026-09-30',
  translations: {
    fr: { title: 'Un puits profond à Kaya', summary: 'Plus d’eau', story: '<p>Nouveau récit</p>' },
    en: { title: 'A deep well in Kaya', summary: 'More water', story: '<p>New story</p>' },
    es: { title: 'Un pozo profundo en Kaya', summary: 'Más agua', story: '<p>Nueva historia</p>' },
  },
  amounts: [{ cents: 5000, impact: { fr: '50 € = un sac de ciment', en: '€50 = a bag of cement', es: '50 € = un saco de cemento' } }],
};

describeEachDialect('campaign revisions on %s', (dialect) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(dialect);
  });
  afterAll(() => t.destroy());

  it('is a registered content type: its editor and history screens belong to the campaigns area', () => {
    expect(editable('campaign')).toBe(campaignEditable);
    expect(editableAt('/admin/campaigns/abc/historique')).toEqual({ ed: campaignEditable, id: 'abc' });
    expect(campaignEditable.area).toBe('campaigns');
  });

  it('every save keeps a revision, and the comparison names what changed per field and language', async () => {
    const created = await saveCampaign(t.db, marie, null, first);
    if (!('campaign' in created)) throw new Error(`create failed: ${created.error}`);
    const id = created.campaign.id;
    const updated = await saveCampaign(t.db, paul, id, { ...first, translations: { ...first.translations, en: { ...first.translations.en, title: 'A new well in Kaya' } } }, 1);
    expect('campaign' in updated).toBe(true);

    const revisions = await listRevisions(t.db, { type: 'campaign', id });
    expect(revisions.map((r) => [r.number, r.kind, r.authorName])).toEqual([
      [2, 'save', 'Paul Éluard'],
      [1, 'create', 'Marie Curie'],
    ]);
    const rev1 = (await getRevision(t.db, { type: 'campaign', id }, 1))!;
    const rev2 = (await getRevision(t.db, { type: 'campaign', id }, 2))!;
    expect(rev1.snapshot).toEqual(campaignSnapshot(created.campaign));
    const changed = compareSnapshots(rev1.snapshot, rev2.snapshot).filter((d) => d.changed);
    expect(changed.map((d) => [d.field, d.lang, d.before, d.after])).toEqual([['title', 'en', 'A well in Kaya', 'A new well in Kaya']]);
    expect(campaignEditable.fieldLabels[changed[0].field]).toBe('Titre');

    // A refused save (stale form) changes nothing and keeps no revision.
    expect(await saveCampaign(t.db, marie, id, second, 1)).toEqual({ error: 'conflict' });
    expect(await listRevisions(t.db, { type: 'campaign', id })).toHaveLength(2);
  });

  it('restoring revision N reproduces its content exactly (every field, all three languages), as a new audited revision', async () => {
    const created = await saveCampaign(t.db, marie, null, { ...first, slug: 'kits-scolaires' });
    if (!('campaign' in created)) throw new Error(`create failed: ${created.error}`);
    const id = created.campaign.id;
    const original = campaignSnapshot((await getCampaign(t.db, id))!);
    const changed = await saveCampaign(t.db, paul, id, { ...second, slug: 'kits-scolaires-2' }, 1);
    if (!('campaign' in changed)) throw new Error(`update failed: ${changed.error}`);
    expect(campaignSnapshot(changed.campaign)).not.toEqual(original);
    // Visitors see the second version (its new address; the first is gone).
    expect(await getPublicCampaign(t.db, 'kits-scolaires', 'es')).toBeUndefined();

    // A restore from a stale form is refused like any save.
    expect(await restoreRevision(t.db, campaignEditable, id, 1, 1, marie)).toEqual({ ok: false, error: 'conflict' });
    expect(await restoreRevision(t.db, campaignEditable, id, 1, 2, marie)).toEqual({ ok: true, revision: 3 });

    const restored = (await getCampaign(t.db, id))!;
    expect(campaignSnapshot(restored)).toEqual(original);
    expect(restored.version).toBe(3);
    expect((await getRevision(t.db, { type: 'campaign', id }, 3))?.kind).toBe('restore');
    // What visitors see is the restored version again, in each language.
    for (const [lang, title] of [['fr', 'Un puits à Kaya'], ['en', 'A well in Kaya'], ['es', 'Un pozo en Kaya']] as const) {
      const page = await getPublicCampaign(t.db, 'kits-scolaires', lang, '2026-04-01');
      expect(page).toMatchObject({ title, summary: first.translations[lang].summary, story: first.translations[lang].story, goalCents: 1_000_000, closed: null });
      expect(page?.amounts.map((a) => [a.cents, a.impact])).toEqual(first.amounts.map((a) => [a.cents, a.impact[lang]]));
    }
    const audit = await t.db.selectFrom('audit_log').select(['user_name', 'details']).where('action', '=', 'campaign.restore').execute();
    expect(audit.map((a) => [a.user_name, JSON.parse(a.details).restored])).toEqual([['Marie Curie', 1]]);
  });

  it('a campaign written before revisions existed keeps its first state: its first change can be undone', async () => {
    const now = new Date().toISOString();
    await t.db
      .insertInto('campaigns')
      .values({ id: 'seeded-campaign', slug: 'ancienne-campagne', status: 'active', image: '', goal_cents: null, starts_on: null, ends_on: null, project_id: null, translations: JSON.stringify(first.translations), amounts: '[]', version: 1, created_at: now, updated_at: now })
      .execute();
    const before = campaignSnapshot((await getCampaign(t.db, 'seeded-campaign'))!);
    expect('campaign' in (await saveCampaign(t.db, paul, 'seeded-campaign', { ...second, slug: 'ancienne-campagne' }, 1))).toBe(true);
    expect((await listRevisions(t.db, { type: 'campaign', id: 'seeded-campaign' })).map((r) => [r.number, r.kind, r.authorName])).toEqual([
      [2, 'save', 'Paul Éluard'],
      [1, 'initial', 'Avant l’historique'],
    ]);
    expect(await restoreRevision(t.db, campaignEditable, 'seeded-campaign', 1, 2, marie)).toMatchObject({ ok: true });
    expect(campaignSnapshot((await getCampaign(t.db, 'seeded-campaign'))!)).toEqual(before);
  });

  it('a restore whose address another campaign has taken since is refused, and writes nothing', async () => {
    const created = await saveCampaign(t.db, marie, null, { ...first, slug: 'forages-2026' });
    if (!('campaign' in created)) throw new Error(`create failed: ${created.error}`);
    const id = created.campaign.id;
    expect('campaign' in (await saveCampaign(t.db, paul, id, { ...second, slug: 'forages-2027' }, 1))).toBe(true);
    const other = await saveCampaign(t.db, paul, null, { ...second, slug: 'forages-2026' });
    expect('campaign' in other).toBe(true);
    const before = (await getCampaign(t.db, id))!;

    expect(await restoreRevision(t.db, campaignEditable, id, 1, before.version, marie)).toEqual({ ok: false, error: 'taken' });
    expect(await getCampaign(t.db, id)).toEqual(before);
    expect((await listRevisions(t.db, { type: 'campaign', id })).map((r) => r.kind)).toEqual(['save', 'create']);
    expect(await t.db.selectFrom('audit_log').select('id').where('action', '=', 'campaign.restore').where('details', 'like', `%${id}%`).execute()).toEqual([]);
  });

  it('deleting a campaign deletes its history', async () => {
    const created = await saveCampaign(t.db, marie, null, { ...first, slug: 'a-supprimer' });
    if (!('campaign' in created)) throw new Error(`create failed: ${created.error}`);
    const id = created.campaign.id;
    await saveCampaign(t.db, paul, id, { ...first, slug: 'a-supprimer', goalCents: 42_00 }, 1);
    expect(await listRevisions(t.db, { type: 'campaign', id })).toHaveLength(2);
    expect(await deleteCampaign(t.db, marie, id)).toMatchObject({ id });
    expect(await listRevisions(t.db, { type: 'campaign', id })).toEqual([]);
    expect(await t.db.selectFrom('revisions').select('id').where('entity_type', '=', 'campaign').where('entity_id', '=', id).execute()).toEqual([]);
  });
});
