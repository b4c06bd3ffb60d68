import { afterAll, beforeAll, expect, it } from 'vitest';
import { subscriberByEmail, subscriptionOf } from '~/domain/subscribers/subscribers.server';
import { unsubscribeToken } from '~/domain/subscribers/unsubscribe-token.server';
import { runtime } from '~/lib/runtime.server';
import { action as confirm, loader as confirmPage } from '~/routes/letters/confirm';
import { action as oneClick, loader as oneClickGet } from '~/routes/letters/one-click';
import { action as signup } from '~/routes/letters/signup';
import { action as liftAction, loader as liftPage } from '~/routes/letters/admin-lift';
import { suppress } from '~/domain/subscribers/subscribers.server';
import { loader as subscribersCsv } from '~/routes/letters/admin-subscribers-csv';
import { loader as subscribersPage } from '~/routes/letters/admin-subscribers';
import { action as unsubscribePost, loader as unsubscribePage } from '~/routes/letters/unsubscribe';
import { describeEachDialect } from '../support/db';
import { answer, routeContext, sessionCookie } from '../support/routes';
import { startTestRuntime } from '../support/runtime';

const APP_SECRET = 'subscriber-routes-'.padEnd(48, 'r');
const ORIGIN = 'https://fondation.example.org';

/**
 * The news list's public side as React Router calls it, on a running app: sign-up (rate-limited,
 * mailed in the page's language), the confirmation page (its GET changes nothing), the unsubscribe
 * page (its GET never unsubscribes) and the one-click endpoint (RFC 8058).
 */
