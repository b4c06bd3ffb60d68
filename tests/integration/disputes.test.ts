import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { log } from '~/lib/log.server';
import { createAttempt, findById, findByRef, transition } from '~/domain/donations/ledger.server';
import { issueAnnualStatements, receiptsOfDonation } from '~/domain/receipts/register.server';
import { parisYear } from '~/lib/paris';
import { handleStripeWebhook, startCardDonation, type DonationDeps } from '../support/payment-entry';
import type { FakeStripe } from '../fakes/stripe';
import { describeEachDialect, type TestDb } from '../support/db';
import { stripeCardWorld } from '../support/donations';
import { DONOR, setReceiptSettings } from '../support/receipts';

/**
 * Disputes (issue 41, ADR 027): a card chargeback or a SEPA return, sent as Stripe signs them and
 * applied through the one webhook path; a lost one refunds the gift and cancels its receipt (an
 * annual statement is reissued), every outcome is told to the Admins once, replays change nothing.
 */
const KEYS = { appSecret: 'test-secret-'.padEnd(48, 'd'), secretKey: 'sk_test_disputes', webhookSecret: 'whsec_disputes' };
const YEAR = parisYear(new Date());
const ADMIN = 'admin@example.org';

describeEachDialect('disputes on %s', (dialect) => {
  let t: TestDb;
  let stripe: FakeStripe;
  let deps: DonationDeps;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ t, stripe, deps, close } = await stripeCardWorld(dialect, KEYS));
    await setReceiptSettings(t.db);
    const at = '2026-01-01T00:00:00.000Z';
    await t.db.insertInto('users').values({ id: 'admin-1', name: 'Admin', email: ADMIN, role: 'Admin', password_hash: 'x', version: 1, created_at: at, updated_at: at }).execute();
    // Invited, never signed in: not told.
    await t.db.insertInto('users').values({ id: 'admin-2', name: 'Invitée', email: 'invited@example.org', role: 'Admin', password_hash: null, version: 1, created_at: at, updated_at: at }).execute();
  });
  afterAll(async () => close?.());

  const webhook = async (e: { payload: string; header: string }) => expect(await handleStripeWebhook(deps, e.payload, e.header)).toEqual({ status: 200, message: 'ok' });
  const adminMails = async () => t.db.selectFrom('mail_outbox').select(['to', 'subject', 'text', 'html']).where('to', 'in', [ADMIN, 'invited@example.org']).orderBy('created_at').execute();
  const disputeLines = async (donationId: string) =>
    (await t.db.selectFrom('audit_log').select(['action', 'target', 'details', 'user_name']).where('action', '=', 'donation.disputed').execute()).filter((l) => JSON.parse(l.details).donation === donationId);
  const state = async (id: string) => [(await findById(t.db, id))!.status, (await receiptsOfDonation(t.db, id)).map((r) => [r.status, r.cancel_reason])];

  /** A one-off card gift of `cents` with the donor's details, confirmed by its signed webhook; its PaymentIntent. */
  async function cardGift(cents: number) {
    const { donation } = await startCardDonation(deps, { amountCents: cents, monthly: false, lang: 'fr', taxDetails: JSON.stringify(DONOR) });
    await webhook(stripe.complete(donation.provider_ref));
    return { id: donation.id, payment: { paymentIntent: `pi_${donation.provider_ref}` } };
  }

  it('a chargeback opened, then lost: the gift counts refunded, its receipt is cancelled, the Admins are told once per news', async () => {
    const gift = await cardGift(5000);
    const [receipt] = await receiptsOfDonation(t.db, gift.id);
    expect(await state(gift.id)).toEqual(['succeeded', [['issued', null]]]);
    const before = (await adminMails()).length;

    const opened = stripe.dispute(gift.payment, 'needs_response');
    for (let i = 0; i < 3; i++) await webhook(opened);
    expect(await state(gift.id)).toEqual(['succeeded', [['issued', null]]]);
    const [open] = (await adminMails()).slice(before);
    expect((await adminMails()).slice(before)).toHaveLength(1);
    const ref = opened.dispute.id;
    expect(open).toMatchObject({ to: ADMIN, subject: 'Contestation ouverte : un don de 50,00 €' });
    expect(open.text).toContain(`Un don de 50,00 € a été contesté auprès de la banque du payeur (paiement frauduleux selon le titulaire ; litige ${ref}). Rien ne change pour l’instant : le paiement reste compté et son reçu fiscal reste valable.`);
    expect(open.text).toContain(`de Awa Diallo, référence ${gift.id}.`);
    expect(open.text).toContain('Dons : https://dons.example.org/admin/donations\n');
    expect(open.text).toMatch(/\n\nPaiement du \d{1,2} [a-zéû]+ \d{4}, de Awa Diallo, référence /);
    expect(open.html).toMatch(/^<p>Un don de 50,00 € a été contesté [^<]+<\/p><p>Paiement du [^<]+<\/p><p><a href="https:\/\/dons.example.org\/admin\/donations">Dons<\/a><\/p>$/);

    const lost = stripe.dispute(gift.payment, 'lost', { type: 'charge.dispute.closed' });
    const info = vi.spyOn(log, 'info');
    for (let i = 0; i < 3; i++) await webhook(lost);
    expect(info.mock.calls.filter((c) => c[0] === 'dispute news already recorded')).toEqual([
      ['dispute news already recorded', { donationId: gift.id, dispute: ref, outcome: 'lost' }],
      ['dispute news already recorded', { donationId: gift.id, dispute: ref, outcome: 'lost' }],
    ]);
    info.mockRestore();
    expect(await state(gift.id)).toEqual(['refunded', [['cancelled', 'Don contesté']]]);
    const told = (await adminMails()).slice(before + 1);
    expect(told.map((m) => m.subject).sort()).toEqual(['Contestation perdue : un don de 50,00 €', `Reçu fiscal annulé après contestation : ${receipt.number}`]);
    const notice = told.find((m) => m.subject.startsWith('Contestation'))!;
    expect(notice.text).toContain(`Un don de 50,00 € a été contesté (paiement frauduleux selon le titulaire ; litige ${ref}) : il est compté comme remboursé et son reçu est annulé (${receipt.number}).`);
    expect(told.find((m) => m.subject.startsWith('Reçu'))!.text).toContain(`Un paiement a été contesté et repris par la banque du payeur : le reçu fiscal ${receipt.number} (50,00 €) est annulé automatiquement.`);

    // In the audit log (the dashboard's activity): each news once, and the refund the lost one made.
    expect((await disputeLines(gift.id)).map((l) => [l.target, l.user_name, JSON.parse(l.details)])).toEqual([
      ['50.00 EUR (stripe) : contestation ouverte', 'Paiement en ligne', { donation: gift.id, dispute: ref, outcome: 'open', reason: 'fraudulent', amount: '50.00 EUR' }],
      ['50.00 EUR (stripe) : contestation perdue', 'Paiement en ligne', { donation: gift.id, dispute: ref, outcome: 'lost', reason: 'fraudulent', amount: '50.00 EUR' }],
    ]);
    expect(await t.db.selectFrom('audit_log').select('id').where('action', '=', 'donation.refunded').where('details', 'like', `%${gift.id}%`).execute()).toHaveLength(1);
    expect(await t.db.selectFrom('payment_disputes').select(['dispute_ref', 'outcome', 'amount_minor', 'currency']).where('donation_id', '=', gift.id).orderBy('outcome').execute()).toEqual([
      { dispute_ref: ref, outcome: 'lost', amount_minor: 5000, currency: 'EUR' },
      { dispute_ref: ref, outcome: 'open', amount_minor: 5000, currency: 'EUR' },
    ]);
    // Stripe's repeat of the lost news (funds withdrawn) and a later replay change nothing more.
    await webhook(stripe.dispute(gift.payment, 'lost', { type: 'charge.dispute.funds_withdrawn' }));
    await webhook(opened);
    expect(await adminMails()).toHaveLength(before + 3);
    expect(await state(gift.id)).toEqual(['refunded', [['cancelled', 'Don contesté']]]);
  });

  it('a SEPA return (a dispute created lost) on a monthly instalment: the annual statement is corrected and reissued without it', async () => {
    await setReceiptSettings(t.db, { model: 'annual_monthly' });
    try {
      const email = `sepa-${dialect}@example.org`;
      const { donation } = await startCardDonation(deps, { amountCents: 1500, monthly: true, lang: 'fr', taxDetails: JSON.stringify(DONOR) });
      await webhook(stripe.complete(donation.provider_ref, { customer_details: { email, name: 'Awa Diallo' } }));
      const session = stripe.sessions.get(donation.provider_ref);
      const renewal = stripe.renew(session.subscription);
      await webhook(renewal);
      const returned = (await findByRef(t.db, 'stripe', renewal.invoice.id))!;
      const january = new Date(Date.UTC(YEAR + 1, 0, 5, 9));
      const [annual] = (await issueAnnualStatements(t.db, YEAR, january)).filter((r) => r.donor_email === email);
      expect(annual).toMatchObject({ amount_cents: 3000, donation_ids: JSON.stringify([donation.id, returned.id]) });
      const before = (await adminMails()).length;

      const sepaReturn = stripe.dispute({ invoice: renewal.invoice.id }, 'lost', { reason: 'insufficient_funds' });
      for (let i = 0; i < 2; i++) await webhook(sepaReturn);
      expect((await findById(t.db, returned.id))!.status).toBe('refunded');
      expect((await findById(t.db, donation.id))!.status).toBe('succeeded');
      const rows = await t.db.selectFrom('receipts').selectAll().where('kind', '=', 'annual').where('donor_email', '=', email).execute();
      const old = rows.find((r) => r.id === annual.id)!;
      const fixed = rows.find((r) => r.replaces_id === annual.id)!;
      expect(rows).toHaveLength(2);
      expect(old).toMatchObject({ status: 'cancelled', cancel_reason: 'Don contesté' });
      expect(fixed).toMatchObject({ status: 'issued', amount_cents: 1500, donation_ids: JSON.stringify([donation.id]) });
      // The donor gets the corrected statement; the Admins the dispute and the receipts' notice.
      expect(await t.db.selectFrom('mail_outbox').select('id').where('to', '=', email).where('text', 'like', `%${fixed.number}%`).execute()).toHaveLength(1);
      const told = (await adminMails()).slice(before);
      expect(told.map((m) => m.subject).sort()).toEqual(['Contestation perdue : un don de 15,00 €', `Reçu fiscal annulé après contestation : ${annual.number}`]);
      expect(told.find((m) => m.subject.startsWith('Contestation'))!.text).toContain(`Un don de 15,00 € a été contesté (provision insuffisante ; litige ${sepaReturn.dispute.id}) : il est compté comme remboursé et son reçu est annulé (${annual.number}).`);
      expect(told.find((m) => m.subject.startsWith('Reçu'))!.text).toContain(`le reçu rectificatif ${fixed.number} (15,00 €) le remplace`);
    } finally {
      await setReceiptSettings(t.db);
    }
  });

  it('a chargeback opened, then won: nothing is restored nor taken, the Admins are told of each news once', async () => {
    const gift = await cardGift(2500);
    const before = (await adminMails()).length;
    const opened = stripe.dispute(gift.payment, 'warning_needs_response', { reason: 'unrecognized' });
    const won = stripe.dispute(gift.payment, 'won', { type: 'charge.dispute.closed', reason: 'unrecognized' });
    for (const e of [opened, won, won, opened]) await webhook(e);
    expect(await state(gift.id)).toEqual(['succeeded', [['issued', null]]]);
    const told = (await adminMails()).slice(before);
    expect(told.map((m) => m.subject)).toEqual(['Contestation ouverte : un don de 25,00 €', 'Contestation gagnée : un don de 25,00 €']);
    expect(told[1].text).toContain(`La contestation du don de 25,00 € est close en faveur de la fondation (paiement non reconnu ; litige ${won.dispute.id}) : rien ne change, l’argent n’a pas été repris.`);
    expect((await disputeLines(gift.id)).map((l) => l.target)).toEqual(['25.00 EUR (stripe) : contestation ouverte', '25.00 EUR (stripe) : contestation gagnée']);
  });

  it('news of an opening that arrives after the dispute closed is old news: recorded nowhere, told to nobody', async () => {
    const gift = await cardGift(1800);
    const before = (await adminMails()).length;
    await webhook(stripe.dispute(gift.payment, 'lost', { type: 'charge.dispute.closed' }));
    await webhook(stripe.dispute(gift.payment, 'needs_response'));
    expect((await adminMails()).slice(before).map((m) => m.subject)).toEqual(expect.arrayContaining(['Contestation perdue : un don de 18,00 €']));
    expect((await adminMails()).slice(before).filter((m) => m.subject.startsWith('Contestation'))).toHaveLength(1);
    expect((await disputeLines(gift.id)).map((l) => JSON.parse(l.details).outcome)).toEqual(['lost']);
    expect(await state(gift.id)).toEqual(['refunded', [['cancelled', 'Don contesté']]]);
  });

  it('a dispute won, then lost in arbitration: the opening arriving late is old news, the loss refunds the gift', async () => {
    const gift = await cardGift(2200);
    const before = (await adminMails()).length;
    await webhook(stripe.dispute(gift.payment, 'won', { type: 'charge.dispute.closed' }));
    await webhook(stripe.dispute(gift.payment, 'needs_response'));
    expect(await state(gift.id)).toEqual(['succeeded', [['issued', null]]]);
    await webhook(stripe.dispute(gift.payment, 'lost', { type: 'charge.dispute.closed' }));
    expect(await state(gift.id)).toEqual(['refunded', [['cancelled', 'Don contesté']]]);
    expect((await disputeLines(gift.id)).map((l) => JSON.parse(l.details).outcome)).toEqual(['won', 'lost']);
    expect((await adminMails()).slice(before).filter((m) => m.subject.startsWith('Contestation')).map((m) => m.subject)).toEqual(['Contestation gagnée : un don de 22,00 €', 'Contestation perdue : un don de 22,00 €']);
  });

  it('a part of a gift taken back leaves it and its receipt as they are, and tells the Admins', async () => {
    const gift = await cardGift(4000);
    const before = (await adminMails()).length;
    const partial = stripe.dispute(gift.payment, 'lost', { amount: 1000, reason: 'duplicate' });
    await webhook(partial);
    expect(await state(gift.id)).toEqual(['succeeded', [['issued', null]]]);
    const told = (await adminMails()).slice(before);
    expect(told).toHaveLength(1);
    expect(told[0].text).toContain(`Un don de 40,00 € a été contesté et la banque du payeur en a repris 10,00 € (paiement en double ; litige ${partial.dispute.id}) : le paiement et son reçu restent tels quels`);
    // The whole amount, but in another currency than the gift's: not the gift's money, nothing moves either.
    await webhook(stripe.event('charge.dispute.closed', { ...partial.dispute, id: 'dp_xof', amount: 4000, currency: 'xof' }));
    expect(await state(gift.id)).toEqual(['succeeded', [['issued', null]]]);
    expect((await adminMails()).slice(before)[1].text).toContain('la banque du payeur en a repris 4 000 F CFA (paiement en double ; litige dp_xof) : le paiement et son reçu restent tels quels');
  });

  it('a lost dispute on a payment already refunded, or on dues, says what it is', async () => {
    const gift = await cardGift(3000);
    await webhook(stripe.refund(gift.payment));
    const before = (await adminMails()).length;
    await webhook(stripe.dispute(gift.payment, 'lost', { reason: 'general' }));
    expect((await adminMails()).slice(before).map((m) => m.text.split('\n')[0])).toEqual([expect.stringMatching(/^Un don de 30,00 € a été contesté \(motif non détaillé ; litige dp_\w+\) : le paiement, « Remboursé », ne change pas\.$/)]);

    // Dues paid without tax details: nothing to cancel; their own words.
    const dues = await createAttempt(t.db, { provider: 'stripe', purpose: 'dues', amountMinor: 2000, currency: 'EUR', eurCents: 2000, frequency: 'once', language: 'fr', donorEmail: 'member@example.org' });
    await transition(t.db, { id: dues.id }, 'succeeded', { secondaryRef: 'pi_dues_disputed' });
    const lost = { id: 'dp_dues', object: 'dispute', charge: 'ch_dues', payment_intent: 'pi_dues_disputed', amount: 2000, currency: 'eur', reason: 'subscription_canceled', status: 'lost' };
    // Told with the back office's path when no public address is known.
    const withoutAddress = stripe.event('charge.dispute.created', lost);
    expect(await handleStripeWebhook({ ...deps, publicUrl: undefined }, withoutAddress.payload, withoutAddress.header)).toEqual({ status: 200, message: 'ok' });
    expect((await findById(t.db, dues.id))!.status).toBe('refunded');
    const [said] = (await adminMails()).slice(before + 1);
    expect(said.subject).toBe('Contestation perdue : une cotisation de 20,00 €');
    expect(said.text).toContain('Une cotisation de 20,00 € a été contestée (abonnement résilié ; litige dp_dues) : elle est comptée comme remboursée et aucun reçu fiscal n’était valable pour ce paiement.');
    expect(said.text).toContain('de member@example.org, référence');
    expect(said.text).toContain('\n\nDons : /admin/donations\n');
  });

  it('a dispute of a payment that is none of ours, or in a status we do not know, answers 200 and changes nothing', async () => {
    const gift = await cardGift(1200);
    const before = { mails: (await adminMails()).length, disputes: (await t.db.selectFrom('payment_disputes').select('id').execute()).length };
    const stranger = { id: 'dp_stranger', object: 'dispute', charge: 'ch_x', payment_intent: 'pi_unknown_to_us', amount: 1200, currency: 'eur', reason: 'fraudulent', status: 'lost' };
    await webhook(stripe.event('charge.dispute.created', stranger));
    await webhook(stripe.event('charge.dispute.closed', { ...stranger, payment_intent: null }));
    await webhook(stripe.event('charge.dispute.created', { ...stranger, payment_intent: gift.payment.paymentIntent, status: 'prevented' }));
    // An event Stripe sends about disputes that we do not read.
    await webhook(stripe.event('charge.dispute.updated', { ...stranger, payment_intent: gift.payment.paymentIntent }));
    expect(await state(gift.id)).toEqual(['succeeded', [['issued', null]]]);
    expect(await adminMails()).toHaveLength(before.mails);
    expect(await t.db.selectFrom('payment_disputes').select('id').execute()).toHaveLength(before.disputes);
    // A forged one is refused before anything is read.
    const forged = stripe.dispute(gift.payment, 'lost');
    expect(await handleStripeWebhook(deps, forged.payload, stripe.sign(forged.payload, 'whsec_other'))).toEqual({ status: 400, message: 'invalid signature' });
    expect(await state(gift.id)).toEqual(['succeeded', [['issued', null]]]);
  });
});
