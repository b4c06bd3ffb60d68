import { RouterContextProvider } from 'react-router';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { donationDeps } from '~/domain/donations/deps.server';
import { historyOf } from '~/domain/donors/personal-data.server';
import { joinMethods } from '~/domain/membership/join.server';
import { createType } from '~/domain/membership/types.server';
import type { Lang } from '~/lib/i18n';
import { requestInfoContext } from '~/lib/request-context.server';
import { runtime } from '~/lib/runtime.server';
import { action as memberAction, loader as memberLoader } from '~/routes/site/member';
import { loader as thanksLoader } from '~/routes/site/member-thanks';
import { startFakeFlutterwave, type FakeFlutterwave } from '../fakes/flutterwave';
import { startFakePayPal, type FakePayPal } from '../fakes/paypal';
import { describeEachDialect } from '../support/db';
import { enablePayPalAndFlutterwave, FLUTTERWAVE_TEST, PAYPAL_TEST } from '../support/donations';
import { membershipType } from '../support/membership';
import { startTestRuntime } from '../support/runtime';
import { sitePath } from '~/lib/lang-path';

const APP_SECRET = 'membership-join-hosted-'.padEnd(48, 'h');
const ORIGIN = 'https://dons.example.org';
const ADMIN = { id: 'u-admin', name: 'Alice Admin' };

/**
 * Dues by PayPal and by mobile money from the plain joining form (issue 32): each provider's own
 * page (the local fakes speak PayPal's redirect flow and Flutterwave's hosted checkout), and the
 * membership active only once the provider says the dues were paid, on both databases.
 */
