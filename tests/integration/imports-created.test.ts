import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { getCampaign, listOpenCampaigns, saveCampaign } from '~/domain/campaigns/campaigns.server';
import type { CampaignInput } from '~/domain/campaigns/campaigns';
import { createImport, dryRun, getImport, setMapping, settingsOf } from '~/domain/imports/imports.server';
import { createMember } from '~/domain/membership/register.server';
import { createType } from '~/domain/membership/types.server';
import { runImport, startImport, undoBlocker, undoImport } from '~/domain/imports/run.server';
import { runtime } from '~/lib/runtime.server';
import { describeEachDialect } from '../support/db';
import { helloassoLine, helloassoMemberships, helloassoPayments, HELLOASSO_HEADER, utf8Bom, windows1252 } from '../support/import-files';
import { memberInput, membershipType } from '../support/membership';
import { setReceiptSettings } from '../support/receipts';
import { issueAnnualStatements } from '~/domain/receipts/register.server';
import { startTestRuntime } from '../support/runtime';
import { startSmtp } from '../support/smtp';

const ADA = { id: 'a1', name: 'Ada Admin' };

/**
 * What an import creates besides gifts (issue 43, ADR 036): the campaigns a file names and that
 * are not here — created ended, never open to gifts, taken back by the undo only while nothing
 * else uses them —, members with their dues from HelloAsso's memberships export, and imported
 * gifts in the annual statement only as the Admin chooses.
 */
