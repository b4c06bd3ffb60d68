import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { adoptableSubscriptions, adoptSubscription, adoptSubscriptions } from '~/domain/donations/adoption.server';
import { applyDonorGiftIntent } from '~/domain/donations/donor-gifts.server';
import { findByRef } from '~/domain/donations/ledger.server';
import { giftEvents, giftOfDonor, monthlyGiftsOf } from '~/domain/donations/monthly.server';
import { isKnownDonor } from '~/domain/donors/links.server';
import { historyOf } from '~/domain/donors/personal-data.server';
import { handleStripeWebhook, startCardDonation, type DonationDeps } from '../support/payment-entry';
import { startFakeStripe, type FakeStripe } from '../fakes/stripe';
import { runtime } from '~/lib/runtime.server';
import { action, loader } from '~/routes/payments/admin-adopt';
import { answer, routeContext, sessionCookie } from '../support/routes';
import { startTestRuntime } from '../support/runtime';
import { describeEachDialect, type TestDb } from '../support/db';
import { enableStripeCard, stripeCardWorld } from '../support/donations';

/**
 * Moving in with the monthly donors (issue 43, ADR 037): the subscriptions already running on the
 * foundation's Stripe account (the fake's GET /v1/subscriptions) are listed, adopted as monthly
 * gifts without a new checkout, their next invoice.paid recorded once, and the donor space
 * manages them like the gifts started here.
 */
const ADMIN = { id: 'admin-1', name: 'Alice Admin' };
let seq = 0;
const email = (tag: string) => `${tag}.${++seq}@example.org`;

