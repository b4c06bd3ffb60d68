import { sql } from 'kysely';
import { RouterContextProvider } from 'react-router';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { requestInfoContext } from '~/lib/request-context.server';
import { runtime } from '~/lib/runtime.server';
import { action as mobileStart } from '~/routes/payments/mobile-start';
import { action as payPalCreate } from '~/routes/payments/buttons-order';
import { action as donate } from '~/routes/site/donate';
import { action as space } from '~/routes/donors/space';
import { startFakeCoinGate, type FakeCoinGate } from '../fakes/coingate';
import { startFakeFlutterwave, type FakeFlutterwave } from '../fakes/flutterwave';
import { startFakePayPal, type FakePayPal } from '../fakes/paypal';
import { startFakeStripe, type FakeStripe } from '../fakes/stripe';
import { describeEachDialect } from '../support/db';
import { enableEveryMethod, FLUTTERWAVE_TEST, PAYPAL_TEST } from '../support/donations';
import { ledgerRow } from '../support/ledger-rows';
import { startTestRuntime } from '../support/runtime';

const APP_SECRET = 'donor-routes-'.padEnd(48, 'o');
const ORIGIN = 'https://fondation.example.org';
const COINGATE = 'cg-donor-routes';

/**
 * The donor's side as React Router calls it, on a running app (SQLite or PostgreSQL): the donate
 * forms of every method record the news consent the same way, and the donor space's sign-in
 * request answers a known and an unknown email alike.
 */
