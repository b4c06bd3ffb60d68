import { expect, test, type Page } from '@playwright/test';
import type { DB } from '~db/index';
import { expectAccessible } from '../support';
import { gift } from '../../support/people';
import { startSmtp } from '../../support/smtp';
import { createAccount, freePort, serverForSuite, signIn } from './server';

/**
 * The donors register (issue 44, ADR 038), in Chromium on SQLite: two records of one person (same
 * name and postal code under two addresses) suggested, compared and merged; a note and a tag written
 * on the merged record are kept on the survivor, whose figures sum both; zero axe violations and no
 * sideways scroll at 320 px. Segments (ADR 040): last year's lapsed donors chosen in the list, and
 * a letter written to them reaching only those subscribed to the news.
 */
const tax = (name: string) => JSON.stringify({ kind: 'individual', name, company: '', siren: '', address: '3 rue des Lilas', postalCode: '75011', city: 'Paris', country: 'France' });

const subscribed = (db: DB, id: string, email: string, status = 'subscribed') =>
  db.insertInto('subscribers').values({ id, email, language: 'fr', source: 'signup', status, suppressed_reason: null, soft_bounces: 0, created_at: '2024-01-05T10:00:00.000Z', updated_at: '2024-01-05T10:00:00.000Z' }).execute();

