import { z } from 'zod';
import { fiscalYearOf } from '~/domain/fiscal-year/fiscal-year';
import { PROVIDERS, PROVIDER_TITLES, type ProviderName } from '~/domain/means/providers/names';

/**
 * The accounting export's settings (ADR 034): the chart of accounts the journal entries are posted
 * to, the two journals, the fiscal year's first month and the SIREN the FEC file is named after.
 * Defaults from the French associations' chart (règlement ANC n° 2018-06). One settings document
 * (key 'accounting'), edited by an Admin on /admin/comptabilite/plan. Shared with the browser.
 */

/** An account of the chart: its number and its name as the FEC's CompteNum and CompteLib. */
export interface Account {
  num: string;
  label: string;
}

/** The accounts every entry is posted to, whatever the means. */
export const ACCOUNT_KEYS = ['gifts', 'dues', 'fees', 'bank', 'transfers', 'cheques', 'cash', 'suspense'] as const;
export type AccountKey = (typeof ACCOUNT_KEYS)[number];

/** What each account is for, as the chart's screen names it. */
export const ACCOUNT_ROLES: Record<AccountKey, string> = {
  gifts: 'Dons manuels du public',
  dues: 'Cotisations',
  fees: 'Frais des prestataires de paiement',
  bank: 'Banque (virements reçus, versements des prestataires)',
  transfers: 'Virements internes (versement en route vers la banque)',
  cheques: 'Chèques reçus',
  cash: 'Espèces reçues',
  suspense: 'Mouvements d’un prestataire sans don (à classer)',
};

export const JOURNAL_KEYS = ['gifts', 'bank'] as const;
export type JournalKey = (typeof JOURNAL_KEYS)[number];

export const JOURNAL_ROLES: Record<JournalKey, string> = {
  gifts: 'Dons, cotisations, remboursements et contestations',
  bank: 'Frais et versements des prestataires',
};

export interface Journal {
  code: string;
  label: string;
}

export interface AccountingSettings {
  /** 9 digits; '' takes the receipts' registration when it is a SIREN. */
  siren: string;
  /** 1 (January) to 12: the month the fiscal year opens. */
  fiscalStartMonth: number;
  journals: Record<JournalKey, Journal>;
  accounts: Record<AccountKey, Account>;
  /** One account per provider's balance (the money it holds for us until it pays it out). */
  providers: Record<ProviderName, Account>;
}

export const DEFAULT_ACCOUNTS: Record<AccountKey, Account> = {
  gifts: { num: '7541', label: 'Dons manuels' },
  dues: { num: '756', label: 'Cotisations' },
  fees: { num: '627', label: 'Services bancaires et assimilés' },
  bank: { num: '512', label: 'Banque' },
  transfers: { num: '58', label: 'Virements internes' },
  cheques: { num: '5112', label: 'Chèques à encaisser' },
  cash: { num: '53', label: 'Caisse' },
  suspense: { num: '471', label: 'Compte d’attente' },
};

/** 517 "Autres organismes financiers", one sub-account per provider in the ledger's order: 5171, 5172… */
export const DEFAULT_PROVIDER_ACCOUNTS = Object.fromEntries(PROVIDERS.map((p, i) => [p, { num: `517${i + 1}`, label: `Solde ${PROVIDER_TITLES[p]}` }])) as Record<ProviderName, Account>;

export const DEFAULT_ACCOUNTING_SETTINGS: AccountingSettings = {
  siren: '',
  fiscalStartMonth: 1,
  journals: { gifts: { code: 'DON', label: 'Dons et cotisations' }, bank: { code: 'BQ', label: 'Banque et prestataires' } },
  accounts: DEFAULT_ACCOUNTS,
  providers: DEFAULT_PROVIDER_ACCOUNTS,
};

/** A SIREN: nine digits whose Luhn sum is a multiple of ten (INSEE's key). */
export function isSiren(v: string): boolean {
  if (!/^\d{9}$/.test(v)) return false;
  let sum = 0;
  for (let i = 0; i < 9; i++) {
    const d = Number(v[8 - i]) * (i % 2 === 1 ? 2 : 1);
    sum += d > 9 ? d - 9 : d;
  }
  return sum % 10 === 0;
}

const label = z.string().trim().min(1, 'Un libellé.').max(80, '80 caractères au plus.').refine((v) => !/[|\t]/.test(v), 'Sans barre verticale ni tabulation.');
const account = z.object({
  num: z.string().trim().regex(/^[1-8]\d{1,9}$/, 'Un numéro de compte : 2 à 10 chiffres, le premier étant la classe (1 à 8).'),
  label,
});
const journal = z.object({ code: z.string().trim().toUpperCase().regex(/^[A-Z0-9]{1,6}$/, 'Un code de 1 à 6 lettres ou chiffres.'), label });

export const accountingSettingsSchema = z.object({
  siren: z
    .string()
    .transform((v) => v.replace(/\s+/g, ''))
    .refine((v) => v === '' || isSiren(v), 'Un SIREN : 9 chiffres dont la clé est juste (ou vide pour celui des reçus fiscaux).'),
  fiscalStartMonth: z.coerce.number().int('Un mois de 1 à 12.').min(1, 'Un mois de 1 à 12.').max(12, 'Un mois de 1 à 12.'),
  journals: z.object({ gifts: journal, bank: journal }).refine((j) => j.gifts.code !== j.bank.code, { message: 'Deux journaux différents.', path: ['bank', 'code'] }),
  accounts: z.object(Object.fromEntries(ACCOUNT_KEYS.map((k) => [k, account])) as Record<AccountKey, typeof account>),
  providers: z.object(Object.fromEntries(PROVIDERS.map((p) => [p, account])) as Record<ProviderName, typeof account>),
});

/** A stored document read back: each part that does not parse takes its default (a document from an older version). */
export function settingsFrom(value: unknown): AccountingSettings {
  const v = (value ?? {}) as Record<string, unknown>;
  const part = <T>(schema: z.ZodType<T>, raw: unknown, fallback: T): T => {
    const p = schema.safeParse(raw);
    return p.success ? p.data : fallback;
  };
  const s = accountingSettingsSchema.shape;
  return {
    siren: part(s.siren, v.siren, ''),
    fiscalStartMonth: part(s.fiscalStartMonth, v.fiscalStartMonth, 1),
    journals: part(s.journals, v.journals, DEFAULT_ACCOUNTING_SETTINGS.journals),
    accounts: { ...DEFAULT_ACCOUNTS, ...part(s.accounts.partial(), v.accounts, {}) },
    providers: { ...DEFAULT_PROVIDER_ACCOUNTS, ...part(s.providers.partial(), v.providers, {}) },
  };
}

/** The form's fields as the schema reads them ("accounts.gifts.num" → nested). */
export function formSettings(entries: Iterable<[string, string]>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of entries) {
    const path = key.split('.');
    let at = out;
    path.slice(0, -1).forEach((p) => (at = (at[p] ??= {}) as Record<string, unknown>));
    at[path[path.length - 1]] = value;
  }
  return out;
}

/** The first fiscal year the screen offers. */
export const FIRST_FISCAL_YEAR = 2015;

/** The fiscal year `?annee=` names (from FIRST_FISCAL_YEAR to the one `today` is in), the current one when absent; null when it names none. */
export function askedYear(raw: string | null, startMonth: number, today: string): number | null {
  const current = fiscalYearOf(startMonth, today);
  if (raw === null || raw === '') return current;
  const year = /^\d{4}$/.test(raw.trim()) ? Number(raw) : NaN;
  return year >= FIRST_FISCAL_YEAR && year <= current ? year : null;
}
