import { randomUUID } from 'node:crypto';
import { RouterContextProvider } from 'react-router';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { donationDeps } from '~/domain/donations/deps.server';
import { move } from '~/domain/donations/payments.server';
import { contentChanged, runtime } from '~/lib/runtime.server';
import { loader as campaignsLoader } from '~/routes/site/campaigns';
import { KAYA, saveCampaignOrThrow } from '../support/campaigns';
import { describeEachDialect } from '../support/db';
import { ledgerRow } from '../support/ledger-rows';
import { startTestRuntime } from '../support/runtime';

/**
 * The open campaigns and their totals are remembered with the published content (ADR 017): a
 * rendered page is exactly as fresh as a cached one. They change when the donations say a
 * designated gift succeeded or was refunded (ADR 014), never on their own.
 */
describeEachDialect('open campaigns on the public pages, on %s', (dialect) => {
  let app: { stop: () => Promise<void> } | undefined;
  beforeAll(async () => {
    app = await startTestRuntime(dialect, 'open-campaigns-'.padEnd(48, 'o'));
  });
  afterAll(async () => {
    await app?.stop();
  });

  const shown = async (lang = 'fr') =>
    (await campaignsLoader({ request: new Request(`http://localhost/campagnes?lng=${lang}`), params: {}, context: new RouterContextProvider() } as unknown as Parameters<typeof campaignsLoader>[0])).campaigns;

  it('shows a gift in the totals when the donations announce it, in every language', async () => {
    const kaya = await saveCampaignOrThrow(runtime().db, KAYA);
    await contentChanged();
    expect(await shown()).toMatchObject([{ slug: 'forages-kaya', title: 'Forages à Kaya', raisedCents: 0, donors: 0 }]);
    expect(await shown('en')).toMatchObject([{ title: 'Boreholes in Kaya', raisedCents: 0 }]);

    // Recorded, not yet announced: rendered pages keep the totals they had, as cached pages do. (On
    // PostgreSQL the instance also hears its own change notice, at a moment the test does not
    // control, and forgets them a second time.)
    const gift = randomUUID();
    await runtime().db.insertInto('donations').values(ledgerRow(gift, new Date().toISOString(), { campaign_id: kaya.id, amount_minor: 2500, eur_cents: 2500, donor_email: 'awa@example.org' })).execute();
    if (dialect === 'sqlite') expect(await shown()).toMatchObject([{ raisedCents: 0, donors: 0 }]);

    // The donations' notice of a success runs contentChanged (at once, then at most once a minute,
    // ADR 014; the window is the process's, shared by both databases' runs here): it drops them with
    // the cached pages, and the next render reads the new totals.
    await contentChanged();
    expect(await shown()).toMatchObject([{ raisedCents: 2500, donors: 1 }]);
    expect(await shown('en')).toMatchObject([{ raisedCents: 2500, donors: 1 }]);

    // A refund is announced at once, whatever the window: through the ledger, whose event the campaign pages' subscriber hears.
    expect((await move(await donationDeps(), gift, 'refunded')).changed).toBe(true);
    expect(await shown()).toMatchObject([{ raisedCents: 0, donors: 0 }]);
  });

  it('forgets a campaign an editor ends, at the next render', async () => {
    const [open] = await shown();
    expect(open.slug).toBe('forages-kaya');
    const id = (await runtime().db.selectFrom('campaigns').select(['id', 'version']).where('slug', '=', 'forages-kaya').executeTakeFirstOrThrow());
    await saveCampaignOrThrow(runtime().db, { ...KAYA, status: 'ended' }, id.id, id.version);
    await contentChanged();
    expect(await shown()).toEqual([]);
  });
});
