import { RouterContextProvider } from 'react-router';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAttempt, findById, transition, type NewAttempt } from '~/domain/donations/ledger.server';
import { parisYear } from '~/lib/paris';
import { januaryRun, runAnnualStatements, startAnnualReceiptJob, type AnnualDeps } from '~/domain/receipts/jobs.server';
import { getReceiptSettings, saveReceiptSettings } from '~/domain/receipts/settings.server';
import { parseEnv } from '~/lib/env.server';
import { log } from '~/lib/log.server';
import { runtime } from '~/lib/runtime.server';
import { createSession } from '~/domain/users/sessions.server';
import { loader as csvLoader } from '~/routes/receipts/admin-register-csv';
import {
  cancelReceipt,
  getReceipt,
  giftGetsReceipt,
  issueAnnualStatements,
  issuedReceiptsFor,
  issueForGift,
  receiptContext,
  receiptNumber,
  receiptsOfDonation,
  type ReceiptContext,
} from '~/domain/receipts/register.server';
import { receiptsActive, type ReceiptSettings } from '~/domain/receipts/settings';
import { correctReceipt } from '~/domain/donations/ledger.server';
import { createTestDb, describeEachDialect, type TestDb } from '../support/db';
import { DONOR, ORGANISATION, setReceiptSettings } from '../support/receipts';
import { startTestRuntime } from '../support/runtime';

/**
 * The receipt register's own rules, on rows made through the ledger (no provider involved): which
 * gift gets a receipt, what it prints of the gift, cancelling and correcting by an Admin, the
 * annual statement's refusals and method line, and lookups over many gifts.
 */
const ADMIN = { id: null, name: 'Admin' };
/** The context the ledger hands the register, for these settings (no site logo). */
const contextOf = (s: ReceiptSettings): ReceiptContext => ({ settings: s, active: receiptsActive(s), organisation: s });
const YEAR = parisYear(new Date());

describe('receipt numbers and the gifts that get a receipt', () => {
  it('numbers with the prefix, or without one when it is empty', () => {
    expect(receiptNumber('RF', 2026, 123)).toBe('RF-2026-000123');
    expect(receiptNumber('', 2026, 7)).toBe('2026-000007');
  });

  const gift = { status: 'succeeded', verifiable: 1, eur_cents: 2500, tax_details: JSON.stringify(DONOR), frequency: 'once' };
  it('gives a receipt only to a confirmed, verified gift with a value in euros and the donor’s details', () => {
    expect(giftGetsReceipt(contextOf(ORGANISATION), gift)).toBe(true);
    expect(giftGetsReceipt(contextOf(ORGANISATION), { ...gift, status: 'pending' })).toBe(false);
    expect(giftGetsReceipt(contextOf(ORGANISATION), { ...gift, status: 'refunded' })).toBe(false);
    expect(giftGetsReceipt(contextOf(ORGANISATION), { ...gift, verifiable: 0 })).toBe(false);
    expect(giftGetsReceipt(contextOf(ORGANISATION), { ...gift, eur_cents: null })).toBe(false);
    expect(giftGetsReceipt(contextOf(ORGANISATION), { ...gift, eur_cents: 0 })).toBe(false);
    expect(giftGetsReceipt(contextOf(ORGANISATION), { ...gift, eur_cents: 1 })).toBe(true);
    expect(giftGetsReceipt(contextOf(ORGANISATION), { ...gift, tax_details: null })).toBe(false);
    expect(giftGetsReceipt(contextOf({ ...ORGANISATION, enabled: false }), gift)).toBe(false);
  });

  it('under the annual model, a monthly gift waits for the annual statement and a one-off gift still gets its own', () => {
    const annual = { ...ORGANISATION, model: 'annual_monthly' as const };
    expect(giftGetsReceipt(contextOf(annual), { ...gift, frequency: 'monthly' })).toBe(false);
    expect(giftGetsReceipt(contextOf(annual), gift)).toBe(true);
    expect(giftGetsReceipt(contextOf(ORGANISATION), { ...gift, frequency: 'monthly' })).toBe(true);
  });
});

