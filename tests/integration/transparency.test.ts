import { randomUUID } from 'node:crypto';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { donationDeps } from '~/domain/donations/deps.server';
import { move } from '~/domain/donations/payments.server';
import { currentYear, liveTotals } from '~/domain/transparency/years.server';
import { pageTags } from '~/lib/cache-tags';
import { I18nContext, makeI18n, sitePath, type Lang } from '~/lib/i18n';
import { messagesFor } from '~/lib/i18n.server';
import { runtime } from '~/lib/runtime.server';
import { loader as sitemapLoader } from '~/routes/resources/sitemap';
import { action as yearAction, loader as yearLoader } from '~/routes/transparency/admin-year';
import { loader as yearsLoader } from '~/routes/transparency/admin-years';
import Page, { loader as pageLoader } from '~/routes/transparency/page';
import { loader as pdfLoader } from '~/routes/transparency/summary-pdf';
import { describeEachDialect } from '../support/db';
import { ledgerRow } from '../support/ledger-rows';
import { pdfText } from '../support/pdf';
import { answer, routeContext, sessionCookie } from '../support/routes';
import { startTestRuntime } from '../support/runtime';

const APP_SECRET = 'transparency-'.padEnd(48, 't');
const ORIGIN = 'https://fondation.example.org';
const LAST = currentYear() - 1;
/** Intl's spaces (no-break, narrow no-break) read as plain ones. */
const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');

/** A year as the form sends it: 100 000 € of resources, 100 000 € of uses (82 % for social missions). */
const FORM = {
  version: '0',
  gifts: '70 000',
  dues: '5000',
  'otherResources.0.label': 'Subventions',
  'otherResources.0.amount': '25000',
  'otherResources.1.label': '',
  'otherResources.1.amount': '',
  'missions.0.project': 'kaya',
  'missions.0.label': '',
  'missions.0.amount': '60 000',
  'missions.1.project': '',
  'missions.1.label': 'Bourses scolaires',
  'missions.1.amount': '22000,00',
  'missions.2.project': '',
  'missions.2.label': '',
  'missions.2.amount': '',
  fundraising: '10000',
  running: '8000',
  commentFr: 'Une année de forages.',
  commentEn: 'A year of wells.',
  commentEs: '',
  published: 'on',
};

/**
 * Where the money goes (issue 42, ADR 032), through the routes as React Router calls them: the
 * Admin's form refused with French messages and nothing written, saved (audited, versioned) and
 * published; the public page's HTML in French, English and Spanish, before and after; the live
 * totals against the ledger with a refund; the one-page PDF's text; the sitemap.
 */
