import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { findById } from '~/domain/donations/ledger.server';
import { giftOfOfferToken, makeMonthly, monthlyOfferFor, monthlyShare, offerToken } from '~/domain/giving/make-monthly.server';
import { StartPace } from '~/domain/donations/start-pace.server';
import { saveCampaignOrThrow } from '../support/campaigns';
import { handleStripeWebhook, startCardDonation, type DonationDeps } from '../support/payment-entry';
import { stripeCardWorld } from '../support/donations';
import { describeEachDialect, type TestDb } from '../support/db';
import type { FakeStripe } from '../fakes/stripe';

/**
 * "Make it monthly" (issue 41, ADR 031): the offer a one-off card gift's thank-you page makes, and
 * the monthly gift it starts at Stripe's Checkout with the first gift's details.
 */

const APP_SECRET = 'make-monthly-secret-'.padEnd(48, 'q');
const WHSEC = 'whsec_make_monthly';
const TAX = JSON.stringify({ kind: 'individual', firstName: 'Awa', lastName: 'Diallo', address: '1 rue de la Paix', postalCode: '75002', city: 'Paris', country: 'France' });

describe('the monthly share suggested', () => {
  it('is a quarter of the gift to the nearest 5 €, at least 5 €, and only when smaller than the gift', () => {
    expect(monthlyShare(10_000)).toBe(2_500);
    expect(monthlyShare(5_000)).toBe(1_500);
    expect(monthlyShare(4_000)).toBe(1_000);
    expect(monthlyShare(2_000)).toBe(500);
    expect(monthlyShare(600)).toBe(500);
    expect(monthlyShare(500)).toBeNull();
    expect(monthlyShare(300)).toBeNull();
  });
  it('is offered by a token that names one gift for a day, and nothing forged or altered', () => {
    const id = '0b0e2c1e-3a37-4f38-9d4e-8a1f1f6a2b10';
    const now = new Date('2026-11-29T10:00:00Z');
    const token = offerToken(APP_SECRET, id, now);
    expect(giftOfOfferToken(APP_SECRET, token, now)).toBe(id);
    const day = 24 * 60 * 60 * 1000;
    expect(giftOfOfferToken(APP_SECRET, token, new Date(now.getTime() + day - 1000))).toBe(id);
    expect(giftOfOfferToken(APP_SECRET, token, new Date(now.getTime() + day + 1000))).toBeNull();
    expect(giftOfOfferToken(APP_SECRET, `x${token}`, now)).toBeNull();
    expect(giftOfOfferToken('another-secret'.padEnd(48, 'x'), token, now)).toBeNull();
    const other = '1b0e2c1e-3a37-4f38-9d4e-8a1f1f6a2b10';
    expect(giftOfOfferToken(APP_SECRET, token.replace(id, other), now)).toBeNull();
    expect(giftOfOfferToken(APP_SECRET, `${token}x`, now)).toBeNull();
    expect(giftOfOfferToken(APP_SECRET, '', now)).toBeNull();
  });
});

