import { expect, test, type Locator, type Page } from '@playwright/test';
import { savePaymentSettings } from '~/domain/donations/providers/settings.server';
import { startFakeStripe, type FakeStripe } from '../../fakes/stripe';
import { PASSWORD, createAccount, serverForSuite } from './server';
import { expectPublishedToast } from './preview';

/** These tests never click: Tab, Space, Enter and typing only, as a keyboard user does. */
const APP_SECRET = 'keyboard-e2e-secret-'.padEnd(48, 'k');
const WHSEC = 'whsec_keyboard_e2e';
const FAKE_PORT = Number(process.env.E2E_KEYBOARD_FAKE_PORT ?? 3680);

async function tabTo(page: Page, target: Locator, max = 80): Promise<void> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((el) => el === document.activeElement)) return;
  }
  throw new Error(`Tab never reached ${target}`);
}

/** The sign-in form, typed: Alice lands on the dashboard. */
async function signInByKeyboard(page: Page, baseURL: string): Promise<void> {
  await page.goto(`${baseURL}/admin/login`);
  await tabTo(page, page.getByLabel('Email'));
  await page.keyboard.type('alice@example.org');
  await tabTo(page, page.getByLabel('Mot de passe'));
  await page.keyboard.type(PASSWORD);
  await page.keyboard.press('Enter');
  await page.waitForURL(`${baseURL}/admin/dashboard`);
}

/** Tab to a control, then Enter (a link is followed, a button pressed). */
async function press(page: Page, target: Locator): Promise<void> {
  await tabTo(page, target);
  await page.keyboard.press('Enter');
}