describeEachDialect('what an import creates besides gifts, on %s', (dialect) => {
  let app: { stop: () => Promise<void> } | undefined;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  const db = () => runtime().db;
  const storage = () => runtime().storage;
  beforeAll(async () => {
    vi.stubEnv('THV_RUN_JOBS', '0');
    smtp = await startSmtp();
    app = await startTestRuntime(dialect, 'imports-created-'.padEnd(48, 'c'), { SMTP_URL: smtp.url, PUBLIC_URL: 'https://fondation.example.org' });
  });
  afterAll(async () => {
    await app?.stop();
    await smtp?.close();
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
    expect(await undoImport(db(), storage(), ADA, first.id)).toEqual({ ok: true, gifts: 4, subscribers: 0, campaigns: 0, members: 0 });
    expect(await getCampaign(db(), wellId)).toBeDefined();
    expect(await undoImport(db(), storage(), ADA, other.id)).toMatchObject({ ok: true, gifts: 1, campaigns: 0, members: 0 });

    // Imported once more then undone with nothing else naming it: the campaign it created goes, the one that was here stays.
    await db().deleteFrom('campaigns').where('id', '=', wellId).execute();
    const last = await importWhole('paiements.csv', utf8Bom(helloassoPayments()));
    expect(await campaignTitles()).toEqual(['Dons libres', 'Puits au Sénégal']);
    expect(await undoImport(db(), storage(), ADA, last.id)).toEqual({ ok: true, gifts: 4, subscribers: 0, campaigns: 1, members: 0 });
    expect(await campaignTitles()).toEqual(['Dons libres']);
    const trail = await db().selectFrom('audit_log').select(['action', 'user_name']).where('action', 'in', ['campaign.create', 'campaign.delete']).execute();
    expect(trail).toEqual(expect.arrayContaining([{ action: 'campaign.create', user_name: 'Import' }, { action: 'campaign.delete', user_name: 'Ada Admin' }]));
  });

  it('HelloAsso memberships: members entered with their type and dues (period end by the type’s rule), no mail; refused lines by number; the same file again adds nothing; undone, keeping a member who was here', async () => {
    const typeId = await createType(db(), ADA, membershipType({ name_fr: 'Adhésion individuelle', period_model: 'calendar', dues: '20' }));
    // Hugo was in the register before: his dues are added to his entry.
    const hugo = await createMember(db(), ADA, memberInput(typeId, { first_name: 'Hugo', last_name: 'Moreau', email: 'famille.moreau@example.org' }));
    const file = utf8Bom(helloassoMemberships());
    const i = await createImport(db(), storage(), ADA, 'export-adhesions.csv', file);
    expect(settingsOf(i)).toMatchObject({ source: 'helloasso', kind: 'members', presetId: 'helloasso-memberships' });
    const report = (await dryRun(db(), storage(), i.id))!;
    expect(report).toMatchObject({ fatal: null, lines: 6, members: 3, alreadyImported: 0, rejectedCount: 3, gifts: 0 });
    expect(report.rejected).toEqual([
      { line: 5, reason: 'l’adhésion n’est pas payée (statut « Refusé ») : aucun membre n’est inscrit.' },
      { line: 6, reason: 'le type d’adhésion « Membre bienfaiteur » n’existe pas ici : créez-le (Adhésions › Paramètres) ou choisissez le type à donner à ces lignes.' },
      { line: 7, reason: 'la date « 30/02/2024 10:00 » est impossible (attendu JJ/MM/AAAA ou AAAA-MM-JJ).' },
    ]);
    expect(await db().selectFrom('membership_dues').select('id').execute()).toEqual([]);

    expect(await startImport(db(), ADA, i.id)).toBe(true);
    expect(await runImport(db(), storage(), i.id)).toBe(6);
    expect((await getImport(db(), i.id))!).toMatchObject({ status: 'done', imported_count: 3 });
    const members = await db().selectFrom('memberships').select(['id', 'first_name', 'last_name', 'email', 'type_id', 'ends_on', 'city']).orderBy('first_name').execute();
    expect(members).toEqual([
      { id: hugo.id, first_name: 'Hugo', last_name: 'Moreau', email: 'famille.moreau@example.org', type_id: typeId, ends_on: '2024-12-31', city: 'Paris' },
      { id: expect.any(String), first_name: 'Inès', last_name: 'Moreau', email: 'famille.moreau@example.org', type_id: typeId, ends_on: '2025-12-31', city: 'Rennes' },
    ]);
    const dues = await db().selectFrom('membership_dues').select(['payment_id', 'amount_cents', 'method', 'period_end']).orderBy('paid_at').orderBy('payment_id').execute();
    expect(dues).toEqual([
      { payment_id: 'import:helloasso:A100:moreau hugo', amount_cents: 2000, method: 'card', period_end: '2024-12-31' },
      { payment_id: 'import:helloasso:A100:moreau ines', amount_cents: 2000, method: 'card', period_end: '2024-12-31' },
      { payment_id: 'import:helloasso:A101:moreau ines', amount_cents: 2000, method: 'card', period_end: '2025-12-31' },
    ]);
    // Nothing mailed: no welcome, no card, no receipt.
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.mails).toEqual([]);
    expect(await db().selectFrom('mail_outbox').select('id').execute()).toEqual([]);

    // The same file again (Excel's re-save), with a type chosen for the unknown rate: only Lina is new.
    const again = await createImport(db(), storage(), ADA, 'adhesions-excel.csv', windows1252(helloassoMemberships()));
    await setMapping(db(), again.id, { ...settingsOf(again), membershipTypeId: typeId });
    expect(await dryRun(db(), storage(), again.id)).toMatchObject({ members: 4, alreadyImported: 3, rejectedCount: 2 });
    await startImport(db(), ADA, again.id);
    await runImport(db(), storage(), again.id);
    expect((await getImport(db(), again.id))!.imported_count).toBe(1);
    expect(await db().selectFrom('memberships').select('first_name').orderBy('first_name').execute()).toEqual([{ first_name: 'Hugo' }, { first_name: 'Inès' }, { first_name: 'Lina' }]);

    expect(await undoImport(db(), storage(), ADA, again.id)).toEqual({ ok: true, gifts: 0, subscribers: 0, campaigns: 0, members: 1 });
    expect(await undoImport(db(), storage(), ADA, i.id)).toEqual({ ok: true, gifts: 0, subscribers: 0, campaigns: 0, members: 1 });
    // Hugo, who was here before, stays, without the dues the import brought.
    expect(await db().selectFrom('memberships').select(['id', 'ends_on']).execute()).toEqual([{ id: hugo.id, ends_on: null }]);
    expect(await db().selectFrom('membership_dues').select('id').execute()).toEqual([]);
    expect(await db().selectFrom('import_records').select('kind').execute()).toEqual([]);
  });

  it('imported gifts count in the annual statement only when the Admin chose so, and then only those without a receipt number of theirs and with a full address', async () => {
    const sheet = [
      'Nom;Prénom;Adresse;Code postal;Ville;Courriel;Montant;Date;N° de reçu',
      'Garnier;Zoé;8 allée des Pins;33000;Bordeaux;zoe.annuel@example.org;50,00;10/03/2024;',
      'Bernard;Luc;1 rue Haute;13001;Marseille;luc.annuel@example.org;30,00;11/03/2024;HA-2024-0012',
      'Petit;Léa;;;;lea.annuel@example.org;20,00;12/03/2024;',
      '',
    ].join('\n');
    const i = await createImport(db(), storage(), ADA, 'tableur-annuel.csv', Buffer.from(sheet));
    const mapping = { lastName: 'Nom', firstName: 'Prénom', address: 'Adresse', postalCode: 'Code postal', city: 'Ville', email: 'Courriel', amount: 'Montant', date: 'Date', receiptNumber: 'N° de reçu' };
    await setMapping(db(), i.id, { source: 'spreadsheet', kind: 'gifts', mapping, defaultMeans: 'cheque', presetId: null });
    expect(await dryRun(db(), storage(), i.id)).toMatchObject({ gifts: 3, rejectedCount: 0 });
    await startImport(db(), ADA, i.id);
    await runImport(db(), storage(), i.id);
    const january = new Date(Date.UTC(2025, 0, 5, 9));
    const ours = <T extends { donor_email: string | null }>(r: T[]) => r.filter((x) => x.donor_email?.endsWith('.annuel@example.org'));

    // Default: not counted.
    await setReceiptSettings(db(), { model: 'annual_monthly' });
    expect(ours(await issueAnnualStatements(db(), 2024, january))).toEqual([]);

    // Chosen: Zoé's gift is summed; Luc's had its receipt elsewhere, Léa's has no address.
    await setReceiptSettings(db(), { model: 'annual_monthly', annualCountsImported: true });
    const zoe = await db().selectFrom('donations').select('id').where('donor_email', '=', 'zoe.annuel@example.org').executeTakeFirstOrThrow();
    const issued = ours(await issueAnnualStatements(db(), 2024, january));
    expect(issued.map((r) => [r.kind, r.donor_email, r.amount_cents, JSON.parse(r.donation_ids)])).toEqual([['annual', 'zoe.annuel@example.org', 5000, [zoe.id]]]);
    // Never twice, and the import can no longer be undone as if nothing depended on it.
    expect(ours(await issueAnnualStatements(db(), 2024, january))).toEqual([]);
    expect(await undoBlocker(db(), i.id)).toBe(`Le reçu annuel n° ${issued[0].number} compte des dons de cet import : annulez d’abord ce reçu.`);
    await setReceiptSettings(db(), { model: 'each' });
  });
});
