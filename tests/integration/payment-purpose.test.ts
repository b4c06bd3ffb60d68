import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ReceiptTable } from '~db/schema';
import { refreshOnGift } from '~/domain/campaigns/refresh.server';
import type { DonationDeps } from '~/domain/donations/context.server';
import { publish, type PaymentEvent } from '~/domain/donations/events.server';
import { createAttempt, findById, transition, type Donation } from '~/domain/donations/ledger.server';
import { announceCancelledReceipts } from '~/domain/donations/thanks.server';
import { parseEnv } from '~/lib/env.server';
import { createTestDb, describeEachDialect, type TestDb } from '../support/db';

/**
 * Issue 30: the gift's subscribers act on gifts only. A payment of another purpose (membership
 * dues) going through the same ledger and events gets no gift thank-you, no dedication notice,
 * no campaign refresh and no refund notice; the same payment as a gift gets each of them.
 */
describeEachDialect('payment events by purpose on %s', (dialect) => {
  let t: TestDb;
  let deps: DonationDeps;
  beforeAll(async () => {
    t = await createTestDb(dialect);
    deps = { db: t.db, settings: undefined as never, env: parseEnv({}), publicUrl: 'https://dons.example.org' };
    const now = new Date().toISOString();
    await t.db.insertInto('users').values({ id: 'u-admin', name: 'Awa Admin', email: 'admin@example.org', role: 'Admin', password_hash: 'x', version: 1, created_at: now, updated_at: now }).execute();
  });
  afterAll(async () => {
    await t?.destroy();
  });

  const mailsTo = async (to: string) => (await t.db.selectFrom('mail_outbox').select('subject').where('to', '=', to).execute()).map((m) => m.subject);

  /** A paid payment of `purpose`, dedicated, through the ledger and the registered subscribers. */
  const paid = async (purpose: string, who: string): Promise<Donation> => {
    const d = await createAttempt(t.db, {
      provider: 'stripe',
      purpose,
      amountMinor: 3000,
      currency: 'EUR',
      eurCents: 3000,
      frequency: 'once',
      language: 'fr',
      donorName: 'Awa',
      donorEmail: `${who}@example.org`,
      gift: { campaignId: null, dedication: { kind: 'honor', name: 'Mariam', message: null, email: `${who}.dedicated@example.org` } },
    });
    await publish(deps, await transition(t.db, { id: d.id }, 'succeeded'));
    return (await findById(t.db, d.id))!;
  };

  it('a paid dues payment gets no gift thank-you and no dedication notice; a paid gift gets both', async () => {
    const dues = await paid('dues', 'member');
    expect(dues).toMatchObject({ status: 'succeeded', purpose: 'dues', receipt_sent_at: null, dedication_sent_at: null });
    expect(await mailsTo('member@example.org')).toEqual([]);
    expect(await mailsTo('member.dedicated@example.org')).toEqual([]);

    const gift = await paid('gift', 'donor');
    expect(gift.receipt_sent_at).not.toBeNull();
    expect(await mailsTo('donor@example.org')).toEqual(['Reçu de votre don à la Fondation THV']);
    expect(await mailsTo('donor.dedicated@example.org')).toHaveLength(1);
  });

  const event = (purpose: string, type: PaymentEvent['type'], payment: Partial<Donation>, cancelled: ReceiptTable[] = []): PaymentEvent => ({
    type,
    purpose,
    payment: { campaign_id: null, ...payment } as Donation,
    receipt: null,
    cancelledReceipts: cancelled,
    reissuedReceipts: [],
  });

  it('a dues payment refreshes no campaign page; a designated gift does, on success and on refund', async () => {
    const changed: string[] = [];
    const run = refreshOnGift({ giftChanged: async (k) => void changed.push(k) });
    await run(deps, event('dues', 'payment.succeeded', { campaign_id: 'c1' }));
    await run(deps, event('dues', 'payment.refunded', { campaign_id: 'c1' }));
    expect(changed).toEqual([]);
    await run(deps, event('gift', 'payment.succeeded', { campaign_id: 'c1' }));
    await run(deps, event('gift', 'payment.refunded', { campaign_id: 'c1' }));
    await run(deps, event('gift', 'payment.succeeded', { campaign_id: null }));
    expect(changed).toEqual(['succeeded', 'refunded']);
  });

  it('a refunded dues payment sends no gift refund notice to the Admins; a refunded gift does', async () => {
    const receipt = { id: 'r1', number: 'THV-2026-00001', kind: 'single', donation_ids: '["d1"]', amount_cents: 3000, paid_at: '2026-03-01T10:00:00.000Z' } as ReceiptTable;
    await announceCancelledReceipts(deps, event('dues', 'payment.refunded', { id: 'd1' }, [receipt]));
    expect(await mailsTo('admin@example.org')).toEqual([]);
    await announceCancelledReceipts(deps, event('gift', 'payment.refunded', { id: 'd1' }, [receipt]));
    expect(await mailsTo('admin@example.org')).toHaveLength(1);
  });
});
