import { afterAll, beforeAll, expect, it } from 'vitest';
import { up as renameDuesMeans } from '~db/migrations/020-dues-means';
import type { PaymentEvent } from '~/domain/donations/events.server';
import { createAttempt, findById, transition, type Donation } from '~/domain/donations/ledger.server';
import { handleStripeWebhook, startCardDonation, type DonationDeps } from '../support/payment-entry';
import { applyDuesPayment } from '~/domain/membership/dues.server';
import { duesReturn, join, renew, renewalOf } from '~/domain/membership/join.server';
import type { JoinInput } from '~/domain/membership/join-form';
import { parisDay } from '~/lib/paris';
import { addDays, yearFrom } from '~/domain/membership/period';
import { DuesNotPayableError, membershipOfPayment, onDuesPayment, startDues } from '~/domain/membership/payments.server';
import { createMember, duesHistory, getMember } from '~/domain/membership/register.server';
import { renewalToken } from '~/domain/membership/reminders.server';
import { createType } from '~/domain/membership/types.server';
import type { FakeStripe } from '../fakes/stripe';
import type { TestDb } from '../support/db';
import { describeEachDialect } from '../support/db';
import { stripeCardWorld } from '../support/donations';
import { startFakeCoinGate } from '../fakes/coingate';
import { parseEnv } from '~/lib/env.server';
import { memberInput, membershipType } from '../support/membership';
import { DONOR, setReceiptSettings } from '../support/receipts';
import { setLogSink } from '~/lib/log.server';

const KEYS = { appSecret: 'dues-pipeline-'.padEnd(48, 'd'), secretKey: 'sk_test_dues', webhookSecret: 'whsec_dues' };
const ADMIN = { id: 'u-admin', name: 'Alice Admin' };
const product = (name: string) => `Cotisation — ${name}`;