describeEachDialect('where the money goes, on %s', (dialect) => {
  let app: { stop: () => Promise<void> } | undefined;
  let admin = '';
  let editor = '';
  const db = () => runtime().db;
  beforeAll(async () => {
    vi.stubEnv('THV_RUN_JOBS', '0');
    app = await startTestRuntime(dialect, APP_SECRET, { PUBLIC_URL: ORIGIN });
    admin = await sessionCookie(db(), { id: 'a1', name: 'Ada Admin', email: 'ada@fondation.example.org', role: 'Admin' });
    editor = await sessionCookie(db(), { id: 'e1', name: 'Éva Éditrice', email: 'eva@fondation.example.org', role: 'Éditeur' });
    const now = new Date().toISOString();
    await db()
      .insertInto('projects')
      .values({ id: 'kaya', image: '', date: '2025-01-01', location: 'Kaya', status: 'En cours', active: 1, translations: JSON.stringify({ fr: { title: 'Forages à Kaya', description: '' }, en: { title: 'Wells in Kaya', description: '' } }), version: 1, created_at: now, updated_at: now })
      .execute();
  });
  afterAll(async () => {
    await app?.stop();
    vi.unstubAllEnvs();
  });

  async function call(route: (args: never) => unknown, path: string, cookie = '', body?: Record<string, string>, params: Record<string, string> = {}) {
    const request = new Request(`${ORIGIN}${path}`, body ? { method: 'POST', headers: { cookie, Origin: ORIGIN, 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(body).toString() } : { headers: { cookie } });
    try {
      return await route({ request, context: routeContext(), params, unstable_pattern: '' } as never);
    } catch (thrown) {
      return thrown;
    }
  }
  const save = (year: number, form: Record<string, string>, cookie = admin) => call(yearAction, `/admin/transparence/${year}`, cookie, form, { year: String(year) });
  /** The public page in a language: its status and the HTML the component renders from its loader's data. */
  async function page(lang: Lang, year?: number) {
    const path = sitePath(lang, year ? `/ou-va-votre-argent/${year}` : '/ou-va-votre-argent');
    const a = answer(await call(pageLoader, path, '', undefined, year ? { year: String(year) } : {}));
    const html = renderToStaticMarkup(createElement(I18nContext.Provider, { value: makeI18n(lang, messagesFor(lang)) }, createElement(Page as never, { loaderData: a.body } as never)));
    return { status: a.status, html: plain(html) };
  }
  const rows = () => db().selectFrom('transparency_years').selectAll().execute();

  it('before any year is published, the page answers with the current year’s live totals and says so', async () => {
    const { status, html } = await page('fr');
    expect(status).toBe(200);
    expect(html).toContain('Nos comptes annuels ne sont pas encore publiés sur cette page');
    expect(html).toContain(`Année ${currentYear()} en cours`);
    expect(html).toContain('Montants provisoires');
    expect(html).not.toContain('essentiel.pdf');
    expect((await page('en')).html).toContain('Our annual accounts are not published on this page yet');
    // A year that is not published has no page of its own.
    expect((await page('fr', LAST)).status).toBe(404);
  });

  it('live totals: the calendar year’s succeeded gifts and dues at their euro value, a refunded gift deducted, another year’s and gifts not in money left out', async () => {
    const year = currentYear();
    const inYear = `${year}-01-02T10:00:00.000Z`;
    const refunded = randomUUID();
    await db()
      .insertInto('donations')
      .values([
        ledgerRow(randomUUID(), inYear, { amount_minor: 10000, eur_cents: 10000 }),
        ledgerRow(randomUUID(), inYear, { amount_minor: 3000, eur_cents: 3000, purpose: 'dues' }),
        ledgerRow(refunded, inYear, { amount_minor: 5000, eur_cents: 5000 }),
        ledgerRow(randomUUID(), `${year - 1}-12-31T23:59:59.000Z`, { amount_minor: 90000, eur_cents: 90000 }),
        ledgerRow(randomUUID(), inYear, { amount_minor: 70000, eur_cents: 70000, status: 'failed' }),
        // Valued, not received: a gift in kind and a volunteer's waived expenses are not money (ADR 030).
        ledgerRow(randomUUID(), inYear, { amount_minor: 40000, eur_cents: 40000, provider: 'in_kind' }),
        ledgerRow(randomUUID(), inYear, { amount_minor: 7632, eur_cents: 7632, provider: 'waived_expenses' }),
      ])
      .execute();
    expect(await liveTotals(db(), year)).toMatchObject({ giftsCents: 15000, duesCents: 3000 });
    expect((await move(await donationDeps(), refunded, 'refunded')).changed).toBe(true);
    expect(await liveTotals(db(), year)).toMatchObject({ giftsCents: 10000, duesCents: 3000 });
    expect(await liveTotals(db(), year - 1)).toMatchObject({ giftsCents: 90000, duesCents: 0 });
    const { html } = await page('fr');
    expect(html).toMatch(/Dons du public<\/dt><dd[^>]*>100,00 €/);
    expect(html).toMatch(/Total provisoire<\/dt><dd[^>]*>130,00 €/);
    // The Admin's form shows the ledger's figures of the year beside gifts and dues.
    const form = answer(await call(yearLoader, `/admin/transparence/${year}`, admin, undefined, { year: String(year) })).body as { live: { gifts: string } };
    expect(plain(form.live.gifts)).toBe('100,00 €');
  });

  it('refuses a wrong form with French messages per field and writes nothing', async () => {
    const r = answer(
      await save(LAST, {
        ...FORM,
        gifts: 'beaucoup',
        dues: '',
        'otherResources.1.amount': '1200',
        'missions.1.amount': '',
        'missions.2.project': 'inconnu',
        running: '-5',
        commentFr: 'x'.repeat(501),
      }),
    );
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual({
      gifts: 'Un montant en euros, 0 ou plus (ex. 1 250 000 ou 1250000,50), un milliard au plus.',
      dues: 'Champ obligatoire.',
      'otherResources.1.label': 'Nommez cette ressource (ex. Subventions, Legs).',
      'missions.1.amount': 'Le montant de cette ligne est obligatoire.',
      'missions.2.project': 'Ce projet n’existe plus : choisissez-en un autre ou écrivez un libellé.',
      'missions.2.amount': 'Le montant de cette ligne est obligatoire.',
      running: 'Un montant en euros, 0 ou plus (ex. 1 250 000 ou 1250000,50), un milliard au plus.',
      commentFr: '500 caractères au plus.',
    });
    expect(await rows()).toEqual([]);
    // Only an Admin enters the figures; a year to come or before 2000 has no form.
    expect(answer(await save(LAST, FORM, editor)).status).toBe(403);
    expect(((await save(currentYear() + 1, FORM)) as Response).status).toBe(404);
    expect(((await call(yearLoader, '/admin/transparence/1999', admin, undefined, { year: '1999' })) as Response).status).toBe(404);
    expect(((await call(yearsLoader, `/admin/transparence?annee=${LAST}`, admin)) as Response).headers.get('Location')).toBe(`/admin/transparence/${LAST}`);
  });

  it('saves a year (audited, guarded by its version) and publishes it; the page shows it in each language, with its charts, tables and shares', async () => {
    const ok = answer(await save(LAST, FORM));
    expect(ok.status).toBe(200);
    expect(ok.body.toast).toMatchObject({ title: `Année ${LAST} enregistrée et publiée !` });
    const [row] = await rows();
    expect(row).toMatchObject({ year: LAST, published: 1, version: 1, updated_by: 'Ada Admin' });
    expect(JSON.parse(row.figures)).toMatchObject({ giftsCents: 7_000_000, duesCents: 500_000, otherResources: [{ label: 'Subventions', cents: 2_500_000 }], missions: [{ projectId: 'kaya', label: 'Forages à Kaya', cents: 6_000_000 }, { projectId: null, label: 'Bourses scolaires', cents: 2_200_000 }], fundraisingCents: 1_000_000, runningCents: 800_000 });
    const audited = await db().selectFrom('audit_log').select(['action', 'target', 'user_name']).where('action', '=', 'transparency.year').execute();
    expect(audited).toEqual([{ action: 'transparency.year', target: `Où va l’argent ${LAST}`, user_name: 'Ada Admin' }]);
    // A save made from the older read is refused and changes nothing.
    expect(answer(await save(LAST, { ...FORM, gifts: '1' })).status).toBe(409);
    expect(JSON.parse((await rows())[0].figures).giftsCents).toBe(7_000_000);

    const fr = await page('fr');
    expect(fr.status).toBe(200);
    expect(fr.html).toContain(`Comptes ${LAST}`);
    expect(fr.html).toContain('82 % pour les missions sociales');
    expect(fr.html).toContain('Une année de forages.');
    expect(fr.html).toContain('100 000,00 € de ressources, dont 70 % de dons du public.');
    expect(fr.html).toMatch(/<th scope="row"[^>]*>Forages à Kaya<\/th><td[^>]*>60 000,00 €<\/td><td[^>]*>73 %<\/td>/);
    expect(fr.html).toMatch(/<th scope="row"[^>]*>Frais de collecte<\/th><td[^>]*>10 000,00 €<\/td><td[^>]*>10 %<\/td>/);
    expect(fr.html.match(/role="img"/g)).toHaveLength(3);
    expect(fr.html).toContain(`href="/ou-va-votre-argent/${LAST}/essentiel.pdf"`);
    expect(fr.html).toContain(`Année ${currentYear()} en cours`);

    const en = await page('en');
    expect(en.html).toContain(`${LAST} accounts`);
    expect(en.html).toContain('82% for social missions');
    expect(en.html).toContain('A year of wells.');
    expect(en.html).toContain('>Wells in Kaya</th>');
    expect(en.html).toContain(`href="/ou-va-votre-argent/${LAST}/essentiel.pdf?lng=en"`);
    const es = await page('es');
    expect(es.html).toContain(`Cuentas ${LAST}`);
    expect(es.html).toContain('82 % para las misiones sociales');
    // Spanish has no comment of its own: the French one shows; the project has no Spanish title: the French one.
    expect(es.html).toContain('Une année de forages.');
    expect(es.html).toContain('>Forages à Kaya</th>');
    expect((await page('en', LAST)).html).toContain('82% for social missions');
  });

  it('draws the one-page summary of a published year in the language asked, and none for a year not published', async () => {
    const res = (await call(pdfLoader, `/ou-va-votre-argent/${LAST}/essentiel.pdf`, '', undefined, { year: String(LAST) })) as Response;
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('application/pdf');
    const text = plain(await pdfText(Buffer.from(await res.arrayBuffer())));
    for (const s of [`L’essentiel ${LAST}`, '82 % pour les missions sociales', 'Dons du public', '70 000,00 €', 'Forages à Kaya', 'Frais de fonctionnement', '8 %', 'Une année de forages.']) expect(text).toContain(s);
    const en = (await call(pdfLoader, `/ou-va-votre-argent/${LAST}/essentiel.pdf?lng=en`, '', undefined, { year: String(LAST) })) as Response;
    const enText = plain(await pdfText(Buffer.from(await en.arrayBuffer())));
    expect(enText).toContain(`The ${LAST} summary`);
    expect(enText).toContain('Wells in Kaya');
    expect(((await call(pdfLoader, `/ou-va-votre-argent/${LAST - 1}/essentiel.pdf`, '', undefined, { year: String(LAST - 1) })) as Response).status).toBe(404);
  });

  it('lists the page in the sitemap in each language (earlier published years at their own address), and purges it by its key', async () => {
    await save(LAST - 1, { ...FORM, published: 'on' });
    const xml = await ((await call(sitemapLoader, '/sitemap.xml')) as Response).text();
    for (const lang of ['', '/en', '/es']) expect(xml).toContain(`<loc>${ORIGIN}${lang}/ou-va-votre-argent</loc>`);
    expect(xml).toContain(`<loc>${ORIGIN}/en/ou-va-votre-argent/${LAST - 1}</loc>`);
    expect(xml).not.toContain(`/ou-va-votre-argent/${LAST}<`);
    expect(pageTags('/en/ou-va-votre-argent/2024')).toContain('money');
    expect(pageTags('/ou-va-votre-argent')).toContain('money');
    const { html } = await page('fr');
    expect(html).toContain('Autres années publiées');
    expect(html).toContain(`href="/ou-va-votre-argent/${LAST - 1}"`);
    // Unpublished again: it leaves the page and the sitemap.
    expect(answer(await save(LAST - 1, { ...FORM, version: '1', published: '' })).status).toBe(200);
    expect((await page('fr', LAST - 1)).status).toBe(404);
  });
});
