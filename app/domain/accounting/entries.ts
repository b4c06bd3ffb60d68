import { staffMeansLabel } from '~/domain/means/means';
import { NON_MONEY_MEANS, PROVIDER_TITLES, PROVIDERS, type PaymentMeans, type ProviderName } from '~/domain/means/providers/names';
import { parisDay } from '~/lib/paris';
import { JOURNAL_KEYS, type Account, type AccountingSettings, type JournalKey } from './chart';

/**
 * The journal entries of a fiscal year (ADR 034), worked out from the ledger's facts by pure
 * functions: no database here (export.server.ts reads the facts). Every entry is balanced (its
 * debits equal its credits) and posts euro cents, integers, never negative on a side.
 *
 * What is an entry: a gift or dues received in money (on the day it succeeded), its reversal (a
 * refund, or a dispute lost), what a provider kept on a movement (its fee), a payout leaving a
 * provider's balance and reaching the bank, a batch of cheques deposited. What is not: a gift in
 * kind or a waived expense (no money moved: they are counted apart), a payment that never
 * succeeded, a dispute still open or won (the money stayed ours).
 */

/** A payment of the ledger that succeeded once (it may have been refunded since). */
export interface GiftFact {
  id: string;
  means: PaymentMeans;
  /** The provider's payment method ('sepa_debit'…), which names the means in the entry's label; null when none. */
  method: string | null;
  /** 'gift' | 'dues' */
  purpose: string;
  /** The reference the entry's piece carries (the provider's, or a cheque's number). */
  ref: string;
  amountMinor: number;
  currency: string;
  /** The euro value the ledger keeps (null: unknown, the gift is left out and counted). */
  eurCents: number | null;
  succeededAt: string;
  /** How and when it was taken back, when it was. */
  reversal: { kind: 'refund' | 'dispute'; at: string } | null;
  /** A cheque's deposit: its batch's number and Paris day, once deposited. */
  deposit: { batch: number; on: string } | null;
}

/** One movement of a provider's balance (provider_balance_moves). */
export interface MoveFact {
  provider: ProviderName;
  ref: string;
  donationId: string | null;
  kind: string;
  grossMinor: number;
  feeMinor: number;
  currency: string;
  occurredAt: string;
}

/** A provider's payout to the bank (provider_payouts). */
export interface PayoutFact {
  provider: ProviderName;
  ref: string;
  amountMinor: number;
  currency: string;
  status: string;
  createdAt: string;
  arrivalAt: string | null;
}

export interface EntryLine {
  account: Account;
  debit: number;
  credit: number;
  /** The amount in the payment's own currency when it is not the euro (FEC's Montantdevise, Idevise). */
  foreign?: { minor: number; currency: string };
}

export interface Entry {
  journal: JournalKey;
  /** Paris day, AAAA-MM-JJ. */
  date: string;
  piece: string;
  label: string;
  lines: EntryLine[];
}

/** What was left out and why: counted on the screen so nothing disappears silently. */
export interface Skipped {
  /** Payments with no euro value in the ledger. */
  noEuroValue: number;
  /** Fees and payouts in a currency with no euro value to convert with. */
  foreignCurrency: number;
  /** Gifts in kind and waived expenses: counted, never posted. */
  notMoney: { gifts: number; cents: number };
}

const NOT_MONEY: readonly string[] = NON_MONEY_MEANS;
const isProvider = (m: string): m is ProviderName => (PROVIDERS as readonly string[]).includes(m);

/** The treasury account a payment's money lands on: the provider's balance, or by hand the bank, the cheques to deposit, the till. */
export function receivingAccount(chart: AccountingSettings, means: PaymentMeans): Account {
  if (isProvider(means)) return chart.providers[means];
  if (means === 'cheque') return chart.accounts.cheques;
  if (means === 'cash') return chart.accounts.cash;
  return chart.accounts.bank;
}

/** Two lines moving `cents` from the credited account to the debited one (a negative amount swaps them). */
export function transfer(debited: Account, credited: Account, cents: number, foreign?: EntryLine['foreign']): EntryLine[] {
  const [to, from] = cents < 0 ? [credited, debited] : [debited, credited];
  const amount = Math.abs(cents);
  const f = foreign && { minor: Math.abs(foreign.minor), currency: foreign.currency };
  return [
    { account: to, debit: amount, credit: 0, ...(f && { foreign: f }) },
    { account: from, debit: 0, credit: amount, ...(f && { foreign: f }) },
  ];
}