/** Dues through the one payment pipeline (ADR 019, 021): started by membership, settled by the ledger, applied by the 'dues' subscriber. */
describeEachDialect('membership dues through the payment pipeline on %s', (dialect) => {
  let world: Awaited<ReturnType<typeof stripeCardWorld>>;
  let t: TestDb;
  let stripe: FakeStripe;
  let deps: DonationDeps;
  let active: string;
  let deductible: string;
  let honorary: string;
  beforeAll(async () => {
    world = await stripeCardWorld(dialect, KEYS);
    ({ t, stripe, deps } = world);
    active = await createType(t.db, ADMIN, membershipType());
    deductible = await createType(t.db, ADMIN, membershipType({ name_fr: 'Membre donateur', dues: '50', tax_deductible: 'on' }));
    honorary = await createType(t.db, ADMIN, membershipType({ name_fr: 'Membre d’honneur', dues: '0' }));
  });
  afterAll(() => world?.close());

  const today = () => parisDay(new Date().toISOString());
  const joining = (over: Partial<JoinInput> = {}): JoinInput => ({ ...memberInput(active), method: 'card', statutes: 'on', privacy: 'on', news: false, ...over });
  const mailsTo = (to: string) => t.db.selectFrom('mail_outbox').select(['subject', 'text']).where('to', '=', to).orderBy('created_at').execute();
  const sessionOf = (url: string) => url.split('/pay/')[1];
  const lastJoined = async () => (await t.db.selectFrom('memberships').select(['id', 'number']).orderBy('number', 'desc').executeTakeFirstOrThrow());
  const paymentsOf = (membershipId: string) => t.db.selectFrom('membership_payments').select(['payment_id', 'kind']).where('membership_id', '=', membershipId).execute();
  /** Joins by card: the member entered and the dues payment started for them. */
  const joinByCard = async (over: Partial<JoinInput>, lang: 'fr' | 'en' = 'fr') => {
    expect((await join(deps, joining(over), lang, product)).kind).toBe('pay');
    const m = await lastJoined();
    const [link] = await paymentsOf(m.id);
    return { m, link, payment: (await findById(t.db, link.payment_id))! };
  };

  it('a visitor joins by card: the payment is of purpose dues at the type’s amount, and the membership waits for it', async () => {
    const { m, link, payment } = await joinByCard({ email: 'join1@example.org' });
    expect((await getMember(t.db, m.id, today(), 30))?.state).toBe('pending');
    expect(link.kind).toBe('join');
    expect(payment).toMatchObject({ purpose: 'dues', status: 'pending', amount_minor: 3000, currency: 'EUR', donor_name: 'Awa Diop', tax_details: null });
    const sent = decodeURIComponent(stripe.requests.at(-1)!.body);
    expect(sent).toContain('success_url=https://dons.example.org/devenir-membre/merci?session_id={CHECKOUT_SESSION_ID}');
    expect(sent).toContain(`cancel_url=https://dons.example.org/devenir-membre/annule?d=${link.payment_id}`);
    expect(sent).toContain('Cotisation — Membre actif');
    // Not yet paid: the return page says so, from the provider's word, not the query.
    const pending = await duesReturn(deps, new URLSearchParams({ d: link.payment_id }));
    expect(pending).toMatchObject({ state: 'pending', number: m.number, endsOn: null });
  });

  it('the signed webhook activates it once, however often replayed; the member gets one mail, and no gift thank-you', async () => {
    const { m, payment } = await joinByCard({ email: 'join2@example.org', first_name: 'Binta' }, 'en');
    const ev = stripe.complete(payment.provider_ref);
    for (let i = 0; i < 5; i++) expect(await handleStripeWebhook(deps, ev.payload, ev.header)).toEqual({ status: 200, message: 'ok' });
    const member = await getMember(t.db, m.id, today(), 30);
    expect(member).toMatchObject({ state: 'active', endsOn: yearFrom(today()) });
    const dues = await duesHistory(t.db, m.id);
    expect(dues).toHaveLength(1);
    expect(dues[0]).toMatchObject({ amountCents: 3000, method: 'card', status: 'paid' });
    const mails = await mailsTo('join2@example.org');
    expect(mails.map((x) => x.subject)).toEqual(['Your THV Foundation membership is active']);
    expect(mails[0].text).toContain(`no. ${m.number}`);
    // The payer's address Stripe reported got no gift thank-you either.
    expect((await mailsTo('donor@example.org')).filter((x) => x.subject.includes('donation'))).toEqual([]);
    expect(await duesReturn(deps, new URLSearchParams({ session_id: payment.provider_ref }))).toEqual({ state: 'active', number: m.number, endsOn: yearFrom(today()), emailed: true, paymentId: payment.id });
  });

  it('tampered, unsigned or foreign-signed callbacks and a wrong amount change nothing: the membership stays pending', async () => {
    const { m, payment } = await joinByCard({ email: 'join3@example.org' });
    const ev = stripe.complete(payment.provider_ref);
    expect((await handleStripeWebhook(deps, ev.payload.replace('3000', '300'), ev.header)).status).toBe(400);
    expect((await handleStripeWebhook(deps, ev.payload, null)).status).toBe(400);
    expect((await handleStripeWebhook(deps, ev.payload, stripe.sign(ev.payload, 'whsec_other'))).status).toBe(400);
    expect((await getMember(t.db, m.id, today(), 30))?.state).toBe('pending');
    // Signed, but for another amount than the dues: the ledger fails it and the subscriber hears nothing.
    const wrong = stripe.complete(payment.provider_ref, { amount_total: 100 });
    await handleStripeWebhook(deps, wrong.payload, wrong.header);
    expect((await findById(t.db, payment.id))?.status).toBe('failed');
    expect(await getMember(t.db, m.id, today(), 30)).toMatchObject({ state: 'pending', endsOn: null });
    expect(await duesHistory(t.db, m.id)).toEqual([]);
    expect(await mailsTo('join3@example.org')).toEqual([]);
  });

  it('a refund gives the year back: the membership is pending again, and a replayed refund changes nothing', async () => {
    const { m, payment } = await joinByCard({ email: 'join4@example.org' });
    const ev = stripe.complete(payment.provider_ref);
    await handleStripeWebhook(deps, ev.payload, ev.header);
    expect((await getMember(t.db, m.id, today(), 30))?.state).toBe('active');
    const refund = stripe.refund({ paymentIntent: `pi_${payment.provider_ref}` });
    for (let i = 0; i < 3; i++) expect((await handleStripeWebhook(deps, refund.payload, refund.header)).status).toBe(200);
    expect((await findById(t.db, payment.id))?.status).toBe('refunded');
    expect(await getMember(t.db, m.id, today(), 30)).toMatchObject({ state: 'pending', endsOn: null });
    expect((await duesHistory(t.db, m.id)).map((d) => d.status)).toEqual(['refunded']);
  });

  it('the subscriber acts on purpose dues only: a gift, or a dues payment that failed, changes no membership', async () => {
    const gift = await startCardDonation(deps, { amountCents: 3000, monthly: false, lang: 'fr' });
    const ev = stripe.complete(gift.donation.provider_ref);
    await handleStripeWebhook(deps, ev.payload, ev.header);
    const paid = (await findById(t.db, gift.donation.id))!;
    const event = (over: Partial<PaymentEvent>): PaymentEvent => ({ type: 'payment.succeeded', purpose: 'gift', payment: paid, receipt: null, cancelledReceipts: [], reissuedReceipts: [], ...over });
    expect(await onDuesPayment(deps, event({}))).toBeNull();
    expect(await onDuesPayment(deps, event({ type: 'payment.refunded' }))).toBeNull();
    expect(await t.db.selectFrom('membership_dues').select('id').where('payment_id', '=', paid.id).execute()).toEqual([]);
    // A dues payment no membership was linked to (not started by startDues) is logged, not applied.
    expect(await onDuesPayment(deps, event({ purpose: 'dues' }))).toBeNull();
    expect(await t.db.selectFrom('membership_dues').select('id').where('payment_id', '=', paid.id).execute()).toEqual([]);
    const m = await createMember(t.db, null, memberInput(active, { email: 'failed@example.org' }));
    const attempt = await createAttempt(t.db, { provider: 'stripe', purpose: 'dues', amountMinor: 3000, currency: 'EUR', eurCents: 3000, frequency: 'once', language: 'fr' });
    await t.db.insertInto('membership_payments').values({ payment_id: attempt.id, membership_id: m.id, kind: 'join', created_at: new Date().toISOString() }).execute();
    const failed = await transition(t.db, { id: attempt.id }, 'failed');
    expect(failed.changed).toBe(true);
    expect((await getMember(t.db, m.id, today(), 30))?.state).toBe('pending');
    expect(await membershipOfPayment(t.db, attempt.id)).toBe(m.id);
  });

  it('startDues starts the type’s amount with the member’s own details, links the payment, and refuses an exempt member', async () => {
    // No email and no country given: the attempt carries no address, and the receipt's country is France.
    const m = await createMember(t.db, ADMIN, memberInput(deductible, { email: '', country: '', first_name: 'Ndeye', last_name: 'Fall' }));
    const started = await startDues(deps, { membershipId: m.id, method: 'card', lang: 'en', kind: 'renewal', productName: 'Dues — Donor member' });
    expect(started.url).toContain(`/pay/${started.payment.provider_ref}`);
    const payment = (await findById(t.db, started.payment.id))!;
    expect(payment).toMatchObject({ purpose: 'dues', amount_minor: 5000, eur_cents: 5000, currency: 'EUR', frequency: 'once', language: 'en', donor_name: 'Ndeye Fall', donor_email: null });
    expect(JSON.parse(payment.tax_details!)).toEqual({ kind: 'individual', name: 'Ndeye Fall', company: '', siren: '', address: '12 rue des Lilas', postalCode: '75011', city: 'Paris', country: 'France' });
    expect(decodeURIComponent(stripe.requests.at(-1)!.body)).toContain('Dues — Donor member');
    expect(await paymentsOf(m.id)).toEqual([{ payment_id: payment.id, kind: 'renewal' }]);
    expect(await membershipOfPayment(t.db, payment.id)).toBe(m.id);
    // By crypto (CoinGate keeps the address the attempt gives it): a member abroad, with an address,
    // reaches the attempt as given; without one, the attempt has none.
    const cg = await startFakeCoinGate({ port: 0, authToken: 'cg-dues' });
    try {
      // CoinGate on for this test's deps only: the other tests keep the world's card-only settings.
      const settings = { ...deps.settings, coingate: { ...deps.settings.coingate, enabled: true }, secrets: { ...deps.settings.secrets, 'coingate.authToken': 'cg-dues' } };
      const crypto: DonationDeps = { ...deps, settings, env: parseEnv({ STRIPE_API_BASE: stripe.url, COINGATE_API_BASE: cg.url }) };
      const abroad = await createMember(t.db, ADMIN, memberInput(deductible, { email: 'Moussa@Example.org', country: 'Sénégal', city: 'Dakar', postal_code: '10200' }));
      const byCrypto = await startDues(crypto, { membershipId: abroad.id, method: 'crypto', lang: 'fr', kind: 'join', productName: 'x' });
      expect(byCrypto.url).toMatch(/\/invoice\/\d+$/);
      expect(await findById(t.db, byCrypto.payment.id)).toMatchObject({ provider: 'coingate', amount_minor: 5000, donor_email: 'moussa@example.org' });
      expect(JSON.parse(byCrypto.payment.tax_details!)).toMatchObject({ city: 'Dakar', postalCode: '10200', country: 'Sénégal' });
      const noEmail = await startDues(crypto, { membershipId: m.id, method: 'crypto', lang: 'fr', kind: 'renewal', productName: 'x' });
      expect((await findById(t.db, noEmail.payment.id))?.donor_email).toBeNull();
    } finally {
      await cg.close();
    }
    // Exempt from dues (a paying type): nothing to start, nothing linked; the errors name the membership.
    const exempt = await createMember(t.db, ADMIN, memberInput(active, { exempt: true }));
    const requests = stripe.requests.length;
    // Its name is what the logs show of it (a refusal, not a crash of the pipeline).
    await expect(startDues(deps, { membershipId: exempt.id, method: 'card', lang: 'fr', kind: 'join', productName: 'x' })).rejects.toMatchObject({ name: 'DuesNotPayableError', message: `Membership ${exempt.id} has no dues to pay` });
    await expect(startDues(deps, { membershipId: 'nope', method: 'card', lang: 'fr', kind: 'join', productName: 'x' })).rejects.toThrow(new DuesNotPayableError('No membership nope'));
    expect(stripe.requests.length).toBe(requests);
    expect(await paymentsOf(exempt.id)).toEqual([]);
  });

  /** A dues payment linked to a new membership, as the ledger hands it to the subscriber. */
  const linkedPayment = async (over: Partial<Donation> = {}) => {
    const m = await createMember(t.db, ADMIN, memberInput(active, { email: '' }));
    const attempt = await createAttempt(t.db, { provider: 'stripe', purpose: 'dues', amountMinor: 3000, currency: 'EUR', eurCents: 3000, frequency: 'once', language: 'fr' });
    await t.db.insertInto('membership_payments').values({ payment_id: attempt.id, membership_id: m.id, kind: 'join', created_at: new Date().toISOString() }).execute();
    const payment: Donation = { ...attempt, status: 'succeeded', ...over };
    const event = (type: PaymentEvent['type'], p: Donation = payment): PaymentEvent => ({ type, purpose: 'dues', payment: p, receipt: null, cancelledReceipts: [], reissuedReceipts: [] });
    return { m, payment, event };
  };

  it('the subscriber records the verified euro amount, the provider’s date and the method, falling back to the amount and last change', async () => {
    // Paid in another currency: the dues are the verified euros, dated when the provider said it was paid.
    const usd = await linkedPayment({ provider: 'paypal', currency: 'USD', amount_minor: 3300, eur_cents: 3000, succeeded_at: '2026-03-02T09:15:00.000Z', updated_at: '2026-03-04T10:00:00.000Z' });
    const applied = await onDuesPayment(deps, usd.event('payment.succeeded'));
    expect(applied).toMatchObject({ membershipId: usd.m.id, applied: { status: 'applied', period: { start: '2026-03-02' } } });
    expect((await duesHistory(t.db, usd.m.id))[0]).toMatchObject({ paymentId: usd.payment.id, amountCents: 3000, paidAt: '2026-03-02T09:15:00.000Z', method: 'paypal', status: 'paid' });
    // No euro figure nor success date on the row: its amount and its last change.
    const bare = await linkedPayment({ provider: 'flutterwave', amount_minor: 3000, eur_cents: null, succeeded_at: null, updated_at: '2026-04-10T08:00:00.000Z' });
    expect(await onDuesPayment(deps, bare.event('payment.succeeded'))).toMatchObject({ membershipId: bare.m.id, applied: { status: 'applied', period: { start: '2026-04-10' } } });
    expect((await duesHistory(t.db, bare.m.id))[0]).toMatchObject({ amountCents: 3000, paidAt: '2026-04-10T08:00:00.000Z', method: 'mobileMoney' });
    // Dues recorded before version 020 named mobile money 'mobile_money': the migration renames them, and nothing else.
    await t.db.updateTable('membership_dues').set({ method: 'mobile_money' }).where('membership_id', '=', bare.m.id).execute();
    await renameDuesMeans(t.db as never);
    expect((await duesHistory(t.db, bare.m.id))[0]).toMatchObject({ method: 'mobileMoney' });
    expect((await duesHistory(t.db, usd.m.id))[0]).toMatchObject({ method: 'paypal' });
    // Each provider's name in the dues history; one the table does not know keeps its own name.
    for (const [provider, method] of [['stripe', 'card'], ['coingate', 'crypto'], ['bank', 'bank']] as const) {
      const p = await linkedPayment({ provider: provider as Donation['provider'] });
      await onDuesPayment(deps, p.event('payment.succeeded'));
      expect((await duesHistory(t.db, p.m.id)).map((d) => d.method)).toEqual([method]);
    }
  });

  it('a failed dues payment changes nothing; one linked to no membership is logged for the team', async () => {
    const failed = await linkedPayment({ status: 'failed' });
    expect(await onDuesPayment(deps, failed.event('payment.failed'))).toBeNull();
    expect(await duesHistory(t.db, failed.m.id)).toEqual([]);
    const lines: string[] = [];
    const restore = setLogSink((level, line) => void (level === 'error' ? lines.push(line) : undefined));
    try {
      const orphan = await createAttempt(t.db, { provider: 'stripe', purpose: 'dues', amountMinor: 3000, currency: 'EUR', eurCents: 3000, frequency: 'once', language: 'fr' });
      expect(await onDuesPayment(deps, failed.event('payment.succeeded', { ...orphan, status: 'succeeded' }))).toBeNull();
      expect(lines.map((l) => JSON.parse(l))).toEqual([expect.objectContaining({ level: 'error', msg: 'dues payment names no membership', donationId: orphan.id })]);
    } finally {
      setLogSink(restore);
    }
  });

  it('a refund or a cancellation revokes the dues, dated by the payment’s last change, with its reason; a replay answers unchanged', async () => {
    for (const [type, reason] of [['payment.refunded', 'refunded'], ['payment.cancelled', 'cancelled']] as const) {
      const { m, payment, event } = await linkedPayment({ updated_at: '2026-05-01T12:00:00.000Z' });
      await onDuesPayment(deps, event('payment.succeeded'));
      expect((await getMember(t.db, m.id, today(), 30))?.state).not.toBe('pending');
      const revokedAt = '2026-06-15T07:30:00.000Z';
      const after = { ...payment, status: reason, updated_at: revokedAt };
      expect(await onDuesPayment(deps, event(type, after))).toEqual({ membershipId: m.id, revoked: { status: 'revoked', membershipId: m.id, endsOn: null } });
      expect(await duesHistory(t.db, m.id)).toEqual([expect.objectContaining({ paymentId: payment.id, status: reason, revokedAt })]);
      expect(await onDuesPayment(deps, event(type, after))).toEqual({ membershipId: null, revoked: { status: 'unchanged' } });
    }
  });

  it('refuses a free type, an unknown type and a method not configured; a free type’s dues cannot be started', async () => {
    const count = async () => Number((await t.db.selectFrom('memberships').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const before = await count();
    expect(await join(deps, joining({ type_id: honorary }), 'fr', product)).toEqual({ kind: 'refused', field: 'type_id' });
    expect(await join(deps, joining({ type_id: 'nope' }), 'fr', product)).toEqual({ kind: 'refused', field: 'type_id' });
    expect(await join(deps, joining({ method: 'crypto' }), 'fr', product)).toEqual({ kind: 'refused', field: 'method' });
    expect(await count()).toBe(before);
    const free = await createMember(t.db, ADMIN, memberInput(honorary));
    await expect(startDues(deps, { membershipId: free.id, method: 'card', lang: 'fr', kind: 'join', productName: 'x' })).rejects.toThrow(DuesNotPayableError);
    await expect(startDues(deps, { membershipId: 'nope', method: 'card', lang: 'fr', kind: 'join', productName: 'x' })).rejects.toThrow(DuesNotPayableError);
    expect(await count()).toBe(before + 1);
  });

  it('"je paie autrement" enters a pending membership and starts no payment', async () => {
    const requests = stripe.requests.length;
    const r = await join(deps, joining({ method: 'other', email: 'cheque@example.org' }), 'es', product);
    expect(r.kind).toBe('pending');
    if (r.kind !== 'pending') return;
    expect(await getMember(t.db, r.membershipId, today(), 30)).toMatchObject({ state: 'pending', language: 'es', email: 'cheque@example.org' });
    expect(await paymentsOf(r.membershipId)).toEqual([]);
    expect(stripe.requests.length).toBe(requests);
  });

  it('the news box is kept with the membership as dated consent, and left unticked gives none', async () => {
    const yes = await join(deps, joining({ method: 'other', email: 'news-yes@example.org', news: true }), 'fr', product);
    const no = await join(deps, joining({ method: 'other', email: 'news-no@example.org' }), 'fr', product);
    const consent = (email: string) => t.db.selectFrom('memberships').select('news_consent_at').where('email', '=', email).executeTakeFirstOrThrow();
    expect(yes.kind).toBe('pending');
    expect(no.kind).toBe('pending');
    expect((await consent('news-yes@example.org')).news_consent_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect((await consent('news-no@example.org')).news_consent_at).toBeNull();
  });

  it('deductible dues get a reçu fiscal in the gifts’ numbering: a gift’s receipt and a dues receipt are consecutive', async () => {
    await setReceiptSettings(t.db);
    const gift = await startCardDonation(deps, { amountCents: 2500, monthly: false, lang: 'fr', taxDetails: JSON.stringify(DONOR) });
    const g = stripe.complete(gift.donation.provider_ref);
    await handleStripeWebhook(deps, g.payload, g.header);
    const { payment: due } = await joinByCard({ type_id: deductible, email: 'deduct@example.org', first_name: 'Fatou', last_name: 'Sow' });
    expect(JSON.parse(due.tax_details!)).toMatchObject({ kind: 'individual', name: 'Fatou Sow', address: '12 rue des Lilas', postalCode: '75011', city: 'Paris' });
    const d = stripe.complete(due.provider_ref);
    await handleStripeWebhook(deps, d.payload, d.header);
    const receipts = await t.db.selectFrom('receipts').select(['number', 'donation_id', 'amount_cents']).where('donation_id', 'in', [gift.donation.id, due.id]).orderBy('number').execute();
    expect(receipts.map((r) => r.donation_id)).toEqual([gift.donation.id, due.id]);
    const seq = receipts.map((r) => Number(r.number.split('-').at(-1)));
    expect(seq[1]).toBe(seq[0] + 1);
    expect(receipts[1].amount_cents).toBe(5000);
    const [mail] = await mailsTo('deduct@example.org');
    expect(mail.subject).toBe('Votre adhésion à la Fondation THV est active');
    expect(mail.text).toContain(receipts[1].number);
    // A type without the switch: the dues get none, receipts on or not.
    const { payment: p2 } = await joinByCard({ email: 'nodeduct@example.org' });
    const e2 = stripe.complete(p2.provider_ref);
    await handleStripeWebhook(deps, e2.payload, e2.header);
    expect((await findById(t.db, p2.id))?.status).toBe('succeeded');
    expect(await t.db.selectFrom('receipts').select('number').where('donation_id', '=', p2.id).execute()).toEqual([]);
  });

  it('the renewal link pays through the same pipeline, and the new period follows the old end date', async () => {
    const m = await createMember(t.db, ADMIN, memberInput(active, { email: 'renew@example.org' }));
    // Paid eleven months ago: ends in about a month.
    const paidAt = new Date(Date.now() - 334 * 86_400_000).toISOString();
    const first = await applyDuesPayment(t.db, { membershipId: m.id, paymentId: 'cheque-1', amountCents: 3000, paidAt, method: 'cheque' });
    if (first.status !== 'applied') throw new Error('not applied');
    const oldEnd = first.endsOn;
    const token = renewalToken(KEYS.appSecret, m.id);
    expect(await renewalOf(deps, KEYS.appSecret, token, 'fr')).toMatchObject({ number: m.number, typeName: 'Membre actif', duesCents: 3000, endsOn: oldEnd, state: 'due_soon' });
    expect(await renewalOf(deps, KEYS.appSecret, `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`, 'fr')).toBeNull();
    expect(await renewalOf(deps, 'another-secret'.padEnd(48, 'x'), token, 'fr')).toBeNull();
    const started = await renew(deps, KEYS.appSecret, token, 'card', 'fr', product);
    expect(started).not.toBeNull();
    const [link] = (await paymentsOf(m.id)).filter((p) => p.kind === 'renewal');
    const payment = (await findById(t.db, link.payment_id))!;
    const ev = stripe.complete(payment.provider_ref);
    await handleStripeWebhook(deps, ev.payload, ev.header);
    const after = await getMember(t.db, m.id, today(), 30);
    expect(after?.periods.at(-1)).toEqual({ start: addDays(oldEnd, 1), end: yearFrom(addDays(oldEnd, 1)) });
    expect(after?.endsOn).toBe(yearFrom(addDays(oldEnd, 1)));
    expect(await renew(deps, KEYS.appSecret, 'forged.1.x', 'card', 'fr', product)).toBeNull();
  });
});
