import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { extractText, getDocumentProxy } from 'unpdf';
import { applyDuesPayment } from '~/domain/membership/dues.server';
import { createMember } from '~/domain/membership/register.server';
import { membershipOfRenewalToken } from '~/domain/membership/reminders.server';
import { cardCheckToken } from '~/domain/membership/card-check.server';
import { createType } from '~/domain/membership/types.server';
import { today } from '~/domain/content/forms';
import { addDays } from '~/domain/membership/period';
import { expectAccessible } from '../support';
import { memberInput, membershipType } from '../../support/membership';
import { startSmtp } from '../../support/smtp';
import { DIALECTS, serverForSuite } from './server';

const APP_SECRET = 'member-space-e2e-secret-'.padEnd(48, 'm');
const MEMBER = 'adherente@example.org';

/** The member's side of ADR 021 in the donor space: a member who never gave signs in by the mailed link, sees the membership and downloads the card. */
for (const dialect of DIALECTS) {
  test.describe(`a member in the donor space on ${dialect}`, () => {
    test.describe.configure({ mode: 'serial', timeout: 120_000 });
    let smtp: Awaited<ReturnType<typeof startSmtp>>;
    let membershipId = '';
    test.beforeAll(async () => {
      smtp = await startSmtp();
    });
    test.afterAll(async () => {
      await smtp?.close();
    });
    const server = serverForSuite(
      dialect,
      () => ({ APP_SECRET, SMTP_URL: smtp.url, MAIL_FROM: 'Fondation THV <adhesions@example.org>' }),
      async (s) => {
        const type = await createType(s.db, { id: null, name: 'Seed' }, membershipType({ name_fr: 'Membre actif', name_en: 'Active member' }));
        membershipId = (await createMember(s.db, null, memberInput(type, { first_name: 'Mariama', last_name: 'Ba', email: MEMBER }))).id;
        // Paid 20 days short of a year ago (anniversary): due for renewal within 30 days.
        const paidOn = addDays(today(), -345);
        await applyDuesPayment(s.db, { membershipId, paymentId: 'pay-e2e', amountCents: 3000, paidAt: `${paidOn}T10:00:00.000Z`, method: 'cheque' });
      },
    );

    test('signs in by the mailed link, sees the membership, its dues and renewal, and downloads the card', async ({ page }) => {
      await page.goto(`${server.baseURL}/mon-espace`);
      await page.getByLabel('Adresse email', { exact: true }).fill(MEMBER);
      await page.getByRole('button', { name: 'Recevoir mon lien de connexion' }).click();
      await expect(page.getByRole('main').getByRole('status')).toContainText('un lien de connexion vient de lui être envoyé');
      const text = (await smtp.mailTo(MEMBER)).text;
      const link = /(http:\/\/\S+\/mon-espace\/connexion\?t=[\w-]+)/.exec(text)![1];
      await page.goto(link);
      await page.getByRole('button', { name: 'Ouvrir mon espace' }).click();
      await expect(page).toHaveURL(`${server.baseURL}/mon-espace`);

      const panel = page.getByRole('region', { name: 'Mon adhésion' });
      await expect(panel.getByRole('heading', { level: 3 })).toHaveText('Membre n° 1');
      await expect(panel.getByText('Membre actif')).toBeVisible();
      await expect(panel.getByTestId('membership-state')).toHaveText('À renouveler bientôt');
      const dues = panel.getByRole('table');
      await expect(dues).toContainText('30,00');
      await expect(dues).toContainText('Chèque');
      await expect(dues).toContainText('Payée');
      await expectAccessible(page);

      const renew = panel.getByRole('link', { name: 'Renouveler mon adhésion n° 1' });
      const href = (await renew.getAttribute('href'))!;
      const token = /^\/devenir-membre\?renouveler=([^&]+)$/.exec(href);
      expect(token).not.toBeNull();
      expect(membershipOfRenewalToken(APP_SECRET, decodeURIComponent(token![1]))).toBe(membershipId);

      const [file] = await Promise.all([page.waitForEvent('download'), panel.getByRole('link', { name: 'Télécharger ma carte de membre n° 1 (PDF)' }).click()]);
      expect(file.suggestedFilename()).toBe('carte-membre-1.pdf');
      const pdf = fs.readFileSync((await file.path())!);
      const { text: card } = await extractText(await getDocumentProxy(new Uint8Array(pdf)), { mergePages: true });
      expect(card.replace(/\s+/g, ' ')).toContain('Mariama Ba Type d’adhésion Membre actif N° de membre 1 Valable jusqu’au');

      // The same space in English: the states' labels and the card in the page's language.
      await page.goto(`${server.baseURL}/en/mon-espace`);
      const en = page.getByRole('region', { name: 'My membership' });
      await expect(en.getByTestId('membership-state')).toHaveText('Due for renewal soon');
      await expect(en.getByText('Active member')).toBeVisible();
      await expect(en.getByRole('link', { name: 'Renew my membership no. 1' })).toHaveAttribute('href', /^\/en\/devenir-membre\?renouveler=/);
      await expectAccessible(page);
      const [enFile] = await Promise.all([page.waitForEvent('download'), en.getByRole('link', { name: 'Download my membership card no. 1 (PDF)' }).click()]);
      expect(enFile.suggestedFilename()).toBe('membership-card-1.pdf');
    });

    test('the card’s QR code opens the check page: valid, name and type only, accessible at 320 px; a forged token names no one', async ({ page }) => {
      await page.setViewportSize({ width: 320, height: 700 });
      await page.goto(`${server.baseURL}/adhesion/verifier/${cardCheckToken(APP_SECRET, membershipId)}`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Vérification d’une carte de membre');
      await expect(page.getByRole('status')).toHaveText('✓ Carte valide');
      await expect(page.getByTestId('card-check')).toContainText('Mariama Ba');
      await expect(page.getByTestId('card-check')).not.toContainText(MEMBER);
      await expectAccessible(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
      const forged = await page.goto(`${server.baseURL}/en/adhesion/verifier/${membershipId}.${'A'.repeat(43)}`);
      expect(forged?.status()).toBe(404);
      expect(forged?.headers()['cache-control']).toBe('private, no-store');
      await expect(page.getByRole('status')).toHaveText('✗ Card not recognised');
      await expect(page.getByTestId('card-check')).not.toContainText('Mariama');
    });
  });
}
