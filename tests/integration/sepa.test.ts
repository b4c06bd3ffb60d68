import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { tellDebitNews } from '~/domain/donations/debits.server';
import type { PaymentEvent } from '~/domain/donations/events.server';
import { eraseGiftDetails, findById, findByRef, succeededEurCentsSince } from '~/domain/donations/ledger.server';
import { monthlyGiftsOf } from '~/domain/donations/monthly.server';
import { historyOf } from '~/domain/donors/personal-data.server';
import { isKnownDonor } from '~/domain/donors/links.server';
import { meansText, staffMeansLabel } from '~/domain/means/means';
import { receiptsOfDonation } from '~/domain/receipts/register.server';
import { ProviderError } from '~/domain/donations/providers/types';
import { formatMoney } from '~/lib/currency';
import { I18nContext, makeI18n, translate } from '~/lib/i18n';
import { SignedIn } from '~/ui/site/DonorSpace';
import { messagesFor } from '~/lib/i18n.server';
import { confirmStripeSession, handleStripeWebhook, startCardDonation, type DonationDeps } from '../support/payment-entry';
import type { FakeStripe } from '../fakes/stripe';
import { describeEachDialect, type TestDb } from '../support/db';
import { stripeCardWorld } from '../support/donations';
import { DONOR, setReceiptSettings } from '../support/receipts';

/**
 * SEPA direct debits (issue 41, ADR 029), sent as Stripe signs them through the one webhook path:
 * a mandate signed is a gift being processed (no receipt, counted nowhere, the donor told the debit
 * takes days); the bank's answer settles it once — a success with its receipt, or a failure told
 * once with the way to give again or update the account. Replays and strangers change nothing.
 */
const KEYS = { appSecret: 'test-secret-'.padEnd(48, 's'), secretKey: 'sk_test_sepa', webhookSecret: 'whsec_sepa' };

