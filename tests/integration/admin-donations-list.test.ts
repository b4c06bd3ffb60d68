import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '~/lib/runtime.server';
import { loader } from '~/routes/payments/admin-donations';
import { describeEachDialect } from '../support/db';
import { ledgerRow } from '../support/ledger-rows';
import { routeContext, sessionCookie } from '../support/routes';
import { startTestRuntime } from '../support/runtime';

const ORIGIN = 'https://fondation.example.org';

/** /admin/donations as an Admin reads it: where each monthly gift stands now (issue 15). */
describeEachDialect('the back office’s list of donations on %s', (dialect) => {
  let app: { stop: () => Promise<void> };
  let cookie = '';
  beforeAll(async () => {
    app = await startTestRuntime(dialect, 'admin-donations-list-secret-0123456789', { PUBLIC_URL: ORIGIN });
    cookie = await sessionCookie(db(), { id: 'u-admin', name: 'Awa Admin', email: 'awa@example.org', role: 'Admin' });
  });
  afterAll(async () => app?.stop());

  const list = async () => {
    const result = await loader({ request: new Request(`${ORIGIN}/admin/donations`, { headers: { Cookie: cookie } }), context: routeContext(), params: {} } as never);
    return (result as { donations: { id: string; frequency: string; giftState: string }[] }).donations;
  };

  describe('a monthly gift’s state beside its rows', () => {
    it('names a failed instalment’s gift, a paused and a stopped gift, and says nothing of a running one or a one-off gift', async () => {
      const at = '2026-11-01T10:00:00.000Z';
      const gifts = { sub_failing: 'past_due', sub_paused: 'paused', sub_ended: 'ended', sub_running: 'active' } as const;
      for (const [sub, status] of Object.entries(gifts)) {
        await db().insertInto('donations').values(ledgerRow(`first-${sub}`, at, { frequency: 'monthly', secondary_ref: sub, amount_minor: 1500, eur_cents: 1500 })).execute();
        await db().insertInto('monthly_gifts').values({ id: sub, provider: 'stripe', first_donation_id: `first-${sub}`, amount_minor: 1500, currency: 'EUR', status, updated_at: at }).execute();
      }
      await db().insertInto('donations').values(ledgerRow('failed-sub_failing', '2026-11-02T10:00:00.000Z', { status: 'failed', frequency: 'monthly', secondary_ref: 'sub_failing', provider_ref: 'in_1:failed', amount_minor: 1500, eur_cents: 1500 })).execute();
      // A monthly row whose gift the space never loaded yet (no monthly_gifts row): running, as far as we know.
      await db().insertInto('donations').values(ledgerRow('first-unseen', at, { frequency: 'monthly', secondary_ref: 'sub_unseen', amount_minor: 1000, eur_cents: 1000 })).execute();
      await db().insertInto('donations').values(ledgerRow('once', at, { amount_minor: 2000, eur_cents: 2000 })).execute();

      const state = Object.fromEntries((await list()).map((d) => [d.id, d.giftState]));
      expect(state).toEqual({
        'first-sub_failing': 'prélèvement en échec',
        'failed-sub_failing': 'prélèvement en échec',
        'first-sub_paused': 'en pause',
        'first-sub_ended': 'arrêté',
        'first-sub_running': '',
        'first-unseen': '',
        once: '',
      });
    });
  });
});
