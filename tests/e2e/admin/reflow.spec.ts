import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import type { RouteConfigEntry } from '@react-router/dev/routes';
import { matchRoutes, type RouteObject } from 'react-router';
import routes from '~/routes';
import { MANAGED_PAGES } from '~/domain/content/pages';
import { createAttempt, transition } from '~/domain/donations/ledger.server';
import { createUser, issueToken } from '~/domain/users/users.server';
import { applyDuesPayment } from '~/domain/membership/dues.server';
import { createMember } from '~/domain/membership/register.server';
import { renewalToken } from '~/domain/membership/reminders.server';
import { createType } from '~/domain/membership/types.server';
import { CONSENT_WORDING_VERSION } from '~/domain/subscribers/consent';
import { requestSignup, suppress } from '~/domain/subscribers/subscribers.server';
import { createLetter } from '~/domain/letters/letters.server';
import { openBatch } from '~/domain/offline-gifts/batches.server';
import { currentYear, saveYear } from '~/domain/transparency/years.server';
import { createImport, dryRun } from '~/domain/imports/imports.server';
import { cardCheckToken } from '~/domain/membership/card-check.server';
import { suggestedPairs } from '~/domain/people/duplicates.server';
import { addNote, tagPerson } from '~/domain/people/notes.server';
import { personOfEmail } from '~/domain/people/register.server';
import { diskStorage } from '~/lib/storage.server';
import { helloassoPayments, utf8Bom } from '../../support/import-files';
import { expectAccessible, PUBLIC_PAGES } from '../support';
import { campaignText, KAYA, saveCampaignOrThrow } from '../../support/campaigns';
import { enableEveryMethod } from '../../support/donations';
import { signInLinkToken } from '../../support/donors';
import { DONOR, setReceiptSettings } from '../../support/receipts';
import { DIALECTS, createAccount, signIn, startAdminServer, type AdminServer } from './server';
import { memberInput, membershipType } from '../../support/membership';
import { pathWithoutLang } from '~/lib/lang-path';

/**
 * Reflow (WCAG 2.2, 1.4.10): at 320 × 640 CSS px, no public page (fr) and no back-office screen
 * scrolls sideways. A wide table may scroll inside its own region; the page itself may not. Every
 * route of app/routes.ts that renders a screen is visited (a check below fails when a new one is
 * missing from the lists), with the content that makes screens wide: long words, long addresses.
 */
const WIDTH = 320;
const VIEWPORT = { width: WIDTH, height: 640 };
const APP_SECRET = 'reflow-e2e-secret-'.padEnd(48, 'r');
/** An unbreakable word (no hyphen, no space) longer than the screen is wide. */
const LONG_WORD = 'Anticonstitutionnellement'.repeat(3);
const DONOR_EMAIL = 'aissatou.diallo.une.adresse.tres.longue@example.org';

// ——— which screens exist ———

const APP_DIR = path.resolve(import.meta.dirname, '..', '..', '..', 'app');

/** The path pattern of every route of app/routes.ts whose module renders a screen (has a default export). */
function screenPatterns(entries: RouteConfigEntry[], parent = ''): string[] {
  return entries.flatMap((e) => {
    const here = e.path ? `${parent}/${e.path}` : parent;
    if (e.children?.length) return screenPatterns(e.children, here);
    const renders = /^export default /m.test(fs.readFileSync(path.join(APP_DIR, e.file), 'utf8'));
    return renders ? [here || '/'] : [];
  });
}

/** The route pattern React Router serves a URL with (its leaf route, parents' paths joined). */
function patternOf(url: string): string {
  const matches = matchRoutes(routes as unknown as RouteObject[], new URL(url, 'http://x').pathname) ?? [];
  return `/${matches.map((m) => m.route.path).filter(Boolean).join('/')}`;
}

// ——— what the lists visit ———

