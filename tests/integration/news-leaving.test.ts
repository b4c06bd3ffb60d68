import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { up as repairWithdrawals } from '~db/migrations/019-news-departures';
import { hasNewsConsent } from '~/domain/donations/consent.server';
import { recordNewsletterConsent } from '~/domain/donors/consent.server';
import { useSignInLink } from '~/domain/donors/links.server';
import { createLetter, saveSendingRate, sendNow } from '~/domain/letters/letters.server';
import { queueCounts } from '~/domain/letters/queue.server';
import { syncSources } from '~/domain/letters/sources.server';
import { sendingRound, type WorkerState } from '~/domain/letters/worker.server';
import { createMember, hasMemberNewsConsent } from '~/domain/membership/register.server';
import { createType } from '~/domain/membership/types.server';
import { CONSENT_WORDING_VERSION } from '~/domain/subscribers/consent';
import { getsNews } from '~/domain/subscribers/leave.server';
import { confirmSignup, requestSignup, subscriberByEmail, subscriptionOf } from '~/domain/subscribers/subscribers.server';
import { unsubscribeToken } from '~/domain/subscribers/unsubscribe-token.server';
import { closeMailTransports, deliverBulk } from '~/lib/mail.server';
import { runtime } from '~/lib/runtime.server';
import { action as adminRemove, loader as adminRemovePage } from '~/routes/letters/admin-remove';
import { action as oneClick } from '~/routes/letters/one-click';
import { action as unsubscribePost, loader as unsubscribePage } from '~/routes/letters/unsubscribe';
import { action as spaceAction, loader as spaceLoader } from '~/routes/donors/space';
import { DONOR_COOKIE } from '~/routes/donors/session.server';
import { describeEachDialect } from '../support/db';
import { signInLinkToken } from '../support/donors';
import { ledgerRow } from '../support/ledger-rows';
import { memberInput, membershipType } from '../support/membership';
import { answer, routeContext, sessionCookie } from '../support/routes';
import { startTestRuntime } from '../support/runtime';
import { startSmtp } from '../support/smtp';

const APP_SECRET = 'news-leaving-'.padEnd(48, 'n');
const ORIGIN = 'https://fondation.example.org';
const ADMIN = { id: 'u-admin', name: 'Alice Admin', email: 'alice@fondation.example.org', role: 'Admin' as const };

/**
 * One way out of the news (issue 39): through each door a person may use — the letter's page
 * (its GET, then its button), the one-click POST of their mail client, their donor space, their
 * member space (the same page, for a member's own consent) and an Admin at their request — an
 * address that left gets no later letter, the letters' sync never brings it back from the consent
 * it gave before, and only a new double opt-in does. Letters are really sent, by the worker's own
 * round (which runs the sync first), to a real SMTP server.
 */
