import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { log } from '~/lib/log.server';
import {
  campaignChoices,
  campaignIdAt,
  campaignProblem,
  campaignTotals,
  deleteCampaign,
  designate,
  getPublicCampaign,
  listCampaignsPage,
  listOpenCampaigns,
  saveCampaign,
  suggestedAmountCents,
  type CampaignInput,
} from '~/domain/campaigns/campaigns.server';
import { createProject } from '~/domain/projects/projects.server';
import type { ProjectInput } from '~/domain/projects/projects';
import { createAttempt, findById, transition, type NewAttempt } from '~/domain/donations/ledger.server';
import { sendDedicationNotice } from '~/domain/campaigns/dedication.server';
import { refreshOnGift } from '~/domain/campaigns/refresh.server';
import { subscribe } from '~/domain/donations/events.server';
import { cfaToEurCents } from '~/domain/donations/money';
import { getPaymentSettings, savePaymentSettings } from '~/domain/donations/providers/settings.server';
import {
  capturePayPalDonation,
  confirmFlutterwave,
  handleStripeWebhook,
  recheck,
  startCardDonation,
  startCryptoDonation,
  startMobileDonation,
  startPayPalDonation,
  type DonationDeps,
} from '../support/payment-entry';
import { parseEnv } from '~/lib/env.server';
import { startFakeCoinGate, type FakeCoinGate } from '../fakes/coingate';
import { startFakeFlutterwave, type FakeFlutterwave } from '../fakes/flutterwave';
import { startFakePayPal, type FakePayPal } from '../fakes/paypal';
import { startFakeStripe, type FakeStripe } from '../fakes/stripe';
import { createTestDb, type TestDb, describeEachDialect } from '../support/db';
import { FLUTTERWAVE_TEST, PAYPAL_TEST } from '../support/donations';

const APP_SECRET = 'campaigns-test-secret-'.padEnd(48, 'c');
const WHSEC = 'whsec_campaigns';
const CG = 'cg-campaigns';
const ADMIN = { id: null, name: 'Test' };

const input = (over: Partial<CampaignInput> = {}): CampaignInput => ({
  slug: '',
  status: 'active',
  image: '',
  goalCents: 1_000_000,
  startsOn: null,
  endsOn: null,
  projectId: null,
  translations: {
    fr: { title: 'Un puits à Kaya', summary: 'De l’eau pour 2 000 habitants', story: '<p>Récit</p><script>alert(1)</script>' },
    en: { title: 'A well in Kaya', summary: '', story: '' },
    es: { title: 'Un pozo en Kaya', summary: '', story: '' },
  },
  amounts: [{ cents: 2500, impact: { fr: 'un kit scolaire', en: 'a school kit', es: 'un kit escolar' } }],
  ...over,
});

