import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import { expect, test, type APIRequest } from '@playwright/test';
import { sql } from 'kysely';
import { ledgerRow } from '../../support/ledger-rows';
import { expectAccessible } from '../support';
import { DIALECTS, PASSWORD, createAccount, serverForSuite, signIn, type AdminServer } from '../admin/server';
import { generateCorpus, sendAllRaw, sendRaw } from './malformed';

/**
 * Hardening (issue #12, ADR 010), from outside, against the production server: bounded bodies,
 * 4xx for malformed requests, no secret in the log, no Host poisoning, security headers.
 */

const MiB = 1024 * 1024;
const portOf = (baseURL: string) => Number(new URL(baseURL).port);
/** The server's log lines now, and those written since (its log is stdout, then stderr). */
const logLines = (server: AdminServer) => new Set(server.log().split('\n'));
const linesSince = (server: AdminServer, before: Set<string>) => server.log().split('\n').filter((l) => l && !before.has(l));

/** Alice's session cookie (`__session=…`), from the sign-in form posted as a page without JavaScript does. */
async function adminCookie(playwright: { request: APIRequest }, baseURL: string): Promise<string> {
  const request = await playwright.request.newContext();
  try {
    const signedIn = await request.post(`${baseURL}/admin/login`, { form: { email: 'alice@example.org', password: PASSWORD }, headers: { Origin: baseURL }, maxRedirects: 0 });
    return /__session=[^;]+/.exec(signedIn.headers()['set-cookie'] ?? '')![0];
  } finally {
    await request.dispose();
  }
}

function rssBytes(pid: number): number {
  const kb = /VmRSS:\s+(\d+)\s+kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) * 1024;
}

/**
 * Posts `total` bytes of form data (declared up front, or chunked) and returns the answer; stops
 * sending as soon as the server answers or closes.
 */
function postHuge(port: number, path: string, total: number, opts: { chunked: boolean; lang?: string }): Promise<{ status: number; text: string; sent: number }> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    let sent = 0;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      socket.destroy();
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1] ?? 0), text: received, sent });
    };
    socket.on('data', (d) => {
      received += d.toString('utf8');
      if (/\r\n\r\n/.test(received) && (/Content-Length: (\d+)/i.exec(received) ? received.split('\r\n\r\n')[1].length >= Number(/Content-Length: (\d+)/i.exec(received)![1]) : true)) finish();
    });
    socket.on('close', finish);
    socket.on('error', finish);
    socket.on('connect', () => {
      const length = opts.chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${total}`;
      socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: http://127.0.0.1:${port}\r\nAccept-Language: ${opts.lang ?? 'fr'}\r\nContent-Type: application/x-www-form-urlencoded\r\n${length}\r\n\r\n`);
      const chunk = Buffer.alloc(256 * 1024, 'a');
      const pump = () => {
        while (!done && sent < total) {
          const piece = opts.chunked ? Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]) : chunk;
          sent += chunk.length;
          if (!socket.write(piece)) {
            socket.once('drain', pump);
            return;
          }
        }
        if (!done && opts.chunked) socket.write('0\r\n\r\n');
      };
      pump();
    });
  });
}

