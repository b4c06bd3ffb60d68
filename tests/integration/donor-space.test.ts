import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveCampaign } from '~/domain/campaigns/campaigns.server';
import { findById, findByRef, type GiftDetails } from '~/domain/donations/ledger.server';
import { ProviderError } from '~/domain/donations/providers/types';
import { handleStripeWebhook, startCardDonation, type DonationDeps } from '../support/payment-entry';
import { newsletterOptIns, recordNewsletterConsent } from '~/domain/donors/consent.server';
import { hasNewsConsent } from '~/domain/donations/consent.server';
import { leave } from '~/domain/subscribers/leave.server';
import { endDonorSession, LINK_LIMIT_PER_EMAIL, pruneDonorAccess, readDonorSession, requestSignInLink, useSignInLink } from '~/domain/donors/links.server';
import { cardUpdateUrl, changeGift } from '~/domain/donations/donor-gifts.server';
import { giftEvents, giftOfDonor, monthlyGiftsOf } from '~/domain/donations/monthly.server';
import { donorExportCsv, donorRef, eraseDonorData, exportDonorData, historyOf, purgeExpiredPersonalData } from '~/domain/donors/personal-data.server';
import { audit } from '~/domain/audit/audit.server';
import { deleteMessage } from '~/domain/messages/messages.server';
import type { TaxDetails } from '~/domain/receipts/donor-details';
import { renderReceiptPdf } from '~/domain/receipts/pdf.server';
import { receiptsOfDonation } from '~/domain/receipts/register.server';
import { PRIVACY_V1, PRIVACY_V2, privacyTexts, upgradePrivacyDefault } from '~db/seed-privacy';
import { getEditablePage, savePageContent } from '~/domain/content/pages.server';
import { DEFAULT_RETENTION_DAYS } from '~/lib/env.server';
import type { FakeStripe } from '../fakes/stripe';
import { createTestDb, type TestDb, describeEachDialect } from '../support/db';
import { stripeCardWorld } from '../support/donations';
import { campaignInput } from '../support/campaigns';
import { setReceiptSettings } from '../support/receipts';
import { donorCookie } from '~/routes/donors/session.server';

const APP_SECRET = 'donor-secret-'.padEnd(48, 'q');
const WHSEC = 'whsec_donor_space';
const DONOR = { email: 'awa.diallo@example.org', name: 'Awa Diallo' };
const OTHER = { email: 'jean.martin@example.org', name: 'Jean Martin' };
const ACTOR = { id: null, name: 'Donateur' };

