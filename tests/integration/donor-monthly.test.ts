import type Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { findById, findByRef, transition } from '~/domain/donations/ledger.server';
import { formatMoney } from '~/lib/currency';
import { ProviderError } from '~/domain/donations/providers/types';
import { handleStripeWebhook, startCardDonation, type DonationDeps } from '../support/payment-entry';
import { cardUpdateUrl, changeGift } from '~/domain/donations/donor-gifts.server';
import { giftEvents, giftOfDonor, MONTHLY_MAX_CENTS, MONTHLY_MIN_CENTS, monthlyGiftsOf } from '~/domain/donations/monthly.server';
import { recordFailedInstalment, stateOf, syncMonthlyGift } from '~/domain/donations/providers/stripe-subscriptions.server';
import { subscriptionOfInvoice } from '~/domain/donations/providers/stripe.server';
import { log } from '~/lib/log.server';
import type { FakeStripe } from '../fakes/stripe';
import { describeEachDialect, type TestDb } from '../support/db';
import { stripeCardWorld } from '../support/donations';

/**
 * Monthly gifts as the donor space and Stripe's webhooks see them (the register app/domain/donations/monthly.server.ts, a donor's changes donor-gifts.server.ts, Stripe's side providers/stripe-subscriptions.server.ts):
 * which gifts a donor sees, what each change asks of Stripe and records only once Stripe's answer
 * shows it, the card portal, failed instalments and the gift following Stripe's subscription.
 */

const APP_SECRET = 'donor-monthly-secret-'.padEnd(48, 'm');
const WHSEC = 'whsec_donor_monthly';
const DONOR = { id: null, name: 'Donateur' };
const ADMIN = { id: 'admin-1', name: 'Alice Admin' };
type Who = { email: string | null; name: string };
let seq = 0;
/** A donor of one's own per test: lists and mails never mix between tests. */
const donor = (tag: string): { email: string; name: string } => ({ email: `${tag}.${++seq}@example.org`, name: `Donor ${tag}` });

/** The bare minimum of a Stripe subscription for stateOf. */
const sub = (s: Record<string, unknown>) => ({ id: 'sub_x', object: 'subscription', pause_collection: null, items: { object: 'list', data: [] }, ...s }) as unknown as Stripe.Subscription;
const priced = (unit_amount: number | null, currency = 'eur') => ({ object: 'list', data: [{ id: 'si_x', object: 'subscription_item', price: { id: 'price_x', object: 'price', currency, unit_amount, product: 'prod_x' } }] });

describe('stateOf: what Stripe’s subscription says, in our words', () => {
  it('reads the end, a pause, a payment in arrears, else an active gift', () => {
    expect(stateOf(sub({ status: 'canceled' })).status).toBe('ended');
    expect(stateOf(sub({ status: 'incomplete_expired' })).status).toBe('ended');
    // An ended subscription is ended even if its collection was paused.
    expect(stateOf(sub({ status: 'canceled', pause_collection: { behavior: 'void' } })).status).toBe('ended');
    expect(stateOf(sub({ status: 'active', pause_collection: { behavior: 'void', resumes_at: null } })).status).toBe('paused');
    expect(stateOf(sub({ status: 'past_due' })).status).toBe('past_due');
    expect(stateOf(sub({ status: 'unpaid' })).status).toBe('past_due');
    expect(stateOf(sub({ status: 'active' })).status).toBe('active');
    expect(stateOf(sub({ status: 'trialing' })).status).toBe('active');
    expect(stateOf(sub({ status: 'incomplete' })).status).toBe('active');
  });

  it('reads the amount and the currency (upper-cased) of the first item, or nothing', () => {
    expect(stateOf(sub({ status: 'active', items: priced(1250) }))).toEqual({ status: 'active', amountMinor: 1250, currency: 'EUR' });
    expect(stateOf(sub({ status: 'past_due', items: priced(900, 'usd') }))).toEqual({ status: 'past_due', amountMinor: 900, currency: 'USD' });
    expect(stateOf(sub({ status: 'active', items: priced(null) }))).toEqual({ status: 'active', amountMinor: null, currency: 'EUR' });
    expect(stateOf(sub({ status: 'active' }))).toEqual({ status: 'active', amountMinor: null, currency: null });
    expect(stateOf(sub({ status: 'active', items: undefined }))).toEqual({ status: 'active', amountMinor: null, currency: null });
  });
});