interface Seeded {
  project: string;
  post: string;
  partner: string;
  campaign: string;
  campaignSlug: string;
  receipt: string;
  media: string;
  editor: string;
  invitation: string;
  reset: string;
  member: string;
  membershipType: string;
  letter: string;
  suppressed: string;
  listed: string;
  giftBatch: string;
  /** A HelloAsso file with its dry run (ADR 036). */
  importId: string;
  /** The donor's record, and the pair of records the register suggests merging (ADR 038). */
  person: string;
  pair: [string, string];
  /** The member's card's signed check (ADR 039). */
  cardToken: string;
}

/** The year "where the money goes" is seeded with, and an earlier one (ADR 032). */
const MONEY_YEAR = currentYear() - 1;

/** The public pages (fr): each screen in the states a visitor meets (the donor space's signed-in state is visited apart). */
const publicUrls = (s: Seeded) => [
  ...PUBLIC_PAGES.map((p) => p.path),
  ...['card', 'crypto', 'paypal', 'mobileMoney'].map((m) => `/faire-un-don?m=${m}`),
  `/faire-un-don?campagne=${s.campaignSlug}`,
  // The renewal link's form (issue 32), above the joining form, for a member with a long name.
  `/devenir-membre?renouveler=${renewalToken(APP_SECRET, s.member)}`,
  '/campagnes',
  `/campagnes/${s.campaignSlug}`,
  '/mon-espace',
  '/mon-espace/connexion',
  '/lettre/inscription',
  '/lettre/confirmer/lien-inconnu',
  '/lettre/desabonnement/lien-inconnu',
  // Where the money goes: the latest published year (with a long project name) and an earlier one.
  `/ou-va-votre-argent/${MONEY_YEAR - 1}`,
  // The check page a member's card opens at the door (a long name).
  `/adhesion/verifier/${s.cardToken}`,
];

/** The screens seen before signing in (the first-start screen, which exists only while no account does, is visited apart). */
const signedOutUrls = (s: Seeded) => ['/admin/login', '/admin/mot-de-passe-oublie', `/admin/invitation/${s.invitation}`, `/admin/reinitialiser/${s.reset}`, '/admin/reinitialiser/lien-inconnu'];
const FIRST_START = '/admin/setup';

/** Every back-office screen, signed in as an Admin. */
const adminUrls = (s: Seeded) => [
  '/admin/dashboard',
  '/admin/pages',
  ...MANAGED_PAGES.map((p) => `/admin/pages/edit/${p.id}`),
  `/admin/pages/edit/${MANAGED_PAGES[0].id}/historique`,
  ...(['actions', 'blog', 'partners'] as const).flatMap((area) => {
    const id = { actions: s.project, blog: s.post, partners: s.partner }[area];
    return [`/admin/${area}`, `/admin/${area}/new`, `/admin/${area}/${id}`, `/admin/${area}/${id}/supprimer`, `/admin/${area}/${id}/historique`];
  }),
  '/admin/campaigns',
  '/admin/campaigns/new',
  `/admin/campaigns/${s.campaign}`,
  `/admin/campaigns/${s.campaign}/supprimer`,
  `/admin/campaigns/${s.campaign}/historique`,
  // The comparison of the version with the long word against the first one.
  `/admin/campaigns/${s.campaign}/historique?a=1&b=2`,
  '/admin/media',
  `/admin/media/${s.media}/supprimer`,
  '/admin/messages',
  '/admin/messages/reflow-message',
  '/admin/messages/reflow-message/supprimer',
  '/admin/payments',
  '/admin/donations',
  '/admin/donations?period=all',
  '/admin/donations/donateur',
  `/admin/donations/donateur?email=${encodeURIComponent(DONOR_EMAIL)}`,
  '/admin/cheques',
  '/admin/cheques/don',
  '/admin/cheques/nature',
  '/admin/cheques/nature?type=waived_expenses',
  `/admin/cheques/remises/${s.giftBatch}`,
  '/admin/receipts',
  '/admin/receipts/parametres',
  '/admin/receipts/declaration',
  `/admin/receipts/${s.receipt}`,
  '/admin/rapports',
  '/admin/transparence',
  `/admin/transparence/${MONEY_YEAR}`,
  '/admin/comptabilite',
  '/admin/comptabilite/plan',
  '/admin/comptabilite/versements',
  // The provider is out of reach here (STRIPE_API_BASE on a closed port): the screen says so.
  '/admin/dons/abonnements',
  '/admin/imports',
  `/admin/imports/${s.importId}`,
  '/admin/donateurs',
  `/admin/donateurs/${s.person}`,
  '/admin/donateurs/doublons',
  `/admin/donateurs/doublons/${s.pair[0]}/${s.pair[1]}`,
  '/admin/donateurs/etiquettes',
  '/admin/donateurs/segments',
  '/admin/donateurs/segments/nouveau',
  '/admin/donateurs?segment=perdus-an-dernier',
  '/admin/adhesions',
  `/admin/adhesions?q=${encodeURIComponent(LONG_WORD)}`,
  '/admin/adhesions/nouveau',
  `/admin/adhesions/${s.member}`,
  '/admin/adhesions/assemblee',
  '/admin/adhesions/rappels',
  '/admin/adhesions/parametres',
  '/admin/adhesions/parametres/types/nouveau',
  `/admin/adhesions/parametres/types/${s.membershipType}`,
  '/admin/courriels',
  '/admin/users',
  '/admin/users/new',
  `/admin/users/${s.editor}`,
  `/admin/users/${s.editor}/supprimer`,
  '/admin/settings',
  '/admin/mon-compte',
  '/admin/lettres',
  '/admin/lettres/nouvelle',
  '/admin/lettres/rythme',
  '/admin/lettres/dns',
  '/admin/lettres/expediteur',
  '/admin/lettres/dns?domaine=example.org&selecteur=',
  `/admin/lettres/${s.letter}`,
  `/admin/lettres/${s.letter}/historique`,
  '/admin/lettres/abonnes',
  `/admin/lettres/abonnes/${s.suppressed}/lever`,
  `/admin/lettres/abonnes/${s.listed}/desabonner`,
  '/admin/inconnu',
];