describeEachDialect('donor space on %s', (dialect) => {
  let t: TestDb;
  let stripe: FakeStripe;
  let deps: DonationDeps;

  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ t, stripe, deps, close } = await stripeCardWorld(dialect, { appSecret: APP_SECRET, secretKey: 'sk_test_donors', webhookSecret: WHSEC }));
  });
  afterAll(async () => {
    await close?.();
  });

  /**
   * A gift paid through the fake Checkout, confirmed by its signed webhook, as a donor makes it:
   * with what the form may add (receipt details, campaign, dedication).
   */
  async function give(who: { email: string; name: string }, cents: number, monthly: boolean, lang: 'fr' | 'en' | 'es' = 'fr', form: { tax?: TaxDetails; gift?: GiftDetails } = {}) {
    const { donation } = await startCardDonation(deps, { amountCents: cents, monthly, lang, taxDetails: form.tax ? JSON.stringify(form.tax) : null, gift: form.gift });
    const ev = stripe.complete(donation.provider_ref, { customer_details: { email: who.email, name: who.name } });
    expect((await handleStripeWebhook(deps, ev.payload, ev.header)).status).toBe(200);
    return (await findById(t.db, donation.id))!;
  }
  const webhook = (e: { payload: string; header: string }) => handleStripeWebhook(deps, e.payload, e.header);
  /** A sign-in request, with what the route runs after its answer (the link, its delivery) awaited. */
  async function ask(r: Omit<Parameters<typeof requestSignInLink>[1], 'after'>, at?: Date) {
    const jobs: Promise<void>[] = [];
    const answer = await requestSignInLink(t.db, { ...r, after: (job) => void jobs.push(job()) }, at);
    await Promise.all(jobs);
    return answer;
  }
  const mailsTo = (to: string) => t.db.selectFrom('mail_outbox').selectAll().where('to', '=', to).orderBy('created_at').execute();

  it('mails a single-use link only to a known donor, with the same answer for an unknown email', async () => {
    await give(DONOR, 2500, false);
    const delivered: { email: string; token: string }[] = [];
    const deliver = (email: string, token: string) => void delivered.push({ email, token });
    const known = await ask({ email: '  Awa.Diallo@Example.org ', ip: '10.0.0.1', deliver });
    const unknown = await ask({ email: 'nobody@example.org', ip: '10.0.0.2', deliver });
    expect(known).toEqual({ status: 'sent' });
    expect(unknown).toEqual(known);
    expect(delivered.map((d) => d.email)).toEqual([DONOR.email]);
    expect(await t.db.selectFrom('donor_links').select('email').execute()).toEqual([{ email: DONOR.email }]);
    // The database keeps only the token's hash.
    expect(JSON.stringify(await t.db.selectFrom('donor_links').selectAll().execute())).not.toContain(delivered[0].token);
    expect(await ask({ email: 'not an email', ip: '10.0.0.1', deliver })).toEqual({ status: 'invalid' });

    const session = await useSignInLink(t.db, delivered[0].token);
    expect(session?.email).toBe(DONOR.email);
    expect(await readDonorSession(t.db, session!.token)).toEqual({ email: DONOR.email });
    // Used once: a second use, or a made-up token, opens nothing.
    expect(await useSignInLink(t.db, delivered[0].token)).toBeNull();
    expect(await useSignInLink(t.db, 'x'.repeat(43))).toBeNull();
    // The session ends after its lifetime.
    expect(await readDonorSession(t.db, session!.token, new Date(Date.now() + 61 * 60 * 1000))).toBeNull();
    expect(await readDonorSession(t.db, session!.token)).toBeNull();
  });

  it('lets a link expire after 30 minutes', async () => {
    const delivered: string[] = [];
    const at = new Date('2030-01-01T10:00:00Z');
    await ask({ email: DONOR.email, ip: '10.0.1.1', deliver: (_e, token) => void delivered.push(token) }, at);
    expect(delivered).toHaveLength(1);
    const minutes = (n: number) => new Date(at.getTime() + n * 60_000);
    expect(await useSignInLink(t.db, delivered[0], minutes(30.1))).toBeNull();
    const session = await useSignInLink(t.db, delivered[0], minutes(29.9));
    // The donor session it opens lasts an hour from then, however active.
    expect(session?.expiresAt).toEqual(minutes(89.9));
    expect(await readDonorSession(t.db, session!.token, minutes(89.8))).toEqual({ email: DONOR.email });
    expect(await readDonorSession(t.db, session!.token, minutes(90))).toBeNull();
  });

  it('limits requests per email and per address, alike for known and unknown emails, without keeping the email', async () => {
    const at = new Date('2030-02-01T10:00:00Z');
    const deliver = () => undefined;
    for (const email of [DONOR.email, 'ghost@example.org']) {
      for (let i = 0; i < LINK_LIMIT_PER_EMAIL; i++) expect((await ask({ email, ip: `10.1.${i}.${email.length}`, deliver }, at)).status).toBe('sent');
      const over = await ask({ email, ip: '10.9.9.9', deliver }, at);
      expect(over).toEqual({ status: 'limited', retryAfter: 15 * 60 });
    }
    const ip = '10.2.0.1';
    const answers = [];
    for (let i = 0; i < 11; i++) answers.push((await ask({ email: `p${i}@example.org`, ip, deliver }, at)).status);
    expect(answers.slice(0, 10).every((a) => a === 'sent')).toBe(true);
    expect(answers[10]).toBe('limited');
    const keys = (await t.db.selectFrom('rate_limits').select('key').execute()).map((r) => r.key).join(' ');
    expect(keys).not.toContain('example.org');
  });

  it('signs out, prunes expired links and sessions, and keeps its cookie to the donor space', async () => {
    const at = new Date('2030-03-01T10:00:00Z');
    const later = (minutes: number) => new Date(at.getTime() + minutes * 60_000);
    const tokens: string[] = [];
    const linkAt = async (when: Date) => {
      await ask({ email: DONOR.email, ip: `10.3.0.${tokens.length}`, deliver: (_e, token) => void tokens.push(token) }, when);
      return tokens[tokens.length - 1];
    };
    const signedOut = (await useSignInLink(t.db, await linkAt(at), at))!;
    await endDonorSession(t.db, undefined);
    expect(await readDonorSession(t.db, signedOut.token, at)).toEqual({ email: DONOR.email });
    await endDonorSession(t.db, signedOut.token);
    expect(await readDonorSession(t.db, signedOut.token, at)).toBeNull();

    const oldSession = (await useSignInLink(t.db, await linkAt(at), at))!;
    const freshSession = (await useSignInLink(t.db, await linkAt(later(50)), later(50)))!;
    const oldLink = await linkAt(at);
    const freshLink = await linkAt(later(50));
    await pruneDonorAccess(t.db, later(70));
    // Pruned at 11:10: the link asked at 10:00 (valid until 10:30) and the session opened at 10:00
    // (until 11:00) are gone, so neither works even at a time they were valid; the later ones stay.
    expect(await useSignInLink(t.db, oldLink, later(20))).toBeNull();
    expect(await useSignInLink(t.db, freshLink, later(60))).not.toBeNull();
    expect(await readDonorSession(t.db, oldSession.token, at)).toBeNull();
    expect(await readDonorSession(t.db, freshSession.token, later(70))).toEqual({ email: DONOR.email });

    expect(donorCookie('abc', 3600.7, true)).toBe('__donor=abc; Path=/mon-espace; HttpOnly; SameSite=Lax; Max-Age=3600; Secure');
    expect(donorCookie('', -5, false)).toBe('__donor=; Path=/mon-espace; HttpOnly; SameSite=Lax; Max-Age=0');
  });

  it('changes, pauses, resumes and stops a monthly gift through Stripe, for its own donor only', async () => {
    const first = await give(DONOR, 2000, true, 'en');
    await give(OTHER, 3000, true);
    const mine = await monthlyGiftsOf(t.db, DONOR.email);
    expect(mine).toEqual([expect.objectContaining({ id: first.secondary_ref, amountMinor: 2000, currency: 'EUR', status: 'active' })]);
    const theirs = (await monthlyGiftsOf(t.db, OTHER.email))[0];
    // Another donor's gift id is not reachable from this email.
    expect(await giftOfDonor(t.db, DONOR.email, theirs.id)).toBeNull();
    expect((await historyOf(t.db, DONOR.email)).every((h) => h.id !== theirs.id)).toBe(true);

    const target = (await giftOfDonor(t.db, DONOR.email, mine[0].id))!;
    const before = stripe.requests.length;
    const changed = await changeGift(deps, target, { kind: 'amount', amountMinor: 1500 }, { source: 'donor', actor: ACTOR });
    expect(changed).toMatchObject({ amount_minor: 1500, status: 'active' });
    const calls = stripe.requests.slice(before).map((r) => `${r.method} ${r.path}`);
    expect(calls).toEqual([`GET /v1/subscriptions/${target.gift.id}`, `POST /v1/subscriptions/${target.gift.id}`]);
    const body = decodeURIComponent(stripe.requests.at(-1)!.body);
    expect(body).toContain('items[0][price_data][unit_amount]=1500');
    expect(body).toContain('proration_behavior=none');
    expect(stripe.subscriptions.get(target.gift.id).items.data[0].price.unit_amount).toBe(1500);
    // The confirmation, in the donor's language.
    const mail = (await mailsTo(DONOR.email)).at(-1)!;
    expect(mail.subject).toBe('Your monthly gift to the THV Foundation');
    expect(mail.text).toContain('Your monthly gift becomes €15.00 a month from the next payment.');
    expect(mail.text).toContain('https://dons.example.org/en/mon-espace');

    const refreshed = async () => (await giftOfDonor(t.db, DONOR.email, target.gift.id))!;
    await changeGift(deps, await refreshed(), { kind: 'paused' }, { source: 'donor', actor: ACTOR });
    expect(decodeURIComponent(stripe.requests.at(-1)!.body)).toBe('pause_collection[behavior]=void');
    expect((await refreshed()).gift.status).toBe('paused');
    await changeGift(deps, await refreshed(), { kind: 'resumed' }, { source: 'donor', actor: ACTOR });
    expect(stripe.requests.at(-1)!.body).toBe('pause_collection=');
    expect((await refreshed()).gift.status).toBe('active');

    // Stripe's events about these changes agree with what was recorded.
    for (const e of stripe.events.filter((x) => x.type === 'customer.subscription.updated')) await webhook(e);
    expect((await refreshed()).gift).toMatchObject({ amount_minor: 1500, status: 'active' });

    await changeGift(deps, await refreshed(), { kind: 'stopped' }, { source: 'donor', actor: ACTOR });
    expect(`${stripe.requests.at(-1)!.method} ${stripe.requests.at(-1)!.path}`).toBe(`DELETE /v1/subscriptions/${target.gift.id}`);
    await webhook(stripe.events.findLast((x) => x.type === 'customer.subscription.deleted')!);
    expect((await refreshed()).gift.status).toBe('ended');
    await expect(changeGift(deps, await refreshed(), { kind: 'amount', amountMinor: 1000 }, { source: 'donor', actor: ACTOR })).rejects.toBeInstanceOf(ProviderError);

    expect((await giftEvents(t.db, target.gift.id)).map((e) => e.kind)).toEqual(['amount', 'paused', 'resumed', 'stopped']);
    const audit = await t.db.selectFrom('audit_log').select('action').where('action', 'like', 'monthly_gift.%').execute();
    expect(audit.map((a) => a.action)).toEqual(['monthly_gift.amount', 'monthly_gift.paused', 'monthly_gift.resumed', 'monthly_gift.stopped']);
    expect((await mailsTo(DONOR.email)).filter((m) => m.subject === 'Your monthly gift to the THV Foundation')).toHaveLength(4);
  });

  it('keeps nothing when Stripe does not confirm, and refuses an amount out of bounds', async () => {
    const first = await give(DONOR, 1200, true);
    const target = (await giftOfDonor(t.db, DONOR.email, first.secondary_ref!))!;
    stripe.failNext = 5;
    await expect(changeGift(deps, target, { kind: 'amount', amountMinor: 900 }, { source: 'donor', actor: ACTOR })).rejects.toBeInstanceOf(ProviderError);
    stripe.failNext = 0;
    await expect(changeGift(deps, target, { kind: 'amount', amountMinor: 50 }, { source: 'donor', actor: ACTOR })).rejects.toBeInstanceOf(RangeError);
    expect((await giftOfDonor(t.db, DONOR.email, first.secondary_ref!))!.gift).toMatchObject({ amount_minor: 1200, status: 'active' });
    expect(await giftEvents(t.db, first.secondary_ref!)).toEqual([]);
    // The card is updated on Stripe's billing portal of the gift's customer.
    const url = await cardUpdateUrl(deps, target, { source: 'donor', actor: ACTOR });
    expect(url).toMatch(`${stripe.url}/portal/`);
    expect(decodeURIComponent(stripe.requests.at(-1)!.body)).toContain(`customer=${stripe.subscriptions.get(first.secondary_ref!).customer}`);
  });

  it('records a failed instalment once, mails the donor once in their language, and ends the gift on subscription.deleted', async () => {
    const first = await give(OTHER, 4000, true, 'es');
    const subId = first.secondary_ref!;
    const invoice = { id: 'in_fail_1', object: 'invoice', billing_reason: 'subscription_cycle', amount_due: 4000, amount_paid: 0, currency: 'eur', customer_email: OTHER.email, parent: { subscription_details: { subscription: subId } } };
    const before = (await mailsTo(OTHER.email)).length;
    // At Stripe, the subscription is past due while the invoice is retried.
    stripe.subscriptions.get(subId).status = 'past_due';
    for (let i = 0; i < 3; i++) expect((await webhook(stripe.event('invoice.payment_failed', invoice))).status).toBe(200);
    expect(await findByRef(t.db, 'stripe', 'in_fail_1:failed')).toMatchObject({ status: 'failed', amount_minor: 4000, frequency: 'monthly', donor_email: OTHER.email });
    const mails = (await mailsTo(OTHER.email)).slice(before);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe('El cobro de su donativo mensual ha fallado');
    expect(mails[0].text).toContain('https://dons.example.org/es/mon-espace');
    expect((await monthlyGiftsOf(t.db, OTHER.email)).find((g) => g.id === subId)?.status).toBe('past_due');

    // Stripe gives up after its retries and cancels the subscription.
    const sub = stripe.subscriptions.get(subId);
    const deleted = stripe.event('customer.subscription.deleted', { ...sub, status: 'canceled' });
    // Until Stripe itself says so, an event claiming the end changes nothing (events can come out of order).
    await webhook(deleted);
    expect((await monthlyGiftsOf(t.db, OTHER.email)).find((g) => g.id === subId)?.status).toBe('past_due');
    sub.status = 'canceled';
    await webhook(deleted);
    await webhook(deleted);
    expect((await monthlyGiftsOf(t.db, OTHER.email)).find((g) => g.id === subId)?.status).toBe('ended');
    expect((await giftEvents(t.db, subId)).map((e) => e.kind)).toEqual(['payment_failed', 'ended']);
  });

  it('exports everything under an email and nothing else, as JSON and CSV', async () => {
    const now = new Date().toISOString();
    await t.db
      .insertInto('messages')
      .values([
        { id: 'm-awa', first_name: 'Awa', last_name: 'Diallo', email: 'AWA.DIALLO@example.org', message: '=HYPERLINK("x") Bonjour', language: 'fr', read_at: null, created_at: now },
        { id: 'm-jean', first_name: 'Jean', last_name: 'Martin', email: OTHER.email, message: 'Salut', language: 'fr', read_at: null, created_at: now },
      ])
      .execute();
    const gift = await give(DONOR, 1000, false);
    await recordNewsletterConsent(t.db, gift.id);
    // A gift by a company, designated to a campaign and dedicated to someone who is told by mail.
    const saved = await saveCampaign(t.db, ACTOR, null, campaignInput('puits-kaya', { fr: 'Un puits à Kaya', en: 'A well in Kaya', es: '' }));
    if (!('campaign' in saved)) throw new Error('campaign not saved');
    const company: TaxDetails = { kind: 'company', name: 'Awa Diallo', company: 'Baobab Conseil SARL', legalForm: 'SARL', siren: '552100554', address: '4 allée des Manguiers', postalCode: '69003', city: 'Lyon', country: 'France' };
    const dedication = { kind: 'honor' as const, name: 'Mariama Sow', message: 'Bon anniversaire', email: 'mariama.sow@example.org' };
    const designated = await give(DONOR, 3000, false, 'fr', { tax: company, gift: { campaignId: saved.campaign.id, feeEurCents: 90, dedication } });
    const x = await exportDonorData(t.db, DONOR.email);
    const mine = await t.db.selectFrom('donations').select('id').where((eb) => eb(eb.fn('lower', ['donor_email']), '=', DONOR.email)).execute();
    expect(x.gifts.map((g) => g.id).sort()).toEqual(mine.map((m) => m.id).sort());
    expect(x.gifts.every((g) => g.email === DONOR.email)).toBe(true);
    // Every field the gift keeps about the donor: receipt details (postal address, company, SIREN),
    // the dedication, and the campaign it went to.
    expect(x.gifts.find((g) => g.id === designated.id)).toEqual({
      id: designated.id,
      createdAt: designated.created_at,
      succeededAt: designated.succeeded_at,
      amount: '30.00',
      currency: 'EUR',
      amountEur: '30.00',
      feesCoveredEur: '0.90',
      method: 'stripe',
      status: 'succeeded',
      frequency: 'once',
      name: DONOR.name,
      email: DONOR.email,
      language: 'fr',
      campaign: { slug: 'puits-kaya', title: 'Un puits à Kaya' },
      taxReceiptDetails: company,
      dedication: { ...dedication, notifiedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) },
    });
    expect(x.gifts.find((g) => g.id === gift.id)).toMatchObject({ feesCoveredEur: '0.00', campaign: null, taxReceiptDetails: null, dedication: null });
    expect(x.messages.map((m) => m.id)).toEqual(['m-awa']);
    expect(x.consents).toEqual([expect.objectContaining({ kind: 'newsletter', donationId: gift.id, withdrawnAt: null })]);
    expect(x.monthlyGifts.length).toBe(2);
    const json = JSON.stringify(x);
    expect(json).not.toContain(OTHER.email);
    expect(json).not.toContain('Jean');
    const csv = donorExportCsv(x);
    expect(csv.split('\r\n').filter((l) => l.startsWith('"gift"'))).toHaveLength(x.gifts.length);
    expect(csv).toContain(`"'=HYPERLINK(""x"") Bonjour"`);
    expect(csv).not.toContain(OTHER.email);
    // The same fields in the CSV, each in its column.
    const [header, ...lines] = csv.replace(/^\uFEFF/, '').trim().split('\r\n').map((l) => l.split(';').map((c) => c.slice(1, -1)));
    const row = Object.fromEntries(header.map((h, i) => [h, lines.find((l) => l[1] === designated.id)![i]]));
    expect(row).toMatchObject({
      record: 'gift',
      amount: '30.00',
      fees_covered_eur: '0.90',
      name: DONOR.name,
      email: DONOR.email,
      campaign: 'Un puits à Kaya (puits-kaya)',
      tax_kind: 'company',
      tax_name: 'Awa Diallo',
      tax_company: 'Baobab Conseil SARL',
      tax_legal_form: 'SARL',
      tax_siren: '552100554',
      tax_address: '4 allée des Manguiers',
      tax_postal_code: '69003',
      tax_city: 'Lyon',
      tax_country: 'France',
      dedication_kind: 'honor',
      dedication_name: 'Mariama Sow',
      dedication_message: 'Bon anniversaire',
      dedication_email: 'mariama.sow@example.org',
    });
    expect(row.dedication_notified_at).toBe(x.gifts.find((g) => g.id === designated.id)!.dedication!.notifiedAt);
  });

  it('records newsletter consent with its date, lists opted-in donors, and lets them withdraw', async () => {
    const gift = await give(OTHER, 800, false);
    await recordNewsletterConsent(t.db, gift.id, new Date('2030-03-01T00:00:00Z'));
    const list = await newsletterOptIns(t.db);
    expect(list.map((o) => o.email)).toEqual([DONOR.email, OTHER.email]);
    expect(list[1]).toMatchObject({ name: OTHER.name, givenAt: '2030-03-01T00:00:00.000Z' });
    expect(await hasNewsConsent(t.db, OTHER.email)).toBe(true);
    expect(await leave(t.db, OTHER.email, 'space')).toBe(true);
    expect(await hasNewsConsent(t.db, OTHER.email)).toBe(false);
    expect((await newsletterOptIns(t.db)).map((o) => o.email)).toEqual([DONOR.email]);
  });

  it('erases a donor: no trace of the email, names, addresses or dedications in any table but the receipts register, every total unchanged', async () => {
    // A running monthly gift would bring the email back: erasure waits until it is stopped.
    expect(await eraseDonorData(t.db, DONOR.email, ACTOR)).toEqual({ ok: false, reason: 'active_monthly' });
    for (const g of await monthlyGiftsOf(t.db, DONOR.email)) {
      if (g.status !== 'ended') await changeGift(deps, (await giftOfDonor(t.db, DONOR.email, g.id))!, { kind: 'stopped' }, { source: 'donor', actor: ACTOR });
    }
    const admin = { id: 'admin-1', name: 'Alice Admin' };
    // With receipts on, a gift with the donor's postal address gets a receipt the law makes us keep
    // (the export test's gift already carries a company's details, without a receipt).
    await setReceiptSettings(t.db);
    const address: TaxDetails = { kind: 'individual', name: 'Awa Diallo', company: '', siren: '', address: '7 impasse des Baobabs', postalCode: 'BP 210', city: 'Kaolack', country: 'Sénégal' };
    const receipted = await give(DONOR, 4000, false, 'fr', { tax: address });
    const [receipt] = await receiptsOfDonation(t.db, receipted.id);
    expect(receipt).toMatchObject({ status: 'issued', donor_email: DONOR.email });
    const pdfBefore = await renderReceiptPdf(receipt);
    // A gift in memory of someone, paid without a name: the mail to the person told names only them.
    await give({ email: DONOR.email, name: '' }, 2000, false, 'fr', { gift: { dedication: { kind: 'memory', name: 'Fatou Ndiaye', message: 'En souvenir de nos étés', email: 'fatou.ndiaye@example.org' } } });
    expect((await mailsTo('fatou.ndiaye@example.org')).map((m) => m.text).join()).toContain('En souvenir de nos étés');
    expect((await mailsTo('mariama.sow@example.org')).map((m) => m.text).join()).toContain('Awa Diallo');
    // A contact notification to the team quoting the donor, and an admin sign-in attempt with the email.
    await t.db.insertInto('mail_outbox').values({ id: 'notif', to: 'team@fondation.org', subject: 'Message de Awa Diallo', text: `De : Awa Diallo <${DONOR.email}>`, html: '', created_at: new Date().toISOString(), sent_at: null, error: null }).execute();
    await t.db.insertInto('rate_limits').values({ key: `login:account:${DONOR.email}`, count: 1, reset_at: Date.now() + 60_000 }).execute();
    await ask({ email: DONOR.email, ip: '10.5.5.5', deliver: () => undefined });
    // A contact message an Éditeur deleted: its line in the audit log names the writer, as they signed it.
    await t.db.insertInto('messages').values({ id: 'm-bye', first_name: 'Awa', last_name: 'Diallo-Ba', email: DONOR.email, message: 'Merci', language: 'fr', read_at: null, created_at: new Date().toISOString() }).execute();
    await deleteMessage(t.db, admin, 'm-bye');
    expect(await t.db.selectFrom('audit_log').select('target').where('action', '=', 'message.delete').execute()).toEqual([{ target: `Awa Diallo-Ba <${DONOR.email}>` }]);
    // And a line that names the donor without the email.
    await audit(t.db, admin, 'donor.call', 'Rappel de Awa Diallo', { about: 'awa diallo' });

    const totals = async () =>
      (
        await t.db
          .selectFrom('donations')
          .select(['status', sql<number>`count(*)`.as('n'), sql<number>`coalesce(sum(eur_cents), 0)`.as('eur')])
          .groupBy('status')
          .orderBy('status')
          .execute()
      ).map((r) => ({ status: r.status, n: Number(r.n), eur: Number(r.eur) }));
    const before = await totals();
    const otherBefore = await exportDonorData(t.db, OTHER.email);
    const registerBefore = await t.db.selectFrom('receipts').selectAll().orderBy('id').execute();
    const result = await eraseDonorData(t.db, DONOR.email, admin);
    expect(result).toMatchObject({ ok: true, messages: 1 });
    expect(await totals()).toEqual(before);

    const tables =
      dialect === 'sqlite'
        ? (await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(t.db)).rows
        : (await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(t.db)).rows;
    expect(tables.map((r) => r.name)).toEqual(expect.arrayContaining(['donations', 'messages', 'mail_outbox', 'donor_links', 'audit_log', 'rate_limits', 'receipts']));
    const traces = [
      DONOR.email,
      'awa',
      'diallo',
      // The receipt details: postal addresses, the company and its SIREN.
      '7 impasse des baobabs',
      'kaolack',
      '4 allée des manguiers',
      '69003',
      'baobab conseil',
      '552100554',
      // The dedications: names, messages, addresses.
      'mariama',
      'bon anniversaire',
      'fatou',
      'ndiaye',
      'en souvenir de nos étés',
    ];
    const dumpOf = async (table: string) => JSON.stringify((await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(t.db)).rows).toLowerCase();
    for (const { name } of tables) {
      // The one exception, which the donor space and the privacy page state: issued tax receipts
      // are kept as the law requires, with the name, address and email they were made out to.
      if (name === 'receipts') continue;
      const dump = await dumpOf(name);
      for (const trace of traces) expect(dump, `table ${name}: ${trace}`).not.toContain(trace);
    }
    const register = await dumpOf('receipts');
    for (const kept of [DONOR.email, 'awa diallo', '7 impasse des baobabs', 'kaolack']) expect(register).toContain(kept);
    expect(await t.db.selectFrom('receipts').selectAll().orderBy('id').execute()).toEqual(registerBefore);
    // The receipt prints the same from the register alone.
    expect(Buffer.compare(await renderReceiptPdf((await receiptsOfDonation(t.db, receipted.id))[0]), pdfBefore)).toBe(0);

    // The audit log keeps what happened, naming the donor by a hash.
    const ref = donorRef(DONOR.email);
    expect(await t.db.selectFrom('audit_log').select(['action', 'target', 'details']).where('action', 'in', ['message.delete', 'donor.call']).orderBy('action').execute()).toEqual([
      { action: 'donor.call', target: `Rappel de ${ref}`, details: JSON.stringify({ about: ref }) },
      { action: 'message.delete', target: ref, details: JSON.stringify({ id: 'm-bye' }) },
    ]);
    // Another donor is untouched; the audit log says who erased, not whom.
    expect(await exportDonorData(t.db, OTHER.email)).toEqual({ ...otherBefore, exportedAt: expect.any(String) });
    expect(await t.db.selectFrom('audit_log').select(['user_name', 'action']).where('action', '=', 'donor.erased').execute()).toEqual([{ user_name: 'Alice Admin', action: 'donor.erased' }]);
    expect((await exportDonorData(t.db, DONOR.email)).gifts).toEqual([]);
  });

  it('purges contact messages and abandoned attempts older than the retention period, nothing paid', async () => {
    const old = '2020-01-01T00:00:00.000Z';
    await t.db.insertInto('messages').values({ id: 'm-old', first_name: 'A', last_name: 'B', email: 'old@example.org', message: 'x', language: 'fr', read_at: null, created_at: old }).execute();
    const { donation } = await startCardDonation(deps, { amountCents: 500, monthly: false, lang: 'fr' });
    await t.db.updateTable('donations').set({ created_at: old }).where('id', '=', donation.id).execute();
    const paid = await give(OTHER, 700, false);
    await t.db.updateTable('donations').set({ created_at: old }).where('id', '=', paid.id).execute();
    const freshMessages = (await t.db.selectFrom('messages').select('id').where('created_at', '>', old).execute()).length;
    expect(await purgeExpiredPersonalData(t.db, 365)).toEqual({ messages: 1, attempts: 1 });
    expect(await findById(t.db, donation.id)).toBeUndefined();
    expect(await findById(t.db, paid.id)).toMatchObject({ status: 'succeeded' });
    expect((await t.db.selectFrom('messages').select('id').execute()).length).toBe(freshMessages);
  });
});

