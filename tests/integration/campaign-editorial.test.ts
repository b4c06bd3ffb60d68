import { afterAll, beforeAll, expect, it } from 'vitest';
import { campaignEditable } from '~/domain/campaigns/editable.server';
import { getCampaign, getPublicCampaign, listOpenCampaigns, listPublishedCampaignSlugs, saveCampaign, type CampaignInput } from '~/domain/campaigns/campaigns.server';
import { previewCampaign } from '~/domain/campaigns/preview.server';
import { listRevisions } from '~/domain/revisions/revisions.server';
import { getDraft, publish, publishDue, saveDraft, scheduledFor } from '~/domain/revisions/workflow.server';
import { createTestDb, type TestDb, describeEachDialect } from '../support/db';

/** Campaigns in the whole editorial workflow (issue #17, ADR 015): drafts, preview, scheduled launch. */
const marie = { id: 'u-marie', name: 'Marie Curie' };
const DAY = '2026-11-25';

const campaign = (slug: string, title: string, over: Partial<CampaignInput> = {}): CampaignInput => ({
  slug,
  status: 'active',
  image: '',
  goalCents: 500_000,
  startsOn: null,
  endsOn: null,
  projectId: null,
  translations: {
    fr: { title, summary: 'Résumé', story: '<p>Récit</p>' },
    en: { title: `${title} (en)`, summary: 'Summary', story: '<p>Story</p>' },
    es: { title: `${title} (es)`, summary: 'Resumen', story: '<p>Historia</p>' },
  },
  amounts: [],
  ...over,
});
const retitled = (c: CampaignInput, fr: string, en: string): CampaignInput => ({
  ...c,
  translations: { ...c.translations, fr: { ...c.translations.fr, title: fr }, en: { ...c.translations.en, title: en } },
});
const editables = (type: string) => (type === campaignEditable.type ? campaignEditable : undefined);