// ——— measuring ———

/**
 * What is wrong with the page on screen at 320 px: its width when it scrolls sideways (with its
 * widest elements), and each table that is not inside its own focusable, named scrolling region.
 */
async function problemsOf(page: Page): Promise<string[]> {
  const url = new URL(page.url());
  const where = `${url.pathname}${url.search}`;
  const found = await page.evaluate((limit) => {
    const out: string[] = [];
    const width = document.documentElement.scrollWidth;
    if (width > limit) {
      // Name the widest elements, to say what to fix.
      const culprits: string[] = [];
      for (const el of Array.from(document.querySelectorAll('body *'))) {
        const r = el.getBoundingClientRect();
        if (r.right > limit + 1 && r.width > 0 && !Array.from(el.children).some((c) => c.getBoundingClientRect().right > limit + 1)) {
          culprits.push(`${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}.${String(el.className).slice(0, 60)} (${Math.round(r.right)})`);
        }
      }
      out.push(`${width}px — ${culprits.slice(0, 3).join(', ')}`);
    }
    for (const table of Array.from(document.querySelectorAll('table'))) {
      const region = table.closest('[role="region"]');
      const named = region && (region.getAttribute('aria-label') || region.getAttribute('aria-labelledby'));
      if (!named || region.getAttribute('tabindex') !== '0' || !['auto', 'scroll'].includes(getComputedStyle(region).overflowX)) {
        out.push(`table "${table.caption?.textContent?.trim().slice(0, 60) ?? ''}" outside a focusable, named scrolling region`);
      }
    }
    return out;
  }, WIDTH);
  return found.map((f) => `${where}: ${f}`);
}

/**
 * Visits each URL and lists what is wrong with it (see `problemsOf`). A URL that does not show its own screen (sent
 * elsewhere, or a server error) is listed too: measuring the sign-in page instead would prove nothing.
 */
async function problemsAt(page: Page, baseURL: string, urls: string[]): Promise<string[]> {
  const problems: string[] = [];
  for (const url of urls) {
    const res = await page.goto(`${baseURL}${url}`);
    const landed = new URL(page.url());
    if (!res || res.status() >= 500 || landed.pathname !== new URL(url, baseURL).pathname) {
      problems.push(`${url}: ${res?.status()} at ${landed.pathname}`);
      continue;
    }
    problems.push(...(await problemsOf(page)));
  }
  return problems;
}