describeEachDialect('joining online with PayPal and mobile money on %s', (dialect) => {
  let app: { stop: () => Promise<void> } | undefined;
  let pp: FakePayPal;
  let flw: FakeFlutterwave;
  let active: string;
  let ip = 0;
  const db = () => runtime().db;

  beforeAll(async () => {
    pp = await startFakePayPal({ port: 0, ...PAYPAL_TEST });
    flw = await startFakeFlutterwave({ port: 0, secretKey: FLUTTERWAVE_TEST.secretKey });
    app = await startTestRuntime(dialect, APP_SECRET, { PUBLIC_URL: ORIGIN, PAYPAL_API_BASE: pp.url, FLUTTERWAVE_API_BASE: flw.url });
    await enablePayPalAndFlutterwave(db(), APP_SECRET);
    active = await createType(db(), ADMIN, membershipType());
  });
  afterAll(async () => {
    await app?.stop();
    await pp?.close();
    await flw?.close();
  });

  function context() {
    const c = new RouterContextProvider();
    ip += 1;
    c.set(requestInfoContext, { nonce: 'n', clientIp: `10.31.0.${ip}`, requestId: 'r', secure: true });
    return c;
  }
  async function join(email: string, method: string, lang: Lang = 'fr') {
    const form = { intent: 'join', first_name: 'Fatou', last_name: 'Sow', email, phone: '+221 77 123 45 67', address: '5 avenue Cheikh Anta Diop', postal_code: '10700', city: 'Dakar', country: 'Sénégal', type_id: active, method, statutes: 'on', privacy: 'on' };
    const request = new Request(`${ORIGIN}${sitePath(lang, '/devenir-membre')}`, { method: 'POST', headers: { Origin: ORIGIN }, body: new URLSearchParams(form) });
    const out = await memberAction({ request, context: context(), params: {} } as never);
    if (!(out instanceof Response)) throw new Error(`not redirected: ${JSON.stringify(out)}`);
    expect(out.status).toBe(303);
    return out.headers.get('Location')!;
  }
  /** The payer on the provider's page: the page, then its button, as a browser posts it; where the provider sends them back. */
  async function onProviderPage(url: string, choice: 'pay' | 'cancel') {
    const page = await fetch(url);
    const html = await page.text();
    const back = await fetch(url, { method: 'POST', body: new URLSearchParams({ choice }), redirect: 'manual' });
    return { html, back: back.headers.get('Location')! };
  }
  const thanks = async (url: string) => (await thanksLoader({ request: new Request(url), context: context(), params: {} } as never)) as { state: string; number?: number };
  const membershipOf = (email: string) => db().selectFrom('memberships').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
  /** The dues payment of the member with this address. */
  async function paymentOf(email: string) {
    const { id } = await membershipOf(email);
    const link = await db().selectFrom('membership_payments').select('payment_id').where('membership_id', '=', id).executeTakeFirstOrThrow();
    return db().selectFrom('donations').selectAll().where('id', '=', link.payment_id).executeTakeFirstOrThrow();
  }

  it('offers PayPal and mobile money beside "je paie autrement", and lets the form lead to their pages only', async () => {
    const out = (await memberLoader({ request: new Request(`${ORIGIN}/devenir-membre`), context: context(), params: {} } as never)) as unknown as { data: { methods: string[] }; init: ResponseInit };
    expect(out.data.methods).toEqual(['paypal', 'mobileMoney', 'other']);
    const csp = new Headers(out.init.headers).get('Content-Security-Policy')!;
    expect(csp).toContain(`form-action 'self' https://www.paypal.com https://www.sandbox.paypal.com ${pp.url} https://checkout.flutterwave.com https://checkout-v3-ui-prod.f4b-flutterwave.com ${flw.url}`);
    // Mobile money is a fixed yearly fee in euros: offered in CFA francs (fixed parity) through the API only.
    const deps = await donationDeps(new Request(`${ORIGIN}/devenir-membre`));
    const mm = deps.settings.mobileMoney;
    expect(joinMethods({ settings: { ...deps.settings, mobileMoney: { ...mm, currency: 'XAF' } } })).toContain('mobileMoney');
    expect(joinMethods({ settings: { ...deps.settings, mobileMoney: { ...mm, currency: 'GHS' } } })).toEqual(['paypal', 'other']);
    expect(joinMethods({ settings: { ...deps.settings, mobileMoney: { ...mm, integrationType: 'link', paymentUrl: 'https://pay.example.org/thv' } } })).toEqual(['paypal', 'other']);
  });

  it('PayPal: the member approves on PayPal’s page, comes back, the order is captured once and the membership is active', async () => {
    const to = await join('fatou.paypal@example.org', 'paypal', 'en');
    expect(to).toMatch(new RegExp(`^${pp.url}/checkoutnow\\?token=\\w+$`));
    const orderId = new URL(to).searchParams.get('token')!;
    const order = pp.orders.get(orderId);
    expect(order.purchase_units[0].amount).toEqual({ currency_code: 'EUR', value: '30.00' });
    expect(order.payment_source.paypal.experience_context.locale).toBe('en-GB');
    const payment = await paymentOf('fatou.paypal@example.org');
    expect(payment).toMatchObject({ provider: 'paypal', purpose: 'dues', status: 'pending', provider_ref: orderId, amount_minor: 3000, currency: 'EUR' });
    // Coming back without approving (or forging the return): nothing is captured, nothing counts.
    expect((await thanks(`${ORIGIN}/devenir-membre/merci?d=${payment.id}&token=${orderId}&PayerID=FORGED`)).state).toBe('pending');
    expect(pp.requests.filter((r) => r.path.endsWith('/capture'))).toHaveLength(0);
    const { html, back } = await onProviderPage(to, 'pay');
    expect(html).toContain('30.00 EUR');
    expect(back).toBe(`${ORIGIN}/en/devenir-membre/merci?d=${payment.id}&token=${orderId}&PayerID=PAYER1`);
    expect(await thanks(back)).toMatchObject({ state: 'active' });
    expect((await membershipOf('fatou.paypal@example.org')).ends_on).not.toBeNull();
    // Paid from a PayPal account under another address (ana@example.org in the fake): the payment
    // stays the member's, in their name and under their address (their donor space, their receipts).
    expect(await paymentOf('fatou.paypal@example.org')).toMatchObject({ status: 'succeeded', donor_email: 'fatou.paypal@example.org', donor_name: expect.not.stringContaining('Ana') });
    // Reloading the page asks nothing more of PayPal: one capture.
    expect(await thanks(back)).toMatchObject({ state: 'active' });
    expect(pp.requests.filter((r) => r.path === `/v2/checkout/orders/${orderId}/capture`)).toHaveLength(1);
    const [mail] = await db().selectFrom('mail_outbox').select('subject').where('to', '=', 'fatou.paypal@example.org').execute();
    expect(mail.subject).toBe('Your THV Foundation membership is active');
  });

  it('PayPal: a member who cancels on PayPal’s page comes back to the cancel page, and the membership stays pending', async () => {
    const to = await join('fatou.cancel@example.org', 'paypal');
    const payment = await paymentOf('fatou.cancel@example.org');
    const { back } = await onProviderPage(to, 'cancel');
    expect(back).toBe(`${ORIGIN}/devenir-membre/annule?d=${payment.id}&token=${payment.provider_ref}`);
    expect((await membershipOf('fatou.cancel@example.org')).ends_on).toBeNull();
  });

  it('mobile money: Flutterwave’s hosted checkout in CFA francs, the return verified with the API, never read from the query', async () => {
    const to = await join('fatou.momo@example.org', 'mobileMoney');
    expect(to).toMatch(new RegExp(`^${flw.url}/v3/hosted/pay/\\w+$`));
    const payment = await paymentOf('fatou.momo@example.org');
    // 30 € at the CFA franc's fixed parity (655.957): 19 679 XOF.
    expect(payment).toMatchObject({ provider: 'flutterwave', purpose: 'dues', status: 'pending', amount_minor: 19679, currency: 'XOF', eur_cents: 3000 });
    const started = JSON.parse(flw.requests.find((r) => r.path === '/v3/payments')!.body);
    expect(started).toMatchObject({ tx_ref: payment.provider_ref, amount: '19679', currency: 'XOF', redirect_url: `${ORIGIN}/devenir-membre/merci?d=${payment.id}`, customer: { email: 'fatou.momo@example.org', name: 'Fatou Sow', phonenumber: '+221 77 123 45 67' } });
    // A forged "successful" return, before any payment: the API knows nothing of it, the membership is not active.
    expect((await thanks(`${ORIGIN}/devenir-membre/merci?d=${payment.id}&status=successful&tx_ref=${payment.provider_ref}&transaction_id=1`)).state).toBe('pending');
    const { html, back } = await onProviderPage(to, 'pay');
    expect(html).toContain('Pay 19679 XOF');
    expect(back).toMatch(`${ORIGIN}/devenir-membre/merci?d=${payment.id}&status=successful&tx_ref=${payment.provider_ref}&transaction_id=`);
    expect(await thanks(back)).toMatchObject({ state: 'active' });
    expect((await paymentOf('fatou.momo@example.org')).status).toBe('succeeded');
    // The member's payment history (donor space) names it as dues, not as a one-off gift.
    expect((await historyOf(db(), 'fatou.momo@example.org')).map((h) => [h.purpose, h.status, h.eurCents])).toEqual([['dues', 'succeeded', 3000]]);
  });

  it('mobile money: a payer who closes the checkout is sent to the cancel page', async () => {
    const to = await join('fatou.closed@example.org', 'mobileMoney');
    const payment = await paymentOf('fatou.closed@example.org');
    const { back } = await onProviderPage(to, 'cancel');
    const answer = await thanksLoader({ request: new Request(back), context: context(), params: {} } as never).catch((e: unknown) => e);
    expect(answer).toBeInstanceOf(Response);
    expect((answer as Response).headers.get('Location')).toBe(`/devenir-membre/annule?d=${payment.id}`);
    expect((await paymentOf('fatou.closed@example.org')).status).toBe('pending');
  });
});