describeEachDialect('campaigns on %s', (dialect) => {
  let t: TestDb;
  let stripe: FakeStripe;
  let pp: FakePayPal;
  let flw: FakeFlutterwave;
  let cg: FakeCoinGate;
  let deps: DonationDeps;
  const refreshed: string[] = [];
  let unsubscribe: (() => void) | undefined;
  let kaya: string;
  let other: string;

  beforeAll(async () => {
    t = await createTestDb(dialect);
    stripe = await startFakeStripe({ port: 0, webhookSecret: WHSEC, webhookUrl: () => 'http://127.0.0.1:1/unused', prices: { price_20: 2000 } });
    pp = await startFakePayPal({ port: 0, ...PAYPAL_TEST });
    flw = await startFakeFlutterwave({ port: 0, secretKey: FLUTTERWAVE_TEST.secretKey });
    cg = await startFakeCoinGate({ port: 0, authToken: CG });
    const saved = await savePaymentSettings(
      t.db,
      APP_SECRET,
      {
        stripe: { enabled: true, publishableKey: 'pk_test_1', products: [] },
        paypal: { enabled: true, clientId: PAYPAL_TEST.clientId, webhookId: PAYPAL_TEST.webhookId, mode: 'sandbox' },
        coingate: { enabled: true, mode: 'sandbox' },
        mobileMoney: { enabled: true, integrationType: 'api', provider: 'flutterwave', publicKey: FLUTTERWAVE_TEST.publicKey, currency: 'XOF', paymentUrl: '' },
        giving: { feePercent: '3', stripeMethodTypes: ['card', 'sepa_debit'] },
      },
      {
        set: { 'stripe.secretKey': 'sk_test_c', 'stripe.webhookSecret': WHSEC, 'coingate.authToken': CG, 'paypal.clientSecret': PAYPAL_TEST.clientSecret, 'mobileMoney.secretKey': FLUTTERWAVE_TEST.secretKey, 'mobileMoney.secretHash': FLUTTERWAVE_TEST.hash },
        clear: [],
      },
      0,
    );
    if (!saved.ok) throw new Error('settings not saved');
    deps = {
      db: t.db,
      settings: await getPaymentSettings(t.db, APP_SECRET),
      env: parseEnv({ STRIPE_API_BASE: stripe.url, PAYPAL_API_BASE: pp.url, FLUTTERWAVE_API_BASE: flw.url, COINGATE_API_BASE: cg.url }),
      publicUrl: 'https://dons.example.org',
    };
    // The campaigns' subscriber to payment events (ADR 019), told about this database's gifts, with a refresher that records what it was told.
    const refresh = refreshOnGift({ giftChanged: async (kind) => void refreshed.push(kind) });
    unsubscribe = subscribe(`campaign pages (${dialect})`, async (d, e) => (d.db === t.db ? refresh(d, e) : undefined));
  });
  afterAll(async () => {
    unsubscribe?.();
    await Promise.all([stripe?.close(), pp?.close(), flw?.close(), cg?.close()]);
    await t?.destroy();
  });

  it('saves a campaign through one path: address from the title, sanitized story, audit, version and address checks', async () => {
    const created = await saveCampaign(t.db, ADMIN, null, input());
    if (!('campaign' in created)) throw new Error(JSON.stringify(created));
    kaya = created.campaign.id;
    expect(created.campaign).toMatchObject({ slug: 'un-puits-a-kaya', status: 'active', goalCents: 1_000_000, version: 1 });
    expect(created.campaign.translations.fr.story).toBe('<p>Récit</p>');
    expect(await saveCampaign(t.db, ADMIN, null, input())).toEqual({ error: 'slugTaken' });
    expect(await saveCampaign(t.db, ADMIN, null, input({ slug: 'autre', projectId: 'nope' }))).toEqual({ error: 'unknownProject' });
    const o = await saveCampaign(t.db, ADMIN, null, input({ slug: 'kits-scolaires', goalCents: null }));
    if (!('campaign' in o)) throw new Error('not saved');
    other = o.campaign.id;
    // Two editors: the second save, on the version both read, is refused and writes nothing.
    expect('campaign' in (await saveCampaign(t.db, ADMIN, kaya, input({ goalCents: 1_500_000 }), 1))).toBe(true);
    expect(await saveCampaign(t.db, ADMIN, kaya, input({ goalCents: 5 }), 1)).toEqual({ error: 'conflict' });
    expect(await saveCampaign(t.db, ADMIN, kaya, input({ slug: 'kits-scolaires' }), 2)).toEqual({ error: 'slugTaken' });
    expect((await getPublicCampaign(t.db, 'un-puits-a-kaya', 'en'))).toMatchObject({ title: 'A well in Kaya', summary: 'De l’eau pour 2 000 habitants', goalCents: 1_500_000, amounts: [{ cents: 2500, impact: 'a school kit' }] });
    // The donate form's campaign presets charge the amount of the campaign they were shown for.
    expect(await suggestedAmountCents(t.db, 'un-puits-a-kaya', 0)).toBe(2500);
    expect(await suggestedAmountCents(t.db, 'un-puits-a-kaya', 1)).toBeNull();
    expect(await suggestedAmountCents(t.db, 'nowhere', 0)).toBeNull();
    const audit = await t.db.selectFrom('audit_log').select(['action', 'target']).where('action', 'like', 'campaign.%').orderBy('at').execute();
    expect(audit.map((a) => a.action)).toEqual(['campaign.create', 'campaign.create', 'campaign.update']);
  });

  it('carries the designation, the fees covered and the payment method types through Stripe Checkout; a tampered event cannot move the gift', async () => {
    const { donation } = await startCardDonation(deps, { amountCents: 2060, monthly: false, lang: 'fr', gift: { campaignId: kaya, feeEurCents: 60 } });
    const session = stripe.sessions.get(donation.provider_ref);
    expect(session.metadata).toEqual({ donation_id: donation.id, campaign_id: kaya });
    expect(session).toMatchObject({ amount_total: 2060, line_items_count: 2, allowed_payment_method_types: ['card', 'sepa_debit'] });
    // A correctly signed event whose metadata names another campaign (tampered upstream or mixed up).
    const { payload, header } = stripe.complete(session.id, { metadata: { donation_id: donation.id, campaign_id: other } });
    const warn = vi.spyOn(log, 'warn');
    for (let i = 0; i < 3; i++) expect(await handleStripeWebhook(deps, payload, header)).toEqual({ status: 200, message: 'ok' });
    expect(warn).toHaveBeenCalledWith('payment designation does not match its attempt', { donationId: donation.id, provider: 'stripe', expected: kaya, got: other });
    warn.mockRestore();
    expect(await findById(t.db, donation.id)).toMatchObject({ status: 'succeeded', campaign_id: kaya, fee_eur_cents: 60, eur_cents: 2060 });
    expect(refreshed).toEqual(['succeeded']);
    const totals = await campaignTotals(t.db, [kaya, other]);
    expect(totals.get(kaya)).toEqual({ raisedCents: 2000, donors: 1 });
    expect(totals.get(other)).toEqual({ raisedCents: 0, donors: 0 });
  });

  it('keeps the designation through PayPal, CoinGate and Flutterwave (XOF at the legal parity), and renewals of a monthly gift', async () => {
    const { orderId, donation: ppGift } = await startPayPalDonation(deps, { amountCents: 1550, lang: 'es', gift: { campaignId: kaya } });
    expect(pp.orders.get(orderId).purchase_units[0].reference_id).toBe(`${ppGift.id}:${kaya}`);
    // The order's reference altered at the provider: it does not change which campaign the gift goes to.
    pp.orders.get(orderId).purchase_units[0].reference_id = `${ppGift.id}:${other}`;
    pp.approve(orderId);
    expect(await capturePayPalDonation(deps, orderId)).toMatchObject({ status: 'succeeded', campaign_id: kaya });

    const crypto = await startCryptoDonation(deps, { amountCents: 1000, lang: 'fr', gift: { campaignId: kaya } });
    cg.orders.get(crypto.donation.provider_ref).status = 'paid';
    await recheck(deps, (await findById(t.db, crypto.donation.id))!);
    expect(await findById(t.db, crypto.donation.id)).toMatchObject({ status: 'succeeded', campaign_id: kaya });

    const mm = await startMobileDonation(deps, { eurCents: 2000, name: 'Awa', email: 'AWA@example.org', phone: '+221770000000', lang: 'fr', gift: { campaignId: kaya } });
    // The checkout was opened with our meta, then someone altered it: the row's designation stands, the mismatch is logged.
    const { id } = (await (await fetch(`${flw.url}/fake/pay`, { method: 'POST', body: JSON.stringify({ tx_ref: mm.txRef, amount: mm.amountMinor, currency: 'XOF', meta: { campaign_id: other } }) })).json()) as { id: string };
    const warn = vi.spyOn(log, 'warn');
    expect(await confirmFlutterwave(deps, mm.txRef, id)).toMatchObject({ status: 'succeeded', amount_minor: 13119, currency: 'XOF', eur_cents: 2000, campaign_id: kaya });
    expect(warn).toHaveBeenCalledWith('payment designation does not match its attempt', expect.objectContaining({ provider: 'flutterwave', expected: kaya, got: other }));
    warn.mockRestore();
    expect(cfaToEurCents(13119)).toBe(2000);

    // A monthly gift: the checkout, then a renewal invoice, both count for the campaign.
    const monthly = await startCardDonation(deps, { amountCents: 1000, monthly: true, lang: 'fr', gift: { campaignId: kaya } });
    expect(stripe.sessions.get(monthly.donation.provider_ref).metadata.campaign_id).toBe(kaya);
    const done = stripe.complete(monthly.donation.provider_ref, { customer_details: { email: 'awa@example.org', name: 'Awa' } });
    await handleStripeWebhook(deps, done.payload, done.header);
    const renewal = JSON.stringify({ id: 'evt_inv', object: 'event', type: 'invoice.paid', data: { object: { id: 'in_1', object: 'invoice', billing_reason: 'subscription_cycle', amount_paid: 1000, currency: 'eur', customer_email: 'awa@example.org', parent: { subscription_details: { subscription: `sub_${monthly.donation.provider_ref}` } } } } });
    for (let i = 0; i < 3; i++) await handleStripeWebhook(deps, renewal, stripe.sign(renewal));
    const renewals = await t.db.selectFrom('donations').selectAll().where('provider_ref', '=', 'in_1').execute();
    expect(renewals).toHaveLength(1);
    expect(renewals[0]).toMatchObject({ campaign_id: kaya, status: 'succeeded' });

    // 2000 (card, fees excluded) + 1550 (PayPal) + 1000 (crypto) + 2000 (XOF 13 119) + 1000 + 1000 (monthly).
    // Donors: donor@example.org (card), ana@example.org (PayPal), crypto (no email), awa@example.org (mobile, monthly, renewal).
    expect((await campaignTotals(t.db, [kaya])).get(kaya)).toEqual({ raisedCents: 8550, donors: 4 });
  });

  it('subtracts a refunded gift at once, counts pending and failed attempts never, and tells the pages each time', async () => {
    const pending = await startCardDonation(deps, { amountCents: 9900, monthly: false, lang: 'fr', gift: { campaignId: kaya } });
    const failed = await startCryptoDonation(deps, { amountCents: 4400, lang: 'fr', gift: { campaignId: kaya } });
    cg.orders.get(failed.donation.provider_ref).status = 'invalid';
    await recheck(deps, (await findById(t.db, failed.donation.id))!);
    expect((await findById(t.db, failed.donation.id))?.status).toBe('failed');
    expect((await findById(t.db, pending.donation.id))?.status).toBe('pending');
    const card = (await t.db.selectFrom('donations').selectAll().where('campaign_id', '=', kaya).where('fee_eur_cents', '=', 60).executeTakeFirstOrThrow());
    refreshed.length = 0;
    const refund = JSON.stringify({ id: 'evt_refund', object: 'event', type: 'charge.refunded', data: { object: { id: 'ch_1', object: 'charge', refunded: true, payment_intent: card.secondary_ref } } });
    for (let i = 0; i < 3; i++) await handleStripeWebhook(deps, refund, stripe.sign(refund));
    expect(refreshed).toEqual(['refunded']);
    expect((await campaignTotals(t.db, [kaya])).get(kaya)).toEqual({ raisedCents: 6550, donors: 3 });
    // A gift to no campaign changes no campaign page.
    const general = await startCardDonation(deps, { amountCents: 700, monthly: false, lang: 'fr' });
    const g = stripe.complete(general.donation.provider_ref);
    await handleStripeWebhook(deps, g.payload, g.header);
    expect(refreshed).toEqual(['refunded']);
  });

  it('tells the person a gift is dedicated to, once, in the donor’s language, only once the gift is confirmed', async () => {
    const dedication = { kind: 'memory' as const, name: 'Mariama Diallo', message: 'Elle aimait ce village.', email: 'famille@example.org' };
    const { donation } = await startCardDonation(deps, { amountCents: 3000, monthly: false, lang: 'en', gift: { dedication } });
    const notices = () => t.db.selectFrom('mail_outbox').select(['subject', 'text']).where('to', '=', 'famille@example.org').execute();
    expect(await notices()).toEqual([]);
    const done = stripe.complete(donation.provider_ref, { customer_details: { email: 'giver@example.org', name: 'Jane Doe' } });
    for (let i = 0; i < 3; i++) await handleStripeWebhook(deps, done.payload, done.header);
    const sent = await notices();
    expect(sent).toHaveLength(1);
    expect(sent[0].subject).toBe('A gift was made in memory of Mariama Diallo');
    expect(sent[0].text).toContain('Jane Doe made a gift to the THV Foundation in memory of Mariama Diallo.');
    expect(sent[0].text).toContain('Their message: “Elle aimait ce village.”');
    expect(sent[0].text).not.toContain('30');
    expect(await findById(t.db, donation.id)).toMatchObject({ dedication_kind: 'memory', dedication_name: 'Mariama Diallo', campaign_id: null });
  });

  it('writes the dedication notice in full: honour or memory, the message only when there is one, no name shown as “Une personne”, in French for an unknown language', async () => {
    const notify = async (language: string, donorName: string | null, dedication: NonNullable<NewAttempt['gift']>['dedication'], status: 'succeeded' | 'failed' = 'succeeded') => {
      const d = await createAttempt(t.db, { provider: 'stripe', amountMinor: 1000, currency: 'EUR', eurCents: 1000, frequency: 'once', language, donorName, gift: { dedication } });
      await transition(t.db, { id: d.id }, status);
      const row = (await findById(t.db, d.id))!;
      await sendDedicationNotice(deps, row);
      await sendDedicationNotice(deps, row);
      return t.db.selectFrom('mail_outbox').select(['subject', 'text', 'html']).where('to', '=', dedication!.email!).execute();
    };
    const honour = await notify('de', null, { kind: 'honor', name: 'Awa <Ndiaye>', message: null, email: 'awa.honneur@example.org' });
    expect(honour).toEqual([
      {
        subject: 'Un don a été fait en votre honneur',
        text: ['Bonjour,', '', 'Une personne a fait un don à la Fondation THV en l’honneur de Awa <Ndiaye>.', '', 'L’équipe de la Fondation THV'].join('\n'),
        html: ['<p>Bonjour,</p>', '', '<p>Une personne a fait un don à la Fondation THV en l’honneur de Awa &#60;Ndiaye&#62;.</p>', '', '<p>L’équipe de la Fondation THV</p>'].join('\n'),
      },
    ]);
    const memory = await notify('fr', 'Jean', { kind: 'memory', name: 'Mariama', message: 'Pour "toi" & les tiens', email: 'famille.memoire@example.org' });
    expect(memory).toHaveLength(1);
    expect(memory[0].subject).toBe('Un don a été fait en mémoire de Mariama');
    expect(memory[0].text.split('\n')).toEqual(['Bonjour,', '', 'Jean a fait un don à la Fondation THV en mémoire de Mariama.', 'Son message : « Pour "toi" & les tiens »', '', 'L’équipe de la Fondation THV']);
    expect(memory[0].html).toContain('<p>Son message : « Pour &#34;toi&#34; &#38; les tiens »</p>');
    // Nothing for a gift that did not succeed, or without a recipient's address.
    expect(await notify('fr', 'Jean', { kind: 'memory', name: 'Ousmane', message: null, email: 'echec@example.org' }, 'failed')).toEqual([]);
    const noAddress = await createAttempt(t.db, { provider: 'stripe', amountMinor: 1000, currency: 'EUR', eurCents: 1000, frequency: 'once', language: 'fr', gift: { dedication: { kind: 'honor', name: 'Ami', message: null, email: null } } });
    await transition(t.db, { id: noAddress.id }, 'succeeded');
    const before = await t.db.selectFrom('mail_outbox').select('id').execute();
    await sendDedicationNotice(deps, (await findById(t.db, noAddress.id))!);
    expect(await t.db.selectFrom('mail_outbox').select('id').execute()).toHaveLength(before.length);
  });

  it('stops designated gifts after the end date, before the start date, and for drafts and ended campaigns', async () => {
    const r = await saveCampaign(t.db, ADMIN, null, input({ slug: 'hiver', startsOn: '2026-12-01', endsOn: '2027-01-31' }));
    if (!('campaign' in r)) throw new Error('not saved');
    expect(await designate(t.db, 'hiver', '2026-11-30')).toEqual({ ok: false, reason: 'notStarted' });
    expect((await designate(t.db, 'hiver', '2026-12-01')).ok).toBe(true);
    expect((await designate(t.db, 'hiver', '2027-01-31')).ok).toBe(true);
    expect(await designate(t.db, 'hiver', '2027-02-01')).toEqual({ ok: false, reason: 'ended' });
    expect('campaign' in (await saveCampaign(t.db, ADMIN, r.campaign.id, { ...input({ slug: 'hiver' }), status: 'draft' }, r.campaign.version))).toBe(true);
    expect(await designate(t.db, 'hiver', '2026-12-15')).toEqual({ ok: false, reason: 'draft' });
    expect(await getPublicCampaign(t.db, 'hiver', 'fr')).toBeUndefined();
    expect(await designate(t.db, 'nowhere')).toEqual({ ok: false, reason: 'unknown' });
    // Listed on /campagnes only while open: past its end date a campaign leaves the list but keeps its page.
    const listed = (day: string) => listOpenCampaigns(t.db, 'fr', { day }).then((cs) => cs.map((c) => c.slug).sort());
    expect('campaign' in (await saveCampaign(t.db, ADMIN, kaya, input({ goalCents: 1_500_000, endsOn: '2026-12-31' }), 2))).toBe(true);
    expect(await listed('2026-12-31')).toEqual(['kits-scolaires', 'un-puits-a-kaya']);
    expect(await listed('2027-01-01')).toEqual(['kits-scolaires']);
    expect(await getPublicCampaign(t.db, 'un-puits-a-kaya', 'fr', '2027-01-01')).toMatchObject({ closed: 'ended', raisedCents: 6550 });
  });
  it('deletes a campaign with an audit entry; its gifts stay in the ledger', async () => {
    const r = await saveCampaign(t.db, ADMIN, null, input({ slug: 'a-supprimer' }));
    if (!('campaign' in r)) throw new Error('not saved');
    const { donation } = await startCardDonation(deps, { amountCents: 500, monthly: false, lang: 'fr', gift: { campaignId: r.campaign.id } });
    expect((await deleteCampaign(t.db, ADMIN, r.campaign.id))?.slug).toBe('a-supprimer');
    expect(await deleteCampaign(t.db, ADMIN, r.campaign.id)).toBeUndefined();
    expect(await getPublicCampaign(t.db, 'a-supprimer', 'fr')).toBeUndefined();
    expect(await findById(t.db, donation.id)).toMatchObject({ campaign_id: r.campaign.id });
    const entry = await t.db.selectFrom('audit_log').select(['target', 'details']).where('action', '=', 'campaign.delete').executeTakeFirstOrThrow();
    expect(entry.target).toBe('Un puits à Kaya');
    expect(JSON.parse(entry.details)).toEqual({ id: r.campaign.id });
  });

  it('counts a monthly gift’s renewals for its campaign while it takes gifts (Paris day of payment), then as general gifts', async () => {
    const r = await saveCampaign(t.db, ADMIN, null, input({ slug: 'ecole-de-thies', startsOn: '2026-01-01', endsOn: '2026-06-30' }));
    if (!('campaign' in r)) throw new Error('not saved');
    const id = r.campaign.id;
    // The first gift, made while the campaign was open, covers 3 % of fees.
    const monthly = await startCardDonation(deps, { amountCents: 1030, monthly: true, lang: 'fr', gift: { campaignId: id, feeEurCents: 30 } });
    const done = stripe.complete(monthly.donation.provider_ref, { customer_details: { email: 'mensuel@example.org', name: 'Ibrahima' } });
    await handleStripeWebhook(deps, done.payload, done.header);
    const sub = `sub_${monthly.donation.provider_ref}`;
    const renew = async (invoice: string, paidAt?: string) => {
      const status_transitions = paidAt ? { paid_at: Date.parse(paidAt) / 1000 } : undefined;
      const body = JSON.stringify({ id: `evt_${invoice}`, object: 'event', type: 'invoice.paid', data: { object: { id: invoice, object: 'invoice', billing_reason: 'subscription_cycle', amount_paid: 1030, currency: 'eur', customer_email: 'mensuel@example.org', status_transitions, parent: { subscription_details: { subscription: sub } } } } });
      // Stripe retries: a replay records nothing more, even once the campaign has ended since.
      for (let i = 0; i < 2; i++) expect(await handleStripeWebhook(deps, body, stripe.sign(body))).toEqual({ status: 200, message: 'ok' });
      return t.db.selectFrom('donations').selectAll().where('provider_ref', '=', invoice).executeTakeFirstOrThrow();
    };
    // Paid at 23:30 in Paris on the last day: it counts; at 00:30 the next day (still 30 June in UTC): a general gift.
    expect(await renew('in_thies_1', '2026-06-30T21:30:00Z')).toMatchObject({ campaign_id: id, fee_eur_cents: 30, status: 'succeeded', frequency: 'monthly' });
    expect(await renew('in_thies_2', '2026-06-30T22:30:00Z')).toMatchObject({ campaign_id: null, fee_eur_cents: 30, status: 'succeeded' });
    // Ended early by the foundation, or deleted: the renewals of its monthly gifts go on, as general gifts.
    const ended = await saveCampaign(t.db, ADMIN, id, { ...input({ slug: 'ecole-de-thies', startsOn: '2026-01-01', endsOn: '2026-06-30' }), status: 'ended' }, r.campaign.version);
    if (!('campaign' in ended)) throw new Error('not saved');
    expect(await renew('in_thies_3', '2026-03-15T10:00:00Z')).toMatchObject({ campaign_id: null });
    await deleteCampaign(t.db, ADMIN, id);
    expect(await renew('in_thies_4', '2026-03-16T10:00:00Z')).toMatchObject({ campaign_id: null });
    // Its total: the first gift and the renewal of the last day, without the fees covered.
    expect((await campaignTotals(t.db, [id])).get(id)).toEqual({ raisedCents: 2000, donors: 1 });
    expect(await t.db.selectFrom('donations').select('id').where('secondary_ref', '=', sub).execute()).toHaveLength(5);
  });

  it('lists campaigns for the back office with their totals and a search, names them for the donations filter, and finds one by address', async () => {
    const all = await listCampaignsPage(t.db, { q: '', page: 1 });
    const slugs = (await t.db.selectFrom('campaigns').select('slug').orderBy('created_at', 'desc').orderBy('id', 'desc').execute()).map((r) => r.slug);
    expect(all.items.map((c) => c.slug)).toEqual(slugs);
    expect(all.items.find((c) => c.id === kaya)?.totals).toEqual((await campaignTotals(t.db, [kaya])).get(kaya));
    expect(all.items.find((c) => c.id === kaya)?.totals.raisedCents).toBeGreaterThan(0);
    expect((await listCampaignsPage(t.db, { q: 'KITS', page: 1 })).items.map((c) => c.slug)).toEqual(['kits-scolaires']);
    expect((await listCampaignsPage(t.db, { q: 'puits-a-kaya', page: 1 })).items.map((c) => c.slug)).toEqual(['un-puits-a-kaya']);
    // The titles are searched too, in every language (these campaigns share the English one).
    expect((await listCampaignsPage(t.db, { q: 'WELL IN KAYA', page: 1 })).items.map((c) => c.slug)).toEqual(slugs);
    expect((await listCampaignsPage(t.db, { q: 'rien de tel', page: 1 })).items).toEqual([]);

    const untitled = await saveCampaign(t.db, ADMIN, null, input({ slug: 'sans-titre', translations: { fr: { title: '', summary: '', story: '' } } as CampaignInput['translations'] }));
    if (!('campaign' in untitled)) throw new Error('not saved');
    const choices = await campaignChoices(t.db);
    expect(choices.map((c) => c.slug)).toEqual(['sans-titre', ...slugs]);
    expect(choices.find((c) => c.id === kaya)).toEqual({ id: kaya, slug: 'un-puits-a-kaya', title: 'Un puits à Kaya', status: 'active' });
    // Without a French title, a campaign is named by its address.
    expect(choices[0]).toEqual({ id: untitled.campaign.id, slug: 'sans-titre', title: 'sans-titre', status: 'active' });

    expect(await campaignIdAt(t.db, 'un-puits-a-kaya')).toBe(kaya);
    expect(await campaignIdAt(t.db, 'nowhere')).toBeUndefined();
  });

  it('fills what a campaign leaves out: the other languages, the impact lines, and an address when there is no title', async () => {
    const bare = (n: number) =>
      saveCampaign(t.db, ADMIN, null, { ...input({ slug: '' }), translations: {} as CampaignInput['translations'], amounts: [{ cents: 1000 * n, impact: {} as Record<'fr' | 'en' | 'es', string> }] });
    const [a, b] = [await bare(1), await bare(2)];
    if (!('campaign' in a) || !('campaign' in b)) throw new Error('not saved');
    // Each gets an address of its own.
    expect(a.campaign.slug).not.toBe(b.campaign.slug);
    expect(a.campaign.slug).toMatch(/^[a-z0-9-]+$/);
    const empty = { title: '', summary: '', story: '' };
    expect(a.campaign.translations).toEqual({ fr: empty, en: empty, es: empty });
    expect(a.campaign.amounts).toEqual([{ cents: 1000, impact: { fr: '', en: '', es: '' } }]);
    expect((await getPublicCampaign(t.db, a.campaign.slug, 'es'))?.amounts).toEqual([{ cents: 1000, impact: '' }]);
    // What would refuse a save or the publication of a draft: another campaign's address.
    expect(await campaignProblem(t.db, null, input({ slug: b.campaign.slug }))).toBe('slugTaken');
    expect(await campaignProblem(t.db, b.campaign.id, input({ slug: b.campaign.slug }))).toBeNull();
    // A database failure is not passed off as an address already taken.
    await expect(saveCampaign(t.db, ADMIN, null, { ...input({ slug: 'sans-statut' }), status: null as unknown as CampaignInput['status'] })).rejects.toThrow();
  });

  it('shows on a project’s page only the campaigns linked to it', async () => {
    const project = await createProject(t.db, ADMIN, {
      image: '',
      date: '2026-06-01',
      location: 'Kaya, Burkina Faso',
      status: 'En cours',
      active: true,
      translations: { fr: { title: 'Puits de Kaya', description: '' } },
    } as ProjectInput);
    const linked = await saveCampaign(t.db, ADMIN, null, input({ slug: 'puits-du-projet', projectId: project.id }));
    if (!('campaign' in linked)) throw new Error('not saved');
    // /nos-actions finds a project's campaign among the open ones by its project.
    const open = await listOpenCampaigns(t.db, 'fr');
    expect(open.filter((c) => c.projectId === project.id).map((c) => c.slug)).toEqual(['puits-du-projet']);
    expect((await listOpenCampaigns(t.db, 'fr', { limit: 1 })).map((c) => c.slug)).toEqual(['puits-du-projet']);
  });
});