describe('subscriptionOfInvoice', () => {
  const inv = (x: Record<string, unknown>) => ({ id: 'in_x', object: 'invoice', ...x }) as unknown as Parameters<typeof subscriptionOfInvoice>[0];
  it('reads the subscription from the invoice’s parent, else the legacy field (id or object), else nothing', () => {
    expect(subscriptionOfInvoice(inv({ parent: { type: 'subscription_details', subscription_details: { subscription: 'sub_new' } }, subscription: 'sub_old' }))).toBe('sub_new');
    expect(subscriptionOfInvoice(inv({ parent: { type: 'subscription_details', subscription_details: { subscription: { id: 'sub_obj', object: 'subscription' } } } }))).toBe('sub_obj');
    // A parent that is not a subscription's (a quote), or none at all: the legacy field.
    expect(subscriptionOfInvoice(inv({ parent: { type: 'quote_details', quote_details: { quote: 'qt_1' }, subscription_details: null }, subscription: 'sub_legacy' }))).toBe('sub_legacy');
    expect(subscriptionOfInvoice(inv({ parent: null, subscription: 'sub_legacy' }))).toBe('sub_legacy');
    expect(subscriptionOfInvoice(inv({ subscription: { id: 'sub_legacy_obj', object: 'subscription' } }))).toBe('sub_legacy_obj');
    expect(subscriptionOfInvoice(inv({ parent: null, subscription: null }))).toBeUndefined();
    expect(subscriptionOfInvoice(inv({}))).toBeUndefined();
  });
});

