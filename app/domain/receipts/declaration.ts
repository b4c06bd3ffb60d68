/**
 * The yearly declaration of article 222 bis of the CGI (issue 42, ADR 035): for a fiscal year, the
 * number of receipts issued and the total they state, per regime (article 200, 238 bis, 978), gifts
 * in kind and waived expenses apart from money — from the receipts register, cancelled receipts
 * left out (a correction's new receipt counts, the one it replaced does not). Its deadline and the
 * dashboard's reminder window. Pure functions, shared with the browser: no server imports.
 */
import { REGIMES, REGIME_ARTICLE, storedRegime, type Regime } from './regimes';
import { toDecimalString } from '~/lib/currency';
import { euroFigures } from './words';

export interface Tally {
  count: number;
  cents: number;
}

/** One regime's receipts: money, goods and waived expenses ("en nature"), and both. */
export interface RegimeFigures {
  money: Tally;
  inKind: Tally;
  total: Tally;
}

export interface DeclarationFigures {
  regimes: Record<Regime, RegimeFigures>;
  total: Tally;
}

/** What a register row says for the declaration. */
export type DeclarationRow = { status: string; regime: string; nature: string; amount_cents: number };

const add = (t: Tally, cents: number) => {
  t.count += 1;
  t.cents += cents;
};

/** The figures of a year's receipts: only valid ones ('issued') count; anything not money ('nature', 'abandon_frais') is in kind. */
export function declarationFigures(rows: readonly DeclarationRow[]): DeclarationFigures {
  const tally = (): Tally => ({ count: 0, cents: 0 });
  const regimes = Object.fromEntries(REGIMES.map((r) => [r, { money: tally(), inKind: tally(), total: tally() }])) as Record<Regime, RegimeFigures>;
  const total = tally();
  for (const row of rows) {
    if (row.status !== 'issued') continue;
    const f = regimes[storedRegime(row.regime)];
    add(row.nature === 'numeraire' ? f.money : f.inKind, row.amount_cents);
    add(f.total, row.amount_cents);
    add(total, row.amount_cents);
  }
  return { regimes, total };
}

export const DECLARATION_CSV_HEADER = ['Exercice', 'Régime', 'Nombre de reçus', 'Montant total EUR', 'dont numéraire : nombre', 'dont numéraire : montant EUR', 'dont en nature : nombre', 'dont en nature : montant EUR'] as const;

/** The figures as the CSV's lines (lib/csv writes them): one per regime, then the total, the fiscal year named as given ("2025", "2025-2026"). Amounts in euros with a point, as the register's CSV. */
export function declarationLines(exercice: number | string, f: DeclarationFigures): string[][] {
  const line = (label: string, r: RegimeFigures) => [String(exercice), label, String(r.total.count), toDecimalString(r.total.cents, 'EUR'), String(r.money.count), toDecimalString(r.money.cents, 'EUR'), String(r.inKind.count), toDecimalString(r.inKind.cents, 'EUR')];
  const sum = (part: 'money' | 'inKind'): Tally => ({ count: REGIMES.reduce((n, r) => n + f.regimes[r][part].count, 0), cents: REGIMES.reduce((n, r) => n + f.regimes[r][part].cents, 0) });
  return [...REGIMES.map((r) => line(`Article ${REGIME_ARTICLE[r]} du CGI`, f.regimes[r])), line('Total', { money: sum('money'), inKind: sum('inKind'), total: f.total })];
}

/** A tally as the screen shows it: "1 234,50 € (3 reçus)". */
export const tallyLabel = (t: Tally) => `${euroFigures(t.cents)} (${t.count} reçu${t.count > 1 ? 's' : ''})`;
