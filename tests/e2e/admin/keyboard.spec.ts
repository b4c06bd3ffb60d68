import { expect, test, type Locator, type Page } from '@playwright/test';
import { savePaymentSettings } from '~/domain/donations/payment-settings.server';
import { startFakeStripe, type FakeStripe } from '../../fakes/stripe';
import { PASSWORD, createAccount, serverForSuite } from './server';

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
    await page.goto(`${server.baseURL}/admin/login`);
    await tabTo(page, page.getByLabel('Email'));
    await page.keyboard.type('alice@example.org');
    await tabTo(page, page.getByLabel('Mot de passe'));
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${server.baseURL}/admin/dashboard`);
    await expect(page.getByText('Bonjour, Alice Admin')).toBeVisible();
  });
});