describeEachDialect('leaving the news through every door, on %s', (dialect) => {
  let app: { stop: () => Promise<void> } | undefined;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  const db = () => runtime().db;
  let admin = '';
  const state: WorkerState = { syncedAt: -Infinity };

  beforeAll(async () => {
    // The test's rounds are the only sender: the runtime's own letter worker (no SMTP_URL here)
    // would pause a letter it found sending as not configured.
    vi.stubEnv('THV_RUN_JOBS', '0');
    app = await startTestRuntime(dialect, APP_SECRET, { PUBLIC_URL: ORIGIN });
    smtp = await startSmtp();
    admin = await sessionCookie(db(), ADMIN);
    await saveSendingRate(db(), ADMIN, { perSecond: 200, perHour: 100_000 });
  });
  afterAll(async () => {
    closeMailTransports();
    await smtp?.close();
    await app?.stop();
    vi.unstubAllEnvs();
  });

  async function call(route: (args: never) => unknown, init: { method?: string; body?: Record<string, string>; params?: Record<string, string>; cookie?: string; origin?: boolean } = {}) {
    const request = new Request(`${ORIGIN}/x`, {
      method: init.method ?? 'POST',
      headers: { ...(init.origin === false ? {} : { Origin: ORIGIN }), ...(init.cookie ? { Cookie: init.cookie } : {}), 'Content-Type': 'application/x-www-form-urlencoded' },
      body: init.method === 'GET' ? undefined : new URLSearchParams(init.body ?? {}).toString(),
    });
    try {
      return await route({ request, context: routeContext('10.7.0.1'), params: init.params ?? {}, unstable_pattern: '' } as never);
    } catch (thrown) {
      return thrown;
    }
  }

  /** A confirmed sign-up: the double opt-in. */
  async function optIn(email: string) {
    const r = await requestSignup(db(), { email, language: 'fr', from: '/blog', wordingVersion: CONSENT_WORDING_VERSION });
    if (r.kind !== 'ask') throw new Error(`not asked: ${email}`);
    expect((await confirmSignup(db(), r.token)).kind).toBe('confirmed');
  }

  /** A paid gift whose donor ticked "Recevoir des nouvelles de la fondation". */
  async function giftWithConsent(id: string, email: string) {
    const at = new Date(Date.now() - 60_000).toISOString();
    await db().insertInto('donations').values(ledgerRow(id, at, { donor_email: email, donor_name: 'Donatrice', amount_minor: 5000, eur_cents: 5000 })).execute();
    await recordNewsletterConsent(db(), id, new Date(at));
  }

  async function donorSpace(email: string) {
    const session = await useSignInLink(db(), await signInLinkToken(db(), email, `10.6.${email.length}.1`));
    return `${DONOR_COOKIE}=${session!.token}`;
  }

  /** Writes a letter to everyone (an ASCII subject, found as written in the mail's header) and lets the worker's rounds (sync first) send it; returns who got it. */
  async function sendLetter(subject: string): Promise<string[]> {
    const id = await createLetter(db(), ADMIN, { fr: { subject, body: 'Bonjour,\n\nDes nouvelles.', link: '', image: '' } }, { language: '', source: '' });
    expect(await sendNow(db(), ADMIN, id)).toBe('ok');
    const deps = { db: db(), site: { origin: ORIGIN, appSecret: APP_SECRET }, deliver: (m: Parameters<typeof deliverBulk>[1]) => deliverBulk({ smtpUrl: smtp.url, from: 'Fondation THV <lettres@fondation.example.org>' }, m), idleMs: 0, syncEveryMs: 0 };
    for (let i = 0; i < 200; i++) {
      const wait = await sendingRound(deps, 'w-test', state);
      const counts = await queueCounts(db(), id);
      if (counts.queued === 0 && counts.claimed === 0 && i > 0) break;
      if (wait > 0) await new Promise((r) => setTimeout(r, Math.min(wait, 50)));
    }
    return smtp.mails.filter((m) => m.raw.includes(`Subject: ${subject}`)).map((m) => m.to[0]).sort();
  }

  const PEOPLE = ['page@example.org', 'oneclick@example.org', 'donor@example.org', 'member@example.org', 'admin-asked@example.org', 'stays@example.org'];

  it('an address that left through any door receives no later letter, and its consents are withdrawn', async () => {
    const type = await createType(db(), ADMIN, membershipType());
    await optIn('page@example.org');
    await giftWithConsent('gift-oneclick', 'OneClick@Example.org');
    await giftWithConsent('gift-donor', 'donor@example.org');
    await createMember(db(), ADMIN, memberInput(type, { email: 'member@example.org', exempt: true, news: true }));
    await optIn('admin-asked@example.org');
    await optIn('stays@example.org');
    await syncSources(db());
    expect(await sendLetter('Lettre 1')).toEqual([...PEOPLE].sort());

    // The letter's page: its GET changes nothing, its button leaves.
    const pageToken = unsubscribeToken(APP_SECRET, (await subscriberByEmail(db(), 'page@example.org'))!.id);
    expect(answer(await call(unsubscribePage, { method: 'GET', params: { token: pageToken } })).body).toEqual({ valid: true });
    expect((await subscriberByEmail(db(), 'page@example.org'))?.status).toBe('subscribed');
    expect(answer(await call(unsubscribePost, { params: { token: pageToken } }))).toMatchObject({ status: 200, body: { left: true } });

    // The mail client's one-click POST (no Origin, no cookie).
    const oneClickToken = unsubscribeToken(APP_SECRET, (await subscriberByEmail(db(), 'oneclick@example.org'))!.id);
    expect(((await call(oneClick, { body: { 'List-Unsubscribe': 'One-Click' }, params: { token: oneClickToken }, origin: false })) as Response).status).toBe(200);

    // The donor space: it offers to stop the news, and stopping it leaves the list (the live bug).
    const donor = await donorSpace('donor@example.org');
    expect(answer(await call(spaceLoader, { method: 'GET', cookie: donor })).body).toMatchObject({ signedIn: true, newsletter: true });
    const stopped = (await call(spaceAction, { body: { intent: 'newsletter-off' }, cookie: donor })) as Response;
    expect(stopped.headers.get('Location')).toBe('/mon-espace?ok=newsletter');
    expect(answer(await call(spaceLoader, { method: 'GET', cookie: donor })).body).toMatchObject({ newsletter: false });

    // The member space (a member who never gave): their membership's news box fed the list.
    const member = await donorSpace('member@example.org');
    expect(answer(await call(spaceLoader, { method: 'GET', cookie: member })).body).toMatchObject({ signedIn: true, newsletter: true });
    await call(spaceAction, { body: { intent: 'newsletter-off' }, cookie: member });

    // An Admin, at the person's request: the page names the address; an Éditeur may not.
    const id = (await subscriberByEmail(db(), 'admin-asked@example.org'))!.id;
    const editor = await sessionCookie(db(), { id: 'u-editor', name: 'Éric Éditeur', email: 'eric@fondation.example.org', role: 'Éditeur' });
    expect(answer(await call(adminRemove, { params: { id }, cookie: editor })).status).toBe(403);
    expect((await subscriberByEmail(db(), 'admin-asked@example.org'))?.status).toBe('subscribed');
    expect(answer(await call(adminRemovePage, { method: 'GET', params: { id }, cookie: admin })).body).toEqual({ email: 'admin-asked@example.org' });
    const removed = (await call(adminRemove, { params: { id }, cookie: admin })) as Response;
    expect(removed.status).toBe(303);
    expect(answer(await call(adminRemovePage, { method: 'GET', params: { id }, cookie: admin })).status).toBe(404);
    const audit = await db().selectFrom('audit_log').select(['action', 'user_name', 'target']).where('action', '=', 'subscriber.removed').execute();
    expect(audit).toEqual([{ action: 'subscriber.removed', user_name: 'Alice Admin', target: id }]);

    const gone = PEOPLE.filter((p) => p !== 'stays@example.org');
    for (const email of gone) expect((await subscriberByEmail(db(), email))?.status, email).toBe('unsubscribed');
    // Each departure is proved by its door.
    const doors = await Promise.all(gone.map(async (e) => (await subscriptionOf(db(), e))!.events.filter((x) => x.kind === 'unsubscribed').map((x) => x.source)));
    expect(doors).toEqual([['page'], ['one-click'], ['space'], ['space'], ['admin']]);
    // Every consent that fed the list is withdrawn: a gift's box, a membership's box.
    expect(await hasNewsConsent(db(), 'oneclick@example.org')).toBe(false);
    expect(await hasNewsConsent(db(), 'donor@example.org')).toBe(false);
    expect(await hasMemberNewsConsent(db(), 'member@example.org')).toBe(false);

    // The next letter (whose worker round syncs donors and members first) reaches only who stayed.
    expect(await sendLetter('Lettre 2')).toEqual(['stays@example.org']);
  });

  it('an address that left comes back only through a new double opt-in', async () => {
    // The sync reads every consent again from the start: none of the old ones brings anyone back.
    await db().deleteFrom('settings').where('key', '=', 'letters.sources').execute();
    expect(await syncSources(db())).toBe(0);
    for (const email of ['page@example.org', 'donor@example.org', 'member@example.org']) {
      expect(await getsNews(db(), email)).toBe(false);
      await optIn(email);
    }
    expect(await sendLetter('Lettre 3')).toEqual(['donor@example.org', 'member@example.org', 'page@example.org', 'stays@example.org']);
  });

  it('a consent not yet on the list when its giver leaves never joins it afterwards', async () => {
    await giftWithConsent('gift-quick', 'quick@example.org');
    const quick = await donorSpace('quick@example.org');
    // Not on the list yet (the sync has not run): the space offers to stop all the same.
    expect(await subscriberByEmail(db(), 'quick@example.org')).toBeUndefined();
    expect(answer(await call(spaceLoader, { method: 'GET', cookie: quick })).body).toMatchObject({ newsletter: true });
    await call(spaceAction, { body: { intent: 'newsletter-off' }, cookie: quick });
    expect(await subscriberByEmail(db(), 'quick@example.org')).toMatchObject({ status: 'unsubscribed', source: 'donor' });
    await db().deleteFrom('settings').where('key', '=', 'letters.sources').execute();
    expect(await syncSources(db())).toBe(0);
    expect(await sendLetter('Lettre 4')).not.toContain('quick@example.org');
  });

  it('the repair of version 019: a donor who stopped the news in their space before this fix leaves the list as of that day', async () => {
    // As the old donor space left things: the gift's consent withdrawn, the address still subscribed.
    await giftWithConsent('gift-victim', 'victim@example.org');
    await giftWithConsent('gift-again', 'again@example.org');
    await syncSources(db());
    const withdrawnAt = new Date(Date.now() - 30_000).toISOString();
    await db().updateTable('donor_consents').set({ withdrawn_at: withdrawnAt }).where('donation_id', 'in', ['gift-victim', 'gift-again']).execute();
    // This one consented again afterwards (a new gift, its box ticked): their latest word stands.
    const now = new Date();
    await db().insertInto('donations').values(ledgerRow('gift-again-2', now.toISOString(), { donor_email: 'again@example.org', amount_minor: 2000, eur_cents: 2000 })).execute();
    await recordNewsletterConsent(db(), 'gift-again-2', now);
    await repairWithdrawals(db() as never);
    expect(await subscriberByEmail(db(), 'victim@example.org')).toMatchObject({ status: 'unsubscribed', updatedAt: withdrawnAt });
    expect((await subscriptionOf(db(), 'victim@example.org'))!.events.at(-1)).toMatchObject({ kind: 'unsubscribed', at: withdrawnAt, source: 'space' });
    expect((await subscriberByEmail(db(), 'again@example.org'))?.status).toBe('subscribed');
    expect((await subscriberByEmail(db(), 'stays@example.org'))?.status).toBe('subscribed');
    // Run again: nothing more changes.
    await repairWithdrawals(db() as never);
    expect((await subscriptionOf(db(), 'victim@example.org'))!.events.filter((e) => e.kind === 'unsubscribed')).toHaveLength(1);
  });
});