for (const dialect of DIALECTS) {
  test.describe(`hardening on ${dialect}`, () => {
    test.describe.configure({ mode: 'serial' });
    const server = serverForSuite(dialect, () => ({ LOG_LEVEL: 'debug', ADMIN_EMAIL: 'alice@example.org', ADMIN_PASSWORD: PASSWORD }));

    test('a 50 MiB POST to /contact or /admin/login is answered 413 in the visitor’s language, unread, with memory flat', async () => {
      const port = portOf(server.baseURL);
      const before = rssBytes(server.pid);
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, rssBytes(server.pid))), 10);
      try {
        for (const [path, chunked, lang] of [['/contact', false, 'en'], ['/admin/login', false, 'es'], ['/contact', true, 'fr'], ['/admin/login', true, 'fr']] as const) {
          const res = await postHuge(port, path, 50 * MiB, { chunked, lang });
          expect(res.status, `${path} chunked=${chunked}`).toBe(413);
          expect(res.text).toMatch(/Connection: close/i);
          // The server answered long before the 50 MiB were sent.
          expect(res.sent).toBeLessThan(50 * MiB);
          const message = { en: 'What you sent is too large (at most 64 KiB).', es: 'Lo que envió es demasiado grande (como máximo 64 KiB).', fr: 'Le contenu envoyé est trop volumineux (au plus 64 KiB).' }[lang];
          expect(res.text).toContain(message);
        }
      } finally {
        clearInterval(sampler);
      }
      expect(peak - before).toBeLessThan(20 * MiB);
    });

    test('webhooks take up to 1 MiB, and refuse more with 413 as JSON', async () => {
      const port = portOf(server.baseURL);
      const ok = await sendRaw(port, { name: 'webhook 900 KiB', method: 'POST', target: '/webhooks/flutterwave', headers: { 'Content-Type': 'application/json', 'verif-hash': 'wrong' }, body: Buffer.from(JSON.stringify({ pad: 'x'.repeat(900 * 1024) })) });
      expect(ok.status).toBe(400);
      expect(ok.text).toContain('invalid verif-hash');
      const big = await sendRaw(port, { name: 'webhook 2 MiB', method: 'POST', target: '/webhooks/flutterwave', headers: { 'Content-Type': 'application/json' }, body: Buffer.alloc(2 * MiB, 0x20) });
      expect(big.status).toBe(413);
      expect(big.text).toContain('application/json');
      expect(big.text).toContain('{"error":"Le contenu envoyé est trop volumineux (au plus 1 MiB)."}');
    });

    test('a corpus generated from every route, anonymous, as an Admin and as a donor, gets 4xx answers only, without a stack, and no error in the log', async ({ playwright }) => {
      test.setTimeout(300_000);
      const port = portOf(server.baseURL);
      const admin = await adminCookie(playwright, server.baseURL);
      const request = await playwright.request.newContext();
      // A donor signs in as donors do: a gift, the mailed link, its button.
      const email = 'awa.corpus@example.org';
      await server.db.insertInto('donations').values(ledgerRow(randomUUID(), new Date().toISOString(), { donor_email: email, amount_minor: 2500, eur_cents: 2500 })).execute();
      await request.post(`${server.baseURL}/mon-espace`, { form: { intent: 'link', email }, headers: { Origin: server.baseURL }, maxRedirects: 0 });
      await expect.poll(() => server.db.selectFrom('mail_outbox').select('text').where('to', '=', email).executeTakeFirst()).toBeTruthy();
      const mail = await server.db.selectFrom('mail_outbox').select('text').where('to', '=', email).executeTakeFirstOrThrow();
      const token = /connexion\?t=([A-Za-z0-9_-]+)/.exec(mail.text)![1];
      const opened = await request.post(`${server.baseURL}/mon-espace/connexion`, { form: { token }, headers: { Origin: server.baseURL }, maxRedirects: 0 });
      const donor = /__donor=[^;]+/.exec(opened.headers()['set-cookie'] ?? '')![0];
      await request.dispose();

      const corpus = generateCorpus([{ name: 'anonymous' }, { name: 'Admin', cookie: admin, keep: ['/admin/logout'] }, { name: 'donor', cookie: donor }]);
      expect(corpus.length).toBeGreaterThanOrEqual(200);
      // Generated from app/routes.ts: the donor space, campaigns, downloads and feeds are in it.
      for (const path of ['/mon-espace', '/mon-espace/connexion', '/mon-espace/export/x1', '/mon-espace/recus/x1', '/campagnes', '/campagnes/x1', '/payment/cancel', '/blog/feed.xml', '/admin/campaigns/x1']) {
        expect(corpus.some((r) => r.target === path), path).toBe(true);
      }
      const logBefore = logLines(server);
      const answers = await sendAllRaw(port, corpus);
      const wrong = answers.flatMap((res, i) => (res.status >= 500 || res.status === 0 || /\n\s+at .+:\d+:\d+/.test(res.text) ? [`${res.status} ${corpus[i].name}`] : []));
      expect(wrong).toEqual([]);
      const log = linesSince(server, logBefore);
      expect(log.filter((l) => l.includes('"level":"error"'))).toEqual([]);
      expect(log.filter((l) => /^\s+at .+:\d+:\d+/.test(l))).toEqual([]);
      // Both sessions lasted the whole corpus: the signed-in variants were signed in.
      const page = (path: string, cookie: string) => sendRaw(port, { name: path, method: 'GET', target: path, headers: { Cookie: cookie } });
      expect((await page('/admin/dashboard', admin)).status).toBe(200);
      expect((await page('/mon-espace', donor)).text).toContain(email);
    });

    test('a forged Host never reaches a cached page (no PUBLIC_URL: only loopback hosts are cached)', async () => {
      const port = portOf(server.baseURL);
      const forged = { name: 'forged host', method: 'GET', target: '/partenaires', headers: { Host: 'evil.example', 'Accept-Language': 'fr' } };
      const first = await sendRaw(port, forged);
      expect(first.status).toBe(200);
      expect(first.text).not.toMatch(/X-Cache: (HIT|MISS)/i);
      expect((await sendRaw(port, forged)).text).not.toMatch(/X-Cache: HIT/i);
      // The site's own visitors get pages built for the site's own address.
      const visitor = await fetch(`${server.baseURL}/partenaires`, { headers: { 'Accept-Language': 'fr' } });
      const again = await fetch(`${server.baseURL}/partenaires`, { headers: { 'Accept-Language': 'fr' } });
      expect(again.headers.get('x-cache')).toBe('HIT');
      for (const page of [await visitor.text(), await again.text()]) {
        expect(page).not.toContain('evil.example');
        expect(page).toContain(`http://127.0.0.1:${port}/partenaires`);
      }
    });

    test('no token, password or cookie handed out by sign-in, invitation and reset reaches the log', async ({ playwright }) => {
      const request = await playwright.request.newContext();
      const origin = server.baseURL;
      const signedIn = await request.post(`${origin}/admin/login`, { form: { email: 'alice@example.org', password: PASSWORD }, headers: { Origin: origin }, maxRedirects: 0 });
      expect(signedIn.status()).toBe(303);
      const cookie = /__session=([^;]+)/.exec(signedIn.headers()['set-cookie'] ?? '')![1];
      const created = await request.post(`${origin}/admin/users/new`, { form: { name: 'Ivan Invité', email: 'ivan@example.org', role: 'Éditeur' }, headers: { Origin: origin } });
      const invitation = /\/admin\/invitation\/([A-Za-z0-9_-]{43})/.exec(await created.text())![1];
      expect((await request.get(`${origin}/admin/invitation/${invitation}`)).status()).toBe(200);
      await request.post(`${origin}/admin/invitation/${invitation}`, { form: { password: 'le mot de passe d’Ivan', confirm: 'le mot de passe d’Ivan' }, headers: { Origin: origin }, maxRedirects: 0 });
      await request.post(`${origin}/admin/mot-de-passe-oublie`, { form: { email: 'alice@example.org' }, headers: { Origin: origin } });
      const mail = await server.db.selectFrom('mail_outbox').select('text').where('to', '=', 'alice@example.org').orderBy('created_at', 'desc').executeTakeFirstOrThrow();
      const reset = /\/admin\/reinitialiser\/([A-Za-z0-9_-]{43})/.exec(mail.text)![1];
      expect((await request.get(`${origin}/admin/reinitialiser/${reset}?token=${reset}`)).status()).toBe(200);

      // The Admin reads the mail in the back office, where it is kept.
      const outbox = await request.get(`${origin}/admin/courriels`);
      expect(outbox.status()).toBe(200);
      expect(await outbox.text()).toContain(`/admin/reinitialiser/${reset}`);
      await request.dispose();

      const log = server.log();
      expect(log).toContain('/admin/reinitialiser/[redacted]');
      for (const secret of [PASSWORD, 'le mot de passe d’Ivan', cookie, invitation, reset]) expect(log, secret).not.toContain(secret);
    });

    test('the back office’s editing forms take up to 1 MiB from a signed-in user; 64 KiB without a session', async ({ playwright }) => {
      const port = portOf(server.baseURL);
      const cookie = await adminCookie(playwright, server.baseURL);
      const body = Buffer.from(`title=${'a'.repeat(300 * 1024)}`);
      const headers = { 'Content-Type': 'application/x-www-form-urlencoded', Origin: server.baseURL };
      const withSession = await sendRaw(port, { name: 'admin 300 KiB', method: 'POST', target: '/admin/blog/new', headers: { ...headers, Cookie: cookie }, body });
      expect(withSession.status).not.toBe(413);
      expect(withSession.status).toBeLessThan(500);
      const anonymous = await sendRaw(port, { name: 'anonymous 300 KiB', method: 'POST', target: '/admin/blog/new', headers, body });
      expect(anonymous.status).toBe(413);
    });

    test('an Admin reads the pending mails in the back office, from the menu, accessibly', async ({ page }) => {
      await signIn(page, server.baseURL, 'alice@example.org');
      await page.getByRole('link', { name: 'Courriels en attente' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Courriels en attente' })).toBeVisible();
      await expect(page.getByRole('heading', { level: 2, name: /Réinitialisation de votre mot de passe/ })).toBeVisible();
      await expect(page.getByTestId('outbox')).toContainText('/admin/reinitialiser/');
      await expectAccessible(page);
    });

    test('"Courriels en attente" is for Admins only', async ({ playwright }) => {
      await createAccount(server.db, 'Éditeur', 'eric@example.org');
      const request = await playwright.request.newContext();
      const res = await request.post(`${server.baseURL}/admin/login`, { form: { email: 'eric@example.org', password: PASSWORD }, headers: { Origin: server.baseURL }, maxRedirects: 0 });
      expect(res.status()).toBe(303);
      expect((await request.get(`${server.baseURL}/admin/courriels`)).status()).toBe(403);
      await request.dispose();
    });

    test('single-use links are mailed only to the trusted origin: a forged Host gets the same answers, and nothing that points at it', async () => {
      const port = portOf(server.baseURL);
      const donor = 'awa.lien@example.org';
      await server.db.insertInto('donations').values(ledgerRow(randomUUID(), new Date().toISOString(), { donor_email: donor, amount_minor: 2000, eur_cents: 2000 })).execute();
      const form = (origin: string, path: string, body: string) => ({
        name: `${origin} ${path}`,
        method: 'POST',
        target: path,
        headers: { Host: new URL(origin).host, Origin: origin, 'Content-Type': 'application/x-www-form-urlencoded', 'Accept-Language': 'fr' },
        body: Buffer.from(body),
      });
      const answer = (r: { status: number; text: string }) => [r.status, /^location: (.*)$/im.exec(r.text.split('\r\n\r\n')[0])?.[1]?.trim()];
      const mails = () => server.db.selectFrom('mail_outbox').selectAll().execute();
      const before = (await mails()).length;

      // The donor space's sign-in link, asked through a forged Host (its Origin to match), then through ours.
      const forged = await sendRaw(port, form('http://evil.example', '/mon-espace', `intent=link&email=${encodeURIComponent(donor)}`));
      const own = await sendRaw(port, form(server.baseURL, '/mon-espace', `intent=link&email=${encodeURIComponent(donor)}`));
      expect(answer(forged)).toEqual([302, '/mon-espace?ok=sent']);
      expect(answer(own)).toEqual(answer(forged));
      // A password reset asked through a forged Host: the same answer for an account and for nobody.
      const known = await sendRaw(port, form('http://evil.example', '/admin/mot-de-passe-oublie', 'email=alice%40example.org'));
      const unknown = await sendRaw(port, form('http://evil.example', '/admin/mot-de-passe-oublie', 'email=personne%40example.org'));
      expect(known.status).toBe(503);
      expect(unknown.status).toBe(known.status);
      // The same page but for the nonces (and the chunk sizes that frame it).
      const page = (r: { text: string }, email: string) =>
        r.text.slice(r.text.indexOf('\r\n\r\n')).replace(/^[0-9a-f]+\r$/gm, '').replace(/nonce(="|-)[A-Za-z0-9_-]+/g, 'nonce').replaceAll(email, '…');
      expect(page(unknown, 'personne@example.org')).toBe(page(known, 'alice@example.org'));

      await expect.poll(async () => (await mails()).length).toBe(before + 1);
      const sent = (await mails()).slice(before);
      expect(sent.map((m) => m.to)).toEqual([donor]);
      expect(sent[0].text).toMatch(new RegExp(`http://127\\.0\\.0\\.1:${port}/mon-espace/connexion\\?t=[A-Za-z0-9_-]{43}`));
      expect(JSON.stringify(await mails())).not.toContain('evil.example');
    });

    test('a failing loader or page answers 500 with a request id, logged once through the redacting log, with no stack anywhere', async ({ playwright }) => {
      const port = portOf(server.baseURL);
      const cookie = await adminCookie(playwright, server.baseURL);
      const get = (path: string) => sendRaw(port, { name: path, method: 'GET', target: path, headers: { Cookie: cookie } });
      async function expectLoggedFailure(path: string) {
        const logBefore = logLines(server);
        const res = await get(path);
        expect(res.status, path).toBe(500);
        const requestId = /^X-Request-Id: (.+)$/im.exec(res.text.split('\r\n\r\n')[0])?.[1]?.trim();
        expect(requestId).toBeTruthy();
        expect(res.text).not.toMatch(/\n\s+at .+:\d+:\d+/);
        expect(res.text).not.toMatch(/no such table|does not exist|Invalid time value/);
        await expect.poll(() => linesSince(server, logBefore).join('\n')).toContain(`"requestId":"${requestId}"`);
        const lines = linesSince(server, logBefore);
        // Every line is one JSON object of the logger: no raw error, no stack printed beside it.
        for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
        const failures = lines.map((l) => JSON.parse(l)).filter((l) => l.level === 'error');
        expect(failures).toEqual([expect.objectContaining({ msg: 'unhandled error', requestId })]);
      }
      // A loader whose query fails (its table is gone for the time of the test).
      await sql`alter table mail_outbox rename to mail_outbox_away`.execute(server.db);
      try {
        await expectLoggedFailure('/admin/courriels');
      } finally {
        await sql`alter table mail_outbox_away rename to mail_outbox`.execute(server.db);
      }
      // A page that fails while it is drawn (an entry whose date cannot be read).
      const id = randomUUID();
      await server.db.insertInto('audit_log').values({ id, at: 'pas une date', user_id: null, user_name: 'Test', action: 'page.update', target: 'home', details: '{}' }).execute();
      try {
        await expectLoggedFailure('/admin/dashboard');
      } finally {
        await server.db.deleteFrom('audit_log').where('id', '=', id).execute();
      }
      expect((await get('/admin/dashboard')).status).toBe(200);
    });
  });
}

test.describe('with PUBLIC_URL and behind a proxy', () => {
  const server = serverForSuite('sqlite', () => ({ PUBLIC_URL: 'https://www.fondation.example', TRUST_PROXY: 'loopback' }));

  test('another Host is redirected to the public origin (GET) or answered 421; probes answer on any address', async () => {
    const port = portOf(server.baseURL);
    const get = await sendRaw(port, { name: 'forged GET', method: 'GET', target: '/en/blog', headers: { Host: 'evil.example' } });
    expect(get.status).toBe(308);
    expect(get.text).toMatch(/Location: https:\/\/www\.fondation\.example\/en\/blog/i);
    const post = await sendRaw(port, { name: 'forged POST', method: 'POST', target: '/contact', headers: { Host: 'evil.example', 'Accept-Language': 'en', 'Content-Type': 'application/x-www-form-urlencoded' }, body: Buffer.from('a=1') });
    expect(post.status).toBe(421);
    expect(post.text).toContain('This site does not answer to this host name.');
    expect((await sendRaw(port, { name: 'probe', method: 'GET', target: '/healthz', headers: { Host: '10.0.0.5:3000' } })).status).toBe(200);
    const page = await sendRaw(port, { name: 'own host', method: 'GET', target: '/partenaires', headers: { Host: 'www.fondation.example', 'X-Forwarded-Proto': 'https' } });
    expect(page.status).toBe(200);
    expect(page.text).toContain('https://www.fondation.example/partenaires');
  });

  test('security headers follow the OWASP list; HSTS only over HTTPS', async () => {
    const port = portOf(server.baseURL);
    const https = await sendRaw(port, { name: 'https', method: 'GET', target: '/', headers: { Host: 'www.fondation.example', 'X-Forwarded-Proto': 'https' } });
    const http = await sendRaw(port, { name: 'http', method: 'GET', target: '/', headers: { Host: 'www.fondation.example' } });
    const header = (text: string, name: string) => new RegExp(`^${name}: (.*)$`, 'im').exec(text.split('\r\n\r\n')[0])?.[1]?.trim();
    for (const res of [https, http]) {
      expect(header(res.text, 'X-Content-Type-Options')).toBe('nosniff');
      expect(header(res.text, 'Referrer-Policy')).toBe('strict-origin-when-cross-origin');
      expect(header(res.text, 'X-Frame-Options')).toBe('DENY');
      expect(header(res.text, 'Content-Security-Policy')).toContain("frame-ancestors 'none'");
      expect(header(res.text, 'Cross-Origin-Opener-Policy')).toBe('same-origin');
      expect(header(res.text, 'Permissions-Policy')).toMatch(/camera=\(\), microphone=\(\), geolocation=\(\)/);
      expect(header(res.text, 'X-Powered-By')).toBeUndefined();
    }
    expect(header(https.text, 'Strict-Transport-Security')).toBe('max-age=31536000; includeSubDomains');
    expect(header(http.text, 'Strict-Transport-Security')).toBeUndefined();
  });
});