test.describe('by keyboard alone', () => {
  // One fake Stripe on a fixed port and one server for both tests: run them in one worker.
  test.describe.configure({ mode: 'serial' });
  let stripe: FakeStripe;
  test.beforeAll(async () => {
    stripe = await startFakeStripe({ port: FAKE_PORT, webhookSecret: WHSEC, webhookUrl: () => `${server.baseURL}/webhooks/stripe`, prices: { price_20: 2000 } });
  });
  test.afterAll(async () => {
    await stripe?.close();
  });
  const server = serverForSuite(
    'sqlite',
    () => ({ STRIPE_API_BASE: stripe.url, APP_SECRET }),
    async (s) => {
      await createAccount(s.db, 'Admin', 'alice@example.org');
      const form = {
        stripe: { enabled: true, publishableKey: 'pk_test_kb', products: [{ id: 'p1', name: 'Un repas', amount: '20', priceId: 'price_20', active: true }] },
        paypal: { enabled: false, clientId: '', webhookId: '', mode: 'sandbox' as const },
        coingate: { enabled: false, mode: 'sandbox' as const },
        mobileMoney: { enabled: false, integrationType: 'api' as const, provider: 'flutterwave' as const, publicKey: '', currency: 'XOF' as const, paymentUrl: '' },
      };
      const saved = await savePaymentSettings(s.db, APP_SECRET, form, { set: { 'stripe.secretKey': 'sk_test_kb', 'stripe.webhookSecret': WHSEC }, clear: [] }, 0);
      if (!saved.ok) throw new Error('payment settings not saved');
    },
  );

  test('a donor gives by card from the home page to the thank-you page', async ({ page }) => {
    await page.goto(`${server.baseURL}/`);
    await tabTo(page, page.getByRole('banner').getByRole('link', { name: 'Faire un don' }));
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Faire un don');
    const preset = page.getByLabel(/Un repas/);
    await tabTo(page, preset);
    await page.keyboard.press('Space');
    await expect(preset).toBeChecked();
    await tabTo(page, page.getByRole('button', { name: 'Donner par carte' }));
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'Fake Stripe Checkout' })).toBeVisible();
    await tabTo(page, page.getByRole('button', { name: 'Pay' }));
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/payment\/success\?session_id=cs_/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Merci pour votre générosité !');
  });

  test('an Admin signs in and reaches the dashboard', async ({ page }) => {
    await signInByKeyboard(page, server.baseURL);
    await expect(page.getByText('Bonjour, Alice Admin')).toBeVisible();
  });

  test('an editor changes a post in English, saves the draft, publishes it, compares two versions and restores one', async ({ page, browser }) => {
    // Some hundred key presses, each awaited: more than the default 30 s on a busy machine.
    test.setTimeout(90_000);
    const row = await server.db.selectFrom('blog_posts').select(['id', 'translations']).where('status', '=', 'Publié').orderBy('date', 'desc').executeTakeFirstOrThrow();
    const titles = JSON.parse(row.translations) as Record<'fr' | 'en', { title: string }>;
    const changed = `${titles.en.title} (revised)`;
    await signInByKeyboard(page, server.baseURL);

    // The menu, the list of posts, the post's editor.
    await press(page, page.getByRole('navigation', { name: "Menu d'administration" }).getByRole('link', { name: 'Actualités / Blog' }));
    await press(page, page.getByRole('link', { name: `Modifier ${titles.fr.title}` }));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText("Modifier l'article");

    // Language tabs: Tab reaches the selected one (FR), the right arrow selects EN.
    const tab = (lang: string) => page.getByRole('tab', { name: new RegExp(`^${lang}`) });
    await tabTo(page, tab('FR'));
    await page.keyboard.press('ArrowRight');
    await expect(tab('EN')).toBeFocused();
    await expect(tab('EN')).toHaveAttribute('aria-selected', 'true');
    // Tab into the English panel: the field is entered with its text selected, typing replaces it.
    const title = page.getByLabel('Titre * (EN)');
    await tabTo(page, title);
    await page.keyboard.type(changed);
    await expect(title).toHaveValue(changed);

    // Through the rest of the panel (the rich-text editor and its toolbar let Tab go on) to the buttons.
    await press(page, page.getByRole('button', { name: 'Enregistrer le brouillon' }));
    await expect(page.getByTestId('draft-state')).toContainText('Brouillon en cours');
    // The form now carries the new draft: "Publier" from it is accepted.
    await press(page, page.getByRole('button', { name: 'Publier' }));
    await expectPublishedToast(page, 'Article modifié !');

    // Back to the post, then its history: versions 1 (before the history), 2 (draft), 3 (publication).
    await press(page, page.getByRole('link', { name: `Modifier ${titles.fr.title}` }));
    await press(page, page.getByRole('link', { name: 'Historique des versions' }));
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Historique des versions');
    await expect(page.getByTestId('revision-row')).toHaveCount(3);

    // Compare: the left version moves from 2 to 1 with the arrow keys, the right stays at 3.
    const left = page.getByLabel('Version de gauche');
    await tabTo(page, left);
    await expect(left).toHaveValue('2');
    await page.keyboard.press('ArrowDown');
    await expect(left).toHaveValue('1');
    await press(page, page.getByRole('button', { name: 'Comparer' }));
    const comparison = page.getByTestId('comparison');
    await expect(comparison.locator('caption')).toContainText('Version 1 et version 3');
    await expect(comparison).toContainText(titles.en.title);
    await expect(comparison).toContainText(changed);

    // Restore version 1 (Space presses a button as Enter does): the English title visitors see is the old one again.
    await tabTo(page, page.getByRole('button', { name: 'Restaurer la version 1' }));
    await page.keyboard.press('Space');
    await expect(page.locator('[data-toast-region] li')).toContainText('Version restaurée');
    await expect(page.getByTestId('revision-row')).toHaveCount(4);
    const visitor = await browser.newPage();
    await visitor.goto(`${server.baseURL}/en/blog/${row.id}`);
    await expect(visitor.getByRole('heading', { level: 1 })).toHaveText(titles.en.title);
    await visitor.close();
  });
});