describeEachDialect('making a one-off gift monthly on %s', (dialect) => {
  let t: TestDb;
  let stripe: FakeStripe;
  let deps: DonationDeps;
  let close: () => Promise<void>;
  let ip = 0;

  beforeAll(async () => {
    ({ t, stripe, deps, close } = await stripeCardWorld(dialect, { appSecret: APP_SECRET, secretKey: 'sk_test_make_monthly', webhookSecret: WHSEC }));
  });
  afterAll(async () => {
    await close?.();
  });
  beforeEach(() => {
    stripe.failNext = 0;
  });

  /** A gift paid through the fake Checkout and confirmed by its signed webhook. */
  async function give(email: string, cents: number, opts: { monthly?: boolean; feeCents?: number } = {}) {
    const { donation } = await startCardDonation(deps, { amountCents: cents, monthly: opts.monthly ?? false, lang: 'es', taxDetails: TAX, gift: { campaignId: null, feeEurCents: opts.feeCents ?? 0 } });
    const ev = stripe.complete(donation.provider_ref, { customer_details: { email, name: 'Awa Diallo' } });
    expect((await handleStripeWebhook(deps, ev.payload, ev.header)).status).toBe(200);
    return (await findById(t.db, donation.id))!;
  }
  const take = (token: string, choice: string) => makeMonthly(deps, { secret: APP_SECRET, token, choice, lang: 'es', clientIp: `192.0.2.${++ip}` });

  it('offers the gift without its fees, or a quarter of it, and starts that monthly gift at Checkout with the first gift’s details', async () => {
    const first = await give('awa@example.org', 8_200, { feeCents: 200 });
    const offer = await monthlyOfferFor(deps, APP_SECRET, first);
    expect(offer).toMatchObject({ sameCents: 8_000, shareCents: 2_000 });

    const started = await take(offer!.token, 'share');
    expect(started).toEqual({ ok: true, url: expect.stringContaining(stripe.url) });
    const monthly = await t.db.selectFrom('donations').selectAll().where('frequency', '=', 'monthly').where('donor_email', '=', 'awa@example.org').executeTakeFirstOrThrow();
    expect(monthly).toMatchObject({ status: 'pending', amount_minor: 2_000, fee_eur_cents: 0, language: 'es', tax_details: TAX, purpose: 'gift' });
    const session = stripe.sessions.get(monthly.provider_ref);
    expect(session).toMatchObject({ mode: 'subscription', amount_total: 2_000 });
    expect(session.success_url).toBe('https://dons.example.org/es/payment/success?session_id={CHECKOUT_SESSION_ID}');

    // Until that gift is paid, the offer stands (the donor may have closed Checkout); once it is, it is no longer made.
    expect(await monthlyOfferFor(deps, APP_SECRET, first)).not.toBeNull();
    const ev = stripe.complete(monthly.provider_ref, { customer_details: { email: 'Awa@Example.org', name: 'Awa Diallo' } });
    await handleStripeWebhook(deps, ev.payload, ev.header);
    expect(await monthlyOfferFor(deps, APP_SECRET, first)).toBeNull();
    expect(await take(offer!.token, 'same')).toEqual({ ok: false, status: 400, error: 'payment.monthlyExpired' });
  });

  it('makes no offer for a monthly gift, a gift not paid, or another means', async () => {
    const monthly = await give('monthly@example.org', 2_000, { monthly: true });
    expect(await monthlyOfferFor(deps, APP_SECRET, monthly)).toBeNull();
    expect(await monthlyOfferFor(deps, APP_SECRET, { ...monthly, donor_email: null })).toBeNull();
    const { donation: pending } = await startCardDonation(deps, { amountCents: 3_000, monthly: false, lang: 'fr' });
    expect(await monthlyOfferFor(deps, APP_SECRET, pending)).toBeNull();
    expect(await monthlyOfferFor(deps, APP_SECRET, { ...pending, status: 'succeeded', provider: 'coingate' })).toBeNull();
    expect(await monthlyOfferFor(deps, APP_SECRET, { ...pending, status: 'succeeded', purpose: 'dues' })).toBeNull();
    // Card gifts not on offer any more (Stripe turned off): no offer.
    const off = { ...deps, settings: { ...deps.settings, stripe: { ...deps.settings.stripe, enabled: false } } };
    expect(await monthlyOfferFor(off, APP_SECRET, { ...pending, status: 'succeeded' })).toBeNull();
    expect(await monthlyOfferFor(deps, APP_SECRET, { ...pending, status: 'succeeded' })).toMatchObject({ sameCents: 3_000, shareCents: 1_000 });
    // Nothing given once the fees are taken away: nothing to repeat.
    expect(await monthlyOfferFor(deps, APP_SECRET, { ...pending, status: 'succeeded', eur_cents: 300, fee_eur_cents: 300 })).toBeNull();
    expect(await monthlyOfferFor(deps, APP_SECRET, { ...pending, status: 'succeeded', eur_cents: null, amount_minor: 4_000 })).toMatchObject({ sameCents: 4_000 });
  });

  it('refuses a forged offer, a choice not offered, and says so when Stripe does not answer, recording nothing paid', async () => {
    const first = await give('refused@example.org', 500);
    const offer = (await monthlyOfferFor(deps, APP_SECRET, first))!;
    expect(offer.shareCents).toBeNull();
    expect(await take(offer.token.slice(0, -2) + 'xx', 'same')).toEqual({ ok: false, status: 400, error: 'payment.monthlyExpired' });
    expect(await take(offerToken(APP_SECRET, '00000000-0000-4000-8000-000000000000'), 'same')).toEqual({ ok: false, status: 400, error: 'payment.monthlyExpired' });
    expect(await take(offer.token, 'share')).toEqual({ ok: false, status: 400, error: 'payment.monthlyChoose' });
    expect(await take(offer.token, 'yearly')).toEqual({ ok: false, status: 400, error: 'payment.monthlyChoose' });
    const larger = (await monthlyOfferFor(deps, APP_SECRET, await give('larger@example.org', 4_000)))!;
    expect(await take(larger.token, 'yearly')).toEqual({ ok: false, status: 400, error: 'payment.monthlyChoose' });
    const before = await t.db.selectFrom('donations').select('id').where('frequency', '=', 'monthly').execute();
    stripe.failNext = 5;
    expect(await take(offer.token, 'same')).toEqual({ ok: false, status: 502, error: 'donate.providerDown' });
    const after = await t.db.selectFrom('donations').select(['id', 'status']).where('frequency', '=', 'monthly').execute();
    expect(after.filter((r) => !before.some((b) => b.id === r.id)).map((r) => r.status)).toEqual(['failed']);
  });

  it('keeps the first gift’s campaign while it takes gifts, and says when Stripe is busy', async () => {
    const campaign = await saveCampaignOrThrow(t.db);
    const { donation } = await startCardDonation(deps, { amountCents: 2_000, monthly: false, lang: 'fr', gift: { campaignId: campaign.id, feeEurCents: 0 } });
    const ev = stripe.complete(donation.provider_ref, { customer_details: { email: 'kaya@example.org', name: 'K' } });
    await handleStripeWebhook(deps, ev.payload, ev.header);
    const offer = (await monthlyOfferFor(deps, APP_SECRET, (await findById(t.db, donation.id))!))!;
    // A pace whose second is taken (start-pace.server.ts): the donor is asked to try again.
    const pace = Object.assign(new StartPace(), { take: () => false });
    expect(await makeMonthly({ ...deps, pace }, { secret: APP_SECRET, token: offer.token, choice: 'same', lang: 'fr', clientIp: '192.0.2.250' })).toMatchObject({ ok: false, status: 503, error: 'donate.busy' });
    expect(await take(offer.token, 'same')).toMatchObject({ ok: true });
    const monthly = await t.db.selectFrom('donations').selectAll().where('frequency', '=', 'monthly').where('donor_email', '=', 'kaya@example.org').executeTakeFirstOrThrow();
    expect(monthly.campaign_id).toBe(campaign.id);
  });

  it('answers one address 20 times in 10 minutes, as the donate page does', async () => {
    const clientIp = '198.51.100.7';
    for (let i = 0; i < 20; i++) expect(await makeMonthly(deps, { secret: APP_SECRET, token: 'forged', choice: 'same', lang: 'fr', clientIp })).toMatchObject({ error: 'payment.monthlyExpired' });
    expect(await makeMonthly(deps, { secret: APP_SECRET, token: 'forged', choice: 'same', lang: 'fr', clientIp })).toMatchObject({ ok: false, status: 429, error: 'donate.tooMany', retryAfter: expect.any(Number) });
  });
  it('offers it as soon as a SEPA mandate is signed (the debit on its way), not once the debit failed', async () => {
    const { donation } = await startCardDonation(deps, { amountCents: 6_000, monthly: false, lang: 'fr', taxDetails: TAX });
    const completed = stripe.completeDebit(donation.provider_ref, { customer_details: { email: 'sepa@example.org', name: 'Awa Diallo' } });
    await handleStripeWebhook(deps, completed.payload, completed.header);
    const processing = (await findById(t.db, donation.id))!;
    expect(processing).toMatchObject({ status: 'processing', method: 'sepa_debit' });
    expect(await monthlyOfferFor(deps, APP_SECRET, processing)).toMatchObject({ sameCents: 6_000, shareCents: 1_500 });
    expect(await monthlyOfferFor(deps, APP_SECRET, { ...processing, status: 'failed' })).toBeNull();
  });
});
