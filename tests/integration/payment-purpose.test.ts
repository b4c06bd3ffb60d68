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
 * no campaign refresh; the same payment as a gift gets each of them. Receipts cancelled are told
 * to the Admins whatever the purpose, in the words of what happened.
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

  it('the Admins are told of every receipt a refund or a voided entry cancelled, in the words of what happened', async () => {
    const receipt = (n: number) => ({ id: `r${n}`, number: `THV-2026-0000${n}`, kind: 'single', donation_ids: `["d${n}"]`, amount_cents: 3000, paid_at: '2026-03-01T10:00:00.000Z' }) as ReceiptTable;
    await announceCancelledReceipts(deps, event('gift', 'payment.refunded', { id: 'd1' }, []));
    expect(await mailsTo('admin@example.org')).toEqual([]);
    await announceCancelledReceipts(deps, event('gift', 'payment.refunded', { id: 'd1' }, [receipt(1)]));
    await announceCancelledReceipts(deps, event('dues', 'payment.refunded', { id: 'd2' }, [receipt(2)]));
    await announceCancelledReceipts(deps, event('dues', 'payment.cancelled', { id: 'd3' }, [receipt(3)]));
    expect((await mailsTo('admin@example.org')).sort()).toEqual([
      'Reçu fiscal annulé après annulation d’une saisie : THV-2026-00003',
      'Reçu fiscal annulé après remboursement : THV-2026-00001',
      'Reçu fiscal annulé après remboursement : THV-2026-00002',
    ]);
    const texts = await t.db.selectFrom('mail_outbox').select(['subject', 'text']).where('to', '=', 'admin@example.org').orderBy('subject').execute();
    expect(texts.map((t) => t.text.split(' : ')[0])).toEqual(['Un paiement saisi à la main a été annulé', 'Un don a été remboursé', 'Une cotisation a été remboursée']);
  });
});
