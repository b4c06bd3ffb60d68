import { describe, expect, it } from 'vitest';
import { askedYear, DEFAULT_ACCOUNTING_SETTINGS as CHART, formSettings, isSiren, settingsFrom } from '~/domain/accounting/chart';
import { fiscalYear, fiscalYearName, fiscalYearOf } from '~/domain/fiscal-year/fiscal-year';
import { balanceOf, buildEntries, moveCents, receivingAccount, totalsOf, transfer, type GiftFact, type MoveFact, type PayoutFact } from '~/domain/accounting/entries';

/**
 * The accounting entries' builder (ADR 034), pure: each kind of fact gives the entries the chart
 * says, balanced, dated on the Paris day, numbered in date order; what is not money is left out.
 */
const A = CHART.accounts;
const STRIPE = CHART.providers.stripe;
const PAYPAL = CHART.providers.paypal;

function gift(fields: Partial<GiftFact> = {}): GiftFact {
  return { id: 'g1', means: 'stripe', method: null, purpose: 'gift', ref: 'pi_1', amountMinor: 10000, currency: 'EUR', eurCents: 10000, succeededAt: '2026-03-10T10:00:00.000Z', reversal: null, deposit: null, ...fields };
}
function move(fields: Partial<MoveFact> = {}): MoveFact {
  return { provider: 'stripe', ref: 'txn_1', donationId: 'g1', kind: 'payment', grossMinor: 10000, feeMinor: 175, currency: 'EUR', occurredAt: '2026-03-10T10:00:01.000Z', ...fields };
}
function payout(fields: Partial<PayoutFact> = {}): PayoutFact {
  return { provider: 'stripe', ref: 'po_1', amountMinor: 9825, currency: 'EUR', status: 'paid', createdAt: '2026-03-12T08:00:00.000Z', arrivalAt: '2026-03-14T08:00:00.000Z', ...fields };
}
const build = (facts: { gifts?: GiftFact[]; moves?: MoveFact[]; payouts?: PayoutFact[] }, first = '2026-01-01', last = '2026-12-31') => buildEntries(CHART, { gifts: facts.gifts ?? [], moves: facts.moves ?? [], payouts: facts.payouts ?? [] }, first, last);
const d = (account: { num: string; label: string }, cents: number) => ({ account, debit: cents, credit: 0 });
const c = (account: { num: string; label: string }, cents: number) => ({ account, debit: 0, credit: cents });
const NOTHING_SKIPPED = { noEuroValue: 0, foreignCurrency: 0, notMoney: { gifts: 0, cents: 0 } };

