import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { donationDeps } from '~/domain/donations/deps.server';
import { I18nContext, makeI18n, translate } from '~/lib/i18n';
import { messagesFor } from '~/lib/i18n.server';
import { runtime } from '~/lib/runtime.server';
import PaymentSuccess, { loader } from '~/routes/site/payment-success';
import { formatMoney } from '~/lib/currency';
import { startFakeStripe, type FakeStripe } from '../fakes/stripe';
import { describeEachDialect } from '../support/db';
import { enableStripeCard } from '../support/donations';
import { handleStripeWebhook, startCardDonation } from '../support/payment-entry';
import { startTestRuntime } from '../support/runtime';

const APP_SECRET = 'sepa-thanks-'.padEnd(48, 't');
const KEYS = { secretKey: 'sk_test_sepa_thanks', webhookSecret: 'whsec_sepa_thanks' };
const ORIGIN = 'https://dons.example.org';

/** The thank-you page after a SEPA mandate (ADR 029): the debit takes a few days, said in the donor's language; never "not confirmed". */
describeEachDialect('the thank-you page of a SEPA gift on %s', (dialect) => {
  let app: { stop: () => Promise<void> } | undefined;
  let stripe: FakeStripe;

  beforeAll(async () => {
    stripe = await startFakeStripe({ port: 0, webhookSecret: KEYS.webhookSecret, webhookUrl: () => 'http://127.0.0.1:1/unused' });
    app = await startTestRuntime(dialect, APP_SECRET, { PUBLIC_URL: ORIGIN, STRIPE_API_BASE: stripe.url });
    await enableStripeCard(runtime().db, APP_SECRET, KEYS);
  });
  afterAll(async () => {
    await app?.stop();
    await stripe?.close();
  });

  it('says the mandate is recorded and the debit takes a few business days, in fr, en and es', async () => {
    for (const lang of ['fr', 'en', 'es'] as const) {
      const deps = await donationDeps();
      const { donation } = await startCardDonation(deps, { amountCents: 2500, monthly: false, lang });
      const signed = stripe.completeDebit(donation.provider_ref);
      expect(await handleStripeWebhook(deps, signed.payload, signed.header)).toEqual({ status: 200, message: 'ok' });
      const path = `${lang === 'fr' ? '' : `/${lang}`}/payment/success?session_id=${donation.provider_ref}`;
      const answer = (await loader({ request: new Request(`${ORIGIN}${path}`), params: {}, context: {} } as never)) as unknown as { data: Record<string, unknown>; init: { headers: Record<string, string> } };
      const data = answer.data;
      // The debit on its way, and the offer to make the gift monthly (ADR 031), whose form may lead to Stripe's Checkout only.
      expect(data).toEqual({ state: 'processing', amount: null, emailed: true, monthly: { token: expect.any(String), same: formatMoney(2500, 'EUR', lang), share: formatMoney(500, 'EUR', lang) } });
      expect(answer.init.headers['Content-Security-Policy']).toMatch(/form-action 'self' https:\/\/checkout\.stripe\.com/);
      const i18n = makeI18n(lang, messagesFor(lang));
      const html = renderToStaticMarkup(createElement(I18nContext.Provider, { value: i18n }, createElement(PaymentSuccess as never, { loaderData: data } as never)));
      expect(html).toContain(translate(messagesFor(lang), 'payment.processingText').replace(/'/g, '&#x27;'));
      expect(html).toContain(translate(messagesFor(lang), 'payment.monthlySubmit'));
    }
    expect(translate(messagesFor('fr'), 'payment.processingText')).toContain('quelques jours ouvrés');
  });
});
