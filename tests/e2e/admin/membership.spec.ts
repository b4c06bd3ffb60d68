import { expect, test } from '@playwright/test';
import { extractText, getDocumentProxy } from 'unpdf';
import { applyDuesPayment } from '~/domain/membership/dues.server';
import type { MemberInput } from '~/domain/membership/forms';
import { createMember } from '~/domain/membership/register.server';
import { createType } from '~/domain/membership/types.server';
import { runMembershipReminders } from '~/domain/membership/reminders.server';
import { expectAccessible } from '../support';
import { DIALECTS, createAccount, serverForSuite, signIn } from './server';
import { memberInput, membershipType } from '../../support/membership';

const ADMIN = { id: null, name: 'Seed' };
/** The assembly's day: fixed, so that the payments below put each member on a known side of it. */
const GA_DAY = '2026-06-15';

for (const dialect of DIALECTS) {
  test.describe(`membership register on ${dialect}`, () => {
    test.describe.configure({ mode: 'serial', timeout: 120_000 });
    const server = serverForSuite(dialect, () => ({}), async (s) => {
      await createAccount(s.db, 'Admin', 'alice@example.org');
      await createAccount(s.db, 'Éditeur', 'eric@example.org');
      const calendar = await createType(s.db, ADMIN, membershipType({ period_model: 'calendar' }));
      const anniversary = await createType(s.db, ADMIN, membershipType({ name_fr: 'Membre bienfaiteur' }));
      const honorary = await createType(s.db, ADMIN, membershipType({ name_fr: 'Membre d’honneur', dues: '0' }));
      const person = (first: string, last: string, typeId: string, over: Partial<MemberInput> = {}) => memberInput(typeId, { first_name: first, last_name: last, email: `${first.toLowerCase()}@example.org`, ...over });
      const add = async (p: MemberInput, paidAt?: string) => {
        const { id } = await createMember(s.db, null, p);
        // Entered in the register long before the assembly.
        await s.db.updateTable('memberships').set({ created_at: '2024-01-01T10:00:00.000Z' }).where('id', '=', id).execute();
        if (paidAt) await applyDuesPayment(s.db, { membershipId: id, paymentId: `pay-${id}`, amountCents: 3000, paidAt, method: 'card' });
      };
      // Up to date on the day: paid for 2026.
      await add(person('Awa', 'Diop', calendar), '2026-02-01T10:00:00.000Z');
      // Paid through 28 February 2026, more than 30 days before: lapsed on the day.
      await add(person('Bruno', 'Martin', anniversary), '2025-03-01T10:00:00.000Z');
      // Paid through 31 May 2026: in grace on the day, still counted.
      await add(person('Chloé', 'Bernard', anniversary), '2025-06-01T10:00:00.000Z');
      // Honorary, no e-mail.
      await add(person('Djibril', 'Sow', honorary, { exempt: true, email: '' }));
      // Never paid: pending.
      await add(person('Émilie', 'Roux', calendar));
      // Paid after the day: not a member yet on it.
      await add(person('Fatou', 'Ndiaye', calendar), '2026-09-01T10:00:00.000Z');
    });

    test('the general assembly counts exactly the members up to date on its day, and its attendance sheet lists them', async ({ page }) => {
      await signIn(page, server.baseURL, 'alice@example.org');
      await page.goto(`${server.baseURL}/admin/adhesions`);
      await page.getByRole('link', { name: 'Assemblée générale' }).click();
      await page.getByLabel('Date de l’assemblée').fill(GA_DAY);
      await page.getByRole('button', { name: 'Afficher' }).click();
      await expect(page).toHaveURL(/date=2026-06-15/);
      await expect(page.getByTestId('assembly-count')).toHaveText('3');
      const rows = page.getByRole('table', { name: 'Membres à jour au 15/06/2026' }).getByRole('row');
      // A heading row, then by name: Bernard (grace), Diop, Sow (honorary).
      await expect(rows).toHaveCount(4);
      await expect(rows.nth(1)).toContainText('Chloé Bernard');
      await expect(rows.nth(1)).toContainText('En délai de grâce');
      await expect(rows.nth(2)).toContainText('Awa Diop');
      await expect(rows.nth(3)).toContainText('Djibril Sow');
      await expectAccessible(page);

      const download = page.waitForEvent('download');
      await page.getByRole('link', { name: 'Feuille de présence (PDF)' }).click();
      const file = await (await download).path();
      const fs = await import('node:fs');
      const { text } = await extractText(await getDocumentProxy(new Uint8Array(fs.readFileSync(file))), { mergePages: true });
      const flat = text.replace(/\s+/g, ' ');
      expect(flat).toContain('Assemblée générale du 15/06/2026');
      expect(flat).toContain('Membres à jour de leur cotisation à cette date : 3');
      expect(flat).toContain('BERNARD Chloé');
      expect(flat).toContain('DIOP Awa');
      expect(flat).toContain('SOW Djibril');
      expect(flat).not.toContain('MARTIN');
      expect(flat).not.toContain('NDIAYE');

      // Another day, another count: on 1 October, Fatou has paid and Chloé's grace is over.
      await page.getByLabel('Date de l’assemblée').fill('2026-10-01');
      await page.getByRole('button', { name: 'Afficher' }).click();
      await expect(page.getByTestId('assembly-count')).toHaveText('3');
      await expect(page.getByRole('table', { name: 'Membres à jour au 01/10/2026' })).toContainText('Fatou Ndiaye');
      await expect(page.getByRole('table', { name: 'Membres à jour au 01/10/2026' })).not.toContainText('Chloé Bernard');
    });

    test('an Admin adds a type and a member, filters the register and forces a state with a reason', async ({ page }) => {
      await signIn(page, server.baseURL, 'alice@example.org');
      await page.goto(`${server.baseURL}/admin/dashboard`);
      await page.getByRole('link', { name: 'Adhésions', exact: true }).first().click();
      await expect(page.getByRole('heading', { level: 1, name: 'Adhésions' })).toBeVisible();
      await expectAccessible(page);

      await page.getByRole('link', { name: 'Paramètres' }).last().click();
      await expect(page.getByRole('heading', { level: 1, name: 'Paramètres des adhésions' })).toBeVisible();
      await expectAccessible(page);
      await page.getByRole('link', { name: 'Nouveau type' }).click();
      await expectAccessible(page);
      await page.getByRole('button', { name: 'Enregistrer le type' }).click();
      await expect(page.getByText('Type non enregistré')).toBeVisible();
      await page.locator('#name_fr').fill('Membre étudiant');
      await page.locator('#name_en').fill('Student member');
      await page.locator('#name_es').fill('Miembro estudiante');
      await page.getByLabel('Cotisation annuelle (€) *').fill('10');
      await page.getByLabel('Année civile (jusqu’au 31 décembre)').check();
      await page.getByLabel('Date de bascule (année civile, JJ/MM)').fill('31/02');
      await page.getByRole('button', { name: 'Enregistrer le type' }).click();
      await expect(page.getByText('Une date de bascule valide (JJ/MM, ex. 01/10), ou vide.')).toBeVisible();
      await page.getByLabel('Date de bascule (année civile, JJ/MM)').fill('01/10');
      await page.getByRole('button', { name: 'Enregistrer le type' }).click();
      await expect(page.getByRole('table', { name: 'Types d’adhésion' })).toContainText('Année civile (jusqu’au 31 décembre), bascule au 01/10');

      await page.getByLabel('Délai de grâce (jours)').fill('400');
      await page.getByRole('button', { name: 'Enregistrer' }).last().click();
      await expect(page.getByText('Un nombre de jours entre 0 et 365.')).toBeVisible();

      await page.goto(`${server.baseURL}/admin/adhesions/nouveau`);
      await expectAccessible(page);
      await page.getByLabel('Prénom *').fill('Gaëlle');
      await page.getByLabel('Nom *', { exact: true }).fill('Petit');
      await page.getByLabel('E-mail').fill('pas-un-email');
      await page.getByLabel('Type *').selectOption({ label: 'Membre étudiant' });
      await page.getByRole('button', { name: 'Enregistrer le membre' }).click();
      await expect(page.getByText('Une adresse e-mail valide, ou vide.')).toBeVisible();
      await page.getByLabel('E-mail').fill('gaelle@example.org');
      await page.getByRole('button', { name: 'Enregistrer le membre' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Gaëlle Petit' })).toBeVisible();
      await expect(page.getByText('En attente', { exact: true })).toBeVisible();
      await expectAccessible(page);

      await page.getByRole('button', { name: 'Forcer l’état' }).click();
      await expect(page.getByText('Champ obligatoire.')).toBeVisible();
      await page.getByLabel('État', { exact: true }).selectOption({ label: 'À jour' });
      await page.getByLabel('Motif *').fill('Cotisation réglée en espèces lors de la fête');
      await page.getByRole('button', { name: 'Forcer l’état' }).click();
      await expect(page.getByText('État forcé : À jour')).toBeVisible();
      await expect(page.getByText('Cotisation réglée en espèces lors de la fête — par Alice Admin')).toBeVisible();
      // Validated by the Admin: the membership is active, and its card goes to the member (ADR 021).
      await expect(page.getByRole('main').getByText('La carte de membre a été envoyée au membre.')).toBeVisible();
      const cards = await server.db.selectFrom('mail_outbox').select('subject').where('to', '=', 'gaelle@example.org').execute();
      expect(cards.map((c) => c.subject)).toEqual(['Votre carte de membre de la Fondation THV']);

      await page.goto(`${server.baseURL}/admin/adhesions`);
      await page.getByLabel('État').selectOption({ label: 'En attente' });
      await page.getByRole('button', { name: 'Filtrer' }).click();
      await expect(page.getByTestId('member-count')).toHaveText('1 membre');
      await expect(page.getByRole('table', { name: 'Registre des membres' })).toContainText('Émilie Roux');
      await page.getByLabel('Rechercher (nom, e-mail, numéro)').fill('gaelle@');
      await page.getByLabel('État').selectOption({ label: 'Tous' });
      await page.getByRole('button', { name: 'Filtrer' }).click();
      await expect(page.getByRole('table', { name: 'Registre des membres' })).toContainText('Gaëlle Petit');
      await expect(page.getByTestId('member-count')).toHaveText('1 membre');

      const csv = await page.request.get(`${server.baseURL}/admin/adhesions/export.csv`);
      expect(csv.status()).toBe(200);
      const text = await csv.text();
      expect(text).toContain('Gaëlle');
      expect(text).toContain('Cotisation réglée en espèces lors de la fête');
      expect(text).toContain('12 rue des Lilas');
    });

    test('the reminders tab lists a member without e-mail for a paper mailing, and an Admin marks it posted', async ({ page }) => {
      const type = (await server.db.selectFrom('membership_types').select('id').where('translations', 'like', '%Membre bienfaiteur%').executeTakeFirstOrThrow()).id;
      const { id } = await createMember(server.db, null, memberInput(type, { first_name: 'Hugo', last_name: 'Papier', email: '', address: '5 chemin des Vignes', postal_code: '33000', city: 'Bordeaux' }));
      await applyDuesPayment(server.db, { membershipId: id, paymentId: 'pay-hugo', amountCents: 3000, paidAt: '2025-12-20T10:00:00.000Z', method: 'card' });
      // The job, on a clock moved to 30 days before Hugo's end (19 December 2026).
      const run = await runMembershipReminders({ db: server.db, env: { SMTP_URL: '', MAIL_FROM: '' }, publicUrl: undefined, secret: 'e2e-secret'.padEnd(48, 'e') }, new Date('2026-11-19T10:00:00.000Z'));
      expect(run).toEqual({ emailed: 0, paper: 1, failed: 0 });
      await signIn(page, server.baseURL, 'alice@example.org');
      await page.goto(`${server.baseURL}/admin/adhesions`);
      await page.getByRole('link', { name: 'Rappels' }).click();
      const toPost = page.getByRole('table', { name: 'Rappels à envoyer par courrier' });
      await expect(toPost).toContainText('Hugo Papier');
      await expect(toPost).toContainText('5 chemin des Vignes, 33000 Bordeaux, France');
      await expect(toPost).toContainText('30 jours avant');
      await expectAccessible(page);
      await toPost.getByRole('button', { name: 'Marquer comme posté pour Hugo Papier' }).click();
      await expect(page.locator('#main').getByText('Rappel marqué comme posté')).toBeVisible();
      await expect(page.getByText('Aucun rappel papier en attente.')).toBeVisible();
      await expect(page.getByRole('table', { name: 'Journal des rappels' })).toContainText('Courrier posté');
    });

    test('an Éditeur reads the register without addresses and changes nothing', async ({ page }) => {
      await signIn(page, server.baseURL, 'eric@example.org');
      await page.goto(`${server.baseURL}/admin/adhesions`);
      const table = page.getByRole('table', { name: 'Registre des membres' });
      await expect(table).toContainText('Awa Diop');
      await expect(table).not.toContainText('@example.org');
      await expect(page.getByRole('link', { name: 'Ajouter un membre' })).toHaveCount(0);
      await expect(page.getByRole('link', { name: 'Paramètres', exact: true })).toHaveCount(0);
      await expectAccessible(page);
      await table.getByRole('link', { name: 'Voir la fiche de Awa Diop' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Awa Diop' })).toBeVisible();
      await expect(page.getByText('Adresse postale')).toHaveCount(0);
      await expect(page.getByText('12 rue des Lilas')).toHaveCount(0);
      await expect(page.getByRole('button', { name: 'Forcer l’état' })).toHaveCount(0);
      await expect(page.getByRole('button', { name: 'Enregistrer la cotisation' })).toHaveCount(0);
      const memberUrl = page.url();
      const forced = await page.request.post(memberUrl, { form: { intent: 'clear-override' }, headers: { Origin: server.baseURL } });
      expect(forced.status()).toBe(403);
      expect((await page.request.get(`${server.baseURL}/admin/adhesions/export.csv`)).status()).toBe(403);
      expect((await page.goto(`${server.baseURL}/admin/adhesions/parametres`))?.status()).toBe(403);
      expect((await page.goto(`${server.baseURL}/admin/adhesions/nouveau`))?.status()).toBe(403);
      expect((await page.goto(`${server.baseURL}/admin/adhesions/rappels`))?.status()).toBe(403);
    });

    test('an Admin records a cheque for a member: through the ledger, the member is up to date and the payment listed', async ({ page }) => {
      const type = (await server.db.selectFrom('membership_types').select('id').where('translations', 'like', '%Membre bienfaiteur%').executeTakeFirstOrThrow()).id;
      const { id } = await createMember(server.db, null, memberInput(type, { first_name: 'Inès', last_name: 'Chèque', email: 'ines@example.org' }));
      await signIn(page, server.baseURL, 'alice@example.org');
      await page.goto(`${server.baseURL}/admin/adhesions/${id}`);
      await expect(page.getByText('En attente', { exact: true })).toBeVisible();
      const form = page.getByRole('region', { name: 'Enregistrer une cotisation reçue' });
      await expect(form.getByLabel('Moyen de paiement *')).toHaveValue('cheque');
      await expect(form.getByLabel('Montant en euros *')).toHaveValue('30,00');
      await expectAccessible(page);
      await form.getByLabel('Montant en euros *').fill('trente');
      await form.getByRole('button', { name: 'Enregistrer la cotisation' }).click();
      await expect(page.getByText('Un montant en euros supérieur à 0, 100 000 € au plus.')).toBeVisible();
      await expectAccessible(page);
      await form.getByLabel('Montant en euros *').fill('30');
      await form.getByLabel('Référence (numéro de chèque, libellé du virement)').fill('CHQ 778899');
      await form.getByRole('button', { name: 'Enregistrer la cotisation' }).click();
      await expect(page.getByRole('main').getByText('Cotisation enregistrée', { exact: true })).toBeVisible();
      await expect(page.locator('dl').getByText('À jour', { exact: true })).toBeVisible();
      const history = page.getByRole('table', { name: 'Historique des cotisations' });
      await expect(history).toContainText('Chèque');
      await expect(history).toContainText('Saisie par Alice Admin');
      await expect(history).toContainText('30,00');
      await expectAccessible(page);
      const mails = await server.db.selectFrom('mail_outbox').select('subject').where('to', '=', 'ines@example.org').execute();
      expect(mails.map((m) => m.subject)).toEqual(['Votre adhésion à la Fondation THV est active']);
      // In the payments' list, under its means, with the cheque's number.
      await page.goto(`${server.baseURL}/admin/donations?period=all&provider=cheque`);
      await expect(page.getByRole('main')).toContainText('CHQ 778899');
      await expect(page.getByRole('main')).toContainText('Chèque');
      // The cheque bounced: the Admin takes the entry back, with a reason, from the member's page.
      await page.goto(`${server.baseURL}/admin/adhesions/${id}`);
      await page.getByText('Annuler la saisie…').click();
      await expectAccessible(page);
      await page.getByRole('button', { name: 'Annuler ce paiement et son reçu' }).click();
      await expect(page.getByText('Champ obligatoire.')).toBeVisible();
      await page.getByLabel(/Motif de l’annulation/).fill('Chèque revenu impayé');
      await page.getByRole('button', { name: 'Annuler ce paiement et son reçu' }).click();
      await expect(page.getByRole('main').getByText('Saisie annulée', { exact: true })).toBeVisible();
      await expect(page.getByRole('table', { name: 'Historique des cotisations' })).toContainText('Annulée');
      await expect(page.locator('dl').getByText('En attente', { exact: true })).toBeVisible();
      await expectAccessible(page);
    });
  });
}