describeEachDialect('donate forms and donor sign-in, through their routes, on %s', (dialect) => {
  let app: { stop: () => Promise<void> } | undefined;
  let stripe: FakeStripe;
  let pp: FakePayPal;
  let flw: FakeFlutterwave;
  let cg: FakeCoinGate;
  const db = () => runtime().db;
  let ips = 0;

  beforeAll(async () => {
    stripe = await startFakeStripe({ port: 0, webhookSecret: 'whsec_routes', webhookUrl: () => 'http://127.0.0.1:1/unused', prices: { price_20: 2000 } });
    pp = await startFakePayPal({ port: 0, ...PAYPAL_TEST });
    flw = await startFakeFlutterwave({ port: 0, secretKey: FLUTTERWAVE_TEST.secretKey });
    cg = await startFakeCoinGate({ port: 0, authToken: COINGATE });
    app = await startTestRuntime(dialect, APP_SECRET, { PUBLIC_URL: ORIGIN, STRIPE_API_BASE: stripe.url, PAYPAL_API_BASE: pp.url, FLUTTERWAVE_API_BASE: flw.url, COINGATE_API_BASE: cg.url });
    await enableEveryMethod(db(), APP_SECRET, { stripeSecretKey: 'sk_test_routes', stripeWebhookSecret: 'whsec_routes', coinGateToken: COINGATE });
  });
  afterAll(async () => {
    await app?.stop();
    await Promise.all([stripe?.close(), pp?.close(), flw?.close(), cg?.close()]);
  });

  /** A POST to `path` as the browser sends it (same origin, from its own address), through `route`'s action. */
  async function post(route: (args: never) => Promise<unknown>, path: string, body: Record<string, string>, json = false) {
    const context = new RouterContextProvider();
    context.set(requestInfoContext, { nonce: 'n', clientIp: `10.77.${Math.floor(ips / 250)}.${ips++ % 250}`, requestId: 'r', secure: true });
    const request = new Request(`${ORIGIN}${path}`, {
      method: 'POST',
      headers: { Origin: ORIGIN, 'Content-Type': json ? 'application/json' : 'application/x-www-form-urlencoded' },
      body: json ? JSON.stringify(body) : new URLSearchParams(body).toString(),
    });
    try {
      return await route({ request, context, params: {}, unstable_pattern: '' } as never);
    } catch (e) {
      if (e instanceof Response) return e;
      throw e;
    }
  }
  /** What `data(…)` returned: its body and status. */
  const dataOf = (r: unknown) => r as { data: { values: Record<string, string>; error: string }; init: { status: number } };
  const consentsOf = async (donationId: string) => (await db().selectFrom('donor_consents').select(['kind', 'withdrawn_at']).where('donation_id', '=', donationId).execute()).map((c) => c.kind);
  const latest = async (provider: string) => (await db().selectFrom('donations').selectAll().where('provider', '=', provider).orderBy('created_at', 'desc').limit(1).executeTakeFirstOrThrow()).id;

  it('records "Recevoir des nouvelles de la fondation" from every donate form when ticked, and only then', async () => {
    const card = (await post(donate, '/faire-un-don?m=card', { intent: 'card', amount: '25', frequency: 'once', newsletter: 'yes' })) as Response;
    expect(card.status).toBe(303);
    expect(await consentsOf(await latest('stripe'))).toEqual(['newsletter']);

    const crypto = (await post(donate, '/faire-un-don?m=crypto', { intent: 'crypto', amount: '15', email: 'satoshi@example.org', newsletter: 'yes' })) as Response;
    expect(crypto.status).toBe(303);
    expect(await consentsOf(await latest('coingate'))).toEqual(['newsletter']);

    const paypal = (await post(payPalCreate, '/api/donations/paypal/orders', { amount: '12', campaign: '', newsletter: 'yes' }, true)) as Response;
    expect(paypal.status).toBe(200);
    const { id: orderId } = (await paypal.json()) as { id: string };
    const byPayPal = await db().selectFrom('donations').select('id').where('provider', '=', 'paypal').where('provider_ref', '=', orderId).executeTakeFirstOrThrow();
    expect(await consentsOf(byPayPal.id)).toEqual(['newsletter']);

    const mobile = (await post(mobileStart, '/api/donations/mobile-money', { amount: '20', name: 'Awa Diallo', email: 'awa@example.org', phone: '+221 77 000 00 00', campaign: '', newsletter: 'yes' }, true)) as Response;
    expect(mobile.status).toBe(200);
    const { txRef } = (await mobile.json()) as { txRef: string };
    const byMobile = await db().selectFrom('donations').select('id').where('provider', '=', 'flutterwave').where('provider_ref', '=', txRef).executeTakeFirstOrThrow();
    expect(await consentsOf(byMobile.id)).toEqual(['newsletter']);

    // Unticked (the default): nothing is recorded, whatever the method.
    await post(donate, '/faire-un-don?m=card', { intent: 'card', amount: '25', frequency: 'once' });
    expect(await consentsOf(await latest('stripe'))).toEqual([]);
    await post(donate, '/faire-un-don?m=crypto', { intent: 'crypto', amount: '15', email: '' });
    expect(await consentsOf(await latest('coingate'))).toEqual([]);
    const { id: bare } = (await ((await post(payPalCreate, '/api/donations/paypal/orders', { amount: '12' }, true)) as Response).json()) as { id: string };
    expect(await consentsOf((await db().selectFrom('donations').select('id').where('provider_ref', '=', bare).executeTakeFirstOrThrow()).id)).toEqual([]);
    const { txRef: bareRef } = (await ((await post(mobileStart, '/api/donations/mobile-money', { amount: '20', name: 'Jean Martin', email: 'jean@example.org', phone: '+221 77 000 00 01' }, true)) as Response).json()) as { txRef: string };
    expect(await consentsOf((await db().selectFrom('donations').select('id').where('provider_ref', '=', bareRef).executeTakeFirstOrThrow()).id)).toEqual([]);
  });

  it('keeps the tick when a donate form comes back with an error', async () => {
    const before = Number((await db().selectFrom('donor_consents').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow()).n);
    const card = dataOf(await post(donate, '/faire-un-don?m=card', { intent: 'card', amount: 'vingt', frequency: 'once', newsletter: 'yes' }));
    expect(card.init.status).toBe(400);
    expect(card.data.values.newsletter).toBe('yes');
    const crypto = dataOf(await post(donate, '/faire-un-don?m=crypto', { intent: 'crypto', amount: '15', email: 'pas-un-email', newsletter: 'yes' }));
    expect(crypto.data).toMatchObject({ error: 'donate.invalidEmail', values: { newsletter: 'yes' } });
    const unticked = dataOf(await post(donate, '/faire-un-don?m=crypto', { intent: 'crypto', amount: '15', email: 'pas-un-email' }));
    expect(unticked.data.values.newsletter).toBe('');
    // A form that came back recorded nothing.
    expect(Number((await db().selectFrom('donor_consents').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow()).n)).toBe(before);
  });

  /** POST /mon-espace asking for a sign-in link: what the donor's browser gets, and how long it took. */
  async function askLink(email: string) {
    const started = performance.now();
    const res = (await post(space, '/mon-espace', { intent: 'link', email })) as Response;
    const ms = performance.now() - started;
    return { ms, answer: { status: res.status, headers: Object.fromEntries(res.headers), body: await res.text() } };
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const settle = () => new Promise((r) => setTimeout(r, 25));

  it('answers a sign-in request for a known and an unknown email alike: same status, same body, about the same time', async () => {
    // Each try asks for a different email (three requests per email per quarter hour are allowed).
    const tries = 15;
    const known = Array.from({ length: tries + 1 }, (_, i) => `donateur.${i}@example.org`);
    await db()
      .insertInto('donations')
      .values(known.map((email, i) => ledgerRow(`known-${i}`, new Date().toISOString(), { donor_email: email, amount_minor: 1000, eur_cents: 1000 })))
      .execute();
    const times = { known: [] as number[], unknown: [] as number[] };
    // One pair first, unmeasured: the first request of a kind warms its code paths.
    for (let i = 0; i <= tries; i++) {
      const k = await askLink(known[i]);
      await settle();
      const u = await askLink(`inconnu.${i}@example.org`);
      await settle();
      expect(k.answer).toEqual(u.answer);
      expect(k.answer).toMatchObject({ status: 302, headers: { location: '/mon-espace?ok=sent', 'cache-control': 'private, no-store' } });
      if (i === 0) continue;
      times.known.push(k.ms);
      times.unknown.push(u.ms);
    }
    const [k, u] = [median(times.known), median(times.unknown)];
    // Generous: a loaded machine makes single requests slow; the medians of both kinds stay close.
    expect(Math.max(k, u), `medians: known ${k.toFixed(2)} ms, unknown ${u.toFixed(2)} ms`).toBeLessThan(2 * Math.min(k, u) + 5);
    // The link still goes to the known donors, after the answer, and only to them.
    await expect.poll(async () => (await db().selectFrom('mail_outbox').select('to').where('to', 'like', 'donateur.%').execute()).length).toBe(tries + 1);
    expect(await db().selectFrom('mail_outbox').select('to').where('to', 'like', 'inconnu.%').execute()).toEqual([]);
    expect(await db().selectFrom('donor_links').select('email').where('email', 'like', 'inconnu.%').execute()).toEqual([]);
  });

  // PostgreSQL only (defined there, not skipped elsewhere): SQLite has no row lock to hold a writer waiting.
  if (dialect === 'postgres') it('answers a known email before writing its link: the answer waits on nothing an unknown email skips', async () => {
    await db().insertInto('donations').values(ledgerRow('known-locked', new Date().toISOString(), { donor_email: 'verrou@example.org', amount_minor: 1000, eur_cents: 1000 })).execute();
    // While another transaction holds the links table, writing a link waits; the answer must not.
    const answer = await db()
      .transaction()
      .execute(async (trx) => {
        await sql`lock table donor_links in access exclusive mode`.execute(trx);
        return Promise.race([askLink('verrou@example.org').then((r) => r.answer.status), new Promise((r) => setTimeout(() => r('still waiting'), 3000))]);
      });
    expect(answer).toBe(302);
    // Once the table is free, the link is written and mailed.
    await expect.poll(async () => (await db().selectFrom('mail_outbox').select('to').where('to', '=', 'verrou@example.org').execute()).length).toBe(1);
    expect(await db().selectFrom('donor_links').select('email').where('email', '=', 'verrou@example.org').execute()).toEqual([{ email: 'verrou@example.org' }]);
  });
});