describe('entries of a fiscal year', () => {
  it('a card gift of 100 €: the provider’s balance debited, gifts credited, in the gifts journal on its Paris day', () => {
    expect(build({ gifts: [gift()] })).toEqual({
      entries: [{ num: 1, journal: 'gifts', date: '2026-03-10', piece: 'pi_1', label: 'Don, Carte (Stripe)', lines: [d(STRIPE, 10000), c(A.gifts, 10000)] }],
      skipped: NOTHING_SKIPPED,
    });
  });

  it('the fee a provider kept: bank fees debited, its balance credited, in the bank journal; given back, the other way', () => {
    const { entries } = build({ gifts: [gift()], moves: [move(), move({ ref: 'txn_2', kind: 'refund', grossMinor: -10000, feeMinor: -175, occurredAt: '2026-04-01T10:00:00.000Z' })] });
    expect(entries[1]).toEqual({ num: 2, journal: 'bank', date: '2026-03-10', piece: 'txn_1', label: 'Frais Stripe (payment)', lines: [d(A.fees, 175), c(STRIPE, 175)] });
    expect(entries[2]).toEqual({ num: 3, journal: 'bank', date: '2026-04-01', piece: 'txn_2', label: 'Frais Stripe (refund)', lines: [d(STRIPE, 175), c(A.fees, 175)] });
    expect(entries).toHaveLength(3);
  });

  it('a payout: out of the provider’s balance into internal transfers when sent, from them into the bank when paid', () => {
    const { entries } = build({ payouts: [payout()] });
    expect(entries).toEqual([
      { num: 1, journal: 'bank', date: '2026-03-12', piece: 'po_1', label: 'Versement Stripe émis', lines: [d(A.transfers, 9825), c(STRIPE, 9825)] },
      { num: 2, journal: 'bank', date: '2026-03-14', piece: 'po_1', label: 'Versement Stripe reçu en banque', lines: [d(A.bank, 9825), c(A.transfers, 9825)] },
    ]);
    expect(build({ payouts: [payout({ status: 'in_transit' })] }).entries.map((e) => e.label)).toEqual(['Versement Stripe émis']);
    expect(build({ payouts: [payout({ arrivalAt: null })] }).entries).toHaveLength(1);
    for (const status of ['pending', 'failed', 'canceled']) expect(build({ payouts: [payout({ status })] }).entries).toEqual([]);
    // A negative payout (the balance owed money) moves the other way.
    expect(build({ payouts: [payout({ amountMinor: -500, status: 'in_transit' })] }).entries[0].lines).toEqual([d(STRIPE, 500), c(A.transfers, 500)]);
  });

  it('a payout in another currency is left out and counted', () => {
    expect(build({ payouts: [payout({ currency: 'USD' })] })).toEqual({ entries: [], skipped: { ...NOTHING_SKIPPED, foreignCurrency: 1 } });
  });

  it('a refund reverses the gift on the day it was refunded; a lost dispute does too, named so', () => {
    const refunded = build({ gifts: [gift({ reversal: { kind: 'refund', at: '2026-05-02T09:00:00.000Z' } })] }).entries;
    expect(refunded[1]).toEqual({ num: 2, journal: 'gifts', date: '2026-05-02', piece: 'pi_1', label: 'Remboursement : don, Carte (Stripe)', lines: [d(A.gifts, 10000), c(STRIPE, 10000)] });
    const lost = build({ gifts: [gift({ reversal: { kind: 'dispute', at: '2026-06-02T09:00:00.000Z' } })], moves: [move({ ref: 'txn_d', kind: 'dispute', grossMinor: -10000, feeMinor: 1500, occurredAt: '2026-05-20T09:00:00.000Z' })] }).entries;
    expect(lost.map((e) => [e.date, e.label, e.lines])).toEqual([
      ['2026-03-10', 'Don, Carte (Stripe)', [d(STRIPE, 10000), c(A.gifts, 10000)]],
      ['2026-05-20', 'Frais Stripe (dispute)', [d(A.fees, 1500), c(STRIPE, 1500)]],
      ['2026-06-02', 'Contestation perdue : don, Carte (Stripe)', [d(A.gifts, 10000), c(STRIPE, 10000)]],
    ]);
  });

  it('a gift of one year refunded the next: the gift in the first, its reversal in the second', () => {
    const g = gift({ reversal: { kind: 'refund', at: '2027-01-05T09:00:00.000Z' } });
    expect(build({ gifts: [g] }).entries.map((e) => e.date)).toEqual(['2026-03-10']);
    expect(build({ gifts: [g] }, '2027-01-01', '2027-12-31').entries.map((e) => [e.num, e.date])).toEqual([[1, '2027-01-05']]);
  });

  it('dues go to dues; a SEPA debit is named as such', () => {
    expect(build({ gifts: [gift({ purpose: 'dues', method: 'sepa_debit' })] }).entries[0]).toMatchObject({ label: 'Cotisation, Prélèvement SEPA', lines: [d(STRIPE, 10000), c(A.dues, 10000)] });
    expect(build({ gifts: [gift({ purpose: 'other' })] }).entries[0]).toMatchObject({ label: 'Paiement, Carte (Stripe)', lines: [d(STRIPE, 10000), c(A.gifts, 10000)] });
  });

  it('money by hand: a cheque to cheques to deposit, then its batch to the bank on the deposit day; a transfer to the bank; cash to the till', () => {
    const cheque = (id: string, cents: number, batch: number | null) => gift({ id, means: 'cheque', ref: `CHQ-${id}`, amountMinor: cents, eurCents: cents, deposit: batch === null ? null : { batch, on: '2026-03-20' } });
    const { entries } = build({ gifts: [cheque('a', 5000, 3), cheque('b', 2500, 3), cheque('c', 1000, null), gift({ id: 't', means: 'transfer', ref: 'VIR' }), gift({ id: 'k', means: 'cash', ref: 'ESP' })] });
    expect(entries.map((e) => [e.num, e.journal, e.date, e.piece, e.label, e.lines])).toEqual([
      [1, 'gifts', '2026-03-10', 'CHQ-a', 'Don, Chèque', [d(A.cheques, 5000), c(A.gifts, 5000)]],
      [2, 'gifts', '2026-03-10', 'CHQ-b', 'Don, Chèque', [d(A.cheques, 2500), c(A.gifts, 2500)]],
      [3, 'gifts', '2026-03-10', 'CHQ-c', 'Don, Chèque', [d(A.cheques, 1000), c(A.gifts, 1000)]],
      [4, 'gifts', '2026-03-10', 'ESP', 'Don, Espèces', [d(A.cash, 10000), c(A.gifts, 10000)]],
      [5, 'gifts', '2026-03-10', 'VIR', 'Don, Virement', [d(A.bank, 10000), c(A.gifts, 10000)]],
      [6, 'gifts', '2026-03-20', 'REMISE-3', 'Remise de chèques n° 3', [d(A.bank, 7500), c(A.cheques, 7500)]],
    ]);
  });

  it('a deposit is only for cheques with a euro value', () => {
    const deposit = { batch: 4, on: '2026-03-20' };
    expect(build({ gifts: [gift({ means: 'transfer', deposit }), gift({ id: 'n', means: 'cheque', eurCents: null, deposit })] }).entries.map((e) => e.piece)).toEqual(['pi_1']);
  });

  it('gifts in kind and waived expenses are no entry: counted apart, within the year only', () => {
    const { entries, skipped } = build({ gifts: [gift({ means: 'in_kind', eurCents: 30000 }), gift({ means: 'waived_expenses', eurCents: 1200 }), gift({ means: 'in_kind', eurCents: 999, succeededAt: '2025-06-01T10:00:00.000Z' }), gift({ means: 'in_kind', eurCents: null })] });
    expect(entries).toEqual([]);
    expect(skipped).toEqual({ ...NOTHING_SKIPPED, notMoney: { gifts: 3, cents: 31200 } });
  });

  it('a payment without a euro value is counted, within the year only', () => {
    expect(build({ gifts: [gift({ eurCents: null }), gift({ eurCents: null, succeededAt: '2025-01-01T10:00:00.000Z' })] })).toEqual({ entries: [], skipped: { ...NOTHING_SKIPPED, noEuroValue: 1 } });
  });

  it('a gift in CFA francs: posted at its euro value, its own amount beside; its fee converted at its rate', () => {
    const xof = gift({ means: 'flutterwave', currency: 'XOF', amountMinor: 65596, eurCents: 10000 });
    const { entries, skipped } = build({ gifts: [xof], moves: [move({ provider: 'flutterwave', currency: 'XOF', feeMinor: 2296 }), move({ provider: 'flutterwave', ref: 'txn_x', donationId: 'other', currency: 'XOF', feeMinor: 100 })] });
    const fw = CHART.providers.flutterwave;
    expect(entries[0].lines).toEqual([
      { account: fw, debit: 10000, credit: 0, foreign: { minor: 65596, currency: 'XOF' } },
      { account: A.gifts, debit: 0, credit: 10000, foreign: { minor: 65596, currency: 'XOF' } },
    ]);
    expect(entries[1].lines).toEqual([d(A.fees, 350), c(fw, 350)]);
    expect(entries).toHaveLength(2);
    expect(skipped.foreignCurrency).toBe(1);
  });

  it('a movement of no gift of ours: its gross to the suspense account to classify, its fee as a fee; in another currency, counted', () => {
    const { entries, skipped } = build({ moves: [move({ provider: 'paypal', ref: 'adj', donationId: null, kind: 'other', grossMinor: -500, feeMinor: 0 }), move({ ref: 'usd', donationId: null, kind: 'other', grossMinor: 700, feeMinor: 30, currency: 'USD' })] });
    expect(entries).toEqual([{ num: 1, journal: 'bank', date: '2026-03-10', piece: 'adj', label: 'Mouvement PayPal sans don (other)', lines: [d(A.suspense, 500), c(PAYPAL, 500)] }]);
    expect(skipped.foreignCurrency).toBe(2);
    expect(build({ moves: [move({ donationId: null, grossMinor: 800, feeMinor: 0 })] }).entries[0].lines).toEqual([d(STRIPE, 800), c(A.suspense, 800)]);
  });

  it('facts outside the year count nothing and give no entry', () => {
    const late = { occurredAt: '2027-01-01T10:00:00.000Z' };
    const r = build({ moves: [move({ ...late, currency: 'USD', donationId: null })], payouts: [payout({ currency: 'USD', createdAt: '2027-02-01T10:00:00.000Z' })] });
    expect(r).toEqual({ entries: [], skipped: NOTHING_SKIPPED });
  });

  it('a Paris day, not UTC’s: 31 December 23:30 UTC is 1 January in Paris', () => {
    const g = gift({ succeededAt: '2025-12-31T23:30:00.000Z' });
    expect(build({ gifts: [g] }).entries.map((e) => e.date)).toEqual(['2026-01-01']);
    expect(build({ gifts: [g] }, '2025-01-01', '2025-12-31').entries).toEqual([]);
    expect(build({ gifts: [gift({ succeededAt: '2026-12-31T22:59:00.000Z' })] }).entries).toHaveLength(1);
  });

  it('no entry of nothing: a gift of 0 €, a fee of 0', () => {
    expect(build({ gifts: [gift({ eurCents: 0 })], moves: [move({ feeMinor: 0 })] }).entries).toEqual([]);
  });

  it('numbered in date order, then journal (gifts first), then piece, then label', () => {
    const { entries } = build({
      gifts: [gift({ id: 'z', ref: 'pi_z', succeededAt: '2026-02-01T10:00:00.000Z' }), gift({ id: 'a', ref: 'pi_a', succeededAt: '2026-02-01T11:00:00.000Z' }), gift({ id: 'e', ref: 'pi_e', succeededAt: '2026-01-15T10:00:00.000Z' })],
      moves: [move({ donationId: 'z', ref: 'txn_9', occurredAt: '2026-02-01T12:00:00.000Z' })],
      payouts: [payout({ ref: 'pi_a', status: 'in_transit', createdAt: '2026-02-01T09:00:00.000Z' })],
    });
    expect(entries.map((e) => [e.num, e.piece])).toEqual([[1, 'pi_e'], [2, 'pi_a'], [3, 'pi_z'], [4, 'pi_a'], [5, 'txn_9']]);
    const sameDay = build({ gifts: [gift({ ref: 'p', reversal: { kind: 'refund', at: '2026-03-10T12:00:00.000Z' } })] }).entries;
    expect(sameDay.map((e) => e.label)).toEqual(['Don, Carte (Stripe)', 'Remboursement : don, Carte (Stripe)']);
  });

  it('every entry balanced; totals and trial balance', () => {
    const { entries } = build({ gifts: [gift(), gift({ id: 'g2', ref: 'pi_2', purpose: 'dues', eurCents: 3000 })], moves: [move()], payouts: [payout()] });
    for (const e of entries) expect(e.lines.reduce((s, l) => s + l.debit - l.credit, 0)).toBe(0);
    expect(totalsOf(entries)).toEqual({ entries: 5, lines: 10, debit: 10000 + 3000 + 175 + 9825 + 9825, credit: 32825 });
    expect(balanceOf(entries)).toEqual([
      { num: '512', label: 'Banque', debit: 9825, credit: 0 },
      { num: '5171', label: 'Solde Stripe', debit: 13000, credit: 10000 },
      { num: '58', label: 'Virements internes', debit: 9825, credit: 9825 },
      { num: '627', label: 'Services bancaires et assimilés', debit: 175, credit: 0 },
      { num: '7541', label: 'Dons manuels', debit: 0, credit: 10000 },
      { num: '756', label: 'Cotisations', debit: 0, credit: 3000 },
    ]);
    expect(totalsOf([])).toEqual({ entries: 0, lines: 0, debit: 0, credit: 0 });
  });

  it('the pieces: transfer swaps sides for a negative amount, keeps a foreign amount positive; the receiving account by means', () => {
    expect(transfer(A.bank, A.gifts, -300, { minor: -1968, currency: 'XOF' })).toEqual([
      { account: A.gifts, debit: 300, credit: 0, foreign: { minor: 1968, currency: 'XOF' } },
      { account: A.bank, debit: 0, credit: 300, foreign: { minor: 1968, currency: 'XOF' } },
    ]);
    expect(transfer(A.bank, A.gifts, 300)[0]).not.toHaveProperty('foreign');
    expect(receivingAccount(CHART, 'paypal')).toBe(PAYPAL);
    expect(receivingAccount(CHART, 'transfer')).toBe(A.bank);
    expect(moveCents(175, 'EUR', undefined)).toBe(175);
    expect(moveCents(175, 'USD', undefined)).toBeNull();
    expect(moveCents(100, 'USD', gift({ currency: 'USD', amountMinor: 1000, eurCents: 900 }))).toBe(90);
    expect(moveCents(100, 'USD', gift({ currency: 'GBP', amountMinor: 1000, eurCents: 900 }))).toBeNull();
    expect(moveCents(100, 'USD', gift({ currency: 'USD', amountMinor: 1000, eurCents: null }))).toBeNull();
    expect(moveCents(100, 'USD', gift({ currency: 'USD', amountMinor: 0, eurCents: 0 }))).toBeNull();
    expect(moveCents(1, 'USD', gift({ currency: 'USD', amountMinor: 3, eurCents: 2 }))).toBe(1);
  });
});

