import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '~/lib/runtime.server';
import { loader } from '~/routes/payments/admin-donations';
import { loader as csvLoader } from '~/routes/payments/admin-donations-csv';
import { staffMeansLabel } from '~/domain/means/means';
import { STATUS_LABELS } from '~/domain/donations/status';
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

  const list = async (query = '') => {
    const result = await loader({ request: new Request(`${ORIGIN}/admin/donations${query}`, { headers: { Cookie: cookie } }), context: routeContext(), params: {} } as never);
    return (result as { donations: { id: string; frequency: string; giftState: string; means: string; status: string }[] }).donations;
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

  describe('SEPA debits (ADR 029)', () => {
    it('names a SEPA debit "Prélèvement SEPA" apart from Stripe’s cards, in the list, its filters and the CSV; a debit being processed has its status', async () => {
      const at = '2025-03-01T10:00:00.000Z';
      await db().insertInto('donations').values(ledgerRow('sepa-paid', at, { method: 'sepa_debit', account_last4: '3000', mandate_ref: 'THV0001', mandate_signed_at: at, amount_minor: 5000, eur_cents: 5000 })).execute();
      await db().insertInto('donations').values(ledgerRow('sepa-processing', at, { status: 'processing', method: 'sepa_debit', amount_minor: 3000, eur_cents: 3000 })).execute();
      await db().insertInto('donations').values(ledgerRow('card-said', at, { method: 'card' })).execute();
      await db().insertInto('donations').values(ledgerRow('card-unsaid', at)).execute();
      const ours = (rows: { id: string }[]) => rows.map((d) => d.id).filter((id) => ['sepa-paid', 'sepa-processing', 'card-said', 'card-unsaid'].includes(id)).sort();
      const all = await list('?period=all');
      expect(Object.fromEntries(all.filter((d) => ours([d]).length).map((d) => [d.id, [staffMeansLabel(d.means), STATUS_LABELS[d.status as keyof typeof STATUS_LABELS]]]))).toEqual({
        'sepa-paid': ['Prélèvement SEPA', 'Réussi'],
        'sepa-processing': ['Prélèvement SEPA', 'En cours de prélèvement'],
        'card-said': ['Carte (Stripe)', 'Réussi'],
        'card-unsaid': ['Carte (Stripe)', 'Réussi'],
      });
      expect(ours(await list('?period=all&provider=sepa'))).toEqual(['sepa-paid', 'sepa-processing']);
      expect(ours(await list('?period=all&provider=stripe'))).toEqual(['card-said', 'card-unsaid']);
      expect(ours(await list('?period=all&status=processing'))).toEqual(['sepa-processing']);
      const csv = await ((await csvLoader({ request: new Request(`${ORIGIN}/admin/donations/export.csv?period=all&provider=sepa`, { headers: { Cookie: cookie } }), context: routeContext(), params: {} } as never)) as Response).text();
      const lines = csv.split(/\r?\n/).filter((l) => l.includes('ref-sepa'));
      expect(lines).toHaveLength(2);
      expect(lines.every((l) => l.includes('Prélèvement SEPA'))).toBe(true);
      expect(lines.some((l) => l.includes('En cours de prélèvement'))).toBe(true);
    });
  });
});
