import { randomUUID } from 'node:crypto';
import { RouterContextProvider } from 'react-router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { donationDeps } from '~/domain/donations/deps.server';
import { ProviderError } from '~/domain/donations/providers/types';
import { startCardDonation, startCryptoDonation } from '../support/payment-entry';
import { sendDonorMail, spaceUrl } from '~/domain/donations/donor-mail.server';
import { createUser } from '~/domain/users/users.server';
import { NOTICE_AFTER } from '~/domain/users/throttle.server';
import { isLoopbackHost } from '~/lib/origin.server';
import { hashPassword } from '~/lib/password.server';
import { requestInfoContext } from '~/lib/request-context.server';
import { runtime } from '~/lib/runtime.server';
import { action as contactAction } from '~/routes/site/contact';
import { action as loginAction } from '~/routes/auth/login';
import { action as forgotAction } from '~/routes/auth/forgot-password';
import { action as spaceAction } from '~/routes/donors/space';
import { receiptDeps } from '~/routes/receipts/admin-receipts.server';
import { describeEachDialect } from '../support/db';
import { ledgerRow } from '../support/ledger-rows';
import { startTestRuntime } from '../support/runtime';
import { startSmtp } from '../support/smtp';

const APP_SECRET = 'trusted-origin-'.padEnd(48, 't');
/** The server's own address (no PUBLIC_URL: a loopback one is trusted) and a stranger's forged Host. */
const OWN = 'http://127.0.0.1:3000';
const FORGED = 'http://evil.example';
const DONOR = 'awa.origin@example.org';
const OWNER = { name: 'Odile Owner', email: 'odile.origin@example.org' };
const PASSWORD = 'le bon mot de passe d’Odile';

/**
 * Links and tokens in mails, and the addresses providers send donors back to, are built from the
 * trusted origin only (ADR 010): PUBLIC_URL, or without it a loopback address the request came to.
 * A request that names another Host (with an Origin to match) gets the same answer, and nothing
 * that would point at its host. The routes are called as React Router calls them, on a running app.
 */