describeEachDialect('privacy page default on %s', (dialect) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(dialect);
  });
  afterAll(async () => {
    await t?.destroy();
  });
  const put = async (texts: unknown, version: number) => {
    await t.db.deleteFrom('revisions').where('entity_type', '=', 'page').where('entity_id', '=', 'privacy').execute();
    await t.db.deleteFrom('page_content').where('page_id', '=', 'privacy').execute();
    await t.db.insertInto('page_content').values({ page_id: 'privacy', images: '{}', texts: JSON.stringify(texts), version, updated_at: '2026-01-01T00:00:00.000Z' }).execute();
  };
  const stored = async () => t.db.selectFrom('page_content').select(['texts', 'version']).where('page_id', '=', 'privacy').executeTakeFirstOrThrow();
  const content = async () => JSON.parse((await stored()).texts) as Record<'fr' | 'en' | 'es', { title: string; content: string }>;

  it('replaces the first default by the current one on a site where nobody edited the page', async () => {
    await put(PRIVACY_V1, 1);
    expect(await upgradePrivacyDefault(t.db, DEFAULT_RETENTION_DAYS)).toBe(true);
    const row = await stored();
    expect(row.version).toBe(2);
    const texts = JSON.parse(row.texts);
    expect(texts).toEqual(privacyTexts(DEFAULT_RETENTION_DAYS));
    for (const lang of ['fr', 'en', 'es'] as const) expect(texts[lang].content).toContain('href="/mon-espace"');
    // Run again at the next start: nothing changes.
    expect(await upgradePrivacyDefault(t.db, DEFAULT_RETENTION_DAYS)).toBe(false);
  });

  it('tells what a receipt and a dedication keep, what erasure removes and what the law keeps', async () => {
    const texts = privacyTexts(DEFAULT_RETENTION_DAYS);
    expect(texts.fr.content).toContain('<strong>Votre reçu fiscal</strong>, si vous en demandez un : nom, adresse postale, et pour une entreprise sa raison sociale et son numéro SIREN.');
    expect(texts.fr.content).toContain('<strong>Votre dédicace</strong>');
    expect(texts.fr.content).toContain('votre nom, votre email, votre adresse postale et vos dédicaces sont retirés partout');
    expect(texts.fr.content).toContain('les reçus fiscaux déjà émis sont conservés comme la loi l’exige');
    expect(texts.en.content).toContain('postal address');
    expect(texts.en.content).toContain('<strong>Your dedication</strong>');
    expect(texts.es.content).toContain('dirección postal');
    expect(texts.es.content).toContain('<strong>Su dedicatoria</strong>');
  });

  it('states the configured retention period, and follows it while nobody edits the page', async () => {
    // The default period reads as it always did.
    expect(privacyTexts(730).fr.content).toContain('effacés automatiquement au bout de 24 mois.');
    // A site that keeps messages a year, then 90 days.
    await put(PRIVACY_V2, 1);
    expect(await upgradePrivacyDefault(t.db, 365)).toBe(true);
    let texts = await content();
    expect(texts.fr.content).toContain('au bout de 12 mois.');
    expect(texts.en.content).toContain('after 12 months.');
    expect(texts.es.content).toContain('a los 12 meses.');
    for (const lang of ['fr', 'en', 'es'] as const) expect(texts[lang].content).not.toContain('24');
    expect(await upgradePrivacyDefault(t.db, 90)).toBe(true);
    texts = await content();
    expect(texts).toEqual(privacyTexts(90));
    expect(texts.fr.content).toContain('au bout de 90 jours.');
    expect(texts.en.content).toContain('after 90 days.');
    expect(texts.es.content).toContain('a los 90 días.');
    expect((await stored()).version).toBe(3);
    // The second default, as a site upgraded from the first holds it, moves on too.
    await put(PRIVACY_V2, 2);
    expect(await upgradePrivacyDefault(t.db, 730)).toBe(true);
    expect(await content()).toEqual(privacyTexts(730));
  });

  it('never overwrites an admin’s change', async () => {
    const edited = { ...PRIVACY_V1, fr: { ...PRIVACY_V1.fr, content: '<p>Notre texte à nous.</p>' } };
    await put(edited, 1);
    expect(await upgradePrivacyDefault(t.db, DEFAULT_RETENTION_DAYS)).toBe(false);
    expect(JSON.parse((await stored()).texts)).toEqual(edited);
    // Saved by an admin unchanged (version moved on): left alone too.
    await put(PRIVACY_V1, 3);
    expect(await upgradePrivacyDefault(t.db, DEFAULT_RETENTION_DAYS)).toBe(false);
    expect(await stored()).toEqual({ texts: JSON.stringify(PRIVACY_V1), version: 3 });
    await put(PRIVACY_V2, 3);
    expect(await upgradePrivacyDefault(t.db, DEFAULT_RETENTION_DAYS)).toBe(false);
    // The current default saved through the back office (a revision records it): another period
    // changes nothing, the admin keeps what they saved.
    await put(privacyTexts(365), 1);
    const page = await getEditablePage(t.db, 'privacy');
    expect(await savePageContent(t.db, { id: null, name: 'Alice Admin' }, 'privacy', page, page.version)).toBe('ok');
    const saved = await stored();
    expect(await upgradePrivacyDefault(t.db, 90)).toBe(false);
    expect(await stored()).toEqual(saved);
  });
});
