import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { subscribe, type PaymentEvent } from '~/domain/donations/events.server';
import { ALLOWED_TRANSITIONS, findById, findByRef, type Donation } from '~/domain/donations/ledger.server';
import { recordOfflinePayment, settle, voidOfflinePayment } from '~/domain/donations/payments.server';
import type { DonationStatus } from '~/domain/donations/status';
import type { FakeStripe } from '../fakes/stripe';
import { describeEachDialect } from '../support/db';
import { stripeCardWorld } from '../support/donations';
import { cancelAttempt, handleStripeWebhook, startCardDonation, type DonationDeps } from '../support/payment-entry';

const KEYS = { appSecret: 'ledger-events-'.padEnd(48, 'e'), secretKey: 'sk_test_ledger_events', webhookSecret: 'whsec_ledger_events' };
const ADMIN = { id: 'u-admin', name: 'Alice Admin' };
const ROOT = path.resolve(import.meta.dirname, '..', '..');
const LEDGER = path.join(ROOT, 'app', 'domain', 'donations', 'ledger.server.ts');

/**
 * Every move of the ledger is told (issue 39): each status move it can make — the moves between
 * statuses (ALLOWED_TRANSITIONS) and the payments it records already settled — is made here through
 * the path a caller takes (a webhook, the payer's return, a failed start, an Admin's act), and the
 * subscribers receive its event exactly once. A move added to the ledger without a way here fails
 * the first test; a call of a move that is not handed to `publish` fails the last.
 */

/** The ledger's functions that move a payment (they answer a Transition). */
const MOVE_FUNCTIONS = ['transition', 'recordSucceeded', 'recordFromProvider', 'recordOffline', 'voidOffline'];
/**
 * The one that answers a Transition but moves no payment: a monthly gift adopted from the provider
 * when the foundation moved in (ADR 037) starts as `adopted`, no money and no receipt, and publishes
 * nothing (no mail, no receipt: tests/integration/adopt-monthly.test.ts); its instalments are
 * renewals, told like any other.
 */
const NO_PAYMENT_RECORDS = ['recordAdopted'];

/** Every move: `from→to`, `∅→to` for a payment recorded already settled. */
const STATUS_MOVES = Object.entries(ALLOWED_TRANSITIONS).flatMap(([from, tos]) => tos.map((to) => `${from}→${to}`));
const RECORDED_MOVES = ['∅→succeeded (monthly renewal)', '∅→failed (failed instalment)', '∅→succeeded (received by hand)', 'succeeded→cancelled (taken back by hand)'];

it('the ledger’s move functions are the ones this file knows', () => {
  const source = fs.readFileSync(LEDGER, 'utf8');
  const movers = [...source.matchAll(/export async function (\w+)\([^)]*\)[^{]*Promise<Transition>/g)].map((m) => m[1]);
  expect(movers.sort()).toEqual([...MOVE_FUNCTIONS, ...NO_PAYMENT_RECORDS].sort());
});