const PURPOSE_LABELS: Record<string, string> = { gift: 'Don', dues: 'Cotisation' };

function giftEntries(chart: AccountingSettings, g: GiftFact): Entry[] {
  const income = g.purpose === 'dues' ? chart.accounts.dues : chart.accounts.gifts;
  const cash = receivingAccount(chart, g.means);
  const cents = g.eurCents ?? 0;
  const foreign = g.currency === 'EUR' ? undefined : { minor: g.amountMinor, currency: g.currency };
  const what = PURPOSE_LABELS[g.purpose] ?? 'Paiement';
  const entries: Entry[] = [{ journal: 'gifts', date: parisDay(g.succeededAt), piece: g.ref, label: `${what}, ${staffMeansLabel(g.means, g.method)}`, lines: transfer(cash, income, cents, foreign) }];
  if (g.reversal) {
    const why = g.reversal.kind === 'dispute' ? 'Contestation perdue' : 'Remboursement';
    entries.push({ journal: 'gifts', date: parisDay(g.reversal.at), piece: g.ref, label: `${why} : ${what.toLowerCase()}, ${staffMeansLabel(g.means, g.method)}`, lines: transfer(income, cash, cents, foreign) });
  }
  return entries;
}

/** A movement's amount in euro cents: as is in euros, else at its gift's own rate; null when neither. */
export function moveCents(minor: number, currency: string, gift: GiftFact | undefined): number | null {
  if (currency === 'EUR') return minor;
  if (!gift || gift.currency !== currency || gift.eurCents === null || gift.amountMinor === 0) return null;
  return Math.round((minor * gift.eurCents) / gift.amountMinor);
}

/** A movement's fee (kept: a charge; given back: negative), and for a movement of no gift of ours its gross, to classify. */
function moveEntries(chart: AccountingSettings, m: MoveFact, gift: GiftFact | undefined, skipped: Skipped): Entry[] {
  const balance = chart.providers[m.provider];
  const entries: Entry[] = [];
  const date = parisDay(m.occurredAt);
  if (m.feeMinor !== 0) {
    const fee = moveCents(m.feeMinor, m.currency, gift);
    if (fee === null) skipped.foreignCurrency++;
    else entries.push({ journal: 'bank', date, piece: m.ref, label: `Frais ${PROVIDER_TITLES[m.provider]} (${m.kind})`, lines: transfer(chart.accounts.fees, balance, fee) });
  }
  if (m.donationId === null && m.grossMinor !== 0) {
    const gross = moveCents(m.grossMinor, m.currency, undefined);
    if (gross === null) skipped.foreignCurrency++;
    else entries.push({ journal: 'bank', date, piece: m.ref, label: `Mouvement ${PROVIDER_TITLES[m.provider]} sans don (${m.kind})`, lines: transfer(balance, chart.accounts.suspense, gross) });
  }
  return entries;
}

/** A payout: it leaves the provider's balance when sent (to 58), and reaches the bank when paid (from 58). */
const SENT = ['in_transit', 'paid'];
function payoutEntries(chart: AccountingSettings, p: PayoutFact, skipped: Skipped): Entry[] {
  if (!SENT.includes(p.status)) return [];
  if (p.currency !== 'EUR') {
    skipped.foreignCurrency++;
    return [];
  }
  const { transfers, bank } = chart.accounts;
  const entries: Entry[] = [{ journal: 'bank', date: parisDay(p.createdAt), piece: p.ref, label: `Versement ${PROVIDER_TITLES[p.provider]} émis`, lines: transfer(transfers, chart.providers[p.provider], p.amountMinor) }];
  if (p.status === 'paid' && p.arrivalAt) entries.push({ journal: 'bank', date: parisDay(p.arrivalAt), piece: p.ref, label: `Versement ${PROVIDER_TITLES[p.provider]} reçu en banque`, lines: transfer(bank, transfers, p.amountMinor) });
  return entries;
}

