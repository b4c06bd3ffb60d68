import { afterAll, beforeAll, expect, it } from 'vitest';
import { donationDeps } from '~/domain/donations/deps.server';
import { findById } from '~/domain/donations/ledger.server';
import { recheckPending, startMobileDonation } from '../support/payment-entry';
import { runtime } from '~/lib/runtime.server';
import { loader as callback } from '~/routes/payments/mobile-callback';
import { loader as cancelPage } from '~/routes/site/payment-cancel';
import { startFakeFlutterwave, type FakeFlutterwave } from '../fakes/flutterwave';
import { describeEachDialect } from '../support/db';
import { enablePayPalAndFlutterwave, FLUTTERWAVE_TEST } from '../support/donations';
import { startTestRuntime } from '../support/runtime';

const APP_SECRET = 'flutterwave-callback-'.padEnd(48, 'f');
const ORIGIN = 'http://127.0.0.1:3000';

/**
 * Where Flutterwave's checkout sends the donor back, and the cancel page after it (#12): a verified
 * transaction that is not exactly this gift's (another tx_ref, amount or currency) is ignored for
 * it, and the gift stays pending — neither failed nor cancelled — until the webhook or a re-check
 * of our own tx_ref settles it. The routes are called as React Router calls them.
 */
describeEachDialect('the Flutterwave callback on %s', (dialect) => {
  let app: { stop: () => Promise<void> } | undefined;
  let flw: FakeFlutterwave;
  const db = () => runtime().db;

  beforeAll(async () => {
    app = await startTestRuntime(dialect, APP_SECRET);
    flw = await startFakeFlutterwave({ port: 0, secretKey: FLUTTERWAVE_TEST.secretKey });
    runtime().env.FLUTTERWAVE_API_BASE = flw.url;
    await enablePayPalAndFlutterwave(db(), APP_SECRET);
  });
  afterAll(async () => {
    await flw?.close();
    await app?.stop();
  });

  const deps = () => donationDeps(new Request(`${ORIGIN}/api/donations/mobile-money`));
  const start = async (email: string) => startMobileDonation(await deps(), { eurCents: 2000, name: 'Awa Diallo', email, phone: '+221770000000', lang: 'fr' });
  const pay = async (fields: Record<string, unknown>) => ((await (await fetch(`${flw.url}/fake/pay`, { method: 'POST', body: JSON.stringify(fields) })).json()) as { id: string }).id;
  /** Where a route sent the donor (it answers by redirecting). */
  async function visit(load: (args: never) => Promise<unknown>, path: string): Promise<string | null> {
    const r = await load({ request: new Request(`${ORIGIN}${path}`), params: {}, context: {} } as never).catch((e: unknown) => e);
    if (!(r instanceof Response)) throw new Error(`expected a redirect from ${path}`);
    return r.headers.get('Location');
  }
  const cancelState = async (id: string) => ((await cancelPage({ request: new Request(`${ORIGIN}/payment/cancel?d=${id}`), params: {}, context: {} } as never)) as { state: string }).state;
  const status = async (id: string) => (await findById(db(), id))?.status;

  it('leaves our pending gift pending when the callback names a foreign transaction, and the cancel page cannot cancel it', async () => {
    // Another reference's real payment, and a checkout of 1 XOF opened with our own tx_ref.
    const foreignCase = await start('awa.foreign@example.org');
    const shortCase = await start('awa.short@example.org');
    const foreign = await pay({ tx_ref: 'thv-ffffffffffffffffffffffff', amount: foreignCase.amountMinor, currency: foreignCase.currency });
    const short = await pay({ tx_ref: shortCase.txRef, amount: 1, currency: shortCase.currency });
    for (const [ours, transaction] of [[foreignCase, foreign], [shortCase, short]] as const) {
      expect(await visit(callback, `/api/donations/mobile-money/callback?tx_ref=${ours.txRef}&transaction_id=${transaction}`)).toBe(`/payment/cancel?d=${ours.donation.id}`);
      expect(flw.requests.some((r) => r.path === `/v3/transactions/${transaction}/verify`)).toBe(true);
      // The donor is told the payment is not confirmed; the gift is neither failed nor cancelled.
      expect(await cancelState(ours.donation.id)).toBe('unconfirmed');
      expect(await findById(db(), ours.donation.id)).toMatchObject({ status: 'pending', error: null });
    }
    // Still re-checked by our own tx_ref: once Flutterwave holds our payment, the gift succeeds; the
    // 1 XOF transaction the re-check finds for the other is ignored there too.
    await pay({ tx_ref: foreignCase.txRef, amount: foreignCase.amountMinor, currency: foreignCase.currency });
    await recheckPending(await deps(), new Date(), 0);
    expect(await status(foreignCase.donation.id)).toBe('succeeded');
    expect(await findById(db(), shortCase.donation.id)).toMatchObject({ status: 'pending', error: null });
  });

  it('asks Flutterwave about our own tx_ref when the checkout was cancelled, and leaves the gift pending when it knows no payment', async () => {
    const ours = await start('awa.cancelled@example.org');
    const asked = () => flw.requests.filter((r) => r.path === '/v3/transactions/verify_by_reference' && r.query.get('tx_ref') === ours.txRef).length;
    expect(await visit(callback, `/api/donations/mobile-money/callback?status=cancelled&tx_ref=${ours.txRef}`)).toBe(`/payment/cancel?d=${ours.donation.id}`);
    expect(asked()).toBe(1);
    expect(await cancelState(ours.donation.id)).toBe('unconfirmed');
    expect(await status(ours.donation.id)).toBe('pending');
    // A payment made after all (the phone's prompt accepted late) is found by the same question.
    await pay({ tx_ref: ours.txRef, amount: ours.amountMinor, currency: ours.currency });
    expect(await visit(callback, `/api/donations/mobile-money/callback?status=cancelled&tx_ref=${ours.txRef}`)).toBe(`/payment/success?d=${ours.donation.id}`);
    expect(await status(ours.donation.id)).toBe('succeeded');
    // Anything else is no gift of ours: the plain cancel page, which changes nothing.
    expect(await visit(callback, '/api/donations/mobile-money/callback?tx_ref=thv-000000000000000000000000&transaction_id=1')).toBe('/payment/cancel');
    expect(await cancelState('not-an-id')).toBe('cancelled');
  });
});
