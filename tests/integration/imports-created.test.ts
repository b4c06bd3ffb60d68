import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { getCampaign, listOpenCampaigns, saveCampaign } from '~/domain/campaigns/campaigns.server';
import type { CampaignInput } from '~/domain/campaigns/campaigns';
import { createImport, dryRun } from '~/domain/imports/imports.server';
import { runImport, startImport, undoImport } from '~/domain/imports/run.server';
import { runtime } from '~/lib/runtime.server';
import { describeEachDialect } from '../support/db';
import { helloassoLine, helloassoPayments, HELLOASSO_HEADER, utf8Bom, windows1252 } from '../support/import-files';
import { startTestRuntime } from '../support/runtime';

const ADA = { id: 'a1', name: 'Ada Admin' };

/**
 * What an import creates besides gifts (issue 43, ADR 036): the campaigns a file names and that
 * are not here — created ended, never open to gifts, taken back by the undo only while nothing
 * else uses them.
 */
describeEachDialect('what an import creates besides gifts, on %s', (dialect) => {
  let app: { stop: () => Promise<void> } | undefined;
  const db = () => runtime().db;
  const storage = () => runtime().storage;
  beforeAll(async () => {
    vi.stubEnv('THV_RUN_JOBS', '0');
    app = await startTestRuntime(dialect, 'imports-created-'.padEnd(48, 'c'), { PUBLIC_URL: 'https://fondation.example.org' });
  });
  afterAll(async () => {
    await app?.stop();
    vi.unstubAllEnvs();
  });

  async function importWhole(name: string, data: Buffer) {
    const i = await createImport(db(), storage(), ADA, name, data);
    const report = (await dryRun(db(), storage(), i.id))!;
    expect(await startImport(db(), ADA, i.id)).toBe(true);
    await runImport(db(), storage(), i.id);
    return { id: i.id, report };
  }
  const campaignTitles = async () => (await db().selectFrom('campaigns').select('translations').execute()).map((r) => JSON.parse(r.translations).fr.title as string).sort();
  const gifts = (id: string) => db().selectFrom('donations').select(['source_ref', 'campaign_id']).where('import_id', '=', id).orderBy('source_ref').execute();

  it('a campaign named by the file and not here is said by the dry run, created ended by the import (not open to gifts), not twice, and taken back by the undo while nothing else uses it', async () => {
    const open: CampaignInput = { slug: 'dons-libres', status: 'active', image: '', goalCents: null, startsOn: null, endsOn: null, projectId: null, translations: { fr: { title: 'Dons libres', summary: '', story: '' }, en: { title: 'Free gifts', summary: '', story: '' }, es: { title: 'Donativos', summary: '', story: '' } }, amounts: [] };
    const saved = await saveCampaign(db(), ADA, null, open);
    const freeId = 'campaign' in saved ? saved.campaign.id : '';

    const first = await importWhole('paiements.csv', utf8Bom(helloassoPayments()));
    expect(first.report.campaignsFound).toEqual(['Dons libres']);
    expect(first.report.campaignsUnknown).toEqual(['Puits\nau Sénégal']);
    expect(await campaignTitles()).toEqual(['Dons libres', 'Puits au Sénégal']);
    const rows = await gifts(first.id);
    const wellId = rows.find((r) => r.source_ref === 'P2002')!.campaign_id!;
    expect(rows.map((r) => r.campaign_id)).toEqual([freeId, wellId, freeId, freeId]);
    expect(await getCampaign(db(), wellId)).toMatchObject({ status: 'ended', slug: 'puits-au-senegal', translations: { fr: { title: 'Puits au Sénégal' }, en: { title: 'Puits au Sénégal' } } });
    expect((await listOpenCampaigns(db(), 'fr')).map((c) => c.slug)).toEqual(['dons-libres']);

    // The same file again (Excel's re-save) finds the campaign: none created.
    const again = await importWhole('paiements-excel.csv', windows1252(helloassoPayments()));
    expect(again.report.campaignsUnknown).toEqual([]);
    expect(await campaignTitles()).toEqual(['Dons libres', 'Puits au Sénégal']);

    // Another file's gift names it: the first import's undo keeps it.
    const other = await importWhole('autre.csv', utf8Bom([HELLOASSO_HEADER, helloassoLine({ order: 'C9', ref: 'P9', amount: '10,00', date: '01/07/2024 10:00', status: 'Autorisé', last: 'Roy', first: 'Max', email: 'max@example.org', campaign: 'puits  au sénégal' })].join('\n')));
    expect((await gifts(other.id)).map((r) => r.campaign_id)).toEqual([wellId]);
    expect(await undoImport(db(), storage(), ADA, first.id)).toEqual({ ok: true, gifts: 4, subscribers: 0, campaigns: 0 });
    expect(await getCampaign(db(), wellId)).toBeDefined();
    expect(await undoImport(db(), storage(), ADA, other.id)).toMatchObject({ ok: true, gifts: 1, campaigns: 0 });

    // Imported once more then undone with nothing else naming it: the campaign it created goes, the one that was here stays.
    await db().deleteFrom('campaigns').where('id', '=', wellId).execute();
    const last = await importWhole('paiements.csv', utf8Bom(helloassoPayments()));
    expect(await campaignTitles()).toEqual(['Dons libres', 'Puits au Sénégal']);
    expect(await undoImport(db(), storage(), ADA, last.id)).toEqual({ ok: true, gifts: 4, subscribers: 0, campaigns: 1 });
    expect(await campaignTitles()).toEqual(['Dons libres']);
    const trail = await db().selectFrom('audit_log').select(['action', 'user_name']).where('action', 'in', ['campaign.create', 'campaign.delete']).execute();
    expect(trail).toEqual(expect.arrayContaining([{ action: 'campaign.create', user_name: 'Import' }, { action: 'campaign.delete', user_name: 'Ada Admin' }]));
  });
});