describeEachDialect('every ledger move publishes its event, on %s', (dialect) => {
  let world: Awaited<ReturnType<typeof stripeCardWorld>>;
  let stripe: FakeStripe;
  let deps: DonationDeps;
  const heard: PaymentEvent[] = [];
  let unsubscribe: () => void;

  beforeAll(async () => {
    world = await stripeCardWorld(dialect, KEYS);
    ({ stripe, deps } = world);
    unsubscribe = subscribe('test: every event', async (_deps, e) => void heard.push(e));
  });
  afterAll(async () => {
    unsubscribe?.();
    await world?.close();
  });

  const webhook = async (e: { payload: string; header: string }) => expect((await handleStripeWebhook(deps, e.payload, e.header)).status).toBe(200);
  const start = async (monthly = false) => (await startCardDonation(deps, { amountCents: 1500, monthly, lang: 'fr' })).donation;
  const paid = async (monthly = false) => {
    const d = await start(monthly);
    await webhook(stripe.complete(d.provider_ref));
    return (await findById(deps.db, d.id))!;
  };
  const processing = async () => {
    const d = await start();
    await webhook(stripe.completeDebit(d.provider_ref));
    return d;
  };
  const cancelled = async () => {
    const d = await start();
    await cancelAttempt(deps, d.id);
    return d;
  };
  const latest = async () => (await deps.db.selectFrom('donations').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').executeTakeFirstOrThrow()) as Donation;

  /** Each move, made as its caller makes it; answers the payment it moved. */
  const MAKE: Record<string, () => Promise<Donation>> = {
    'pending→succeeded': () => paid(),
    // Stripe refuses to open the checkout: the attempt fails.
    'pending→failed': async () => {
      stripe.failNext = 5;
      await expect(start()).rejects.toThrow();
      stripe.failNext = 0;
      return latest();
    },
    // The payer comes back through the cancel page.
    'pending→cancelled': () => cancelled(),
    // A SEPA mandate signed: the debit is on its way (ADR 029).
    'pending→processing': () => processing(),
    'processing→succeeded': async () => {
      const d = await processing();
      await webhook(stripe.settleDebit(d.provider_ref, 'succeeded'));
      return d;
    },
    'processing→failed': async () => {
      const d = await processing();
      await webhook(stripe.settleDebit(d.provider_ref, 'failed'));
      return d;
    },
    // The donor left through the cancel page, then signed the mandate in the checkout still open.
    'cancelled→processing': async () => {
      const d = await cancelled();
      await webhook(stripe.completeDebit(d.provider_ref));
      return d;
    },
    // The checkout was paid after all.
    'cancelled→succeeded': async () => {
      const d = await cancelled();
      await webhook(stripe.complete(d.provider_ref));
      return d;
    },
    // The provider's verified word: the payment failed.
    'cancelled→failed': async () => {
      const d = await cancelled();
      await settle(deps, 'stripe', { ref: d.provider_ref, status: 'failed', amountMinor: d.amount_minor, currency: d.currency });
      return d;
    },
    'succeeded→refunded': async () => {
      const d = await paid();
      await webhook(stripe.refund({ paymentIntent: d.secondary_ref! }));
      return d;
    },
    '∅→succeeded (monthly renewal)': async () => {
      const first = await paid(true);
      const r = stripe.renew(first.secondary_ref!);
      await webhook(r);
      return (await findByRef(deps.db, 'stripe', r.invoice.id))!;
    },
    '∅→failed (failed instalment)': async () => {
      const first = await paid(true);
      const invoice = { id: `in_failed_${first.id.slice(0, 8)}`, object: 'invoice', billing_reason: 'subscription_cycle', amount_due: 1500, amount_paid: 0, currency: 'eur', customer_email: null, parent: { subscription_details: { subscription: first.secondary_ref } } };
      await webhook(stripe.event('invoice.payment_failed', invoice));
      return (await findByRef(deps.db, 'stripe', `${invoice.id}:failed`))!;
    },
    '∅→succeeded (received by hand)': async () => (await recordOfflinePayment(deps, ADMIN, offline(), async () => {})).donation!,
    'succeeded→cancelled (taken back by hand)': async () => {
      const d = (await recordOfflinePayment(deps, ADMIN, offline(), async () => {})).donation!;
      await voidOfflinePayment(deps, ADMIN, d.id, 'chèque sans provision');
      return d;
    },
  };
  let n = 0;
  const offline = () => ({ purpose: 'gift' as const, means: 'cheque' as const, token: `tok-${++n}`, receivedOn: '2026-11-28', reference: `CHQ ${n}`, note: '', amountMinor: 2500, currency: 'EUR', eurCents: 2500, frequency: 'once' as const, language: 'fr', donorName: 'Awa', donorEmail: 'awa@example.org', taxDetails: null });

  it('knows a way to make every move', () => {
    expect(Object.keys(MAKE).sort()).toEqual([...STATUS_MOVES, ...RECORDED_MOVES].sort());
  });

  for (const move of [...STATUS_MOVES, ...RECORDED_MOVES]) {
    it(`${move}: its event, once`, async () => {
      const make = MAKE[move];
      expect(make, `no way to make ${move}`).toBeDefined();
      const payment = await make();
      const to = /→(\w+)/.exec(move)![1] as DonationStatus;
      expect((await findById(deps.db, payment.id))?.status).toBe(to);
      const told = heard.filter((e) => e.payment.id === payment.id).map((e) => e.type);
      // The move's own event is the last one the payment had, and it came once.
      expect(told.at(-1)).toBe(`payment.${to}`);
      expect(told.filter((t) => t === `payment.${to}`)).toHaveLength(1);
    });
  }
});

it('every call of a ledger move outside the ledger hands its result to publish', () => {
  const files = fs
    .readdirSync(path.join(ROOT, 'app'), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.tsx?$/.test(f))
    .map((f) => path.join(ROOT, 'app', f))
    .filter((f) => f !== LEDGER);
  const call = new RegExp(`\\b(?:${MOVE_FUNCTIONS.join('|')})\\(`, 'g');
  const published = new RegExp(`publish\\(deps, await (?:${MOVE_FUNCTIONS.join('|')})\\(`, 'g');
  const unpublished = files.flatMap((f) => {
    const source = fs.readFileSync(f, 'utf8');
    const calls = (source.match(call) ?? []).length;
    const told = (source.match(published) ?? []).length;
    return calls === told ? [] : [`${path.relative(ROOT, f)}: ${calls - told} call(s) not published`];
  });
  expect(unpublished).toEqual([]);
  // The check sees calls at all (so it cannot pass by seeing none).
  expect(files.some((f) => (fs.readFileSync(f, 'utf8').match(published) ?? []).length > 3)).toBe(true);
});