/** A dialog, once it has finished opening, lies within the screen and does not scroll sideways itself. */
async function expectFits(dialog: Locator) {
  await expect(dialog).toBeVisible();
  await dialog.evaluate((el) => Promise.all(el.getAnimations().map((an) => an.finished)));
  const box = (await dialog.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(WIDTH);
  expect(await dialog.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
}

// ——— the tests ———

test.describe('reflow at 320 px', () => {
  test.describe.configure({ mode: 'serial', timeout: 240_000 });
  test.use({ viewport: VIEWPORT });
  let server: AdminServer;
  let seeded: Seeded;
  let firstStart: string[] = [];
  test.beforeAll(async ({ browser }) => {
    test.setTimeout(120_000);
    server = await startAdminServer(DIALECTS[0], { APP_SECRET, PAYPAL_SDK_URL: 'http://127.0.0.1:9/sdk/js', FLUTTERWAVE_SCRIPT_URL: 'http://127.0.0.1:9/v3.js', STRIPE_API_BASE: 'http://127.0.0.1:9' });
    const s = server;
    // No account yet: the first-start screen is measured now, before one is made.
    const context = await browser.newContext({ viewport: VIEWPORT });
    firstStart = await problemsAt(await context.newPage(), s.baseURL, [FIRST_START]);
    await context.close();

    const alice = await createAccount(s.db, 'Admin', 'alice@example.org');
    const editor = await createAccount(s.db, 'Éditeur', 'eric@example.org');
    const invited = await createUser(s.db, { id: alice.id, name: alice.name }, { name: 'Nouvelle Personne', email: 'nouvelle.personne@example.org', role: 'Éditeur' });
    if (!('token' in invited)) throw new Error(`invitation not created: ${invited.error}`);
    const now = new Date().toISOString();
    await s.db
      .insertInto('messages')
      .values({ id: 'reflow-message', first_name: 'Aïssatou', last_name: 'Diallo', email: DONOR_EMAIL, message: 'Bonjour, '.repeat(40), language: 'fr', read_at: null, created_at: now })
      .execute();
    // A subscriber with a long address (the news list's table), one suppressed, a letter with a long word.
    const listed = await requestSignup(s.db, { email: DONOR_EMAIL, language: 'fr', from: '/blog', wordingVersion: CONSENT_WORDING_VERSION });
    if (listed.kind !== 'ask') throw new Error('not asked');
    const refused = await requestSignup(s.db, { email: `refuse.${DONOR_EMAIL}`, language: 'fr', from: '/blog', wordingVersion: CONSENT_WORDING_VERSION });
    if (refused.kind !== 'ask') throw new Error('not asked');
    await suppress(s.db, `refuse.${DONOR_EMAIL}`, `550 ${LONG_WORD}`, 'smtp');
    const letter = await createLetter(s.db, { id: alice.id, name: alice.name }, { fr: { subject: `Nouvelles : ${LONG_WORD}`, body: LONG_WORD, link: '/blog', image: '' } }, { language: '', source: '' });
    // Every payment method and tax receipts on: the donate page shows each tab's whole form.
    await enableEveryMethod(s.db, APP_SECRET);
    await setReceiptSettings(s.db);
    // A campaign, then a second version of it with a long word: its history has something to compare.
    const campaign = await saveCampaignOrThrow(s.db, KAYA);
    await saveCampaignOrThrow(s.db, { ...KAYA, translations: { ...KAYA.translations, fr: campaignText('Forages à Kaya', `De l’eau potable : ${LONG_WORD}`) } }, campaign.id, campaign.version);
    // A confirmed gift with the donor's details: its tax receipt, and a donor who may sign in.
    const gift = await createAttempt(s.db, { provider: 'paypal', providerRef: 'ORDER-REFLOW', amountMinor: 123_456, currency: 'EUR', eurCents: 123_456, frequency: 'once', language: 'fr', taxDetails: JSON.stringify(DONOR) });
    const confirmed = await transition(s.db, { id: gift.id }, 'succeeded', { donorEmail: DONOR_EMAIL, donorName: DONOR.name });
    if (!confirmed.receipt) throw new Error('no receipt issued');
    // The same donor under another address: the donors register suggests the pair (ADR 038); a note and a tag with long words.
    const twin = await createAttempt(s.db, { provider: 'paypal', providerRef: 'ORDER-REFLOW-2', amountMinor: 5_000, currency: 'EUR', eurCents: 5_000, frequency: 'once', language: 'fr', taxDetails: JSON.stringify(DONOR) });
    await transition(s.db, { id: twin.id }, 'succeeded', { donorEmail: `autre.${DONOR_EMAIL}`, donorName: DONOR.name });
    const pairs = await suggestedPairs(s.db);
    const person = await personOfEmail(s.db, DONOR_EMAIL);
    if (!pairs[0] || !person) throw new Error('no donors’ records');
    await addNote(s.db, { id: alice.id, name: alice.name }, person, `Rencontrée au gala : ${LONG_WORD}`);
    await tagPerson(s.db, person, `Gala ${LONG_WORD}`.slice(0, 60));
    // A HelloAsso file and its dry run (with its rejected lines).
    const storage = diskStorage(path.join(s.dataDir, 'media'));
    const imported = await createImport(s.db, storage, { id: alice.id, name: alice.name }, 'paiements-helloasso.csv', utf8Bom(helloassoPayments()));
    await dryRun(s.db, storage, imported.id);
    // A member with a long name and a long address, whose dues were paid: the register, the member's page and the assembly have rows.
    const membershipTypeId = await createType(s.db, { id: alice.id, name: alice.name }, membershipType({ name_fr: LONG_WORD, period_model: 'calendar', rollover: '01/10' }));
    const member = await createMember(s.db, null, memberInput(membershipTypeId, { first_name: 'Aïssatou', last_name: LONG_WORD, email: DONOR_EMAIL, phone: '+33 6 12 34 56 78', address: `12 rue ${LONG_WORD}` }));
    await applyDuesPayment(s.db, { membershipId: member.id, paymentId: 'reflow-dues', amountCents: 3000, paidAt: now, method: 'card' });
    const firstOf = async (table: 'projects' | 'blog_posts' | 'partners' | 'media') => String((await s.db.selectFrom(table).select('id').executeTakeFirstOrThrow()).id);
    seeded = {
      project: await firstOf('projects'),
      post: await firstOf('blog_posts'),
      partner: await firstOf('partners'),
      media: await firstOf('media'),
      campaign: campaign.id,
      campaignSlug: campaign.slug,
      receipt: confirmed.receipt.id,
      editor: editor.id,
      invitation: invited.token,
      reset: await issueToken(s.db, editor.id, 'reset'),
      member: member.id,
      membershipType: membershipTypeId,
      letter,
      suppressed: refused.subscriber.id,
      listed: listed.subscriber.id,
      giftBatch: (await openBatch(s.db, { id: alice.id, name: alice.name }, now.slice(0, 10))).id,
      importId: imported.id,
      person,
      pair: [pairs[0].a, pairs[0].b],
      cardToken: cardCheckToken(APP_SECRET, member.id),
    };
    // Where the money goes: two published years, the latest with long names and large amounts.
    for (const year of [MONEY_YEAR - 1, MONEY_YEAR]) {
      const figures = { giftsCents: 987_654_321_00, duesCents: 1_000_00, otherResources: [{ label: `Subventions ${LONG_WORD}`, cents: 12_345_678_90 }], missions: [{ projectId: null, label: `Forages ${LONG_WORD}`, cents: 900_000_000_00 }], fundraisingCents: 5_000_00, runningCents: 4_000_00, comment: { fr: LONG_WORD, en: '', es: '' } };
      await saveYear(s.db, { id: alice.id, name: alice.name }, year, { figures, published: true }, 0);
    }
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test('the lists visit every screen of app/routes.ts', () => {
    const visited = new Set([...publicUrls(seeded), ...signedOutUrls(seeded), FIRST_START, ...adminUrls(seeded)].map(patternOf));
    // The English and Spanish pages are the French ones' modules at other addresses (ADR 026): one screen each.
    const screens = [...new Set(screenPatterns(routes).map(pathWithoutLang))];
    // A sanity check of the reading itself: the screens of every area are found.
    expect(screens).toEqual(expect.arrayContaining(['/', '/*', '/campagnes/:slug', '/mon-espace', '/admin/setup', '/admin/*', '/admin/receipts/:receiptId', '/admin/campaigns/:id/historique']));
    expect(screens.filter((p) => !visited.has(p))).toEqual([]);
  });

  test('no public page (fr) scrolls sideways', async ({ page }) => {
    const wide = await problemsAt(page, server.baseURL, publicUrls(seeded));
    // The donor space, signed in through the link a donor is mailed.
    await page.goto(`${server.baseURL}/mon-espace/connexion?t=${await signInLinkToken(server.db, DONOR_EMAIL)}`);
    wide.push(...(await problemsOf(page)));
    await page.getByRole('button', { name: 'Ouvrir mon espace' }).click();
    await expect(page).toHaveURL(`${server.baseURL}/mon-espace`);
    await expect(page.getByText(`Connecté avec ${DONOR_EMAIL}`)).toBeVisible();
    // The donor is a member too: the space shows the membership (ADR 021), measured with the rest.
    await expect(page.getByRole('region', { name: 'Mon adhésion' })).toBeVisible();
    wide.push(...(await problemsOf(page)));
    expect(wide).toEqual([]);
    // What changed for 320 px keeps zero axe-core violations.
    await expectAccessible(page);
    await page.goto(`${server.baseURL}/missions`);
    await expectAccessible(page);
  });

  test('no back-office screen scrolls sideways', async ({ page }) => {
    const wide = [...firstStart, ...(await problemsAt(page, server.baseURL, signedOutUrls(seeded)))];
    await signIn(page, server.baseURL, 'alice@example.org');
    wide.push(...(await problemsAt(page, server.baseURL, adminUrls(seeded))));
    expect(wide).toEqual([]);

    // A wide list scrolls inside its own focusable, named region; axe finds nothing at this width.
    await page.goto(`${server.baseURL}/admin/messages`);
    const region = page.getByRole('region', { name: "Messages du formulaire de contact, les plus récents d'abord" });
    await expect(region).toHaveAttribute('tabindex', '0');
    expect(await region.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    await expectAccessible(page);
    for (const path of ['/admin/messages/reflow-message', '/admin/rapports']) {
      await page.goto(`${server.baseURL}${path}`);
      await expectAccessible(page);
    }
    // So does the comparison of two versions, its long word included.
    await page.goto(`${server.baseURL}/admin/campaigns/${seeded.campaign}/historique?a=1&b=2`);
    const comparison = page.getByRole('region', { name: 'Comparaison des versions' });
    await expect(comparison).toHaveAttribute('tabindex', '0');
    await expect(comparison.getByRole('row', { name: /Description courte/ })).toContainText(LONG_WORD);
    expect(await comparison.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    await expectAccessible(page);
  });

  test('the dialogs fit the screen: the menu, the media library, the confirmation of a deletion', async ({ page }) => {
    await signIn(page, server.baseURL, 'alice@example.org');
    // The menu drawer (it slides in from the left).
    await page.getByRole('button', { name: 'Menu' }).click();
    await expectFits(page.getByRole('dialog', { name: "Menu d'administration" }));
    // The media library, opened from a project's image field, with its files listed.
    await page.goto(`${server.baseURL}/admin/actions/${seeded.project}`);
    await page.getByRole('button', { name: 'Choisir dans la médiathèque : Image *' }).click();
    const library = page.getByRole('dialog', { name: /Médiathèque/ });
    await expect(library.getByRole('listitem').first()).toBeVisible();
    await expectFits(library);
    await expect(page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(WIDTH);
    // "Êtes-vous sûr ?" before deleting a file of the library.
    await page.goto(`${server.baseURL}/admin/media`);
    await page.getByRole('button', { name: /^Supprimer / }).first().click();
    await expectFits(page.getByRole('dialog', { name: 'Êtes-vous sûr ?' }));
    await expect(page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(WIDTH);
  });
});