describeEachDialect('the receipt register on %s', (dialect) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(dialect);
    await setReceiptSettings(t.db);
  });
  afterAll(async () => {
    await t?.destroy();
  });

  const attempt = (over: Partial<NewAttempt> = {}): NewAttempt => ({
    provider: 'stripe',
    amountMinor: 2500,
    currency: 'EUR',
    eurCents: 2500,
    frequency: 'once',
    language: 'fr',
    donorEmail: 'awa@example.org',
    taxDetails: JSON.stringify(DONOR),
    ...over,
  });
  /** A gift confirmed through the ledger, which issues its receipt in the same transaction. */
  async function confirmed(over: Partial<NewAttempt> = {}) {
    const d = await createAttempt(t.db, attempt(over));
    await transition(t.db, { id: d.id }, 'succeeded');
    return (await findById(t.db, d.id))!;
  }
  /** A monthly gift confirmed in `month` of `year`, left for the annual statement (its per-gift receipt cancelled). */
  async function monthlyOf(year: number, month: number, over: Partial<NewAttempt> = {}) {
    const d = await confirmed({ frequency: 'monthly', ...over });
    for (const r of await receiptsOfDonation(t.db, d.id)) await cancelReceipt(t.db, ADMIN, r.id, 'modèle annuel');
    await t.db.updateTable('donations').set({ succeeded_at: new Date(Date.UTC(year, month, 10)).toISOString() }).where('id', '=', d.id).execute();
    return d.id;
  }
  const counter = async () => (await t.db.selectFrom('receipt_counters').select('last').where('year', '=', YEAR).executeTakeFirst())?.last ?? 0;
  const auditOf = (action: string, target: string) =>
    t.db.selectFrom('audit_log').select(['user_name', 'details']).where('action', '=', action).where('target', '=', target).execute();

  it('prints the method of payment of each provider', async () => {
    const methods: Record<string, string> = {};
    for (const provider of ['stripe', 'paypal', 'coingate', 'flutterwave'] as const) {
      const d = await confirmed({ provider });
      methods[provider] = (await receiptsOfDonation(t.db, d.id))[0].method;
    }
    expect(methods).toEqual({ stripe: 'Carte bancaire', paypal: 'PayPal', coingate: 'Cryptomonnaie (CoinGate)', flutterwave: 'Mobile money (Flutterwave)' });
  });

  it('asked again for a gift that has its receipt, returns that receipt and takes no number', async () => {
    const d = await confirmed();
    const [first] = await receiptsOfDonation(t.db, d.id);
    const before = await counter();
    expect(await issueForGift(t.db, await receiptContext(t.db), d)).toEqual(first);
    expect(await counter()).toBe(before);
    expect(await receiptsOfDonation(t.db, d.id)).toHaveLength(1);
  });

  it('dates the receipt at the confirmation, not at the row’s last change', async () => {
    await setReceiptSettings(t.db, { enabled: false });
    const d = await confirmed();
    await setReceiptSettings(t.db);
    const paid = `${YEAR}-03-02T10:00:00.000Z`;
    await t.db.updateTable('donations').set({ succeeded_at: paid, updated_at: `${YEAR}-03-04T08:00:00.000Z` }).where('id', '=', d.id).execute();
    const receipt = await issueForGift(t.db, await receiptContext(t.db), (await findById(t.db, d.id))!);
    expect(receipt).toMatchObject({ paid_at: paid, issued_at: paid, year: YEAR });
  });

  it('finds the issued receipt of each gift among more gifts than one query can name, cancelled ones left out', async () => {
    const first = await confirmed();
    const last = await confirmed();
    const cancelled = await confirmed();
    const [c] = await receiptsOfDonation(t.db, cancelled.id);
    expect((await cancelReceipt(t.db, ADMIN, c.id, 'Erreur')).ok).toBe(true);
    const ids = Array.from({ length: 70_000 }, (_, i) => `no-such-gift-${i}`);
    ids[0] = first.id;
    ids[1000] = cancelled.id;
    ids[ids.length - 1] = last.id;
    const found = await issuedReceiptsFor(t.db, ids);
    const number = async (id: string) => (await receiptsOfDonation(t.db, id))[0].number;
    expect([...found.entries()].map(([id, r]) => [id, r.number]).sort()).toEqual([[first.id, await number(first.id)], [last.id, await number(last.id)]].sort());
    expect(await issuedReceiptsFor(t.db, [])).toEqual(new Map());
  });

  it('an Admin cancels a receipt with a reason (or "Annulé"), audited; it cannot be cancelled twice', async () => {
    const [a] = await receiptsOfDonation(t.db, (await confirmed()).id);
    const [b] = await receiptsOfDonation(t.db, (await confirmed()).id);
    const withReason = await cancelReceipt(t.db, ADMIN, a.id, 'Don en double');
    expect(withReason).toMatchObject({ ok: true, receipt: { id: a.id, status: 'cancelled', cancel_reason: 'Don en double' } });
    expect(await cancelReceipt(t.db, ADMIN, b.id, '')).toMatchObject({ ok: true, receipt: { status: 'cancelled', cancel_reason: 'Annulé' } });
    expect(await auditOf('receipt.cancel', a.number)).toEqual([{ user_name: 'Admin', details: JSON.stringify({ reason: 'Don en double' }) }]);
    const refused = { ok: false, error: 'Ce reçu est introuvable ou déjà annulé.' };
    expect(await cancelReceipt(t.db, ADMIN, a.id, 'encore')).toEqual(refused);
    expect(await cancelReceipt(t.db, ADMIN, 'no-such-receipt', 'x')).toEqual(refused);
    expect((await receiptsOfDonation(t.db, a.donation_id!))[0].cancel_reason).toBe('Don en double');
  });

  it('a correction is refused while receipts are off and leaves the receipt valid; its reason defaults and it is audited', async () => {
    const [old] = await receiptsOfDonation(t.db, (await confirmed()).id);
    const fixed = { ...DONOR, name: 'Awa Sow' };
    await setReceiptSettings(t.db, { enabled: false });
    expect(await correctReceipt(t.db, ADMIN, old.id, fixed, 'x')).toEqual({ ok: false, error: 'Les reçus sont désactivés ou les paramètres incomplets.' });
    await setReceiptSettings(t.db);
    expect((await receiptsOfDonation(t.db, old.donation_id!)).map((r) => r.status)).toEqual(['issued']);

    const result = await correctReceipt(t.db, ADMIN, old.id, fixed, '');
    if (!result.ok) throw new Error(result.error);
    const [cancelled] = (await receiptsOfDonation(t.db, old.donation_id!)).filter((r) => r.id === old.id);
    expect(cancelled).toMatchObject({ status: 'cancelled', cancel_reason: 'Informations corrigées' });
    expect(JSON.parse(result.receipt.donor)).toEqual(fixed);
    expect(await auditOf('receipt.correct', old.number)).toEqual([{ user_name: 'Admin', details: JSON.stringify({ replacedBy: result.receipt.number, reason: '' }) }]);
    expect(await correctReceipt(t.db, ADMIN, old.id, fixed, 'encore')).toEqual({ ok: false, error: 'Ce reçu est introuvable ou déjà annulé.' });
  });

  it('annual statements: none while receipts are off or under the per-gift model; one per donor whatever the case of the email, naming every method', async () => {
    const year = YEAR - 3;
    const monthly = (provider: NewAttempt['provider'], email: string, cents: number, month: number) => monthlyOf(year, month, { provider, donorEmail: email, eurCents: cents, amountMinor: cents });
    const ids = [await monthly('stripe', 'Mariama@Example.org', 1000, 1), await monthly('paypal', 'mariama@example.org', 1500, 2), await monthly('stripe', 'mariama@example.org', 500, 3)];
    const january = new Date(Date.UTC(year + 1, 0, 5));

    expect(await issueAnnualStatements(t.db, year, january)).toEqual([]);
    await setReceiptSettings(t.db, { model: 'annual_monthly', enabled: false });
    expect(await issueAnnualStatements(t.db, year, january)).toEqual([]);
    await setReceiptSettings(t.db, { model: 'annual_monthly' });
    const issued = await issueAnnualStatements(t.db, year, january);
    await setReceiptSettings(t.db);
    expect(issued).toHaveLength(1);
    expect(issued[0]).toMatchObject({ kind: 'annual', amount_cents: 3000, method: 'Carte bancaire, PayPal', donor_email: 'mariama@example.org' });
    expect(JSON.parse(issued[0].donation_ids)).toEqual(ids);
  });

  it('a refund cancels the annual receipt covering the gift and no other; while receipts are off it issues no correction, the next statement does', async () => {
    const year = YEAR - 5;
    const monthly = (email: string, cents: number, month: number) => monthlyOf(year, month, { donorEmail: email, eurCents: cents, amountMinor: cents });
    const mine = [await monthly('rembourse@example.org', 1000, 1), await monthly('rembourse@example.org', 2000, 2), await monthly('rembourse@example.org', 4000, 3)];
    const other = await monthly('autre@example.org', 1500, 1);
    const january = new Date(Date.UTC(year + 1, 0, 5));
    await setReceiptSettings(t.db, { model: 'annual_monthly' });
    const issued = await issueAnnualStatements(t.db, year, january);
    const annual = issued.find((r) => r.donor_email === 'rembourse@example.org')!;
    const others = issued.find((r) => r.donor_email === 'autre@example.org')!;

    await setReceiptSettings(t.db, { model: 'annual_monthly', enabled: false });
    const refund = await transition(t.db, { id: mine[1] }, 'refunded');
    expect(refund.cancelledReceipts).toEqual([{ ...annual, status: 'cancelled', cancelled_at: refund.donation!.updated_at, cancel_reason: 'Don remboursé' }]);
    expect(refund.reissuedReceipts).toEqual([]);
    expect((await getReceipt(t.db, others.id))?.status).toBe('issued');
    // Receipts back on: the statement of that year covers the gifts the cancelled receipt left, once.
    await setReceiptSettings(t.db, { model: 'annual_monthly' });
    const again = await issueAnnualStatements(t.db, year, january);
    await setReceiptSettings(t.db);
    expect(again.map((r) => [r.donor_email, r.amount_cents, JSON.parse(r.donation_ids)])).toEqual([['rembourse@example.org', 5000, [mine[0], mine[2]]]]);
    expect(again[0].replaces_id).toBeNull();
    expect((await findById(t.db, other))?.status).toBe('succeeded');
  });

  it('keeps the organisation’s settings under the key existing databases hold, refuses a stale save and audits a save', async () => {
    const current = await getReceiptSettings(t.db);
    const row = await t.db.selectFrom('settings').select(['value', 'version']).where('key', '=', 'receipts').executeTakeFirstOrThrow();
    expect({ ...JSON.parse(row.value), version: row.version }).toEqual(current);
    expect(await saveReceiptSettings(t.db, ADMIN, { ...ORGANISATION, city: 'Lyon' }, current.version - 1)).toBe('conflict');
    expect((await getReceiptSettings(t.db)).city).toBe('Paris');
    expect(await saveReceiptSettings(t.db, ADMIN, { ...ORGANISATION, enabled: false }, current.version)).toBe('ok');
    await setReceiptSettings(t.db);
    const entries = await t.db.selectFrom('audit_log').select(['target', 'details']).where('action', '=', 'receipts.settings').where('user_name', '=', 'Admin').execute();
    expect(entries).toEqual([{ target: 'Reçus fiscaux', details: JSON.stringify({ enabled: false }) }]);
  });

  describe('the annual run', () => {
    const deps = (): AnnualDeps => ({ db: t.db, env: parseEnv({}), publicUrl: 'https://dons.example.org' });
    const monthlyGift = (year: number, email: string) => monthlyOf(year, 5, { donorEmail: email });
    const annualOf = (email: string) => t.db.selectFrom('receipts').selectAll().where('kind', '=', 'annual').where('donor_email', '=', email).execute();
    afterEach(() => vi.restoreAllMocks());

    it('in January, issues the previous year’s annual receipts once, mails them, and says so in the log', async () => {
      const info = vi.spyOn(log, 'info');
      const year = YEAR - 8;
      await monthlyGift(year, 'janvier@example.org');
      await monthlyGift(year + 1, 'janvier-suivant@example.org');
      await setReceiptSettings(t.db, { model: 'annual_monthly' });
      try {
        const jan = (y: number, day: number) => new Date(Date.UTC(y, 0, day, 9));
        expect(await januaryRun(deps(), new Date(Date.UTC(year + 1, 1, 1)))).toBe(false);
        expect(await januaryRun(deps(), jan(year + 1, 10))).toBe(true);
        expect(info).toHaveBeenCalledWith('annual tax receipts issued', { year, count: 1 });
        const [receipt] = await annualOf('janvier@example.org');
        expect(receipt).toMatchObject({ year: year + 1, sent_at: expect.any(String) });
        expect(await annualOf('janvier-suivant@example.org')).toEqual([]);
        expect(await t.db.selectFrom('mail_outbox').select('subject').where('to', '=', 'janvier@example.org').where('subject', 'like', '%récapitulatif%').execute()).toHaveLength(1);
        // Claimed for that year: later in January (another instance, a restart), nothing runs again.
        expect(await januaryRun(deps(), jan(year + 1, 25))).toBe(false);
        // The next January is the next year's run.
        expect(await januaryRun(deps(), jan(year + 2, 3))).toBe(true);
        expect(await annualOf('janvier-suivant@example.org')).toHaveLength(1);
      } finally {
        await setReceiptSettings(t.db);
      }
    });

    it('mails the annual receipts issued earlier but never sent, and only those', async () => {
      const year = YEAR - 12;
      await monthlyGift(year, 'pas-envoye@example.org');
      await setReceiptSettings(t.db, { model: 'annual_monthly' });
      try {
        const [unsent] = await issueAnnualStatements(t.db, year, new Date(Date.UTC(year + 1, 0, 5)));
        expect(unsent.sent_at).toBeNull();
        const result = await runAnnualStatements(deps(), year);
        expect(result).toEqual({ issued: [], mailed: 1 });
        expect((await annualOf('pas-envoye@example.org'))[0].sent_at).not.toBeNull();
        expect(await runAnnualStatements(deps(), year)).toEqual({ issued: [], mailed: 0 });
      } finally {
        await setReceiptSettings(t.db);
      }
    });

    it('runs the January run a minute after the server starts', async () => {
      const now = Date.UTC(YEAR - 20, 0, 10, 9);
      vi.useFakeTimers({ now, toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
      const stop = startAnnualReceiptJob(async () => deps());
      try {
        await vi.advanceTimersByTimeAsync(60_000);
        await vi.waitFor(async () => expect(await t.db.selectFrom('rate_limits').select('key').where('key', '=', `job:receipts-annual-${YEAR - 21}`).execute()).toHaveLength(1));
        // The year is claimed: run again the same month, it does nothing.
        expect(await januaryRun(deps(), new Date(now))).toBe(false);
      } finally {
        stop();
        vi.useRealTimers();
      }
    });

    it('stopped before its first minute, it never runs', async () => {
      vi.useFakeTimers();
      let asked = 0;
      const stop = startAnnualReceiptJob(async () => {
        asked++;
        return deps();
      });
      try {
        await vi.advanceTimersByTimeAsync(30_000);
        stop();
        await vi.advanceTimersByTimeAsync(7 * 3_600_000);
        expect(asked).toBe(0);
      } finally {
        vi.useRealTimers();
      }
    });

    it('is checked a minute after start, then every six hours, until stopped; a failure is logged', async () => {
      vi.useFakeTimers();
      const warn = vi.spyOn(log, 'warn').mockImplementation(() => undefined);
      let asked = 0;
      const stop = startAnnualReceiptJob(async () => {
        asked++;
        throw new Error('base indisponible');
      });
      try {
        await vi.advanceTimersByTimeAsync(59_000);
        expect(asked).toBe(0);
        await vi.advanceTimersByTimeAsync(1_000);
        expect(asked).toBe(1);
        expect(warn).toHaveBeenCalledWith('annual tax receipts failed', { error: 'base indisponible' });
        await vi.advanceTimersByTimeAsync(6 * 3_600_000 - 60_000 - 1);
        expect(asked).toBe(1);
        await vi.advanceTimersByTimeAsync(1);
        expect(asked).toBe(2);
        stop();
        await vi.advanceTimersByTimeAsync(24 * 3_600_000);
        expect(asked).toBe(2);
      } finally {
        stop();
        vi.useRealTimers();
      }
    });
  });
});

