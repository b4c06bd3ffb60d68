import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { subscribe } from '~/domain/donations/events.server';
import { findById } from '~/domain/donations/ledger.server';
import { duesSubscriber } from '~/domain/membership/dues-mail.server';
import { join } from '~/domain/membership/join.server';
import { parisDay } from '~/lib/paris';
import { yearFrom } from '~/domain/membership/period';
import { recordManualDues, voidManualDues } from '~/domain/membership/payments.server';
import { reconcileDues } from '~/domain/membership/reconcile.server';
import { duesHistory, getMember } from '~/domain/membership/register.server';
import { createType } from '~/domain/membership/types.server';
import type { FakeStripe } from '../fakes/stripe';
import type { TestDb } from '../support/db';
import { describeEachDialect } from '../support/db';
import { stripeCardWorld } from '../support/donations';
import { memberInput, membershipType } from '../support/membership';
import { handleStripeWebhook, type DonationDeps } from '../support/payment-entry';

const KEYS = { appSecret: 'dues-reconcile-'.padEnd(48, 'r'), secretKey: 'sk_test_reconcile', webhookSecret: 'whsec_reconcile' };
const ADMIN = { id: 'u-admin', name: 'Alice Admin' };

/**
 * A dues payment whose event was lost (ADR 021): the ledger settled it, the 'membership dues'
 * subscriber failed (here: replaced by one that throws, as a database error or a process that died
 * after the commit would), so the membership did not follow. The hourly sweep applies it once.
 */
describeEachDialect('dues whose payment event was lost, on %s', (dialect) => {
  let world: Awaited<ReturnType<typeof stripeCardWorld>>;
  let t: TestDb;
  let stripe: FakeStripe;
  let deps: DonationDeps;
  let type: string;
  beforeAll(async () => {
    world = await stripeCardWorld(dialect, KEYS);
    ({ t, stripe, deps } = world);
    type = await createType(t.db, ADMIN, membershipType());
  });
  afterAll(() => world?.close());
  // The subscriber the server registers, back in place after each test.
  afterEach(() => void subscribe('membership dues', duesSubscriber));

  const today = () => parisDay(new Date().toISOString());
  const loseEvents = () =>
    subscribe('membership dues', async () => {
      throw new Error('lost');
    });
  const mailsTo = (to: string) => t.db.selectFrom('mail_outbox').select('subject').where('to', '=', to).execute();
  const joinByCard = async (email: string) => {
    const r = await join(deps, { ...memberInput(type, { email }), method: 'card', statutes: 'on', privacy: 'on', news: false }, 'fr', (n) => `Cotisation — ${n}`);
    if (r.kind !== 'pay') throw new Error(`not started: ${r.kind}`);
    const m = await t.db.selectFrom('memberships').select(['id', 'number']).where('email', '=', email).executeTakeFirstOrThrow();
    const link = await t.db.selectFrom('membership_payments').select('payment_id').where('membership_id', '=', m.id).executeTakeFirstOrThrow();
    return { m, payment: (await findById(t.db, link.payment_id))! };
  };

  it('a paid membership whose event was lost stays pending until the sweep, which activates it and mails the member once', async () => {
    const { m, payment } = await joinByCard('lost@example.org');
    loseEvents();
    const ev = stripe.complete(payment.provider_ref);
    expect((await handleStripeWebhook(deps, ev.payload, ev.header)).status).toBe(200);
    expect((await findById(t.db, payment.id))?.status).toBe('succeeded');
    expect((await getMember(t.db, m.id, today(), 30))?.state).toBe('pending');
    subscribe('membership dues', duesSubscriber);

    expect(await reconcileDues(deps)).toEqual({ applied: 1, revoked: 0 });
    expect(await getMember(t.db, m.id, today(), 30)).toMatchObject({ state: 'active', endsOn: yearFrom(today()) });
    expect(await mailsTo('lost@example.org')).toEqual([{ subject: 'Votre adhésion à la Fondation THV est active' }]);
    // Again (another instance, the next hour): nothing left to do, no second mail.
    expect(await reconcileDues(deps)).toEqual({ applied: 0, revoked: 0 });
    expect(await duesHistory(t.db, m.id)).toHaveLength(1);
    expect(await mailsTo('lost@example.org')).toHaveLength(1);
  });

  it('leaves alone dues the event already applied, payments still pending, and a refund whose event was lost is revoked', async () => {
    const pending = await joinByCard('waiting@example.org');
    const { m, payment } = await joinByCard('refunded@example.org');
    const ev = stripe.complete(payment.provider_ref);
    await handleStripeWebhook(deps, ev.payload, ev.header);
    expect((await getMember(t.db, m.id, today(), 30))?.state).toBe('active');
    expect(await reconcileDues(deps)).toEqual({ applied: 0, revoked: 0 });

    loseEvents();
    const refund = stripe.refund({ paymentIntent: `pi_${payment.provider_ref}` });
    await handleStripeWebhook(deps, refund.payload, refund.header);
    expect((await findById(t.db, payment.id))?.status).toBe('refunded');
    expect((await getMember(t.db, m.id, today(), 30))?.state).toBe('active');
    subscribe('membership dues', duesSubscriber);

    expect(await reconcileDues(deps)).toEqual({ applied: 0, revoked: 1 });
    expect(await getMember(t.db, m.id, today(), 30)).toMatchObject({ state: 'pending', endsOn: null });
    expect(await reconcileDues(deps)).toEqual({ applied: 0, revoked: 0 });
    expect((await getMember(t.db, pending.m.id, today(), 30))?.state).toBe('pending');
  });

  it('dues an Admin took back whose cancellation event was lost are revoked by the sweep, once', async () => {
    const m = await t.db.selectFrom('memberships').select(['id']).where('email', '=', 'waiting@example.org').executeTakeFirstOrThrow();
    const recorded = await recordManualDues(deps, ADMIN, { membershipId: m.id, token: 'tok-void-lost', means: 'cheque', amountCents: 3000, receivedOn: today(), reference: 'CHQ 9', note: '' });
    expect((await getMember(t.db, m.id, today(), 30))?.state).toBe('active');
    loseEvents();
    expect(await voidManualDues(deps, ADMIN, m.id, recorded.payment!.id, 'chèque sans provision')).toBe(true);
    expect((await findById(t.db, recorded.payment!.id))?.status).toBe('cancelled');
    // The event was lost: the member still counts on money the foundation does not have.
    expect((await getMember(t.db, m.id, today(), 30))?.state).toBe('active');
    subscribe('membership dues', duesSubscriber);

    expect(await reconcileDues(deps)).toEqual({ applied: 0, revoked: 1 });
    expect((await getMember(t.db, m.id, today(), 30))?.state).toBe('pending');
    expect((await duesHistory(t.db, m.id)).map((d) => d.status)).toEqual(['cancelled']);
    expect(await reconcileDues(deps)).toEqual({ applied: 0, revoked: 0 });
  });
});