describeEachDialect('adopting running subscriptions on %s', (dialect) => {
  let t: TestDb;
  let stripe: FakeStripe;
  let deps: DonationDeps;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ t, stripe, deps, close } = await stripeCardWorld(dialect, { appSecret: 'adopt-secret-'.padEnd(48, 'a'), secretKey: 'sk_test_adopt', webhookSecret: 'whsec_adopt' }));
  });
  afterAll(async () => {
    await close?.();
  });
  afterEach(() => {
    stripe.failNext = 0;
  });
  const webhook = (e: { payload: string; header: string }) => handleStripeWebhook(deps, e.payload, e.header);
  const auditOf = (action: string) => t.db.selectFrom('audit_log').selectAll().where('action', '=', action).execute();
  const listed = async () => (await adoptableSubscriptions(deps)).subscriptions.map((s) => s.id);

  it('lists the running subscriptions page after page, as Stripe answers them, leaving out the gifts already ours', async () => {
    // One gift started here: its subscription is ours already.
    const { donation } = await startCardDonation(deps, { amountCents: 1500, monthly: true, lang: 'fr' });
    expect((await webhook(stripe.complete(donation.provider_ref))).status).toBe(200);
    const ours = (await findByRef(t.db, 'stripe', donation.provider_ref))!.secondary_ref!;
    const before = stripe.requests.length;
    // 150 subscriptions from the old site: two pages of 100.
    const made = Array.from({ length: 150 }, (_, i) => stripe.existing({ amount: 1000 + i, email: email('many'), name: `Donor ${i}` }));
    const ids = await listed();
    expect(ids).not.toContain(ours);
    expect(new Set(ids)).toEqual(new Set(made));
    const asked = stripe.requests.slice(before).filter((r) => r.path === '/v1/subscriptions');
    expect(asked).toHaveLength(2);
    expect(asked[0].query.get('status')).toBe('active');
    expect([...asked[0].query].filter(([k]) => k.startsWith('expand')).map(([, v]) => v)).toEqual(['data.customer']);
    expect(asked[1].query.get('starting_after')).toBe(ids[99]);
    // Adopt them all so the next tests see their own subscriptions only.
    expect(await adoptSubscriptions(deps, ADMIN, 'stripe', made)).toEqual({ adopted: 150, already: 0, refused: 0, missing: 0 });
    expect(await listed()).toEqual([]);
  });

  it('adopts a subscription with Stripe’s amount, next date and customer; twice adds nothing; the donor space shows it', async () => {
    const awa = email('awa');
    const id = stripe.existing({ amount: 2500, email: awa.toUpperCase(), name: 'Awa Diallo', locale: 'en-GB' });
    const [shown] = (await adoptableSubscriptions(deps)).subscriptions;
    expect(shown).toMatchObject({ id, provider: 'stripe', amountMinor: 2500, currency: 'EUR', email: awa, name: 'Awa Diallo', lang: 'en', refusal: null });
    expect(Date.parse(shown.nextAt!)).toBeGreaterThan(Date.now());
    const requests = stripe.requests.length;

    expect(await adoptSubscription(deps, ADMIN, 'stripe', id)).toBe('adopted');
    // No checkout, nothing changed at Stripe: only read again.
    expect(stripe.requests.slice(requests).map((r) => `${r.method} ${r.path}`)).toEqual([`GET /v1/subscriptions/${id}`]);
    const first = (await findByRef(t.db, 'stripe', `adopted:${id}`))!;
    expect(first).toMatchObject({ status: 'adopted', secondary_ref: id, frequency: 'monthly', amount_minor: 2500, eur_cents: null, donor_email: awa, donor_name: 'Awa Diallo', language: 'en', tax_details: null });
    expect(await t.db.selectFrom('monthly_gifts').selectAll().where('id', '=', id).executeTakeFirst()).toMatchObject({ first_donation_id: first.id, amount_minor: 2500, status: 'active' });
    expect((await giftEvents(t.db, id)).map((e) => [e.kind, e.source])).toEqual([['adopted', 'admin']]);
    expect((await auditOf('monthly_gift.adopted')).filter((a) => a.target.includes(id))).toMatchObject([{ user_id: ADMIN.id, target: `25.00 EUR / mois (${id})` }]);
    // No receipt, no mail for the adoption itself.
    expect(await t.db.selectFrom('receipts').selectAll().where('donation_id', '=', first.id).execute()).toEqual([]);
    expect(await t.db.selectFrom('mail_outbox').selectAll().where('to', '=', awa).execute()).toEqual([]);

    // Twice: nothing more.
    expect(await adoptSubscription(deps, ADMIN, 'stripe', id)).toBe('already');
    expect(await adoptSubscriptions(deps, ADMIN, 'stripe', [id, id])).toEqual({ adopted: 0, already: 1, refused: 0, missing: 0 });
    expect(await t.db.selectFrom('donations').select('id').where('secondary_ref', '=', id).execute()).toHaveLength(1);
    expect((await auditOf('monthly_gift.adopted')).filter((a) => a.target.includes(id))).toHaveLength(1);

    // The donor space: the donor may sign in and sees the gift, as Stripe charges it.
    expect(await isKnownDonor(t.db, awa)).toBe(true);
    expect(await monthlyGiftsOf(t.db, awa)).toEqual([{ id, provider: 'stripe', amountMinor: 2500, currency: 'EUR', status: 'active', startedAt: first.created_at, method: null, accountLast4: null, mandateRef: null, mandateSignedAt: null }]);
  });

  it('records the next invoice.paid once, as a renewal of the adopted gift', async () => {
    const donor = email('renew');
    const id = stripe.existing({ amount: 1200, email: donor, name: 'Renée' });
    expect(await adoptSubscription(deps, ADMIN, 'stripe', id)).toBe('adopted');
    const paid = stripe.renew(id);
    expect((await webhook(paid)).status).toBe(200);
    expect((await webhook(paid)).status).toBe(200);
    const rows = await t.db.selectFrom('donations').selectAll().where('secondary_ref', '=', id).orderBy('created_at').execute();
    expect(rows.map((r) => [r.status, r.provider_ref, r.amount_minor, r.eur_cents])).toEqual([
      ['adopted', `adopted:${id}`, 1200, null],
      ['succeeded', paid.invoice.id, 1200, 1200],
    ]);
    expect(rows[1]).toMatchObject({ frequency: 'monthly', donor_email: donor, donor_name: 'Renée', purpose: 'gift' });
    // The history shows the adoption and the instalment.
    expect((await historyOf(t.db, donor)).map((h) => h.status)).toEqual(['succeeded', 'adopted']);
  });

  it('lets the donor change the amount and stop it from their space, at Stripe', async () => {
    const donor = email('manage');
    const id = stripe.existing({ amount: 3000, email: donor });
    await adoptSubscription(deps, ADMIN, 'stripe', id);
    const target = (await giftOfDonor(t.db, donor, id))!;
    expect(target.first.status).toBe('adopted');
    const changed = await applyDonorGiftIntent(deps, target, 'amount', '45', { id: null, name: donor });
    expect(changed).toMatchObject({ ok: true, kind: 'amount', gift: { amount_minor: 4500 } });
    expect(stripe.subscriptions.get(id).items.data[0].price.unit_amount).toBe(4500);
    const stopped = await applyDonorGiftIntent(deps, (await giftOfDonor(t.db, donor, id))!, 'stop', '', { id: null, name: donor });
    expect(stopped).toMatchObject({ ok: true, kind: 'stopped', gift: { status: 'ended' } });
    expect(stripe.subscriptions.get(id).status).toBe('canceled');
    // Ended at Stripe: no longer listed, not adoptable again.
    expect(await listed()).not.toContain(id);
  });

  it('refuses what cannot be a monthly gift here, and what Stripe does not have', async () => {
    const usd = stripe.existing({ amount: 1000, email: email('usd'), currency: 'usd' });
    const yearly = stripe.existing({ amount: 1000, email: email('year'), interval: 'year' });
    const anonymous = stripe.existing({ amount: 1000, email: null });
    const refusals = Object.fromEntries((await adoptableSubscriptions(deps)).subscriptions.map((s) => [s.id, s.refusal]));
    expect(refusals).toEqual({ [usd]: 'en USD : seuls les dons en euros sont repris', [yearly]: 'pas mensuel', [anonymous]: 'client sans adresse e-mail' });
    expect(await adoptSubscriptions(deps, ADMIN, 'stripe', [usd, yearly, anonymous, 'sub_nothere', 'not an id'])).toEqual({ adopted: 0, already: 0, refused: 3, missing: 2 });
    expect(await t.db.selectFrom('donations').select('id').where('secondary_ref', 'in', [usd, yearly, anonymous]).execute()).toEqual([]);
    for (const s of [usd, yearly, anonymous]) stripe.subscriptions.get(s).status = 'canceled';
  });

  it('says so when Stripe cannot be asked, and writes nothing', async () => {
    stripe.failNext = 5;
    const answer = await adoptableSubscriptions(deps);
    expect(answer.subscriptions).toEqual([]);
    expect(answer.errors).toEqual([{ provider: 'stripe', message: expect.any(String) }]);
  });
});

