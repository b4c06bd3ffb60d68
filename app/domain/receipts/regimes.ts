import type { TaxDetails } from './donor-details';

/**
 * The tax regime of a receipt (issue 42, ADR 035): the CGI article whose reduction it opens.
 * '200': an individual's income tax (CERFA n° 11580); '238bis': a company (CERFA n° 16216, since
 * 2022); '978': an individual's IFI, offered only when the foundation says it is eligible. Stored
 * on each receipt (`receipts.regime`, migration 027) from its donor snapshot; the 222 bis
 * declaration and the annual statements group by it. Shared with the browser: no server imports.
 */
export const REGIMES = ['200', '238bis', '978'] as const;
export type Regime = (typeof REGIMES)[number];

/** The article as printed ("article 238 bis du CGI"). */
export const REGIME_ARTICLE: Record<Regime, string> = { '200': '200', '238bis': '238 bis', '978': '978' };

/** The back office's words for each regime (register, declaration, CSV). */
export const REGIME_LABELS: Record<Regime, string> = {
  '200': 'Article 200 — particuliers (impôt sur le revenu)',
  '238bis': 'Article 238 bis — entreprises',
  '978': 'Article 978 — IFI',
};

export const isRegime = (v: unknown): v is Regime => (REGIMES as readonly unknown[]).includes(v);

/** The regime of a donor as the receipt snapshots it: a company is 238 bis; an individual giving under the IFI, 978; else 200. */
export function regimeOf(donor: Pick<TaxDetails, 'kind'> & { ifi?: boolean }): Regime {
  if (donor.kind === 'company') return '238bis';
  return donor.ifi === true ? '978' : '200';
}

/** A stored regime, read defensively (an unknown value reads as the income tax's). */
export const storedRegime = (v: string | null | undefined): Regime => (isRegime(v) ? v : '200');