describe('chart and fiscal year', () => {
  it('the default chart follows ANC 2018-06, one 517x account per provider', () => {
    expect([A.gifts.num, A.dues.num, A.fees.num, A.bank.num, A.transfers.num, A.cheques.num, A.cash.num, A.suspense.num]).toEqual(['7541', '756', '627', '512', '58', '5112', '53', '471']);
    expect(Object.values(CHART.providers).map((a) => `${a.num} ${a.label}`)).toEqual(['5171 Solde Stripe', '5172 Solde PayPal', '5173 Solde CoinGate', '5174 Solde Flutterwave', '5175 Solde lien']);
    expect(CHART.journals).toEqual({ gifts: { code: 'DON', label: 'Dons et cotisations' }, bank: { code: 'BQ', label: 'Banque et prestataires' } });
  });

  it('a fiscal year by its opening year: January to December, or July to June', () => {
    expect(fiscalYear(1, 2026)).toEqual({ year: 2026, first: '2026-01-01', last: '2026-12-31' });
    expect(fiscalYear(7, 2026)).toEqual({ year: 2026, first: '2026-07-01', last: '2027-06-30' });
    expect(fiscalYear(3, 2027)).toEqual({ year: 2027, first: '2027-03-01', last: '2028-02-29' });
    expect(fiscalYearOf(7, '2026-06-30')).toBe(2025);
    expect(fiscalYearOf(7, '2026-07-01')).toBe(2026);
    expect(fiscalYearOf(1, '2026-01-01')).toBe(2026);
    expect(fiscalYearName(1, 2026)).toBe('2026');
    expect(fiscalYearName(7, 2026)).toBe('2026-2027');
  });

  it('the year asked in the address: absent is the current one; past ones from 2015; none after the current', () => {
    expect(askedYear(null, 1, '2026-11-29')).toBe(2026);
    expect(askedYear('', 7, '2026-06-29')).toBe(2025);
    expect(askedYear(' 2024 ', 1, '2026-11-29')).toBe(2024);
    expect(askedYear('2015', 1, '2026-11-29')).toBe(2015);
    for (const bad of ['2014', '2027', '20x6', '26', 'abcd']) expect(askedYear(bad, 1, '2026-11-29')).toBeNull();
    expect(askedYear('2026', 1, '2026-11-29')).toBe(2026);
  });

  it('a SIREN: nine digits and INSEE’s Luhn key', () => {
    expect(isSiren('732829320')).toBe(true);
    expect(isSiren('552100554')).toBe(true);
    expect(isSiren('732829321')).toBe(false);
    expect(isSiren('73282932')).toBe(false);
    expect(isSiren('7328293200')).toBe(false);
    expect(isSiren('W73282932')).toBe(false);
  });

  it('a stored document read back: what parses kept, the rest by default', () => {
    expect(settingsFrom(undefined)).toEqual(CHART);
    const s = settingsFrom({ siren: '732829320', fiscalStartMonth: 7, accounts: { gifts: { num: '754', label: 'Dons' } }, providers: { paypal: { num: '5180', label: 'PayPal' } }, journals: { gifts: { code: 'X', label: 'x' } } });
    expect(s).toEqual({ ...CHART, siren: '732829320', fiscalStartMonth: 7, accounts: { ...A, gifts: { num: '754', label: 'Dons' } }, providers: { ...CHART.providers, paypal: { num: '5180', label: 'PayPal' } } });
    expect(settingsFrom({ siren: '123', fiscalStartMonth: 13, accounts: 'x' })).toEqual(CHART);
  });

  it('the form’s dotted names, nested', () => {
    expect(formSettings([['siren', '1'], ['accounts.gifts.num', '754'], ['accounts.gifts.label', 'Dons'], ['accounts.dues.num', '756']])).toEqual({ siren: '1', accounts: { gifts: { num: '754', label: 'Dons' }, dues: { num: '756' } } });
  });
});