describeEachDialect('the adoption screen on %s', (dialect) => {
  const SECRET = 'adopt-route-secret-'.padEnd(48, 'r');
  let stop: () => Promise<void>;
  let stripe: FakeStripe;
  let admin: string;
  let editor: string;
  beforeAll(async () => {
    stripe = await startFakeStripe({ port: 0, webhookSecret: 'whsec_route', webhookUrl: () => 'http://127.0.0.1:1/unused' });
    vi.stubEnv('THV_RUN_JOBS', '0');
    ({ stop } = await startTestRuntime(dialect, SECRET, { STRIPE_API_BASE: stripe.url, PUBLIC_URL: 'http://localhost' }));
    await enableStripeCard(runtime().db, SECRET, { secretKey: 'sk_test_route', webhookSecret: 'whsec_route' });
    admin = await sessionCookie(runtime().db, { id: 'a-adopt', name: 'Ada Admin', email: 'ada@fondation.example.org', role: 'Admin' });
    editor = await sessionCookie(runtime().db, { id: 'e-adopt', name: 'Éva', email: 'eva@fondation.example.org', role: 'Éditeur' });
  });
  afterAll(async () => {
    await stop?.();
    vi.unstubAllEnvs();
    await stripe?.close();
  });
  const url = 'http://localhost/admin/dons/abonnements';
  const get = (cookie: string) => loader({ request: new Request(url, { headers: { cookie } }), context: routeContext(), params: {} } as never);
  const post = (cookie: string, body: URLSearchParams) => action({ request: new Request(url, { method: 'POST', headers: { cookie, origin: 'http://localhost' }, body }), context: routeContext(), params: {} } as never);

  it('lists for an Admin, adopts the ticked ones with a count, and refuses an Éditeur', async () => {
    const one = stripe.existing({ amount: 1800, email: 'route.one@example.org', name: 'Un' });
    const usd = stripe.existing({ amount: 1800, email: 'route.usd@example.org', currency: 'usd' });
    const shown = answer(await get(admin)).body.subscriptions as { key: string; amount: string; refusal: string | null }[];
    expect(shown.map((s) => [s.key, s.refusal])).toEqual([
      [`stripe:${usd}`, 'en USD : seuls les dons en euros sont repris'],
      [`stripe:${one}`, null],
    ]);
    await expect(get(editor)).rejects.toMatchObject({ init: { status: 403 } });
    await expect(post(editor, new URLSearchParams([['sub', `stripe:${one}`]]))).rejects.toMatchObject({ init: { status: 403 } });
    expect(answer(await post(admin, new URLSearchParams())).status).toBe(400);
    const done = answer(await post(admin, new URLSearchParams([['sub', `stripe:${one}`], ['sub', `stripe:${usd}`], ['sub', 'elsewhere:sub_x']])));
    expect(done.body).toMatchObject({ counts: { adopted: 1, already: 0, refused: 1, missing: 0 }, toast: { title: 'Dons mensuels repris', description: '1 don mensuel repris ; 1 impossible à reprendre.' } });
    expect((answer(await get(admin)).body.subscriptions as { key: string }[]).map((s) => s.key)).toEqual([`stripe:${usd}`]);
    expect(await runtime().db.selectFrom('audit_log').select('user_id').where('action', '=', 'monthly_gift.adopted').execute()).toEqual([{ user_id: 'a-adopt' }]);
  });
});