/** The register's CSV export, through its route as React Router calls it, on a running app. */
describeEachDialect('the register’s CSV on %s', (dialect) => {
  let app: { stop: () => Promise<void> } | undefined;
  let cookie = '';
  const db = () => runtime().db;
  beforeAll(async () => {
    app = await startTestRuntime(dialect, 'register-csv-'.padEnd(48, 'c'));
    const now = new Date().toISOString();
    await db().insertInto('users').values({ id: 'u-alice', name: 'Alice', email: 'alice@example.org', role: 'Admin', password_hash: 'x', version: 1, created_at: now, updated_at: now }).execute();
    cookie = `__session=${(await createSession(db(), 'u-alice')).token}`;
    await setReceiptSettings(db());
  });
  afterAll(() => app?.stop());

  it('dates each receipt on the French calendar, like its PDF and its number: 00:30 on 1 January in Paris is the new year', async () => {
    const d = await createAttempt(db(), { provider: 'paypal', amountMinor: 2500, currency: 'EUR', eurCents: 2500, frequency: 'once', language: 'fr', donorEmail: 'awa@example.org', taxDetails: JSON.stringify(DONOR) });
    const { receipt } = await transition(db(), { id: d.id }, 'succeeded');
    // Confirmed at 23:30 UTC on 31 December 2030: already 1 January 2031 in Paris.
    await db().updateTable('receipts').set({ issued_at: '2030-12-31T23:30:00.000Z', paid_at: '2030-12-31T23:30:00.000Z', year: 2031 }).where('id', '=', receipt!.id).execute();
    const response = (await csvLoader({ request: new Request('https://fondation.example.org/admin/receipts/export.csv?year=2031', { headers: { Cookie: cookie } }), context: new RouterContextProvider(), params: {} } as never)) as Response;
    expect(response.headers.get('Content-Disposition')).toBe('attachment; filename="recus-fiscaux-2031.csv"');
    const [, line, total, ...natures] = (await response.text()).split('\r\n');
    expect(line).toBe(`"${receipt!.number}";"Don";"2031-01-01";"2031-01-01";"Awa Diallo";"";"";"3 rue des Lilas";"75011";"Paris";"France";"awa@example.org";"25.00";"PayPal";"émis";"";"";"Numéraire";""`);
    expect(total).toBe('"Total des reçus émis";"1";"";"";"";"";"";"";"";"";"";"";"25.00";"";"";"";"";"";""');
    // Money apart from goods and waived expenses (ADR 030).
    expect(natures.filter(Boolean)).toEqual([
      '"dont numéraire";"1";"";"";"";"";"";"";"";"";"";"";"25.00";"";"";"";"";"Numéraire";""',
      '"dont en nature";"0";"";"";"";"";"";"";"";"";"";"";"0.00";"";"";"";"";"En nature";""',
      '"dont abandon de frais";"0";"";"";"";"";"";"";"";"";"";"";"0.00";"";"";"";"";"Abandon de frais";""',
    ]);
  });
});
