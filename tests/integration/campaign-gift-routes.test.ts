import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { RouterContextProvider } from 'react-router';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { startPace } from '~/domain/donations/start-pace.server';
import { saveCampaign } from '~/domain/campaigns/campaigns.server';
import { getPaymentSettings, savePaymentSettings, type PaymentSettings } from '~/domain/donations/providers/settings.server';
import { I18nContext, makeI18n, type Lang } from '~/lib/i18n';
import { messagesFor } from '~/lib/i18n.server';
import { requestInfoContext } from '~/lib/request-context.server';
import { runtime } from '~/lib/runtime.server';
import { action as mobileStart } from '~/routes/payments/mobile-start';
import { action as paypalCreate } from '~/routes/payments/buttons-order';
import Donate, { action as donateAction, loader as donateLoader } from '~/routes/site/donate';
import { startFakeCoinGate, type FakeCoinGate } from '../fakes/coingate';
import { startFakeFlutterwave, type FakeFlutterwave } from '../fakes/flutterwave';
import { startFakePayPal, type FakePayPal } from '../fakes/paypal';
import { startFakeStripe, type FakeStripe } from '../fakes/stripe';
import { describeEachDialect } from '../support/db';
import { campaignInput } from '../support/campaigns';
import { FLUTTERWAVE_TEST, PAYPAL_TEST } from '../support/donations';
import { startTestRuntime } from '../support/runtime';
import { sitePath } from '~/lib/lang-path';

const APP_SECRET = 'campaign-gift-routes-'.padEnd(48, 'g');
const WHSEC = 'whsec_gift_routes';
const CG = 'cg-gift-routes';
const ORIGIN = 'https://dons.example.org';
const KAYA = 'un-puits-a-kaya';
const ASSETS = { site: '/assets/site-t.js', donate: '/assets/donate-t.js', fees: '/assets/fees-t.js' };
const nbsp = (s: string) => s.replace(/ €/g, '\u00a0€');

const settings = (mobile: 'api' | 'link'): Parameters<typeof savePaymentSettings>[2] => ({
  stripe: { enabled: true, publishableKey: 'pk_test_routes', products: [{ id: 'p1', name: 'Un repas', amount: '20', priceId: 'price_20', active: true }] },
  paypal: { enabled: true, clientId: PAYPAL_TEST.clientId, webhookId: PAYPAL_TEST.webhookId, mode: 'sandbox' },
  coingate: { enabled: true, mode: 'sandbox' },
  mobileMoney: { enabled: true, integrationType: mobile, provider: 'flutterwave', publicKey: FLUTTERWAVE_TEST.publicKey, currency: 'XOF', paymentUrl: mobile === 'link' ? 'https://pay.example.org/thv' : '' },
  // 2,5 %: a gift of 25 € adds 0,625 €, charged (and shown) as 0,63 €.
  giving: { feePercent: '2,5', stripeMethodTypes: [] },
});

type DonateError = { error: string; vars?: Record<string, string>; values: Record<string, string> };

/**
 * The donate page and the donate script's API as React Router calls them (ADR 014): the campaign
 * chosen, the fees covered and the dedication reach the ledger row and the provider through every
 * route; what the page says about fees before paying is what is charged; a campaign that no longer
 * takes gifts is refused with its message in the donor's language, and nothing is recorded.
 */