describeEachDialect('campaign drafts, preview and scheduling on %s', (dialect) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(dialect);
  });
  afterAll(() => t.destroy());

  async function create(input: CampaignInput) {
    const r = await saveCampaign(t.db, marie, null, input);
    if (!('campaign' in r)) throw new Error(`create failed: ${r.error}`);
    return r.campaign;
  }

  it('a draft of an open campaign stays out of its page and the list until "Publier"; the preview shows it', async () => {
    const input = campaign('ecole-de-thies', 'Une école à Thiès');
    const c = await create(input);
    const draft = retitled(input, 'Deux écoles à Thiès', 'Two schools in Thiès');
    expect(await saveDraft(t.db, campaignEditable, c.id, { snapshot: { ...draft }, version: c.version, draftSavedAt: '' }, marie)).toMatchObject({ ok: true });

    expect((await getPublicCampaign(t.db, 'ecole-de-thies', 'en', DAY))?.title).toBe('Une école à Thiès (en)');
    expect((await listOpenCampaigns(t.db, 'en', { day: DAY })).map((x) => x.title)).toContain('Une école à Thiès (en)');
    expect((await previewCampaign(t.db, c.id, 'en', DAY))?.title).toBe('Two schools in Thiès');
    expect(campaignEditable.publicPath?.(c.id, { slug: c.slug })).toBe('/campagnes/ecole-de-thies');

    const { savedAt } = (await getDraft(t.db, { type: 'campaign', id: c.id }))!;
    expect(await publish(t.db, campaignEditable, c.id, { snapshot: { ...draft }, version: c.version, draftSavedAt: savedAt }, marie)).toMatchObject({ ok: true });
    expect((await getPublicCampaign(t.db, 'ecole-de-thies', 'en', DAY))?.title).toBe('Two schools in Thiès');
    expect(await getDraft(t.db, { type: 'campaign', id: c.id })).toBeUndefined();
  });

  it('a campaign in "Brouillon" is previewed (with its draft) though visitors cannot open it, and publishing opens it', async () => {
    const input = campaign('puits-de-kaolack', 'Un puits à Kaolack', { status: 'draft' });
    const c = await create(input);
    expect(await getPublicCampaign(t.db, 'puits-de-kaolack', 'fr', DAY)).toBeUndefined();
    expect((await listPublishedCampaignSlugs(t.db)).map((s) => s.slug)).not.toContain('puits-de-kaolack');
    expect((await previewCampaign(t.db, c.id, 'fr', DAY))?.title).toBe('Un puits à Kaolack');

    expect(await publish(t.db, campaignEditable, c.id, { snapshot: { ...input }, version: c.version, draftSavedAt: '' }, marie)).toMatchObject({ ok: true });
    expect((await getCampaign(t.db, c.id))?.status).toBe('active');
    expect((await getPublicCampaign(t.db, 'puits-de-kaolack', 'fr', DAY))?.title).toBe('Un puits à Kaolack');
  });

  it('publishing an ended campaign again keeps it ended (no gift reopens it)', async () => {
    const input = campaign('hiver-2025', 'Hiver 2025', { status: 'ended' });
    const c = await create(input);
    expect(await publish(t.db, campaignEditable, c.id, { snapshot: { ...retitled(input, 'Hiver 2025 : merci', 'Winter 2025: thanks') }, version: c.version, draftSavedAt: '' }, marie)).toMatchObject({ ok: true });
    const after = await getPublicCampaign(t.db, 'hiver-2025', 'fr', DAY);
    expect([after?.status, after?.title, after?.closed]).toEqual(['ended', 'Hiver 2025 : merci', 'ended']);
  });

  it('a draft whose address another campaign took meanwhile is refused at "Publier": nothing is written, the draft stays', async () => {
    const input = campaign('cantine-de-fatick', 'Une cantine à Fatick');
    const c = await create(input);
    const moved = { ...retitled(input, 'La cantine de Fatick', 'The Fatick canteen'), slug: 'cantine-fatick' };
    await saveDraft(t.db, campaignEditable, c.id, { snapshot: { ...moved }, version: c.version, draftSavedAt: '' }, marie);
    await create(campaign('cantine-fatick', 'Une autre cantine'));
    const revisionsBefore = (await listRevisions(t.db, { type: 'campaign', id: c.id })).length;

    const { savedAt } = (await getDraft(t.db, { type: 'campaign', id: c.id }))!;
    expect(await publish(t.db, campaignEditable, c.id, { snapshot: { ...moved }, version: c.version, draftSavedAt: savedAt }, marie)).toEqual({ ok: false, error: 'taken' });
    const live = await getCampaign(t.db, c.id);
    expect([live?.slug, live?.translations.fr.title, live?.version]).toEqual(['cantine-de-fatick', 'Une cantine à Fatick', c.version]);
    expect((await getDraft(t.db, { type: 'campaign', id: c.id }))?.snapshot.slug).toBe('cantine-fatick');
    expect(await listRevisions(t.db, { type: 'campaign', id: c.id })).toHaveLength(revisionsBefore);
  });

  it('a scheduled launch publishes the campaign once when due; one that can no longer be published stays a draft, unscheduled, and says why', async () => {
    const launch = campaign('rentree-2027', 'Rentrée 2027', { status: 'draft' });
    const a = await create(launch);
    const blocked = campaign('forage-de-mbour', 'Un forage à Mbour');
    const b = await create(blocked);
    const due = new Date('2027-01-04T08:00:00Z');
    await saveDraft(t.db, campaignEditable, a.id, { snapshot: { ...launch }, version: a.version, draftSavedAt: '', publishAt: due.toISOString() }, marie);
    await saveDraft(t.db, campaignEditable, b.id, { snapshot: { ...blocked, slug: 'forage-mbour' }, version: b.version, draftSavedAt: '', publishAt: due.toISOString() }, marie);
    await create(campaign('forage-mbour', 'Le forage de Mbour'));
    expect([...(await scheduledFor(t.db, 'campaign', [a.id, b.id])).keys()].sort()).toEqual([a.id, b.id].sort());

    expect(await publishDue(t.db, editables, new Date('2027-01-04T07:59:59Z'))).toEqual([]);
    expect(await publishDue(t.db, editables, due)).toEqual([{ type: 'campaign', id: a.id }]);
    expect(await publishDue(t.db, editables, due)).toEqual([]);

    expect((await getPublicCampaign(t.db, 'rentree-2027', 'fr', DAY))?.title).toBe('Rentrée 2027');
    expect((await getCampaign(t.db, b.id))?.slug).toBe('forage-de-mbour');
    const kept = await getDraft(t.db, { type: 'campaign', id: b.id });
    expect([kept?.snapshot.slug, kept?.publishAt]).toEqual(['forage-mbour', null]);
    expect((await scheduledFor(t.db, 'campaign', [a.id, b.id])).size).toBe(0);
    const failed = await t.db.selectFrom('audit_log').select(['action', 'details']).where('action', '=', 'campaign.schedule.failed').execute();
    expect(failed).toHaveLength(1);
    expect(JSON.parse(failed[0].details ?? '{}')).toMatchObject({ id: b.id, reason: 'taken' });
  });
});