/** A batch's cheques deposited at the bank: one entry per batch, the day it was deposited. */
function depositEntries(chart: AccountingSettings, gifts: readonly GiftFact[]): Entry[] {
  const batches = new Map<number, { on: string; cents: number }>();
  for (const g of gifts) {
    if (g.means !== 'cheque' || !g.deposit || g.eurCents === null) continue;
    const b = batches.get(g.deposit.batch) ?? { on: g.deposit.on, cents: 0 };
    b.cents += g.eurCents;
    batches.set(g.deposit.batch, b);
  }
  return [...batches].map(([batch, b]) => ({ journal: 'gifts' as const, date: b.on, piece: `REMISE-${batch}`, label: `Remise de chèques n° ${batch}`, lines: transfer(chart.accounts.bank, chart.accounts.cheques, b.cents) }));
}

/** An entry numbered in its file (the FEC's EcritureNum: 1, 2, 3… in date order). */
export interface NumberedEntry extends Entry {
  num: number;
}

/** What a fiscal year's file holds: its entries numbered from 1, and what was left out of it. */
export interface YearEntries {
  entries: NumberedEntry[];
  skipped: Skipped;
}

/**
 * The entries the facts give within the Paris days [first, last], in date order (then journal: gifts before the bank's,
 * then piece, so the same facts always give the same numbering), numbered from 1, and what was
 * left out of those days. Facts of other days may be passed (a gift refunded this year, a cheque
 * deposited this year): only what falls within the days counts.
 */
export function buildEntries(chart: AccountingSettings, facts: { gifts: readonly GiftFact[]; moves: readonly MoveFact[]; payouts: readonly PayoutFact[] }, first: string, last: string): YearEntries {
  const within = (at: string) => {
    const day = parisDay(at);
    return day >= first && day <= last;
  };
  const skipped: Skipped = { noEuroValue: 0, foreignCurrency: 0, notMoney: { gifts: 0, cents: 0 } };
  const money: GiftFact[] = [];
  for (const g of facts.gifts) {
    const counts = within(g.succeededAt);
    if (NOT_MONEY.includes(g.means)) {
      if (counts) {
        skipped.notMoney.gifts++;
        skipped.notMoney.cents += g.eurCents ?? 0;
      }
    } else if (g.eurCents === null) skipped.noEuroValue += counts ? 1 : 0;
    else money.push(g);
  }
  const byId = new Map(money.map((g) => [g.id, g]));
  const outside: Skipped = { ...skipped, foreignCurrency: 0 };
  const entries = [
    ...money.flatMap((g) => giftEntries(chart, g)),
    ...depositEntries(chart, money),
    ...facts.moves.flatMap((m) => moveEntries(chart, m, m.donationId === null ? undefined : byId.get(m.donationId), within(m.occurredAt) ? skipped : outside)),
    ...facts.payouts.flatMap((p) => payoutEntries(chart, p, within(p.createdAt) ? skipped : outside)),
  ].filter((e) => e.date >= first && e.date <= last && e.lines[0].debit > 0);
  entries.sort((a, b) => a.date.localeCompare(b.date) || JOURNAL_KEYS.indexOf(a.journal) - JOURNAL_KEYS.indexOf(b.journal) || a.piece.localeCompare(b.piece) || a.label.localeCompare(b.label));
  return { entries: entries.map((e, i) => ({ ...e, num: i + 1 })), skipped };
}

/** The totals the screen shows: entries, lines, debits and credits (equal when every entry is balanced). */
export function totalsOf(entries: readonly Entry[]): { entries: number; lines: number; debit: number; credit: number } {
  const lines = entries.flatMap((e) => e.lines);
  return { entries: entries.length, lines: lines.length, debit: lines.reduce((s, l) => s + l.debit, 0), credit: lines.reduce((s, l) => s + l.credit, 0) };
}

/** The trial balance: each account's debits and credits over the entries, by account number. */
export function balanceOf(entries: readonly Entry[]): { num: string; label: string; debit: number; credit: number }[] {
  const accounts = new Map<string, { num: string; label: string; debit: number; credit: number }>();
  for (const l of entries.flatMap((e) => e.lines)) {
    const a = accounts.get(l.account.num) ?? { num: l.account.num, label: l.account.label, debit: 0, credit: 0 };
    a.debit += l.debit;
    a.credit += l.credit;
    accounts.set(a.num, a);
  }
  return [...accounts.values()].sort((a, b) => a.num.localeCompare(b.num));
}
