import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  claimReceipt,
  createAttempt,
  deleteStaleAttempts,
  findById,
  findByRef,
  findBySecondaryRef,
  listDonations,
  pendingAttempts,
  recordFromProvider,
  recordOffline,
  recordSucceeded,
  setProviderRef,
  succeededEurCentsSince,
  transition,
  voidOffline,
  type NewAttempt,
} from '~/domain/donations/ledger.server';
import { receiptContext } from '~/domain/receipts/register.server';
import { createTestDb, describeEachDialect, type TestDb } from '../support/db';
import { ledgerRow } from '../support/ledger-rows';
import { DONOR, setReceiptSettings } from '../support/receipts';

/** The donations ledger as its callers use it: rows written, moves allowed once, lists and sums (mutation testing, ADR 011). */
describeEachDialect('the donations ledger on %s', (dialect) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(dialect);
  });
  afterAll(() => t?.destroy());

  const attempt = (over: Partial<NewAttempt> = {}): NewAttempt => ({ provider: 'stripe', amountMinor: 2500, currency: 'EUR', eurCents: 2500, frequency: 'once', language: 'fr', ...over });
  const setCreatedAt = (id: string, at: string) => t.db.updateTable('donations').set({ created_at: at }).where('id', '=', id).execute();
  const activity = (id: string) =>
    t.db
      .selectFrom('audit_log')
      .select(['action', 'target', 'user_name', 'details'])
      .where('details', 'like', `%${id}%`)
      .orderBy('at')
      .execute();

  it('records an attempt as pending with what the form chose, before the provider is called', async () => {
    const plain = await createAttempt(t.db, attempt());
    expect(await findById(t.db, plain.id)).toEqual(plain);
    expect(plain).toEqual(ledgerRow(plain.id, plain.created_at, { provider_ref: `attempt:${plain.id}`, status: 'pending', amount_minor: 2500, eur_cents: 2500 }));
    const full = await createAttempt(
      t.db,
      attempt({
        provider: 'flutterwave',
        providerRef: 'tx-ref-1',
        verifiable: false,
        donorName: 'Awa',
        donorEmail: 'awa@example.org',
        callbackTokenHash: 'hash',
        taxDetails: JSON.stringify(DONOR),
        gift: { campaignId: 'camp-1', feeEurCents: 75, dedication: { kind: 'memory', name: 'Mariama', message: 'Pour toi', email: 'ami@example.org' } },
      }),
    );
    expect(await findByRef(t.db, 'flutterwave', 'tx-ref-1')).toMatchObject({
      id: full.id,
      verifiable: 0,
      donor_name: 'Awa',
      donor_email: 'awa@example.org',
      callback_token_hash: 'hash',
      tax_details: JSON.stringify(DONOR),
      campaign_id: 'camp-1',
      fee_eur_cents: 75,
      dedication_kind: 'memory',
      dedication_name: 'Mariama',
      dedication_message: 'Pour toi',
      dedication_email: 'ami@example.org',
    });
    // The provider's reference replaces the placeholder; a reference is looked up with its provider.
    await setProviderRef(t.db, plain.id, 'cs_ledger_1');
    expect((await findByRef(t.db, 'stripe', 'cs_ledger_1'))?.id).toBe(plain.id);
    expect(await findByRef(t.db, 'paypal', 'cs_ledger_1')).toBeUndefined();
    expect(await findByRef(t.db, 'flutterwave', 'tx-ref-2')).toBeUndefined();
  });

  it('moves a donation only along allowed transitions, once, with the donor and the reference it learnt', async () => {
    const d = await createAttempt(t.db, attempt({ donorEmail: 'form@example.org' }));
    expect(await transition(t.db, { id: d.id }, 'refunded')).toEqual({ donation: undefined, changed: false });
    const moved = await transition(t.db, { id: d.id }, 'succeeded', { donorName: 'Awa Diallo', donorEmail: '', secondaryRef: 'pi_1' });
    expect(moved).toMatchObject({ changed: true, receipt: null, cancelledReceipts: [] });
    expect(moved.donation).toMatchObject({ id: d.id, status: 'succeeded', donor_name: 'Awa Diallo', donor_email: 'form@example.org', secondary_ref: 'pi_1', error: null });
    expect(moved.donation?.succeeded_at).toBe(moved.donation?.updated_at);
    expect(await findById(t.db, d.id)).toEqual(moved.donation);
    // A replay changes nothing.
    expect(await transition(t.db, { id: d.id }, 'succeeded', { donorName: 'Autre' })).toEqual({ donation: undefined, changed: false });
    expect((await findById(t.db, d.id))?.donor_name).toBe('Awa Diallo');

    // By provider and reference; an error rides along, an absent one leaves it be.
    const f = await createAttempt(t.db, attempt({ provider: 'paypal', providerRef: 'order-ledger-1' }));
    expect((await transition(t.db, { provider: 'stripe', ref: 'order-ledger-1' }, 'failed')).changed).toBe(false);
    const failed = await transition(t.db, { provider: 'paypal', ref: 'order-ledger-1' }, 'failed', { error: 'carte refusée', secondaryRef: '' });
    expect(failed.donation).toMatchObject({ id: f.id, status: 'failed', error: 'carte refusée', secondary_ref: null, succeeded_at: null });
    const c = await createAttempt(t.db, attempt());
    await transition(t.db, { id: c.id }, 'cancelled', { error: 'abandon' });
    await transition(t.db, { id: c.id }, 'succeeded');
    expect(await findById(t.db, c.id)).toMatchObject({ status: 'succeeded', error: 'abandon' });
    await transition(t.db, { id: c.id }, 'refunded', { error: null });
    expect(await findById(t.db, c.id)).toMatchObject({ status: 'refunded', error: null });
  });

  it('issues the receipt with the confirmation, cancels it with the refund, and shows both in the activity', async () => {
    await setReceiptSettings(t.db);
    const d = await createAttempt(t.db, attempt({ amountMinor: 4250, eurCents: 4250, taxDetails: JSON.stringify(DONOR) }));
    const paid = await transition(t.db, { id: d.id }, 'succeeded');
    expect(paid.receipt).toMatchObject({ donation_id: d.id, status: 'issued', amount_cents: 4250 });
    expect([paid.cancelledReceipts, paid.reissuedReceipts]).toEqual([[], []]);
    const refunded = await transition(t.db, { id: d.id }, 'refunded');
    expect(refunded.receipt).toBeNull();
    expect(refunded.cancelledReceipts).toEqual([expect.objectContaining({ id: paid.receipt!.id, status: 'cancelled', cancel_reason: 'Don remboursé' })]);
    expect(await activity(d.id)).toEqual([
      { action: 'donation.succeeded', target: '42.50 EUR (stripe)', user_name: 'Paiement en ligne', details: JSON.stringify({ donation: d.id, frequency: 'once' }) },
      { action: 'donation.refunded', target: '42.50 EUR (stripe)', user_name: 'Paiement en ligne', details: JSON.stringify({ donation: d.id, frequency: 'once' }) },
    ]);
    // A failure is no activity.
    const f = await createAttempt(t.db, attempt());
    await transition(t.db, { id: f.id }, 'failed');
    expect(await activity(f.id)).toEqual([]);
  });

  it('numbers a receipt with the receipt context its caller read (the request’s), and prints that context', async () => {
    await setReceiptSettings(t.db);
    const read = await receiptContext(t.db);
    // The request read the settings before an Admin changed them: the receipt prints what the request read.
    const given = { ...read, organisation: { ...read.organisation, legalName: 'Fondation telle que lue', logoUrl: '/media/logo-lu.png' } };
    await setReceiptSettings(t.db, { legalName: 'Fondation modifiée depuis' });
    const d = await createAttempt(t.db, attempt({ taxDetails: JSON.stringify(DONOR) }));
    const paid = await transition(t.db, { id: d.id }, 'succeeded', {}, given);
    expect(JSON.parse(paid.receipt!.organisation)).toMatchObject({ legalName: 'Fondation telle que lue', logoUrl: '/media/logo-lu.png' });
    // A context with receipts off gives none, whatever the stored settings say.
    const off = await createAttempt(t.db, attempt({ taxDetails: JSON.stringify(DONOR) }));
    expect((await transition(t.db, { id: off.id }, 'succeeded', {}, { ...read, active: false })).receipt).toBeNull();
    // Without one, the ledger reads the settings as they are now.
    const now = await createAttempt(t.db, attempt({ taxDetails: JSON.stringify(DONOR) }));
    expect(JSON.parse((await transition(t.db, { id: now.id }, 'succeeded')).receipt!.organisation)).toMatchObject({ legalName: 'Fondation modifiée depuis' });
    const renewal = await recordSucceeded(t.db, { ...attempt({ taxDetails: JSON.stringify(DONOR) }), providerRef: 'in_ledger_ctx' }, given);
    expect(JSON.parse(renewal.receipt!.organisation)).toMatchObject({ legalName: 'Fondation telle que lue' });
  });

  it('records what a provider reports on its own once per reference, succeeded with its receipt or failed', async () => {
    const renewal = { ...attempt({ frequency: 'monthly', providerRef: 'in_ledger_1', secondaryRef: 'sub_ledger', donorEmail: 'm@example.org', donorName: 'M', taxDetails: JSON.stringify(DONOR), gift: { campaignId: 'camp-9' } }), providerRef: 'in_ledger_1' };
    const first = await recordSucceeded(t.db, renewal);
    expect(first.changed).toBe(true);
    expect(first.donation).toMatchObject({ status: 'succeeded', provider_ref: 'in_ledger_1', secondary_ref: 'sub_ledger', verifiable: 1, donor_email: 'm@example.org', donor_name: 'M', campaign_id: 'camp-9', frequency: 'monthly' });
    expect(first.donation?.succeeded_at).toBe(first.donation?.created_at);
    expect(first.receipt).toMatchObject({ donation_id: first.donation!.id, status: 'issued' });
    // Without a purpose said, a payment is a gift.
    expect(first.donation?.purpose).toBe('gift');
    expect(await activity(first.donation!.id)).toMatchObject([{ action: 'donation.succeeded', details: JSON.stringify({ donation: first.donation!.id, frequency: 'monthly' }) }]);
    expect(await recordSucceeded(t.db, renewal)).toEqual({ changed: false });
    expect(await listDonations(t.db, { campaignId: 'camp-9' })).toHaveLength(1);

    const unpaid = await recordFromProvider(t.db, { ...attempt({ frequency: 'monthly' }), providerRef: 'in_ledger_2' }, 'failed');
    expect(unpaid.donation).toMatchObject({ status: 'failed', succeeded_at: null, secondary_ref: null, donor_email: null, tax_details: null });
    expect(unpaid.receipt).toBeNull();
    expect(await activity(unpaid.donation!.id)).toEqual([]);
    // Another error than a second insert is not swallowed.
    await expect(recordFromProvider(t.db, { ...attempt({ frequency: 'monthly' }), currency: null as unknown as string, providerRef: 'in_ledger_3' }, 'failed')).rejects.toThrow();
  });

  it('records money received by hand once per form, takes it back once, and lets any other error through', async () => {
    const admin = { id: null, name: 'Admin' };
    const cheque = { amountMinor: 3000, currency: 'EUR', eurCents: 3000, frequency: 'once' as const, language: 'fr', purpose: 'dues', means: 'cheque' as const, token: 'ledger-form-1', receivedOn: '2026-03-02', reference: 'CHQ 0012', note: '' };
    const linked: string[] = [];
    const link = async (_trx: unknown, d: { id: string }) => void linked.push(d.id);
    const first = await recordOffline(t.db, admin, cheque, link);
    expect(first.donation).toMatchObject({ provider: 'cheque', purpose: 'dues', status: 'succeeded', secondary_ref: 'CHQ 0012', succeeded_at: '2026-03-02T12:00:00.000Z' });
    expect(linked).toEqual([first.donation!.id]);
    // The same form again, or under another means: nothing more.
    expect(await recordOffline(t.db, admin, cheque, link)).toEqual({ changed: false });
    expect(await recordOffline(t.db, admin, { ...cheque, means: 'cash' }, link)).toEqual({ changed: false });
    expect(linked).toHaveLength(1);
    await expect(recordOffline(t.db, admin, { ...cheque, token: 'ledger-form-2', currency: null as unknown as string }, link)).rejects.toThrow();
    // Taken back once; a second time finds nothing to move.
    expect((await voidOffline(t.db, admin, first.donation!.id, 'Chèque rejeté')).donation).toMatchObject({ status: 'cancelled', error: 'Chèque rejeté' });
    expect(await voidOffline(t.db, admin, first.donation!.id, 'Chèque rejeté')).toEqual({ changed: false });
  });

  it('finds the first gift of a subscription by its secondary reference', async () => {
    const older = await createAttempt(t.db, attempt({ frequency: 'monthly' }));
    const newer = await createAttempt(t.db, attempt({ frequency: 'monthly' }));
    for (const [d, at] of [[newer, '2026-02-01T00:00:00.000Z'], [older, '2026-01-01T00:00:00.000Z']] as const) {
      await setCreatedAt(d.id, at);
      await transition(t.db, { id: d.id }, 'succeeded', { secondaryRef: 'sub_first' });
    }
    expect((await findBySecondaryRef(t.db, 'stripe', 'sub_first'))?.id).toBe(older.id);
    expect(await findBySecondaryRef(t.db, 'paypal', 'sub_first')).toBeUndefined();
  });

  it('lets one caller send a receipt, once, and only for a succeeded gift', async () => {
    const d = await createAttempt(t.db, attempt());
    expect(await claimReceipt(t.db, d.id)).toBe(false);
    await transition(t.db, { id: d.id }, 'succeeded');
    expect(await Promise.all([claimReceipt(t.db, d.id), claimReceipt(t.db, d.id)])).toEqual(expect.arrayContaining([true, false]));
    expect(await claimReceipt(t.db, d.id)).toBe(false);
    expect((await findById(t.db, d.id))?.receipt_sent_at).not.toBeNull();
  });

  it('re-checks verifiable pending attempts the provider knows, created in the window, oldest first', async () => {
    const at = (minute: number) => `2030-05-01T10:${String(minute).padStart(2, '0')}:00.000Z`;
    const make = async (minute: number, over: Partial<NewAttempt> = {}) => {
      const d = await createAttempt(t.db, attempt({ providerRef: `cs_window_${minute}`, ...over }));
      await setCreatedAt(d.id, at(minute));
      return d.id;
    };
    const inWindow = [await make(20), await make(10)];
    const atStart = await make(5);
    await make(30); // at the window's end: not yet
    await make(4); // before it
    await make(15, { verifiable: false });
    const noRef = await createAttempt(t.db, attempt());
    await setCreatedAt(noRef.id, at(12));
    const done = await make(13);
    await transition(t.db, { id: done }, 'succeeded');
    expect((await pendingAttempts(t.db, at(30), at(5))).map((d) => d.id)).toEqual([atStart, inWindow[1], inWindow[0]]);
    expect((await pendingAttempts(t.db, at(30), at(5), 2)).map((d) => d.id)).toEqual([atStart, inWindow[1]]);
  });

  it('sums the euros given since an instant, refunds and other statuses left out', async () => {
    const since = new Date(Date.now() - 1000).toISOString();
    const before = await succeededEurCentsSince(t.db, since);
    const give = async (eurCents: number | null, to: 'succeeded' | 'failed') => {
      const d = await createAttempt(t.db, attempt({ eurCents }));
      await transition(t.db, { id: d.id }, to);
      return d.id;
    };
    await give(1000, 'succeeded');
    await give(250, 'succeeded');
    await give(null, 'succeeded');
    await give(9999, 'failed');
    const refunded = await give(5000, 'succeeded');
    await transition(t.db, { id: refunded }, 'refunded');
    expect(await succeededEurCentsSince(t.db, since)).toBe(before + 1250);
    expect(await succeededEurCentsSince(t.db, '2999-01-01T00:00:00.000Z')).toBe(0);
  });

  it('lists donations newest first, by period (start included, end excluded), provider, status and campaign', async () => {
    const ids: string[] = [];
    for (const [day, provider, campaignId] of [
      ['01', 'coingate', 'camp-list'],
      ['02', 'paypal', null],
      ['03', 'coingate', null],
    ] as const) {
      const d = await createAttempt(t.db, attempt({ provider, gift: { campaignId } }));
      await setCreatedAt(d.id, `2040-03-${day}T12:00:00.000Z`);
      ids.push(d.id);
    }
    await transition(t.db, { id: ids[2] }, 'failed');
    const list = async (f: Parameters<typeof listDonations>[1], limit?: number) => (await listDonations(t.db, f, limit)).map((d) => d.id);
    const march = { from: '2040-03-01T12:00:00.000Z', to: '2040-03-03T12:00:00.000Z' };
    expect(await list(march)).toEqual([ids[1], ids[0]]);
    expect(await list({ from: march.from })).toEqual([ids[2], ids[1], ids[0]]);
    expect(await list({ ...march, provider: 'coingate' })).toEqual([ids[0]]);
    expect(await list({ from: march.from, status: 'failed' })).toEqual([ids[2]]);
    expect(await list({ campaignId: 'camp-list' })).toEqual([ids[0]]);
    expect(await list({ from: march.from }, 2)).toEqual([ids[2], ids[1]]);
    expect((await list({})).length).toBeGreaterThan(3);
  });

  it('deletes the attempts never paid (pending or cancelled) created before the cutoff, and nothing else', async () => {
    const old = '2001-06-01T00:00:00.000Z';
    const made: Record<string, string> = {};
    for (const status of ['pending', 'cancelled', 'failed', 'succeeded'] as const) {
      const d = await createAttempt(t.db, attempt());
      if (status !== 'pending') await transition(t.db, { id: d.id }, status);
      await setCreatedAt(d.id, old);
      made[status] = d.id;
    }
    const recent = await createAttempt(t.db, attempt());
    expect(await deleteStaleAttempts(t.db, '2002-01-01T00:00:00.000Z')).toBe(2);
    expect(await findById(t.db, made.pending)).toBeUndefined();
    expect(await findById(t.db, made.cancelled)).toBeUndefined();
    for (const id of [made.failed, made.succeeded, recent.id]) expect(await findById(t.db, id)).toBeDefined();
  });
});