describeEachDialect('mails and return addresses never follow a forged Host on %s', (dialect) => {
  let app: { stop: () => Promise<void> } | undefined;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  const db = () => runtime().db;
  const mailsTo = (to: string) => db().selectFrom('mail_outbox').selectAll().where('to', '=', to).orderBy('created_at').execute();
  /** The sender of the next mail to `to`, as the SMTP server received it. */
  const senderOf = async (to: string) => /^From: (.*)$/m.exec((await smtp.mailTo(to)).raw)?.[1]?.trim();

  beforeAll(async () => {
    app = await startTestRuntime(dialect, APP_SECRET);
    smtp = await startSmtp();
    runtime().env.SMTP_URL = smtp.url;
    await db().insertInto('donations').values(ledgerRow(randomUUID(), new Date().toISOString(), { donor_email: DONOR, amount_minor: 2000, eur_cents: 2000 })).execute();
    const created = await createUser(db(), { id: null, name: 'Test' }, { ...OWNER, role: 'Admin' });
    if ('error' in created) throw new Error(created.error);
    await db().updateTable('users').set({ password_hash: await hashPassword(PASSWORD) }).where('id', '=', created.user.id).execute();
  });
  afterAll(async () => {
    await app?.stop();
    await smtp?.close();
  });

  /** A form posted to `path` on `origin`, from a page of that same origin, by `ip`. */
  function post(origin: string, path: string, form: Record<string, string>, ip = '198.51.100.1') {
    const request = new Request(`${origin}${path}`, { method: 'POST', body: new URLSearchParams(form), headers: { Origin: origin, 'Accept-Language': 'fr' } });
    const context = new RouterContextProvider();
    context.set(requestInfoContext, { nonce: 'n', clientIp: ip, requestId: randomUUID(), secure: false });
    return { request, context, params: {} } as never;
  }
  const answer = async (run: Promise<unknown>) => {
    const r = await run.catch((e: unknown) => e);
    return r instanceof Response ? { status: r.status, location: r.headers.get('Location') } : r;
  };
  /** The sign-in mail leaves after the answer: waits for what was queued. */
  const settle = async () => {
    for (let i = 0; i < 20; i++) await new Promise((r) => setTimeout(r, 10));
  };

  it('mails a donor’s single-use sign-in link only from a trusted origin, with the same answer either way', async () => {
    const forged = await answer(spaceAction(post(FORGED, '/mon-espace', { intent: 'link', email: DONOR })));
    await settle();
    expect(await mailsTo(DONOR)).toEqual([]);
    const own = await answer(spaceAction(post(OWN, '/mon-espace', { intent: 'link', email: DONOR }, '198.51.100.2')));
    expect(own).toEqual(forged);
    expect(own).toEqual({ status: 302, location: '/mon-espace?ok=sent' });
    await settle();
    const mails = await mailsTo(DONOR);
    expect(mails).toHaveLength(1);
    expect(mails[0].text).toMatch(new RegExp(`${OWN}/mon-espace/connexion\\?t=[A-Za-z0-9_-]{43}`));
    expect(await senderOf(DONOR)).toBe('Fondation THV <no-reply@127.0.0.1>');
  });

  it('answers a forged Host’s password-reset request alike for every email, and mails no link', async () => {
    const known = await answer(forgotAction(post(FORGED, '/admin/mot-de-passe-oublie', { email: OWNER.email }, '198.51.100.3')));
    const unknown = await answer(forgotAction(post(FORGED, '/admin/mot-de-passe-oublie', { email: 'personne@example.org' }, '198.51.100.3')));
    expect(known).toMatchObject({ init: { status: 503 }, data: { outcome: 'failed' } });
    expect(unknown).toEqual(known);
    expect(await mailsTo(OWNER.email)).toEqual([]);
  });

  it('links the foundation’s contact mail to the back office by its path only when the Host is not trusted', async () => {
    const form = { firstName: 'Eve', lastName: 'Forge', email: 'eve@example.org', message: 'Bonjour, voici mon message.' };
    expect(await answer(contactAction(post(FORGED, '/contact', form, '198.51.100.4')))).toEqual({ status: 303, location: '/contact?sent=1' });
    const [mail] = await mailsTo('contact@fondation-thv.org');
    expect(mail.text).toMatch(/Lire et gérer les messages : \/admin\/messages\/[0-9a-f-]{36}\n/);
    expect(JSON.stringify(mail)).not.toContain('evil.example');
    expect(await senderOf('contact@fondation-thv.org')).toBe('Fondation THV <no-reply@localhost>');
  });

  it('sends the real failed-sign-ins notice through the mail path, once, with no link to a forged Host', async () => {
    // Failures from ten addresses (none is refused or delayed), the last ones through a forged Host.
    for (let i = 0; i < NOTICE_AFTER + 1; i++) {
      const origin = i < NOTICE_AFTER - 1 ? OWN : FORGED;
      const r = await answer(loginAction(post(origin, '/admin/login', { email: OWNER.email, password: `pas le bon ${i}` }, `192.0.2.${i + 1}`)));
      expect(r).toMatchObject({ init: { status: 400 } });
    }
    const mails = (await mailsTo(OWNER.email)).filter((m) => m.subject === 'Tentatives de connexion à votre compte Fondation THV');
    expect(mails).toHaveLength(1);
    const [notice] = mails;
    expect(await senderOf(OWNER.email)).toBe('Fondation THV <no-reply@localhost>');
    expect(notice.text).toBe(
      [
        `Bonjour ${OWNER.name},`,
        `${NOTICE_AFTER} tentatives de connexion à votre compte Fondation THV ont échoué ces 15 dernières minutes.`,
        "Si c'était vous, rien à faire. Sinon, quelqu'un essaie de deviner votre mot de passe : votre compte reste accessible depuis chez vous, mais choisissez un mot de passe long et unique.",
        '/admin/login\n',
      ].join('\n\n'),
    );
    expect(notice.html).toContain('<a href="/admin/login"');
    expect(notice.html).not.toContain('evil.example');
    // The owner still signs in from their own address.
    expect(await answer(loginAction(post(OWN, '/admin/login', { email: OWNER.email, password: PASSWORD }, '198.51.100.9')))).toMatchObject({ status: 303 });
  });

  it('gives donation flows no origin from a forged Host: no return address to a provider, path-only links in mails', async () => {
    const forged = await donationDeps(new Request(`${FORGED}/faire-un-don`));
    expect(forged.publicUrl).toBeUndefined();
    expect((await donationDeps(new Request(`${OWN}/faire-un-don`))).publicUrl).toBe(OWN);
    expect(receiptDeps(new Request(`${FORGED}/admin/receipts`)).publicUrl).toBeUndefined();
    const before = await db().selectFrom('donations').select('id').execute();
    for (const start of [() => startCardDonation(forged, { amountCents: 2000, monthly: false, lang: 'fr' }), () => startCryptoDonation(forged, { amountCents: 2000, lang: 'fr' })]) {
      const e = await start().catch((x: unknown) => x);
      expect(e).toBeInstanceOf(ProviderError);
      expect((e as Error).message).toBe('PUBLIC_URL n’est pas configurée');
    }
    // Refused before anything was recorded or asked of a provider.
    expect(await db().selectFrom('donations').select('id').execute()).toEqual(before);
    // A donor mail (failed instalment, change confirmation) still goes, its link without a host.
    expect(spaceUrl(undefined, 'en')).toBe('/en/mon-espace');
    await sendDonorMail(forged, DONOR, 'fr', 'donorMail.failedSubject', ['donorMail.failed', 'donorMail.failedAction'], { amount: '20,00 €', url: spaceUrl(forged.publicUrl, 'fr') });
    const last = (await mailsTo(DONOR)).at(-1)!;
    expect(last.text).toContain('/mon-espace');
    expect(await senderOf(DONOR)).toBe('Fondation THV <no-reply@localhost>');
    expect(JSON.stringify(last)).not.toContain('evil.example');
  });
});

describe('loopback hosts (trusted without PUBLIC_URL)', () => {
  it('are localhost, 127.x.x.x and [::1], with or without a port, and nothing that merely contains one', () => {
    for (const host of ['localhost', 'LOCALHOST:3000', '127.0.0.1', '127.0.0.1:8080', '127.10.200.255:3000', '[::1]', '[::1]:3000']) expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['evil.localhost', 'localhost.evil.example', 'localhost:3000.evil.example', '127.0.0.1.evil.example', 'x127.0.0.1', '127.0.0', '127.1000.0.1', '[::2]', 'localhost:', 'evil.example'])
      expect(isLoopbackHost(host), host).toBe(false);
  });
});