describeEachDialect('news sign-up and leaving, through their routes, on %s', (dialect) => {
  let app: { stop: () => Promise<void> } | undefined;
  const db = () => runtime().db;
  beforeAll(async () => {
    app = await startTestRuntime(dialect, APP_SECRET, { PUBLIC_URL: ORIGIN, CONTACT_RATE_LIMIT: '3' });
  });
  afterAll(async () => {
    await app?.stop();
  });

  async function call(route: (args: never) => unknown, path: string, init: { method?: string; body?: Record<string, string>; ip?: string; params?: Record<string, string>; origin?: boolean } = {}) {
    const request = new Request(`${ORIGIN}${path}`, {
      method: init.method ?? 'POST',
      headers: { ...(init.origin === false ? {} : { Origin: ORIGIN }), 'Content-Type': 'application/x-www-form-urlencoded' },
      body: init.body ? new URLSearchParams(init.body).toString() : undefined,
    });
    try {
      return await route({ request, context: routeContext(init.ip ?? '10.1.1.1'), params: init.params ?? {}, unstable_pattern: '' } as never);
    } catch (thrown) {
      return thrown;
    }
  }

  const lastMailTo = (to: string) => db().selectFrom('mail_outbox').selectAll().where('to', '=', to).orderBy('created_at', 'desc').executeTakeFirst();

  it('signs up, mails the confirmation link in the page’s language, and confirms only on the button’s POST', async () => {
    const res = (await call(signup, '/lettre/inscription', { body: { email: 'Reader@Example.org', lang: 'en', from: '/blog' }, ip: '10.2.0.1' })) as Response;
    expect(res.status).toBe(303);
    expect(res.headers.get('Location')).toBe('/en/lettre/inscription?sent=1');
    const mail = await lastMailTo('reader@example.org');
    expect(mail?.subject).toBe('Confirm your subscription to the THV Foundation’s news');
    const link = /https:\/\/fondation\.example\.org\/en\/lettre\/confirmer\/([\w-]+)/.exec(mail!.text);
    expect(link).not.toBeNull();
    const token = link![1];
    // Opening the link (a scanner, or the person) changes nothing.
    await call(confirmPage, `/lettre/confirmer/${token}`, { method: 'GET', params: { token } });
    expect((await subscriberByEmail(db(), 'reader@example.org'))?.status).toBe('pending');
    const done = answer(await call(confirm, `/lettre/confirmer/${token}`, { params: { token } }));
    expect(done).toMatchObject({ status: 200, body: { result: 'confirmed' } });
    expect((await subscriberByEmail(db(), 'reader@example.org'))?.status).toBe('subscribed');
    expect(answer(await call(confirm, `/lettre/confirmer/${token}`, { params: { token } }))).toMatchObject({ status: 400, body: { result: 'invalid' } });
  });

  it('refuses a bad address with the reason, and a fourth sign-up from one address within ten minutes with 429', async () => {
    expect(answer(await call(signup, '/lettre/inscription', { body: { email: 'not an email', lang: 'es' }, ip: '10.3.0.1' }))).toMatchObject({ status: 400, body: { error: 'invalidEmail' } });
    expect(answer(await call(signup, '/lettre/inscription', { body: { email: '', lang: 'fr' }, ip: '10.3.0.1' }))).toMatchObject({ status: 400, body: { error: 'required' } });
    expect(((await call(signup, '/lettre/inscription', { body: { email: 'ok@example.org', lang: 'fr' }, ip: '10.3.0.1' })) as Response).status).toBe(303);
    const limited = answer(await call(signup, '/lettre/inscription', { body: { email: 'ok2@example.org', lang: 'fr' }, ip: '10.3.0.1' }));
    expect(limited).toMatchObject({ status: 429, body: { error: 'rateLimited' } });
    expect(Number(limited.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect(await subscriberByEmail(db(), 'ok2@example.org')).toBeUndefined();
    // Another address is not held back by this one.
    expect(((await call(signup, '/lettre/inscription', { body: { email: 'ok3@example.org', lang: 'fr' }, ip: '10.3.0.2' })) as Response).status).toBe(303);
  });

  it('the unsubscribe page’s GET never unsubscribes; its button and the one-click POST do, at once and again harmlessly', async () => {
    await call(signup, '/lettre/inscription', { body: { email: 'leaver@example.org', lang: 'fr' }, ip: '10.4.0.1' });
    const token = /confirmer\/([\w-]+)/.exec((await lastMailTo('leaver@example.org'))!.text)![1];
    await call(confirm, '/x', { params: { token } });
    const id = (await subscriberByEmail(db(), 'leaver@example.org'))!.id;
    const unsub = unsubscribeToken(runtime().secret, id);

    expect(answer(await call(unsubscribePage, '/x', { method: 'GET', params: { token: unsub } }))).toMatchObject({ status: 200, body: { valid: true } });
    const get = (await call(oneClickGet, '/x', { method: 'GET', params: { token: unsub } })) as Response;
    expect(get.status).toBe(303);
    expect(get.headers.get('Location')).toBe(`/lettre/desabonnement/${encodeURIComponent(unsub)}`);
    expect((await subscriberByEmail(db(), 'leaver@example.org'))?.status).toBe('subscribed');

    // A mail client's POST carries no Origin and no cookie.
    const wrongBody = (await call(oneClick, '/x', { body: { something: 'else' }, params: { token: unsub }, origin: false })) as Response;
    expect(wrongBody.status).toBe(400);
    expect((await subscriberByEmail(db(), 'leaver@example.org'))?.status).toBe('subscribed');
    expect(await wrongBody.text()).toBe('Expected List-Unsubscribe=One-Click');
    // A body that is not a form at all is refused the same way.
    const json = (await oneClick({ request: new Request(`${ORIGIN}/x`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' }), context: routeContext(), params: { token: unsub }, unstable_pattern: '' } as never)) as Response;
    expect(json.status).toBe(400);
    for (let i = 0; i < 2; i++) {
      const r = (await call(oneClick, '/x', { body: { 'List-Unsubscribe': 'One-Click' }, params: { token: unsub }, origin: false })) as Response;
      expect(r.status).toBe(200);
      expect(await r.text()).toBe('Unsubscribed');
      expect(r.headers.get('Content-Type')).toBe('text/plain; charset=utf-8');
      expect(r.headers.get('Cache-Control')).toBe('no-store');
      expect((await subscriberByEmail(db(), 'leaver@example.org'))?.status).toBe('unsubscribed');
    }
    expect((await subscriptionOf(db(), 'leaver@example.org'))!.events.filter((e) => e.kind === 'unsubscribed').map((e) => e.source)).toEqual(['one-click']);
    const forged = (await call(oneClick, '/x', { body: { 'List-Unsubscribe': 'One-Click' }, params: { token: `${id}.forged` }, origin: false })) as Response;
    expect(forged.status).toBe(404);
    expect(await forged.text()).toBe('Unknown link');
    expect(answer(await call(unsubscribePage, '/x', { method: 'GET', params: { token: `${id}.forged` } })).body).toEqual({ valid: false });
    // The page's button, after the fact: the same answer.
    expect(answer(await call(unsubscribePost, '/x', { params: { token: unsub } }))).toMatchObject({ status: 200, body: { left: true } });
  });

  it('the back office lists subscribers: an Admin sees addresses and gets the CSV, an Éditeur sees neither', async () => {
    await call(signup, '/lettre/inscription', { body: { email: 'listed@example.org', lang: 'es' }, ip: '10.5.0.1' });
    const admin = await sessionCookie(db(), { id: 'a1', name: 'Ada', email: 'ada@fondation.example.org', role: 'Admin' });
    const editor = await sessionCookie(db(), { id: 'e1', name: 'Eve', email: 'eve@fondation.example.org', role: 'Éditeur' });
    const get = (route: (args: never) => unknown, path: string, cookie: string) =>
      Promise.resolve()
        .then(() => route({ request: new Request(`${ORIGIN}${path}`, { headers: { cookie } }), context: routeContext(), params: {}, unstable_pattern: '' } as never))
        .catch((e: unknown) => e);
    const asAdmin = (await get(subscribersPage, '/admin/lettres/abonnes?language=es&q=LISTED', admin)) as { subscribers: { email: string | null; language: string }[]; showAddresses: boolean };
    expect(asAdmin.showAddresses).toBe(true);
    expect(asAdmin.subscribers.map((s) => [s.email, s.language])).toEqual([['listed@example.org', 'es']]);
    const asEditor = (await get(subscribersPage, '/admin/lettres/abonnes?language=es&q=nobody', editor)) as typeof asAdmin;
    expect(asEditor.showAddresses).toBe(false);
    // The search by address is ignored for an Éditeur: it would tell who is on the list.
    expect(asEditor.subscribers.map((s) => [s.email, s.language])).toEqual([[null, 'es']]);
    const csv = (await get(subscribersCsv, '/admin/lettres/abonnes.csv?language=es', admin)) as Response;
    expect(csv.headers.get('Content-Type')).toBe('text/csv; charset=utf-8');
    expect(await csv.text()).toContain('listed@example.org');
    expect(answer(await get(subscribersCsv, '/admin/lettres/abonnes.csv', editor)).status).toBe(403);

    // Lifting a suppression: Admins only, with a reason.
    await suppress(db(), 'listed@example.org', '550 unknown user', 'smtp');
    const id = (await subscriberByEmail(db(), 'listed@example.org'))!.id;
    const post = (cookie: string, reason: string) =>
      Promise.resolve()
        .then(() => liftAction({ request: new Request(`${ORIGIN}/admin/lettres/abonnes/${id}/lever`, { method: 'POST', headers: { cookie, Origin: ORIGIN, 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ reason }).toString() }), context: routeContext(), params: { id }, unstable_pattern: '' } as never))
        .catch((e: unknown) => e);
    expect(answer(await post(editor, 'because')).status).toBe(403);
    expect(((await liftPage({ request: new Request(`${ORIGIN}/admin/lettres/abonnes/${id}/lever`, { headers: { cookie: admin } }), context: routeContext(), params: { id }, unstable_pattern: '' } as never)) as { reason: string }).reason).toBe('550 unknown user');
    expect(answer(await post(admin, ' ')).body).toEqual({ error: 'Indiquez pourquoi le blocage est levé.' });
    expect(((await post(admin, 'Boîte recréée')) as Response).headers.get('Location')).toBe('/admin/lettres/abonnes?status=unsubscribed');
    expect((await subscriberByEmail(db(), 'listed@example.org'))?.status).toBe('unsubscribed');
    expect(answer(await post(admin, 'again')).status).toBe(409);
  });
});