describeEachDialect('monthly gifts on %s', (dialect) => {
  let t: TestDb;
  let stripe: FakeStripe;
  let deps: DonationDeps;

  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ t, stripe, deps, close } = await stripeCardWorld(dialect, { appSecret: APP_SECRET, secretKey: 'sk_test_monthly', webhookSecret: WHSEC }));
  });
  afterAll(async () => {
    await close?.();
  });
  afterEach(() => {
    stripe.reshapeNext = null;
    stripe.failNext = 0;
    vi.restoreAllMocks();
  });

  /** A gift paid through the fake Checkout, confirmed by its signed webhook, as a donor makes it. */
  async function give(who: Who, cents: number, lang: 'fr' | 'en' | 'es' = 'fr') {
    const { donation } = await startCardDonation(deps, { amountCents: cents, monthly: true, lang });
    const ev = stripe.complete(donation.provider_ref, { customer_details: { email: who.email, name: who.name } });
    expect((await handleStripeWebhook(deps, ev.payload, ev.header)).status).toBe(200);
    return (await findById(t.db, donation.id))!;
  }
  /** The gift as the donor space hands it to changeGift / cardUpdateUrl. */
  async function giftOf(who: { email: string; name: string }, cents: number, lang: 'fr' | 'en' | 'es' = 'fr') {
    const first = await give(who, cents, lang);
    return (await giftOfDonor(t.db, who.email, first.secondary_ref!))!;
  }
  const webhook = (e: { payload: string; header: string }) => handleStripeWebhook(deps, e.payload, e.header);
  const mailsTo = (to: string) => t.db.selectFrom('mail_outbox').selectAll().where('to', '=', to).orderBy('created_at').execute();
  /** From now on, the mails to `to` (not the receipt the gift itself brought). */
  const mailsFrom = async (to: string) => {
    const n = (await mailsTo(to)).length;
    return async () => (await mailsTo(to)).slice(n);
  };
  const allMails = async () => (await t.db.selectFrom('mail_outbox').select('id').execute()).length;
  const auditOf = async (giftId: string) =>
    (await t.db.selectFrom('audit_log').select(['user_id', 'user_name', 'action', 'target', 'details']).where('target', 'like', `%(${giftId})`).orderBy('at').execute()).map((a) => ({ ...a, details: JSON.parse(a.details) }));
  const giftRow = (id: string) => t.db.selectFrom('monthly_gifts').selectAll().where('id', '=', id).executeTakeFirst();
  const noKey = (): DonationDeps => ({ ...deps, settings: { ...deps.settings, secrets: {} } });
  const stripeSays = (message: string) => ({ name: 'ProviderError', provider: 'stripe', message });
  const stripeSub = (id: string) => stripe.subscriptions.get(id);
  const requestsSince = (n: number) => stripe.requests.slice(n).map((r) => `${r.method} ${r.path}`);

  describe('monthlyGiftsOf', () => {
    it('lists a gift once, from its checkout row, even when renewals carry the email', async () => {
      const awa = donor('list');
      const first = await give(awa, 2000, 'en');
      const subId = first.secondary_ref!;
      for (const id of ['in_renew_1', 'in_renew_2']) {
        const invoice = { id, object: 'invoice', billing_reason: 'subscription_cycle', amount_paid: 2000, currency: 'eur', customer_email: awa.email, parent: { subscription_details: { subscription: subId } } };
        expect((await webhook(stripe.event('invoice.paid', invoice))).status).toBe(200);
      }
      expect(await findByRef(t.db, 'stripe', 'in_renew_2')).toMatchObject({ status: 'succeeded', secondary_ref: subId, donor_email: awa.email });
      expect(await monthlyGiftsOf(t.db, awa.email)).toEqual([{ id: subId, provider: 'stripe', amountMinor: 2000, currency: 'EUR', status: 'active', startedAt: first.created_at, method: null, accountLast4: null, mandateRef: null, mandateSignedAt: null }]);
    });

    it('does not list a gift started by another email whose renewal carries this one', async () => {
      const payer = donor('payer');
      const other = donor('other');
      const first = await give(payer, 3000);
      const subId = first.secondary_ref!;
      // The card's owner changed the email at Stripe: the renewal is theirs, the gift is not.
      const invoice = { id: 'in_renew_other', object: 'invoice', billing_reason: 'subscription_cycle', amount_paid: 3000, currency: 'eur', customer_email: other.email, parent: { subscription_details: { subscription: subId } } };
      expect((await webhook(stripe.event('invoice.paid', invoice))).status).toBe(200);
      expect(await findByRef(t.db, 'stripe', 'in_renew_other')).toMatchObject({ donor_email: other.email });
      expect(await monthlyGiftsOf(t.db, other.email)).toEqual([]);
      expect(await giftOfDonor(t.db, other.email, subId)).toBeNull();
      expect((await monthlyGiftsOf(t.db, payer.email)).map((g) => g.id)).toEqual([subId]);
    });

    it('lists several gifts newest first, a refunded first gift included', async () => {
      const awa = donor('several');
      const older = await give(awa, 1500);
      const newer = await give(awa, 4500);
      await transition(t.db, { id: older.id }, 'refunded');
      expect(await monthlyGiftsOf(t.db, awa.email)).toEqual([
        { id: newer.secondary_ref, provider: 'stripe', amountMinor: 4500, currency: 'EUR', status: 'active', startedAt: newer.created_at, method: null, accountLast4: null, mandateRef: null, mandateSignedAt: null },
        { id: older.secondary_ref, provider: 'stripe', amountMinor: 1500, currency: 'EUR', status: 'active', startedAt: older.created_at, method: null, accountLast4: null, mandateRef: null, mandateSignedAt: null },
      ]);
    });
  });

  describe('changeGift', () => {
    it('records an amount change: Stripe asked without proration and with an idempotency key, event, audit and mail', async () => {
      const awa = donor('amount');
      const target = await giftOf(awa, 2000, 'en');
      const subId = target.gift.id;
      const newMails = await mailsFrom(awa.email);
      const before = stripe.requests.length;
      const changed = await changeGift(deps, target, { kind: 'amount', amountMinor: 1250 }, { source: 'admin', actor: ADMIN });
      expect(changed).toMatchObject({ id: subId, amount_minor: 1250, currency: 'EUR', status: 'active' });
      expect(await giftRow(subId)).toMatchObject({ amount_minor: 1250, status: 'active' });
      expect(requestsSince(before)).toEqual([`GET /v1/subscriptions/${subId}`, `POST /v1/subscriptions/${subId}`]);
      const post = stripe.requests.at(-1)!;
      const body = new URLSearchParams(post.body);
      expect(body.get('proration_behavior')).toBe('none');
      expect(body.get('items[0][id]')).toBe(stripeSub(subId).items.data[0].id);
      expect(body.get('items[0][price_data][unit_amount]')).toBe('1250');
      expect(body.get('items[0][price_data][currency]')).toBe('eur');
      expect(body.get('items[0][price_data][recurring][interval]')).toBe('month');
      expect(post.headers['idempotency-key']).toMatch(new RegExp(`^gift-${subId}-amount-1250-[0-9a-f-]{36}$`));

      const events = await giftEvents(t.db, subId);
      expect(events).toEqual([expect.objectContaining({ gift_id: subId, kind: 'amount', amount_minor: 1250, previous_amount_minor: 2000, source: 'admin', provider_ref: null })]);
      expect(await auditOf(subId)).toEqual([{ user_id: 'admin-1', user_name: 'Alice Admin', action: 'monthly_gift.amount', target: `12.50 EUR / mois (${subId})`, details: { gift: subId, previous: 2000, amount: 1250 } }]);
      const mails = await newMails();
      expect(mails).toHaveLength(1);
      expect(mails[0].subject).toBe('Your monthly gift to the THV Foundation');
      expect(mails[0].text).toBe(
        ['Your monthly gift becomes €12.50 a month from the next payment.', 'Manage your gifts: https://dons.example.org/en/mon-espace', 'The THV Foundation team'].join('\n\n'),
      );

      // The same amount asked again is a new request to Stripe, not the replay of the first.
      await changeGift(deps, { ...target, gift: changed }, { kind: 'amount', amountMinor: 1250 }, { source: 'donor', actor: DONOR });
      expect(stripe.requests.at(-1)!.headers['idempotency-key']).not.toBe(post.headers['idempotency-key']);
      expect((await giftEvents(t.db, subId)).map((e) => [e.kind, e.previous_amount_minor, e.source])).toEqual([
        ['amount', 2000, 'admin'],
        ['amount', 1250, 'donor'],
      ]);
    });

    it('accepts the bounds and refuses, before asking Stripe, amounts outside them or not whole cents', async () => {
      expect([MONTHLY_MIN_CENTS, MONTHLY_MAX_CENTS]).toEqual([100, 1_000_000]);
      const awa = donor('bounds');
      const target = await giftOf(awa, 2000);
      const before = stripe.requests.length;
      for (const amountMinor of [99, 1_000_001, 12.5, 0, -100]) {
        await expect(changeGift(deps, target, { kind: 'amount', amountMinor }, { source: 'donor', actor: DONOR })).rejects.toThrow(new RangeError('amount'));
      }
      expect(stripe.requests.length).toBe(before);
      expect(await giftEvents(t.db, target.gift.id)).toEqual([]);
      const min = await changeGift(deps, target, { kind: 'amount', amountMinor: 100 }, { source: 'donor', actor: DONOR });
      expect(min.amount_minor).toBe(100);
      const max = await changeGift(deps, { ...target, gift: min }, { kind: 'amount', amountMinor: 1_000_000 }, { source: 'donor', actor: DONOR });
      expect(max.amount_minor).toBe(1_000_000);
      expect(stripeSub(target.gift.id).items.data[0].price.unit_amount).toBe(1_000_000);
      expect((await giftEvents(t.db, target.gift.id)).map((e) => e.amount_minor)).toEqual([100, 1_000_000]);
    });

    it('mails each change in its own words, in the donor’s language, and records its event and audit', async () => {
      const awa = donor('kinds');
      const target = await giftOf(awa, 2000, 'en');
      const subId = target.gift.id;
      const newMails = await mailsFrom(awa.email);
      const paused = await changeGift(deps, target, { kind: 'paused' }, { source: 'donor', actor: DONOR });
      expect(paused.status).toBe('paused');
      expect(new URLSearchParams(stripe.requests.at(-1)!.body).get('pause_collection[behavior]')).toBe('void');
      const resumed = await changeGift(deps, { ...target, gift: paused }, { kind: 'resumed' }, { source: 'donor', actor: DONOR });
      expect(resumed.status).toBe('active');
      expect(stripe.requests.at(-1)!.body).toBe('pause_collection=');
      const stopped = await changeGift(deps, { ...target, gift: resumed }, { kind: 'stopped' }, { source: 'donor', actor: DONOR });
      expect(stopped.status).toBe('ended');
      expect(`${stripe.requests.at(-1)!.method} ${stripe.requests.at(-1)!.path}`).toBe(`DELETE /v1/subscriptions/${subId}`);

      const texts = (await newMails()).map((m) => m.text.split('\n\n')[0]);
      expect(texts).toEqual([
        'Your monthly gift of €20.00 is paused: nothing will be charged until it resumes.',
        'Your monthly gift of €20.00 has resumed.',
        'Your monthly gift of €20.00 is stopped: nothing more will be charged. Thank you for your support.',
      ]);
      expect((await giftEvents(t.db, subId)).map((e) => [e.kind, e.amount_minor, e.previous_amount_minor, e.source])).toEqual([
        ['paused', 2000, 2000, 'donor'],
        ['resumed', 2000, 2000, 'donor'],
        ['stopped', 2000, 2000, 'donor'],
      ]);
      expect(await auditOf(subId)).toEqual(
        ['paused', 'resumed', 'stopped'].map((kind) => ({ user_id: null, user_name: 'Donateur', action: `monthly_gift.${kind}`, target: `20.00 EUR / mois (${subId})`, details: { gift: subId, previous: 2000, amount: 2000 } })),
      );

      // Stopped: nothing more is asked of Stripe.
      const before = stripe.requests.length;
      await expect(changeGift(deps, { ...target, gift: stopped }, { kind: 'resumed' }, { source: 'donor', actor: DONOR })).rejects.toMatchObject(stripeSays('ce don mensuel est déjà arrêté'));
      await expect(changeGift(deps, { ...target, gift: stopped }, { kind: 'amount', amountMinor: 5000 }, { source: 'donor', actor: DONOR })).rejects.toBeInstanceOf(ProviderError);
      expect(stripe.requests.length).toBe(before);
      expect(await giftEvents(t.db, subId)).toHaveLength(3);
    });

    it('mails the change in Spanish, and mails nobody when the first gift has no email', async () => {
      const ana = donor('es');
      const target = await giftOf(ana, 3000, 'es');
      const newMails = await mailsFrom(ana.email);
      await changeGift(deps, target, { kind: 'amount', amountMinor: 2500 }, { source: 'donor', actor: DONOR });
      const [mail] = await newMails();
      expect(mail.subject).toBe('Su donativo mensual a la Fundación THV');
      expect(mail.text).toContain(`Su donativo mensual pasa a ${formatMoney(2500, 'EUR', 'es')} al mes a partir del próximo cobro.`);
      expect(mail.text).toContain('https://dons.example.org/es/mon-espace');

      const other = await giftOf(donor('nomail'), 1000);
      const mails = await allMails();
      const paused = await changeGift(deps, { ...other, first: { ...other.first, donor_email: null } }, { kind: 'paused' }, { source: 'admin', actor: ADMIN });
      expect(paused.status).toBe('paused');
      expect(await allMails()).toBe(mails);
      expect((await giftEvents(t.db, other.gift.id)).map((e) => e.kind)).toEqual(['paused']);
    });

    it('needs the Stripe secret key, and reports Stripe’s refusal as a ProviderError', async () => {
      const target = await giftOf(donor('keys'), 2000);
      const before = stripe.requests.length;
      await expect(changeGift(noKey(), target, { kind: 'paused' }, { source: 'donor', actor: DONOR })).rejects.toMatchObject(stripeSays('configuration incomplète'));
      await expect(cardUpdateUrl(noKey(), target, { source: 'donor', actor: DONOR })).rejects.toMatchObject(stripeSays('configuration incomplète'));
      expect(stripe.requests.length).toBe(before);
      stripe.failNext = 5;
      await expect(changeGift(deps, target, { kind: 'paused' }, { source: 'donor', actor: DONOR })).rejects.toMatchObject(stripeSays('Stripe is down'));
      stripe.failNext = 0;
      expect(await giftRow(target.gift.id)).toMatchObject({ status: 'active' });
      expect(await giftEvents(t.db, target.gift.id)).toEqual([]);
    });

    it('refuses a subscription without an item or a product, and reads a product given as an object', async () => {
      const target = await giftOf(donor('items'), 2000);
      const s = stripeSub(target.gift.id);
      const items = s.items.data;
      const change = () => changeGift(deps, target, { kind: 'amount', amountMinor: 1800 }, { source: 'donor', actor: DONOR });
      const before = stripe.requests.length;
      s.items = { object: 'list', data: [] };
      await expect(change()).rejects.toMatchObject(stripeSays('abonnement sans article'));
      s.items = { object: 'list', data: [{ ...items[0], price: undefined }] };
      await expect(change()).rejects.toMatchObject(stripeSays('abonnement sans article'));
      s.items = { object: 'list', data: [{ ...items[0], price: { ...items[0].price, product: null } }] };
      await expect(change()).rejects.toMatchObject(stripeSays('abonnement sans article'));
      // Only the subscription was read: nothing was asked to change.
      expect(requestsSince(before).every((r) => r.startsWith('GET '))).toBe(true);
      expect(await giftEvents(t.db, target.gift.id)).toEqual([]);

      // The product expanded ({ id, object }) is the same product.
      const product = items[0].price.product;
      s.items = { object: 'list', data: [{ ...items[0], price: { ...items[0].price, product: { id: product, object: 'product', name: 'Don mensuel' } } }] };
      expect((await change()).amount_minor).toBe(1800);
      expect(new URLSearchParams(stripe.requests.at(-1)!.body).get('items[0][price_data][product]')).toBe(product);
    });

    describe('keeps nothing when Stripe’s answer does not show the change', () => {
      async function refused(target: Awaited<ReturnType<typeof giftOf>>, change: Parameters<typeof changeGift>[2], reshape: (json: any) => unknown, status: string) {
        const warn = vi.spyOn(log, 'warn').mockImplementation(() => undefined);
        const mails = await allMails();
        const audits = (await auditOf(target.gift.id)).length;
        const before = await giftRow(target.gift.id);
        // The subscription is read as it is; the answer to the change is Stripe's odd one.
        stripe.reshapeNext = (json, req) => (req.method === 'GET' ? undefined : reshape(json));
        await expect(changeGift(deps, target, change, { source: 'donor', actor: DONOR })).rejects.toMatchObject(stripeSays('réponse inattendue de Stripe'));
        expect(stripe.reshapeNext).toBeNull();
        expect(warn).toHaveBeenCalledWith('Stripe did not confirm a monthly gift change', { gift: target.gift.id, change: change.kind, status });
        expect(await giftRow(target.gift.id)).toEqual(before);
        expect(await giftEvents(t.db, target.gift.id)).toEqual([]);
        expect(await auditOf(target.gift.id)).toHaveLength(audits);
        expect(await allMails()).toBe(mails);
        warn.mockRestore();
      }
      const withPrice = (json: any, patch: Record<string, unknown>) => {
        Object.assign(json.items.data[0].price, patch);
        return json;
      };

      it('an amount change answered for another subscription, with another amount or in another currency', async () => {
        const target = await giftOf(donor('amount-refused'), 2000);
        const amount = { kind: 'amount', amountMinor: 1500 } as const;
        await refused(target, amount, (json) => ({ ...json, id: 'sub_someone_else' }), 'active');
        await refused(target, amount, (json) => withPrice(json, { unit_amount: 2000 }), 'active');
        await refused(target, amount, (json) => withPrice(json, { currency: 'usd' }), 'active');
        // Shown as asked: recorded.
        expect((await changeGift(deps, target, amount, { source: 'donor', actor: DONOR })).amount_minor).toBe(1500);
      });

      it('a pause not shown, or a pause answered for another subscription', async () => {
        const target = await giftOf(donor('pause-refused'), 2000);
        await refused(target, { kind: 'paused' }, (json) => ({ ...json, pause_collection: null }), 'active');
        await refused(target, { kind: 'paused' }, (json) => ({ ...json, id: 'sub_someone_else' }), 'active');
      });

      it('a resume answered as still paused, or as ended', async () => {
        const target = await giftOf(donor('resume-refused'), 2000);
        await refused(target, { kind: 'resumed' }, (json) => ({ ...json, pause_collection: { behavior: 'void', resumes_at: null } }), 'active');
        await refused(target, { kind: 'resumed' }, (json) => ({ ...json, status: 'canceled' }), 'canceled');
        await refused(target, { kind: 'resumed' }, (json) => ({ ...json, status: 'incomplete_expired' }), 'incomplete_expired');
        // A resume that leaves the gift past due is a resume.
        stripeSub(target.gift.id).status = 'past_due';
        expect((await changeGift(deps, target, { kind: 'resumed' }, { source: 'donor', actor: DONOR })).status).toBe('past_due');
      });

      it('a stop not ended', async () => {
        const target = await giftOf(donor('stop-refused'), 2000);
        await refused(target, { kind: 'stopped' }, (json) => ({ ...json, status: 'active', canceled_at: null }), 'active');
      });
    });
  });

  describe('cardUpdateUrl', () => {
    it('opens the billing portal of the gift’s customer in the donor’s language, and records it', async () => {
      const ana = donor('card');
      const target = await giftOf(ana, 2000, 'es');
      const subId = target.gift.id;
      const newMails = await mailsFrom(ana.email);
      const url = await cardUpdateUrl(deps, target, { source: 'donor', actor: DONOR });
      expect(url).toMatch(new RegExp(`^${stripe.url}/portal/bps_\\d+$`));
      const body = new URLSearchParams(stripe.requests.at(-1)!.body);
      expect(Object.fromEntries(body)).toEqual({ customer: stripeSub(subId).customer, return_url: 'https://dons.example.org/es/mon-espace', locale: 'es' });
      expect(await giftEvents(t.db, subId)).toEqual([expect.objectContaining({ gift_id: subId, kind: 'card', amount_minor: null, previous_amount_minor: null, source: 'donor', provider_ref: null })]);
      expect(await auditOf(subId)).toEqual([{ user_id: null, user_name: 'Donateur', action: 'monthly_gift.card', target: `carte d’un don mensuel (${subId})`, details: { gift: subId } }]);
      // Nothing else changes: the gift, and no mail.
      expect(await giftRow(subId)).toMatchObject({ status: 'active', amount_minor: 2000 });
      expect(await newMails()).toEqual([]);

      // A French donor returns to the French address.
      const fr = await giftOf(donor('card-fr'), 2000, 'fr');
      await cardUpdateUrl(deps, fr, { source: 'admin', actor: ADMIN });
      expect(Object.fromEntries(new URLSearchParams(stripe.requests.at(-1)!.body))).toMatchObject({ return_url: 'https://dons.example.org/mon-espace', locale: 'fr' });
      expect((await giftEvents(t.db, fr.gift.id))[0]).toMatchObject({ kind: 'card', source: 'admin' });
    });

    it('reads a customer given as an object, and refuses a subscription without a customer', async () => {
      const target = await giftOf(donor('customer'), 2000);
      const s = stripeSub(target.gift.id);
      const customer = s.customer;
      s.customer = { id: customer, object: 'customer' };
      expect(await cardUpdateUrl(deps, target, { source: 'donor', actor: DONOR })).toMatch(`${stripe.url}/portal/`);
      expect(new URLSearchParams(stripe.requests.at(-1)!.body).get('customer')).toBe(customer);

      s.customer = null;
      const before = stripe.requests.length;
      await expect(cardUpdateUrl(deps, target, { source: 'donor', actor: DONOR })).rejects.toMatchObject(stripeSays('abonnement sans client'));
      expect(requestsSince(before)).toEqual([`GET /v1/subscriptions/${target.gift.id}`]);
      expect((await giftEvents(t.db, target.gift.id)).map((e) => e.kind)).toEqual(['card']);
    });

    it('refuses a portal session for another customer or at an address that is not http(s)', async () => {
      const target = await giftOf(donor('portal'), 2000);
      const cases: ((json: any) => unknown)[] = [
        (json) => ({ ...json, customer: 'cus_someone_else' }),
        (json) => ({ ...json, url: 'javascript:alert("https://evil.example")' }),
        (json) => ({ ...json, url: 'ftp://portal.example/x' }),
        (json) => ({ ...json, url: null }),
        (json) => {
          delete json.url;
          return json;
        },
      ];
      for (const reshape of cases) {
        stripe.reshapeNext = (json, req) => (req.path === '/v1/billing_portal/sessions' ? reshape(json) : undefined);
        await expect(cardUpdateUrl(deps, target, { source: 'donor', actor: DONOR })).rejects.toMatchObject(stripeSays('réponse inattendue de Stripe'));
      }
      expect(await giftEvents(t.db, target.gift.id)).toEqual([]);
      expect(await auditOf(target.gift.id)).toEqual([]);
      // An https address of the same customer is what Stripe gives.
      stripe.reshapeNext = (json, req) => (req.path === '/v1/billing_portal/sessions' ? { ...json, url: 'https://billing.stripe.com/p/session/test_1' } : undefined);
      expect(await cardUpdateUrl(deps, target, { source: 'donor', actor: DONOR })).toBe('https://billing.stripe.com/p/session/test_1');
    });
  });

  describe('recordFailedInstalment (invoice.payment_failed)', () => {
    const failedInvoice = (subId: string, x: Record<string, unknown> = {}) =>
      ({ id: `in_failed_${++seq}`, object: 'invoice', billing_reason: 'subscription_cycle', amount_due: 2000, amount_paid: 0, currency: 'eur', customer_email: null, parent: { subscription_details: { subscription: subId } }, ...x }) as any;
    const donationCount = async () => (await t.db.selectFrom('donations').select('id').execute()).length;
    const eventCount = async () => (await t.db.selectFrom('monthly_gift_events').select('id').execute()).length;

    it('ignores an invoice without subscription or id, of an unknown subscription, or not in euros', async () => {
      const first = await give(donor('ignored'), 2000);
      const subId = first.secondary_ref!;
      const counts = async () => [await donationCount(), await eventCount(), await allMails(), await giftRow(subId)];
      const before = await counts();
      for (const invoice of [
        failedInvoice(subId, { parent: null }),
        failedInvoice(subId, { id: undefined }),
        failedInvoice(subId, { id: '' }),
        failedInvoice('sub_unknown_to_us'),
        failedInvoice(subId, { currency: 'usd' }),
        failedInvoice(subId, { currency: undefined }),
      ]) {
        await expect(recordFailedInstalment(deps, invoice)).resolves.toBeUndefined();
      }
      expect(await counts()).toEqual(before);
    });

    it('records the failure once: ledger row, gift past due, event, audit, and one mail in the donor’s language', async () => {
      const ana = donor('failed');
      const first = await give(ana, 4000, 'es');
      const subId = first.secondary_ref!;
      // The invoice's email is Stripe's copy; the first gift's email is the donor's.
      const invoice = failedInvoice(subId, { amount_due: 4000, customer_email: 'billing@example.org' });
      const newMails = await mailsFrom(ana.email);
      for (let i = 0; i < 2; i++) await recordFailedInstalment(deps, invoice);
      const row = await findByRef(t.db, 'stripe', `${invoice.id}:failed`);
      expect(row).toMatchObject({ status: 'failed', amount_minor: 4000, currency: 'EUR', eur_cents: 4000, secondary_ref: subId, frequency: 'monthly', language: 'es', donor_email: ana.email, donor_name: ana.name });
      expect(await giftRow(subId)).toMatchObject({ status: 'past_due', amount_minor: 4000 });
      expect(await giftEvents(t.db, subId)).toEqual([expect.objectContaining({ kind: 'payment_failed', amount_minor: 4000, previous_amount_minor: null, source: 'provider', provider_ref: `${invoice.id}:failed` })]);
      expect(await auditOf(subId)).toEqual([{ user_id: null, user_name: 'Paiement en ligne', action: 'monthly_gift.payment_failed', target: `40.00 EUR (${subId})`, details: { gift: subId, donation: row!.id } }]);
      const mails = await newMails();
      expect(mails).toHaveLength(1);
      expect(mails[0].subject).toBe('El cobro de su donativo mensual ha fallado');
      expect(mails[0].text.split('\n\n').slice(0, 2)).toEqual([
        `No se ha podido cobrar ${formatMoney(4000, 'EUR', 'es')} de su donativo mensual.`,
        'Para actualizar su tarjeta, abra su espacio de donante: https://dons.example.org/es/mon-espace',
      ]);
      expect(await mailsTo('billing@example.org')).toEqual([]);
    });

    it('takes the invoice’s email when the first gift has none, and mails nobody when neither has one', async () => {
      const first = await give({ email: null, name: 'Sans Courriel' }, 2500);
      const subId = first.secondary_ref!;
      expect(first.donor_email).toBeNull();
      const invoice = failedInvoice(subId, { amount_due: 2500, customer_email: 'payer@example.org' });
      await recordFailedInstalment(deps, invoice);
      expect(await findByRef(t.db, 'stripe', `${invoice.id}:failed`)).toMatchObject({ donor_email: 'payer@example.org', status: 'failed' });
      const [mail] = await mailsTo('payer@example.org');
      expect(mail.subject).toBe('Le prélèvement de votre don mensuel a échoué');
      expect(mail.text).toContain('https://dons.example.org/mon-espace\n');

      const mails = await allMails();
      const silent = failedInvoice(subId, { amount_due: 2500 });
      await recordFailedInstalment(deps, silent);
      expect(await findByRef(t.db, 'stripe', `${silent.id}:failed`)).toMatchObject({ donor_email: null, status: 'failed' });
      expect(await allMails()).toBe(mails);
      // Both failures are in the gift's history (in the same millisecond, their order is not defined).
      expect((await giftEvents(t.db, subId)).map((e) => e.provider_ref).sort()).toEqual([`${invoice.id}:failed`, `${silent.id}:failed`].sort());
    });

    it('leaves an ended gift ended', async () => {
      const target = await giftOf(donor('ended-failed'), 2000);
      await changeGift(deps, target, { kind: 'stopped' }, { source: 'donor', actor: DONOR });
      // The history is ordered by time; within one millisecond its order is not defined (it failed so once).
      await new Promise((r) => setTimeout(r, 3));
      const invoice = failedInvoice(target.gift.id);
      await recordFailedInstalment(deps, invoice);
      expect(await findByRef(t.db, 'stripe', `${invoice.id}:failed`)).toMatchObject({ status: 'failed' });
      expect(await giftRow(target.gift.id)).toMatchObject({ status: 'ended' });
      expect((await giftEvents(t.db, target.gift.id)).map((e) => e.kind)).toEqual(['stopped', 'payment_failed']);
    });
  });

  describe('syncMonthlyGift (customer.subscription.updated / .deleted)', () => {
    it('ignores a subscription that is not one of our gifts', async () => {
      const unknown = { ...structuredClone(stripeSub((await give(donor('sync-known'), 1000)).secondary_ref!)), id: 'sub_not_ours' };
      await expect(syncMonthlyGift(deps, unknown, 'evt_not_ours')).resolves.toBeUndefined();
      expect(await giftRow('sub_not_ours')).toBeUndefined();
      expect(await giftEvents(t.db, 'sub_not_ours')).toEqual([]);
    });

    it('follows a change made at Stripe, taking the amount only in the gift’s currency', async () => {
      const first = await give(donor('sync'), 2000);
      const subId = first.secondary_ref!;
      const s = stripeSub(subId);
      const price = s.items.data[0].price;
      // Changed elsewhere (Stripe's dashboard): Stripe is read again, the event's copy is stale.
      const stale = structuredClone(s);
      Object.assign(price, { unit_amount: 3500 });
      s.pause_collection = { behavior: 'void', resumes_at: null };
      await syncMonthlyGift(deps, stale, 'evt_sync_1');
      expect(await giftRow(subId)).toMatchObject({ amount_minor: 3500, status: 'paused' });

      Object.assign(price, { unit_amount: 9900, currency: 'usd' });
      s.pause_collection = null;
      s.status = 'unpaid';
      await syncMonthlyGift(deps, stale, 'evt_sync_2');
      expect(await giftRow(subId)).toMatchObject({ amount_minor: 3500, currency: 'EUR', status: 'past_due' });

      // A price without a unit amount (tiered): the amount stays.
      Object.assign(price, { unit_amount: null, currency: 'eur' });
      s.status = 'active';
      await syncMonthlyGift(deps, stale, 'evt_sync_3');
      expect(await giftRow(subId)).toMatchObject({ amount_minor: 3500, status: 'active' });
      s.items = { object: 'list', data: [] };
      s.status = 'past_due';
      await syncMonthlyGift(deps, stale, 'evt_sync_4');
      expect(await giftRow(subId)).toMatchObject({ amount_minor: 3500, status: 'past_due' });
      // Only the end is an event of the gift's history.
      expect(await giftEvents(t.db, subId)).toEqual([]);
      expect(await auditOf(subId)).toEqual([]);
    });

    it('uses the event’s copy when Stripe cannot be asked', async () => {
      const first = await give(donor('sync-copy'), 2000);
      const subId = first.secondary_ref!;
      const warn = vi.spyOn(log, 'warn').mockImplementation(() => undefined);
      const copy = { ...structuredClone(stripeSub(subId)), status: 'past_due' };
      copy.items.data[0].price.unit_amount = 2200;
      await syncMonthlyGift(noKey(), copy, 'evt_copy_1');
      expect(await giftRow(subId)).toMatchObject({ amount_minor: 2200, status: 'past_due' });
      expect(warn).toHaveBeenCalledWith('subscription not re-read from Stripe; using the event', { gift: subId, error: 'configuration incomplète' });
    });

    it('records the end once, with its event and audit, and leaves an ended gift alone', async () => {
      const first = await give(donor('sync-end'), 2000);
      const subId = first.secondary_ref!;
      const s = stripeSub(subId);
      s.status = 'canceled';
      await syncMonthlyGift(deps, s, 'evt_end_1');
      expect(await giftRow(subId)).toMatchObject({ status: 'ended', amount_minor: 2000 });
      const expected = [expect.objectContaining({ kind: 'ended', amount_minor: 2000, previous_amount_minor: null, source: 'provider', provider_ref: 'evt_end_1:ended' })];
      expect(await giftEvents(t.db, subId)).toEqual(expected);
      expect(await auditOf(subId)).toEqual([{ user_id: null, user_name: 'Paiement en ligne', action: 'monthly_gift.ended', target: `20.00 EUR / mois (${subId})`, details: { gift: subId } }]);

      // Replayed, or followed by a stale event saying it is active: nothing moves.
      await syncMonthlyGift(deps, s, 'evt_end_1');
      s.status = 'active';
      await syncMonthlyGift(deps, s, 'evt_end_2');
      expect(await giftRow(subId)).toMatchObject({ status: 'ended' });
      expect(await giftEvents(t.db, subId)).toEqual(expected);
      expect(await auditOf(subId)).toHaveLength(1);
    });
  });
});
