import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { donationDeps } from '~/domain/donations/deps.server';
import { move } from '~/domain/donations/payments.server';
import { pageTags } from '~/lib/cache-tags';
import { setLogSink } from '~/lib/log.server';
import { contentChanged, runtime } from '~/lib/runtime.server';
import { action as pageEditAction, loader as pageEditLoader } from '~/routes/admin/content/page-edit';
import { KAYA, saveCampaignOrThrow } from '../support/campaigns';
import { describeEachDialect } from '../support/db';
import { ledgerRow } from '../support/ledger-rows';
import { startPurgeRecorder } from '../support/purge-recorder';
import { routeContext, sessionCookie } from '../support/routes';
import { startTestRuntime } from '../support/runtime';

const ORIGIN = 'https://fondation.example.org';

/**
 * Behind a CDN (ADR 025), done when: an editor publishes a change to a page, and the CDN's purge
 * API (a local server recording what it receives, set up as Cloudflare's) is asked to drop that
 * page's key, the one the page carries in its tag header (server/app.ts sends `pageTags(path)`).
 * The purge is the changing instance's alone, in the background: a failing CDN costs the editor
 * nothing but a warning in the log.
 */
describeEachDialect('the CDN purge on content changes, on %s', (dialect) => {
  let app: { stop: () => Promise<void> } | undefined;
  let cdn: Awaited<ReturnType<typeof startPurgeRecorder>>;
  let editor = '';
  const lines: string[] = [];
  let restoreSink: ReturnType<typeof setLogSink>;

  beforeAll(async () => {
    cdn = await startPurgeRecorder();
    app = await startTestRuntime(dialect, 'cdn-purge-'.padEnd(48, 'c'), {
      LOG_LEVEL: 'warn',
      CACHE_TAG_HEADER: 'Cache-Tag',
      CACHE_PURGE_URL: `${cdn.origin}/client/v4/zones/ZONE/purge_cache`,
      CACHE_PURGE_HEADERS: 'Authorization: Bearer cf-token-123',
      CACHE_PURGE_BODY: '{"tags":{keys}}',
    });
    editor = await sessionCookie(runtime().db, { id: 'u-eric', name: 'Éric Éditeur', email: 'eric@example.org' });
    restoreSink = setLogSink((_level, line) => lines.push(line));
  });
  afterEach(() => {
    cdn.answer = 200;
    cdn.received.length = 0;
    lines.length = 0;
  });
  afterAll(async () => {
    setLogSink(restoreSink);
    await app?.stop();
    await cdn.close();
  });

  /** The about page's form as the editor opens it, changed, then posted with "Publier". */
  async function publishAbout(change: Record<string, string>) {
    const opened = new Request(`${ORIGIN}/admin/pages/edit/about`, { headers: { Cookie: editor } });
    const loaded = (await pageEditLoader({ request: opened, context: routeContext(), params: { pageId: 'about' } } as never)) as { version: number; values: Record<string, string> };
    const form = { ...loaded.values, ...change, version: String(loaded.version), draftSavedAt: '', intent: 'publish' };
    const request = new Request(`${ORIGIN}/admin/pages/edit/about`, { method: 'POST', headers: { Cookie: editor, Origin: ORIGIN }, body: new URLSearchParams(form) });
    return (await pageEditAction({ request, context: routeContext(), params: { pageId: 'about' } } as never)) as { data?: { toast?: { title: string } }; toast?: { title: string } };
  }

  it('publishing a page purges that page’s own key, with the token, from this instance', async () => {
    const ownKey = pageTags('/a-propos')[1];
    expect(ownKey).toBe('page:/a-propos');
    const saved = await publishAbout({ 'fr.title': 'À propos de nous' });
    expect((saved.data ?? saved).toast?.title).toBe('Contenu sauvegardé !');
    await expect.poll(() => cdn.tags(), { timeout: 10_000 }).toEqual([[ownKey]]);
    expect(cdn.received[0]).toMatchObject({ method: 'POST', url: '/client/v4/zones/ZONE/purge_cache' });
    expect(cdn.received[0].headers).toMatchObject({ authorization: 'Bearer cf-token-123', 'content-type': 'application/json' });
  });

  it('a change of unknown reach (settings, media…) purges every page', async () => {
    await contentChanged();
    await expect.poll(() => cdn.tags(), { timeout: 10_000 }).toEqual([['site']]);
  });

  it('a refund on a campaign purges its page, the campaign lists and the donate page', async () => {
    const kaya = await saveCampaignOrThrow(runtime().db, KAYA);
    const gift = randomUUID();
    await runtime().db.insertInto('donations').values(ledgerRow(gift, new Date().toISOString(), { campaign_id: kaya.id, amount_minor: 2500, eur_cents: 2500 })).execute();
    expect((await move(await donationDeps(), gift, 'refunded')).changed).toBe(true);
    await expect.poll(() => cdn.tags(), { timeout: 10_000 }).toEqual([['campaign:forages-kaya', 'campaigns', 'donate']]);
    expect(pageTags('/campagnes/forages-kaya')).toContain('campaign:forages-kaya');
  });

  it('a failing CDN neither fails nor delays the save; the failure is logged without the token', async () => {
    cdn.answer = 503;
    const started = Date.now();
    const saved = await publishAbout({ 'fr.title': 'À propos' });
    expect((saved.data ?? saved).toast?.title).toBe('Contenu sauvegardé !');
    expect(Date.now() - started).toBeLessThan(1000);
    // Tried twice, then a warning.
    await expect.poll(() => lines.find((l) => l.includes('CDN purge failed')), { timeout: 10_000 }).toBeTruthy();
    expect(cdn.received).toHaveLength(2);
    const warning = lines.find((l) => l.includes('CDN purge failed'))!;
    expect(JSON.parse(warning)).toMatchObject({ level: 'warn', failure: 'HTTP 503', keys: ['page:/a-propos'] });
    expect(warning).not.toContain('cf-token-123');
  });

  if (dialect === 'postgres') {
    it('another instance’s change is forgotten here, never purged a second time', async () => {
      const page = { status: 200, headers: [], body: Buffer.from(''), etag: '"x"', nonce: null };
      const cache = runtime().cache;
      cache.set('fr|/a-propos', page, cache.begin());
      const other = new pg.Client({ connectionString: (runtime().handle.pool as unknown as { options: { connectionString: string } }).options.connectionString });
      await other.connect();
      await other.query("select pg_notify('thv_content_changed', 'another instance')");
      await other.end();
      await expect.poll(() => cache.get('fr|/a-propos'), { timeout: 5000 }).toBeUndefined();
      // Longer than the purge's own delay: nothing was sent.
      await new Promise((r) => setTimeout(r, 1500));
      expect(cdn.received).toEqual([]);
    });
  }
});