test.describe('donors register', () => {
  test.describe.configure({ timeout: 120_000 });
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let publicUrl = '';
  test.beforeAll(async () => {
    smtp = await startSmtp();
    // The letters' links are absolute: the site's public address is the server's (the first free port of this worker).
    publicUrl = `http://127.0.0.1:${await freePort()}`;
  });
  test.afterAll(async () => smtp?.close());
  const server = serverForSuite('sqlite', () => ({ SMTP_URL: smtp.url, MAIL_FROM: 'Fondation THV <lettres@example.org>', PUBLIC_URL: publicUrl }), async (s) => {
    await createAccount(s.db, 'Admin', 'alice@example.org');
    const year = new Date().getUTCFullYear();
    await gift(s.db, 'g1', 'awa@example.org', `${year}-01-10T10:00:00.000Z`, { eur_cents: 5000, tax_details: tax('Awa Diallo') });
    await gift(s.db, 'g2', 'a.diallo@work.example', `${year}-01-12T10:00:00.000Z`, { eur_cents: 12000, tax_details: tax('DIALLO Awa') });
    // Last year's lapsed donors: Léa (subscribed) and Marc (unsubscribed); Nina gave again this year; Sam never gave.
    await gift(s.db, 'l1', 'lea@example.org', `${year - 1}-03-01T10:00:00.000Z`, { donor_name: 'Léa Lapsed' });
    await gift(s.db, 'm1', 'marc@example.org', `${year - 1}-04-01T10:00:00.000Z`, { donor_name: 'Marc Lapsed' });
    await gift(s.db, 'n1', 'nina@example.org', `${year - 1}-05-01T10:00:00.000Z`, { donor_name: 'Nina Kept' });
    await gift(s.db, 'n2', 'nina@example.org', `${year}-01-02T10:00:00.000Z`, { donor_name: 'Nina Kept' });
    await subscribed(s.db, 's-lea', 'lea@example.org');
    await subscribed(s.db, 's-marc', 'marc@example.org', 'unsubscribed');
    await subscribed(s.db, 's-nina', 'nina@example.org');
    await subscribed(s.db, 's-sam', 'sam@example.org');
  });

  test('an Admin merges two records of one person; the note and the tag are kept; accessible at 320 px', async ({ page }) => {
    await signIn(page, server.baseURL, 'alice@example.org');
    await page.getByRole('navigation').first().getByRole('link', { name: 'Donateurs' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Donateurs' })).toBeVisible();
    await expect(page.getByTestId('people-count')).toHaveText('5 fiches');
    await expectAccessible(page);

    // A note and a tag on the second record.
    await page.getByRole('link', { name: 'Voir la fiche de DIALLO Awa' }).click();
    await page.getByLabel('Nouvelle note').fill('Rencontrée au gala de juin.');
    await page.getByRole('button', { name: 'Enregistrer la note' }).click();
    await expect(page.getByText('Note enregistrée.')).toBeVisible();
    await page.getByLabel('Ajouter une étiquette (nouvelle ou existante)').fill('Gala 2026');
    await page.getByRole('button', { name: 'Ajouter', exact: true }).click();
    await expect(page.getByTestId('person-tags')).toContainText('Gala 2026');
    await expectAccessible(page);

    // Suggested (same name and postal code), compared side by side, merged into the first.
    await page.getByRole('link', { name: 'Doublons' }).click();
    await expect(page.getByRole('table', { name: 'Doublons possibles' })).toContainText('même nom et même code postal');
    await expectAccessible(page);
    await page.getByRole('link', { name: /^Comparer/ }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Comparer deux fiches' })).toBeVisible();
    await expectAccessible(page);
    await page.getByRole('radio', { name: 'Awa Diallo' }).check();
    await page.getByRole('button', { name: 'Fusionner' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Awa Diallo' })).toBeVisible();
    await expect(page.getByTestId('person-notes')).toContainText('Rencontrée au gala de juin.');
    await expect(page.getByTestId('person-tags')).toContainText('Gala 2026');
    await expect(page.getByTestId('person-figures')).toContainText(/170,00\s€/);
    await expect(page.getByText('a.diallo@work.example').first()).toBeVisible();

    // One record left; both screens fit 320 px.
    await page.setViewportSize({ width: 320, height: 800 });
    await expect(page.getByRole('heading', { level: 1, name: 'Awa Diallo' })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    await expectAccessible(page);
    await page.goto(`${server.baseURL}/admin/donateurs`);
    await expect(page.getByTestId('people-count')).toHaveText('4 fiches');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    await expectAccessible(page);
  });

  test('last year’s lapsed donors as a segment: listed, written to, and only the subscribed ones receive the letter', async ({ page }) => {
    await signIn(page, server.baseURL, 'alice@example.org');
    await page.goto(`${server.baseURL}/admin/donateurs`);
    await page.getByRole('link', { name: 'Segments' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Segments' })).toBeVisible();
    await expect(page.getByTestId('segment-count-perdus-an-dernier')).toHaveText(/^2/);
    await expectAccessible(page);

    // The list, narrowed to the segment.
    await page.goto(`${server.baseURL}/admin/donateurs`);
    await page.getByLabel('Segment').selectOption({ label: 'Perdus de l’an dernier' });
    await page.getByRole('button', { name: 'Filtrer' }).click();
    await expect(page.getByTestId('people-count')).toHaveText('2 fiches dans le segment « Perdus de l’an dernier »');
    await expect(page.getByRole('table', { name: 'Registre des donateurs' })).toContainText('Léa Lapsed');
    await expect(page.getByRole('table', { name: 'Registre des donateurs' })).toContainText('Marc Lapsed');

    // A letter to the segment, sent now.
    await page.goto(`${server.baseURL}/admin/lettres/nouvelle`);
    await page.getByLabel('Objet', { exact: true }).first().fill('Vous nous manquez');
    await typeRich(page, 'Texte', 'Merci pour votre don de l’an dernier.');
    await page.getByLabel('Segment de donateurs').selectOption({ label: 'Perdus de l’an dernier' });
    await page.getByRole('button', { name: 'Enregistrer le brouillon' }).click();
    await expect(page.getByTestId('letter-notice')).toContainText('Lettre créée');
    await expect(page.getByLabel('Segment de donateurs')).toHaveValue('perdus-an-dernier');
    await page.getByRole('button', { name: 'Envoyer maintenant' }).click();
    await expect(page.getByTestId('letter-notice')).toContainText('Envoi lancé');

    const mail = await smtp.mailTo('lea@example.org');
    expect(mail.text).toContain('Vous nous manquez');
    // Queued for Léa only: Marc unsubscribed, Nina gave this year, Sam and Awa are not lapsed.
    const letterId = new URL(page.url()).pathname.split('/').pop()!;
    const queued = await server.db.selectFrom('letter_queue').select('subscriber_id').where('letter_id', '=', letterId).execute();
    expect(queued.map((q) => q.subscriber_id)).toEqual(['s-lea']);
    expect(smtp.mails.filter((m) => ['marc@', 'nina@', 'sam@'].some((who) => m.to.includes(who)))).toEqual([]);
  });
});

/** Waits for the lazy editor, then types into the first one labelled so (the French version). */
async function typeRich(page: Page, label: string, text: string) {
  await expect(page.getByRole('toolbar', { name: 'Mise en forme' }).first()).toBeVisible();
  await page.getByRole('textbox', { name: label, exact: true }).first().click();
  await page.keyboard.type(text);
}