describeEachDialect('SEPA direct debits on %s', (dialect) => {
  let t: TestDb;
  let stripe: FakeStripe;
  let deps: DonationDeps;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ t, stripe, deps, close } = await stripeCardWorld(dialect, KEYS));
    await setReceiptSettings(t.db);
  });
  afterAll(async () => close?.());

  const webhook = async (e: { payload: string; header: string }) => expect(await handleStripeWebhook(deps, e.payload, e.header)).toEqual({ status: 200, message: 'ok' });
  const mailsTo = async (to: string) => t.db.selectFrom('mail_outbox').select(['subject', 'text']).where('to', '=', to).orderBy('created_at').execute();
  const receipts = async (id: string) => (await receiptsOfDonation(t.db, id)).map((r) => [r.status, r.method]);
  const since = '2000-01-01T00:00:00.000Z';
  const eur = (cents: number, lang: 'fr' | 'en' | 'es' = 'fr') => formatMoney(cents, 'EUR', lang);

  /** The donor space as `email` reads it signed in (French), its text without tags. */
  async function space(email: string): Promise<string> {
    const i18n = makeI18n('fr', messagesFor('fr'));
    const data = { email, history: await historyOf(t.db, email), monthly: await monthlyGiftsOf(t.db, email), newsletter: false, annualReceipts: [], memberships: [] };
    const page = createElement(SignedIn, { data, err: null, errText: '', t: i18n.t, lang: 'fr', formatDate: (iso: string) => iso.slice(0, 10) });
    return renderToStaticMarkup(createElement(I18nContext.Provider, { value: i18n }, page)).replace(/<[^>]+>/g, ' ').replace(/&#x27;|&#39;/g, "'");
  }

  /** A gift by SEPA debit whose donor signed the mandate (`checkout.session.completed`, unpaid) `times` times. */
  async function signed(email: string, o: { cents: number; monthly: boolean; lang: 'fr' | 'en' | 'es' }, times = 1) {
    const { donation } = await startCardDonation(deps, { amountCents: o.cents, monthly: o.monthly, lang: o.lang, taxDetails: JSON.stringify(DONOR) });
    const completed = stripe.completeDebit(donation.provider_ref, { customer_details: { email, name: 'Awa Diallo' } });
    for (let i = 0; i < times; i++) await webhook(completed);
    return { id: donation.id, session: donation.provider_ref, completed };
  }

  it('a one-off gift: mandate signed → processing (no receipt, not counted, one mail); debited ×3 → one success, one mail, one receipt', async () => {
    const email = `once-${dialect}@example.org`;
    const counted = await succeededEurCentsSince(t.db, since);
    const gift = await signed(email, { cents: 5000, monthly: false, lang: 'fr' }, 2);
    const row = (await findById(t.db, gift.id))!;
    const mandate = [...stripe.mandates.values()].at(-1);
    expect(row).toMatchObject({ status: 'processing', method: 'sepa_debit', account_last4: '3000', mandate_ref: mandate.payment_method_details.sepa_debit.reference, mandate_signed_at: new Date(mandate.customer_acceptance.accepted_at * 1000).toISOString(), succeeded_at: null });
    expect(await receipts(gift.id)).toEqual([]);
    expect(await succeededEurCentsSince(t.db, since)).toBe(counted);
    const [told] = await mailsTo(email);
    expect(await mailsTo(email)).toHaveLength(1);
    expect(told.subject).toBe('Votre mandat de prélèvement est bien reçu');
    expect(told.text).toContain(`Merci pour votre don de ${eur(5000)} ! Votre mandat de prélèvement SEPA est bien reçu.`);
    expect(told.text).toContain(`Compte se terminant par 3000, mandat n° ${row.mandate_ref}.`);
    expect(told.text).toContain('Un prélèvement prend quelques jours ouvrés.');
    // The donor back on the thank-you page: still processing (never read as a failure: no second payment).
    expect((await confirmStripeSession(deps, gift.session))!.status).toBe('processing');
    expect(await isKnownDonor(t.db, email)).toBe(true);
    expect(staffMeansLabel(row.provider, row.method)).toBe('Prélèvement SEPA');

    const paid = stripe.settleDebit(gift.session, 'succeeded');
    expect(paid.type).toBe('checkout.session.async_payment_succeeded');
    for (let i = 0; i < 3; i++) await webhook(paid);
    expect((await findById(t.db, gift.id))!.status).toBe('succeeded');
    expect(await receipts(gift.id)).toEqual([['issued', 'Prélèvement SEPA']]);
    expect(await succeededEurCentsSince(t.db, since)).toBe(counted + 5000);
    expect((await mailsTo(email)).map((m) => m.subject)).toEqual(['Votre mandat de prélèvement est bien reçu', translate(messagesFor('fr'), 'receipt.subject', { amount: eur(5000) })]);
    expect(await t.db.selectFrom('audit_log').select('id').where('action', '=', 'donation.succeeded').where('details', 'like', `%${gift.id}%`).execute()).toHaveLength(1);

    // A late "processing" news (the completion replayed) never takes the settled gift back.
    await webhook(gift.completed);
    expect((await findById(t.db, gift.id))!.status).toBe('succeeded');
    expect(await mailsTo(email)).toHaveLength(2);
    // The donor space speaks of a SEPA debit, with its account and mandate.
    const [h] = await historyOf(t.db, email);
    const en = (k: Parameters<typeof translate>[1]) => translate(messagesFor('en'), k);
    expect(meansText(h.provider, en)).toBe('SEPA Direct Debit');
    expect(h.debit).toEqual({ last4: '3000', reference: row.mandate_ref, signedAt: row.mandate_signed_at });
  });

  it('a one-off debit refused by the bank: failed, one mail in the donor’s language with the donate page, no receipt', async () => {
    const email = `refused-${dialect}@example.org`;
    const gift = await signed(email, { cents: 3000, monthly: false, lang: 'en' });
    const refused = stripe.settleDebit(gift.session, 'failed');
    expect(refused.type).toBe('checkout.session.async_payment_failed');
    for (let i = 0; i < 2; i++) await webhook(refused);
    await webhook(gift.completed);
    expect((await findById(t.db, gift.id))!.status).toBe('failed');
    expect(await receipts(gift.id)).toEqual([]);
    const mails = await mailsTo(email);
    expect(mails.map((m) => m.subject)).toEqual(['We have received your direct debit mandate', 'Your direct debit did not go through']);
    expect(mails[1].text).toContain(`Your bank did not make the debit of ${eur(3000, 'en')} for your gift: nothing was taken and no tax receipt will be issued.`);
    expect(mails[1].text).toContain('To give again, by direct debit or by card: https://dons.example.org/en/faire-un-don');
  });

  it('a monthly gift: its first invoice paid settles it once; renewals are SEPA debits too, shown with the mandate in the donor space', async () => {
    const email = `monthly-${dialect}@example.org`;
    const gift = await signed(email, { cents: 1500, monthly: true, lang: 'es' });
    expect((await findById(t.db, gift.id))!).toMatchObject({ status: 'processing', method: 'sepa_debit', account_last4: '3000' });
    const [view] = await monthlyGiftsOf(t.db, email);
    expect(view).toMatchObject({ status: 'active', method: 'sepa_debit', accountLast4: '3000' });
    expect((await mailsTo(email))[0].text).toContain(`¡Gracias por su donación mensual de ${eur(1500, 'es')}!`);

    const paid = stripe.settleDebit(gift.session, 'succeeded');
    expect(paid.type).toBe('invoice.paid');
    for (let i = 0; i < 3; i++) await webhook(paid);
    const first = (await findById(t.db, gift.id))!;
    expect(first.status).toBe('succeeded');
    expect(await receipts(gift.id)).toEqual([['issued', 'Prélèvement SEPA']]);
    expect(await mailsTo(email)).toHaveLength(2);
    // The first invoice is the checkout's gift: no second row for it.
    expect(await t.db.selectFrom('donations').select('id').where('secondary_ref', '=', first.secondary_ref).execute()).toHaveLength(1);

    // The donor space speaks of an account and shows the mandate, not a card.
    const shown = await space(email);
    expect(shown).toContain(`Compte se terminant par 3000, mandat n° ${first.mandate_ref}, signé le ${first.mandate_signed_at!.slice(0, 10)}`);
    expect(shown).toContain('Mettre à jour mon compte');
    expect(shown).not.toContain('Mettre à jour ma carte');
    expect(shown).toContain('Prélèvement SEPA');

    const renewal = stripe.renew(first.secondary_ref!);
    await webhook(renewal);
    const next = (await findByRef(t.db, 'stripe', renewal.invoice.id))!;
    expect(next).toMatchObject({ status: 'succeeded', method: 'sepa_debit', mandate_ref: first.mandate_ref });
    expect(staffMeansLabel(next.provider, next.method)).toBe('Prélèvement SEPA');
  });

  it('a monthly gift whose first debit fails: failed once, the gift past due, one mail with the donor space; paid later, a new gift', async () => {
    const email = `monthly-refused-${dialect}@example.org`;
    const gift = await signed(email, { cents: 2000, monthly: true, lang: 'fr' });
    const refused = stripe.settleDebit(gift.session, 'failed');
    expect(refused.type).toBe('invoice.payment_failed');
    for (let i = 0; i < 2; i++) await webhook(refused);
    const first = (await findById(t.db, gift.id))!;
    expect(first.status).toBe('failed');
    expect(await receipts(gift.id)).toEqual([]);
    // No failed instalment recorded beside it: the first gift's failure is the one news.
    expect(await t.db.selectFrom('donations').select('id').where('secondary_ref', '=', first.secondary_ref).execute()).toHaveLength(1);
    const mails = await mailsTo(email);
    expect(mails.map((m) => m.subject)).toEqual(['Votre mandat de prélèvement est bien reçu', 'Votre prélèvement n’a pas abouti']);
    expect(mails[1].text).toContain(`Votre banque n’a pas effectué le premier prélèvement de ${eur(2000)} pour votre don mensuel`);
    expect(mails[1].text).toContain('Pour mettre à jour votre compte, ouvrez votre espace donateur : https://dons.example.org/mon-espace');
    const [view] = await monthlyGiftsOf(t.db, email);
    expect(view).toMatchObject({ id: first.secondary_ref, status: 'past_due', method: 'sepa_debit' });
    expect(await space(email)).toContain('Dernier prélèvement échoué : mettez à jour votre compte');
    // The donor may still open the space to do so.
    expect(await isKnownDonor(t.db, email)).toBe(true);

    // The donor gave another account and Stripe debited it: the first invoice paid is a gift of its own, once.
    const paid = stripe.settleDebit(gift.session, 'succeeded');
    for (let i = 0; i < 2; i++) await webhook(paid);
    const rows = await t.db.selectFrom('donations').select(['status', 'method', 'provider_ref']).where('secondary_ref', '=', first.secondary_ref).orderBy('created_at').execute();
    expect(rows.map((r) => [r.status, r.method])).toEqual([['failed', 'sepa_debit'], ['succeeded', 'sepa_debit']]);
    expect((await findById(t.db, gift.id))!.status).toBe('failed');
  });

  it('tells a gift’s own debit news only: not dues, a card, a renewal’s failure, nor a donor without an address; the mandate’s line when Stripe named it', async () => {
    const email = `news-${dialect}@example.org`;
    const once = (await findById(t.db, (await signed(email, { cents: 1200, monthly: false, lang: 'fr' })).id))!;
    const sub = await signed(email, { cents: 1300, monthly: true, lang: 'fr' });
    await webhook(stripe.settleDebit(sub.session, 'succeeded'));
    const monthly = (await findById(t.db, sub.id))!;
    const told = async () => (await mailsTo(email)).length;
    const before = await told();
    const say = (type: PaymentEvent['type'], payment: typeof once) => tellDebitNews(deps, { type, purpose: payment.purpose, payment, receipt: null, cancelledReceipts: [], reissuedReceipts: [] });
    for (const type of ['payment.processing', 'payment.failed'] as const) {
      await say(type, { ...once, purpose: 'dues' });
      await say(type, { ...once, method: 'card' });
      await say(type, { ...once, method: null });
      await say(type, { ...once, donor_email: null });
      await say(type, { ...monthly, donor_email: null, secondary_ref: 'sub_none' });
    }
    // A monthly payment's failure that is not its gift's checkout (no subscription, or one never seen): not its own debit.
    await say('payment.failed', { ...monthly, secondary_ref: null });
    await say('payment.failed', { ...monthly, secondary_ref: 'sub_none' });
    await say('payment.succeeded', once);
    expect(await told()).toBe(before);
    // A one-off gift's failure marks no monthly gift.
    await say('payment.failed', once);
    expect(await t.db.selectFrom('monthly_gifts').select('id').where('id', '=', once.secondary_ref!).execute()).toEqual([]);
    expect((await mailsTo(email)).at(-1)!.subject).toBe('Votre prélèvement n’a pas abouti');
    // Without the account or the mandate, the mandate mail says neither.
    await say('payment.processing', { ...once, account_last4: null });
    await say('payment.processing', { ...once, mandate_ref: null });
    const [noAccount, noMandate] = (await mailsTo(email)).slice(-2);
    for (const m of [noAccount, noMandate]) {
      expect(m.subject).toBe('Votre mandat de prélèvement est bien reçu');
      expect(m.text.split('\n\n')).toEqual([`Merci pour votre don de ${eur(1200)} ! Votre mandat de prélèvement SEPA est bien reçu.`, expect.stringMatching(/^Un prélèvement prend quelques jours ouvrés\./), expect.any(String)]);
    }
    // A later instalment's failure is the monthly register's mail alone, which speaks of the account.
    const count = await told();
    const invoice = { id: `in_cycle_${dialect}`, object: 'invoice', billing_reason: 'subscription_cycle', amount_due: 1300, amount_paid: 0, currency: 'eur', customer_email: null, parent: { subscription_details: { subscription: monthly.secondary_ref } } };
    for (let i = 0; i < 2; i++) await webhook(stripe.event('invoice.payment_failed', invoice));
    const later = (await mailsTo(email)).slice(count);
    expect(later.map((m) => m.subject)).toEqual(['Le prélèvement de votre don mensuel a échoué']);
    expect(later[0].text).toContain('Pour mettre à jour votre compte, ouvrez votre espace donateur');
    expect((await findByRef(t.db, 'stripe', `${invoice.id}:failed`))!).toMatchObject({ status: 'failed', method: 'sepa_debit' });
    // Erasing the donor's data erases the account's digits and the mandate's reference; the means stays.
    await eraseGiftDetails(t.db, [once.id]);
    expect(await findById(t.db, once.id)).toMatchObject({ method: 'sepa_debit', account_last4: null, mandate_ref: null, donor_email: null });
  });

  it('Stripe unreachable while the debit is read: nothing moves and the news is refused, so Stripe sends it again', async () => {
    const { donation } = await startCardDonation(deps, { amountCents: 1000, monthly: false, lang: 'fr' });
    const completed = stripe.completeDebit(donation.provider_ref);
    stripe.failNext = 5;
    await expect(handleStripeWebhook(deps, completed.payload, completed.header)).rejects.toBeInstanceOf(ProviderError);
    stripe.failNext = 0;
    expect((await findById(t.db, donation.id))!.status).toBe('pending');
    await webhook(completed);
    expect((await findById(t.db, donation.id))!.status).toBe('processing');
  });

  it('news of sessions, payments and invoices that are none of ours change nothing, and ask Stripe nothing', async () => {
    const before = { rows: (await t.db.selectFrom('donations').select('id').execute()).length, mails: (await t.db.selectFrom('mail_outbox').select('id').execute()).length };
    const asked = stripe.requests.length;
    const stranger = { id: 'cs_stranger', object: 'checkout.session', status: 'complete', payment_status: 'unpaid', mode: 'payment', payment_intent: 'pi_stranger', amount_total: 1000, currency: 'eur' };
    await webhook(stripe.event('checkout.session.completed', stranger));
    await webhook(stripe.event('checkout.session.async_payment_succeeded', { ...stranger, payment_status: 'paid' }));
    await webhook(stripe.event('checkout.session.async_payment_failed', stranger));
    const invoice = { id: 'in_stranger', object: 'invoice', billing_reason: 'subscription_create', amount_paid: 1000, amount_due: 1000, currency: 'eur', parent: { subscription_details: { subscription: 'sub_stranger' } } };
    await webhook(stripe.event('invoice.paid', invoice));
    await webhook(stripe.event('invoice.payment_failed', invoice));
    expect(stripe.requests.length).toBe(asked);
    expect(await t.db.selectFrom('donations').select('id').execute()).toHaveLength(before.rows);
    expect(await t.db.selectFrom('mail_outbox').select('id').execute()).toHaveLength(before.mails);
  });
});