describeEachDialect('designated gifts through the routes on %s', (dialect) => {
  let app: { stop: () => Promise<void> } | undefined;
  let stripe: FakeStripe;
  let pp: FakePayPal;
  let flw: FakeFlutterwave;
  let cg: FakeCoinGate;
  let kaya: string;
  let ip = 0;
  const db = () => runtime().db;

  beforeAll(async () => {
    stripe = await startFakeStripe({ port: 0, webhookSecret: WHSEC, webhookUrl: () => 'http://127.0.0.1:1/unused', prices: { price_20: 2000 } });
    pp = await startFakePayPal({ port: 0, ...PAYPAL_TEST });
    flw = await startFakeFlutterwave({ port: 0, secretKey: FLUTTERWAVE_TEST.secretKey });
    cg = await startFakeCoinGate({ port: 0, authToken: CG });
    app = await startTestRuntime(dialect, APP_SECRET, { PUBLIC_URL: ORIGIN, STRIPE_API_BASE: stripe.url, PAYPAL_API_BASE: pp.url, FLUTTERWAVE_API_BASE: flw.url, COINGATE_API_BASE: cg.url });
    runtime().assets = { ...ASSETS };
    const saved = await savePaymentSettings(
      db(),
      APP_SECRET,
      settings('api'),
      {
        set: { 'stripe.secretKey': 'sk_test_routes', 'stripe.webhookSecret': WHSEC, 'coingate.authToken': CG, 'paypal.clientSecret': PAYPAL_TEST.clientSecret, 'mobileMoney.secretKey': FLUTTERWAVE_TEST.secretKey, 'mobileMoney.secretHash': FLUTTERWAVE_TEST.hash },
        clear: [],
      },
      0,
    );
    if (!saved.ok) throw new Error('settings not saved');
    const admin = { id: null, name: 'Test' };
    const open = await saveCampaign(db(), admin, null, campaignInput(KAYA, { fr: 'Un puits à Kaya', en: 'A well in Kaya', es: 'Un pozo en Kaya' }, { amounts: [{ cents: 2500, impact: { fr: 'un kit scolaire', en: 'a school kit', es: 'un kit escolar' } }] }));
    if (!('campaign' in open)) throw new Error('not saved');
    kaya = open.campaign.id;
    await saveCampaign(db(), admin, null, campaignInput('hiver-2020', { fr: 'Couvertures d’hiver', en: 'Winter blankets', es: 'Mantas de invierno' }, { startsOn: '2020-01-01', endsOn: '2020-12-31' }));
  });
  afterAll(async () => {
    await app?.stop();
    await Promise.all([stripe?.close(), pp?.close(), flw?.close(), cg?.close()]);
  });

  /** Each request from an address of its own: the rate limit (20 per 10 minutes) is not what is tested here. */
  function context() {
    const c = new RouterContextProvider();
    ip += 1;
    c.set(requestInfoContext, { nonce: 'n', clientIp: `10.20.${Math.floor(ip / 200)}.${ip % 200}`, requestId: 'r', secure: true });
    return c;
  }

  /** GET /faire-un-don… at the language's address: the loader's data and the page it renders, without any script. */
  async function page(path: string, lang: Lang = 'fr', actionData?: unknown) {
    const request = new Request(`${ORIGIN}${sitePath(lang, path)}`);
    const { data } = (await donateLoader({ request, context: context(), params: {} } as never)) as unknown as { data: Record<string, unknown> };
    const html = renderToStaticMarkup(createElement(I18nContext.Provider, { value: makeI18n(lang, messagesFor(lang)) }, createElement(Donate as never, { loaderData: data, actionData } as never)));
    return { data, html };
  }
  /** The text of the fee line the page rendered for a tab (`card-fee-amount`, `crypto-fee-amount`). */
  const feeLine = (html: string, tab: string) => /id="([a-z]+)-fee-amount"[^>]*>([^<]*)</.exec(html.slice(html.indexOf(`id="${tab}-fee-amount"`)))?.[2];

  /** POST of the donate form: where it redirects, or its error (and what the page shows with it). */
  async function donate(form: Record<string, string>, lang: Lang = 'fr'): Promise<{ status: number; location?: string; error?: DonateError }> {
    const request = new Request(`${ORIGIN}${sitePath(lang, `/faire-un-don?m=${form.intent}`)}`, { method: 'POST', headers: { Origin: ORIGIN }, body: new URLSearchParams(form) });
    const out = await donateAction({ request, context: context(), params: {} } as never);
    if (out instanceof Response) return { status: out.status, location: out.headers.get('Location') ?? undefined };
    const d = out as unknown as { data: DonateError; init?: ResponseInit };
    return { status: d.init?.status ?? 200, error: d.data };
  }

  /** POST to the donate script's API (PayPal createOrder, mobile money start), which sends the page's language as `?lng=`. */
  async function api(action: typeof paypalCreate | typeof mobileStart, path: string, body: Record<string, string>, lang: Lang = 'fr') {
    const request = new Request(`${ORIGIN}${path}?lng=${lang}`, { method: 'POST', headers: { Origin: ORIGIN, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const res = (await action({ request, context: context(), params: {} } as never)) as Response;
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  const row = (provider: string, ref: string) => db().selectFrom('donations').selectAll().where('provider', '=', provider).where('provider_ref', '=', ref).executeTakeFirstOrThrow();
  const count = async () => (await db().selectFrom('donations').select('id').execute()).length;
  const DEDICATION = { dedicationKind: 'memory', dedicationName: 'Mariama Diallo', dedicationMessage: 'Pour le village', dedicationEmail: 'famille@example.org' };

  it('shows, before any script runs, a fee line that is true: the figures of the amount the page knows, else the percentage', async () => {
    // A general gift: no preset is checked, no amount known yet.
    const general = await page('/faire-un-don');
    expect(feeLine(general.html, 'card')).toBe('Soit 2,5 % du montant de votre don.');
    expect(general.data.feeScript).toBe(ASSETS.fees);
    expect(general.html).toContain(`<script type="module" src="${ASSETS.fees}"></script>`);
    // The script fills this template with what the donor picks or types (app/enhance/fees.ts).
    expect(general.html).toContain('data-fee-percent="2.5" data-template="Soit {fee} pour un don de {amount} ({total} au total)." data-share="Soit 2,5 % du montant de votre don."');
    // From a campaign: its first amount is checked, so the page knows the gift.
    const designated = await page(`/faire-un-don?campagne=${KAYA}`);
    expect(feeLine(designated.html, 'card')).toBe(nbsp('Soit 0,63 € pour un don de 25,00 € (25,63 € au total).'));
    // Crypto starts at 20 €; in English.
    expect(feeLine((await page('/faire-un-don?m=crypto', 'en')).html, 'crypto')).toBe('That is €0.50 on a gift of €20.00 (€20.50 in total).');
    // After an error the amount typed is what the line is about.
    const err = await donate({ intent: 'card', amount: '33,33', coverFees: 'on', dedicationKind: 'honor', dedicationName: ' ' });
    expect(err.error?.error).toBe('giving.nameRequired');
    expect(feeLine((await page('/faire-un-don?m=card', 'fr', err.error && { ...err.error, method: 'card' })).html, 'card')).toBe(nbsp('Soit 0,83 € pour un don de 33,33 € (34,16 € au total).'));
    // Tabs without fees load no fee script.
    expect((await page('/faire-un-don?m=paypal')).data.feeScript).toBeNull();
  });

  it('charges by card exactly what the page showed, and records the campaign, the fees and the dedication on the row', async () => {
    const gift = await donate({ intent: 'card', preset: `campaign:${KAYA}:0`, campaign: KAYA, coverFees: 'on', frequency: 'once', ...DEDICATION });
    expect(gift.status).toBe(303);
    const sessionId = gift.location!.split('/pay/')[1];
    expect(stripe.sessions.get(sessionId)).toMatchObject({ amount_total: 2563, line_items_count: 2, metadata: { campaign_id: kaya } });
    expect(await row('stripe', sessionId)).toMatchObject({
      amount_minor: 2563,
      eur_cents: 2563,
      fee_eur_cents: 63,
      campaign_id: kaya,
      dedication_kind: 'memory',
      dedication_name: 'Mariama Diallo',
      dedication_message: 'Pour le village',
      dedication_email: 'famille@example.org',
    });
    // An amount typed (the line said 0,83 € on 33,33 €), to no campaign; then a general preset charged through its Stripe price.
    const typed = await donate({ intent: 'card', amount: '33,33', preset: 'p1', campaign: '', coverFees: 'on' });
    const typedRef = typed.location!.split('/pay/')[1];
    expect(stripe.sessions.get(typedRef).amount_total).toBe(3416);
    expect(await row('stripe', typedRef)).toMatchObject({ amount_minor: 3416, fee_eur_cents: 83, campaign_id: null, dedication_kind: null });
    const preset = await donate({ intent: 'card', preset: 'p1', coverFees: 'on', frequency: 'monthly', campaign: KAYA });
    const presetRef = preset.location!.split('/pay/')[1];
    expect(stripe.sessions.get(presetRef)).toMatchObject({ amount_total: 2050, mode: 'subscription', metadata: { campaign_id: kaya } });
    expect(await row('stripe', presetRef)).toMatchObject({ amount_minor: 2050, fee_eur_cents: 50, frequency: 'monthly', campaign_id: kaya });
  });

  it('records the campaign, the fees and the dedication of a crypto gift', async () => {
    const gift = await donate({ intent: 'crypto', amount: '20', campaign: KAYA, coverFees: 'on', email: '', ...DEDICATION, dedicationKind: 'honor' });
    expect(gift.status).toBe(303);
    const orderId = gift.location!.split('/invoice/')[1];
    expect(cg.orders.get(orderId)).toMatchObject({ price_amount: '20.50', price_currency: 'EUR' });
    expect(await row('coingate', orderId)).toMatchObject({ amount_minor: 2050, fee_eur_cents: 50, campaign_id: kaya, dedication_kind: 'honor', dedication_name: 'Mariama Diallo' });
  });

  it('refuses a gift to a campaign past its end date, in the donor’s language, and records nothing', async () => {
    const before = await count();
    const card = await donate({ intent: 'card', amount: '10', campaign: 'hiver-2020' }, 'es');
    expect(card).toMatchObject({ status: 400, error: { error: 'giving.closed', vars: { title: 'Mantas de invierno' } } });
    const shown = await page('/faire-un-don?m=card', 'es', { ...card.error, method: 'card' });
    expect(shown.html).toContain('role="alert"');
    expect(shown.html).toContain('La campaña «Mantas de invierno» ha terminado y ya no recibe donativos.');
    const crypto = await donate({ intent: 'crypto', amount: '10', campaign: 'hiver-2020' }, 'en');
    expect(crypto).toMatchObject({ status: 400, error: { error: 'giving.closed', vars: { title: 'Winter blankets' } } });
    expect(await count()).toBe(before);
  });

  it('offers the campaign choice on the PayPal and mobile money tabs, with the messages their script shows', async () => {
    const paypal = await page(`/faire-un-don?m=paypal&campagne=${KAYA}`);
    expect(paypal.html).toContain('<label for="paypal-campaign" class="block font-medium">Affectation du don</label><select id="paypal-campaign" name="campaign"');
    expect(paypal.html).toContain(`<option value="${KAYA}" selected="">Un puits à Kaya</option>`);
    expect(paypal.html).not.toContain('hiver-2020');
    expect(paypal.html).not.toContain('data-fee-amount');
    expect(paypal.data.script).toBe(ASSETS.donate);
    const mobile = await page('/faire-un-don?m=mobileMoney', 'es');
    expect(mobile.html).toContain('<option value="" selected="">Donde más se necesite</option>');
    expect(mobile.html).toContain(`<option value="${KAYA}">Un pozo en Kaya</option>`);
    // The donate script is given the campaign messages, in the page's language.
    const messages = JSON.parse(/data-messages="([^"]*)"/.exec(mobile.html)![1].replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/&amp;/g, '&'));
    expect(messages['giving.closed']).toBe('La campaña «{title}» ha terminado y ya no recibe donativos. Puede hacer un donativo general o elegir otra campaña.');
    expect(messages['giving.notStarted']).toContain('«{title}» aún no ha empezado');
    expect(messages['giving.unknown']).toBe('Esta campaña no existe o no recibe donativos.');
  });

  it('records the campaign chosen for PayPal, and refuses a closed or unknown one with its title in the donor’s language', async () => {
    const ok = await api(paypalCreate, '/api/donations/paypal/orders', { amount: '15.50', campaign: KAYA });
    expect(ok.status).toBe(200);
    const orderId = ok.body.id as string;
    const gift = await row('paypal', orderId);
    expect(gift).toMatchObject({ amount_minor: 1550, campaign_id: kaya, fee_eur_cents: 0 });
    expect(pp.orders.get(orderId).purchase_units[0].reference_id).toBe(`${gift.id}:${kaya}`);
    const general = await api(paypalCreate, '/api/donations/paypal/orders', { amount: '5', campaign: '' });
    expect(await row('paypal', general.body.id as string)).toMatchObject({ campaign_id: null });
    const before = await count();
    expect(await api(paypalCreate, '/api/donations/paypal/orders', { amount: '15', campaign: 'hiver-2020' }, 'en')).toEqual({ status: 400, body: { error: 'giving.closed', vars: { title: 'Winter blankets' } } });
    expect(await api(paypalCreate, '/api/donations/paypal/orders', { amount: '15', campaign: 'nulle-part' })).toEqual({ status: 400, body: { error: 'giving.unknown', vars: { title: 'nulle-part' } } });
    expect(await count()).toBe(before);
  });

  it('records the campaign chosen for mobile money, carries it in the checkout’s meta, and refuses a closed one', async () => {
    const donor = { amount: '20', name: 'Awa Ndiaye', email: 'awa@example.org', phone: '+221770000000' };
    const ok = await api(mobileStart, '/api/donations/mobile-money', { ...donor, campaign: KAYA });
    expect(ok).toMatchObject({ status: 200, body: { amount: 13119, currency: 'XOF', meta: { campaign_id: kaya } } });
    expect(await row('flutterwave', ok.body.txRef as string)).toMatchObject({ eur_cents: 2000, campaign_id: kaya });
    const before = await count();
    expect(await api(mobileStart, '/api/donations/mobile-money', { ...donor, campaign: 'hiver-2020' }, 'es')).toEqual({ status: 400, body: { error: 'giving.closed', vars: { title: 'Mantas de invierno' } } });
    expect(await count()).toBe(before);
  });

  it('records the dedication a PayPal or mobile money gift carries; their tabs offer it, and no fees', async () => {
    const paypalPage = await page(`/faire-un-don?m=paypal&campagne=${KAYA}`);
    expect(paypalPage.html).toContain('name="dedicationName"');
    expect(paypalPage.html).not.toContain('name="coverFees"');
    expect((await page('/faire-un-don?m=mobileMoney')).html).toContain('id="mobile-dedication-name"');
    const paypal = await api(paypalCreate, '/api/donations/paypal/orders', { amount: '12', campaign: KAYA, ...DEDICATION });
    expect(paypal.status).toBe(200);
    expect(await row('paypal', paypal.body.id as string)).toMatchObject({ amount_minor: 1200, campaign_id: kaya, fee_eur_cents: 0, dedication_kind: 'memory', dedication_name: 'Mariama Diallo', dedication_message: 'Pour le village', dedication_email: 'famille@example.org' });
    const donor = { amount: '20', name: 'Awa Ndiaye', email: 'awa@example.org', phone: '+221770000000' };
    const mobile = await api(mobileStart, '/api/donations/mobile-money', { ...donor, ...DEDICATION, dedicationKind: 'honor' });
    expect(mobile.status).toBe(200);
    expect(await row('flutterwave', mobile.body.txRef as string)).toMatchObject({ eur_cents: 2000, fee_eur_cents: 0, dedication_kind: 'honor', dedication_name: 'Mariama Diallo', donor_name: 'Awa Ndiaye', donor_email: 'awa@example.org' });
    // An incomplete dedication is refused as on the card form, in the donor's language, before anything is recorded.
    const before = await count();
    expect(await api(paypalCreate, '/api/donations/paypal/orders', { amount: '12', dedicationKind: 'honor' })).toEqual({ status: 400, body: { error: 'giving.nameRequired' } });
    expect(await api(mobileStart, '/api/donations/mobile-money', { ...donor, ...DEDICATION, dedicationEmail: 'pas-une-adresse' })).toEqual({ status: 400, body: { error: 'giving.emailInvalid' } });
    expect(await count()).toBe(before);
  });

  it('refuses what a method cannot carry (METHOD_RULES): fees on PayPal or mobile money or a monthly crypto gift', async () => {
    const before = await count();
    const donor = { amount: '20', name: 'Awa Ndiaye', email: 'awa@example.org', phone: '+221770000000' };
    expect(await api(paypalCreate, '/api/donations/paypal/orders', { amount: '12', coverFees: 'on' })).toEqual({ status: 400, body: { error: 'donate.unavailable' } });
    expect(await api(mobileStart, '/api/donations/mobile-money', { ...donor, coverFees: 'on' })).toEqual({ status: 400, body: { error: 'donate.unavailable' } });
    expect(await api(paypalCreate, '/api/donations/paypal/orders', { amount: '12', frequency: 'monthly' })).toEqual({ status: 400, body: { error: 'donate.unavailable' } });
    expect(await donate({ intent: 'crypto', amount: '10', frequency: 'monthly' })).toMatchObject({ status: 400, error: { error: 'donate.unavailable' } });
    expect(await count()).toBe(before);
    // The card takes both, fees added to what is charged.
    const card = await donate({ intent: 'card', amount: '40', frequency: 'monthly', coverFees: 'on' });
    expect(card.status).toBe(303);
    expect(await db().selectFrom('donations').select(['eur_cents', 'fee_eur_cents', 'frequency']).orderBy('created_at', 'desc').executeTakeFirstOrThrow()).toEqual({ eur_cents: 4100, fee_eur_cents: 100, frequency: 'monthly' });
  });

  it('counts starts per address, page and API together: the 21st in 10 minutes is refused with Retry-After, refused or not', async () => {
    const one = context();
    const before = await count();
    const pageRequest = () => donateAction({ request: new Request(`${ORIGIN}/faire-un-don?m=card`, { method: 'POST', headers: { Origin: ORIGIN }, body: new URLSearchParams({ intent: 'card' }) }), context: one, params: {} } as never);
    const apiRequest = () => paypalCreate({ request: new Request(`${ORIGIN}/api/donations/paypal/orders`, { method: 'POST', headers: { Origin: ORIGIN, 'Content-Type': 'application/json' }, body: '{}' }), context: one, params: {} } as never) as Promise<Response>;
    for (let i = 0; i < 10; i++) {
      expect(((await pageRequest()) as unknown as { data: DonateError }).data.error).toBe('donate.missingAmount');
      expect((await apiRequest()).status).toBe(400);
    }
    const limited = (await apiRequest()) as Response;
    expect(limited.status).toBe(429);
    expect(await limited.json()).toEqual({ error: 'donate.tooMany' });
    expect(Number(limited.headers.get('Retry-After'))).toBeGreaterThan(0);
    const page429 = (await pageRequest()) as unknown as { data: DonateError; init?: ResponseInit };
    expect(page429.data.error).toBe('donate.tooMany');
    expect(page429.init?.status).toBe(429);
    expect(await count()).toBe(before);
  });

  it('refuses a card gift above Stripe’s pace with a sentence and Retry-After, recording nothing; the next second it starts', async () => {
    const second = Math.floor(Date.now() / 1000) * 1000 + 500;
    const clock = vi.spyOn(Date, 'now').mockReturnValue(second);
    try {
      // Other starts took this second's 25 (a surge).
      for (let i = 0; i < 25; i++) startPace.take('stripe', 25);
      const before = await count();
      const busy = await donate({ intent: 'card', amount: '20' });
      expect(busy.status).toBe(503);
      expect(busy.error?.error).toBe('donate.busy');
      expect(await count()).toBe(before);
      clock.mockReturnValue(second + 1000);
      expect((await donate({ intent: 'card', amount: '20' })).status).toBe(303);
      expect(await count()).toBe(before + 1);
    } finally {
      clock.mockRestore();
    }
  });

  it('does not claim on the payment-link tab that the gift goes to the campaign: that link cannot record one', async () => {
    const current: PaymentSettings = await getPaymentSettings(db(), APP_SECRET);
    const saved = await savePaymentSettings(db(), APP_SECRET, settings('link'), { set: {}, clear: [] }, current.version);
    if (!saved.ok) throw new Error('settings not saved');
    const link = await page(`/faire-un-don?m=mobileMoney&campagne=${KAYA}`);
    expect(link.html).not.toContain('data-testid="designation"');
    expect(link.html).toContain('Un don par lien de paiement ne peut pas être affecté à la campagne « Un puits à Kaya » : il ira là où les besoins sont les plus grands.');
    // The card tab of the same address still says where the gift goes.
    expect((await page(`/faire-un-don?m=card&campagne=${KAYA}`)).html).toContain('data-testid="designation">Votre don est affecté à la campagne « Un puits à Kaya ».</p>');
  });
});
