import type { MessageKey } from '~/lib/i18n';

/**
 * What a tax receipt needs to know about the donor, as typed on the donate form and stored on the
 * gift (`donations.tax_details`). Shared with the browser: no server imports.
 */
export interface TaxDetails {
  kind: 'individual' | 'company';
  name: string;
  company: string;
  /** A company's legal form ("SAS", "SARL", "Association"…), CERFA n° 16216's "Forme juridique"; absent for an individual and from details stored before it was asked. */
  legalForm?: string;
  siren: string;
  address: string;
  postalCode: string;
  city: string;
  country: string;
  /** An individual's gift under the IFI (article 978), only when the foundation is eligible (ADR 035); absent otherwise. */
  ifi?: boolean;
}

/** Form field names (prefixed so they never clash with the payment form's own). */
export const TAX_FIELDS = ['kind', 'name', 'company', 'legalForm', 'siren', 'address', 'postalCode', 'city', 'country'] as const;
export type TaxField = (typeof TAX_FIELDS)[number];
export const fieldName = (f: TaxField | 'optOut' | 'ifi') => `tax_${f}`;

export const FIELD_LABEL: Record<TaxField, MessageKey> = {
  kind: 'taxReceipt.kind',
  name: 'taxReceipt.fullName',
  company: 'taxReceipt.companyName',
  legalForm: 'taxReceipt.legalForm',
  siren: 'taxReceipt.siren',
  address: 'taxReceipt.address',
  postalCode: 'taxReceipt.postalCode',
  city: 'taxReceipt.city',
  country: 'taxReceipt.country',
};

const MAX: Record<TaxField, number> = { kind: 20, name: 120, company: 160, legalForm: 60, siren: 11, address: 200, postalCode: 12, city: 120, country: 80 };

export interface TaxFieldError {
  field: TaxField;
  key: MessageKey;
}

export type TaxDetailsResult = { ok: true; details: TaxDetails | null; values: Record<string, string> } | { ok: false; errors: TaxFieldError[]; values: Record<string, string> };

/**
 * Reads the donate form's receipt fieldset. A donor who ticks the opt-out gets no receipt (null);
 * otherwise name and address are required, and for a company its name, its legal form and a
 * 9-digit SIREN (CERFA n° 16216's "Dénomination", "Forme juridique" and SIREN).
 * `ifi`: whether the foundation takes IFI gifts (ADR 035); only then does an individual's ticked
 * "Don au titre de l'IFI" count (a company's, or one posted while it is off, is ignored).
 */
export function readTaxDetails(get: (name: string) => string, opts: { ifi?: boolean } = {}): TaxDetailsResult {
  const values: Record<string, string> = { optOut: get(fieldName('optOut')), ifi: get(fieldName('ifi')) === 'on' ? 'on' : '' };
  for (const f of TAX_FIELDS) values[f] = get(fieldName(f)).trim();
  if (values.optOut === 'on') return { ok: true, details: null, values };
  const kind: TaxDetails['kind'] = values.kind === 'company' ? 'company' : 'individual';
  values.kind = kind;
  values.siren = values.siren.replace(/\s+/g, '');
  if (!values.country) values.country = 'France';
  const required: TaxField[] = kind === 'company' ? ['company', 'legalForm', 'siren', 'name', 'address', 'postalCode', 'city', 'country'] : ['name', 'address', 'postalCode', 'city', 'country'];
  const errors: TaxFieldError[] = [];
  for (const f of TAX_FIELDS) {
    if (values[f].length > MAX[f]) errors.push({ field: f, key: 'taxReceipt.tooLong' });
    else if (required.includes(f) && !values[f]) errors.push({ field: f, key: 'taxReceipt.required' });
  }
  if (kind === 'company' && values.siren && !errors.some((e) => e.field === 'siren') && !/^\d{9}$/.test(values.siren)) errors.push({ field: 'siren', key: 'taxReceipt.invalidSiren' });
  if (errors.length) return { ok: false, errors, values };
  const details: TaxDetails = {
    kind,
    name: values.name,
    company: kind === 'company' ? values.company : '',
    ...(kind === 'company' ? { legalForm: values.legalForm } : {}),
    siren: kind === 'company' ? values.siren : '',
    address: values.address,
    postalCode: values.postalCode,
    city: values.city,
    country: values.country,
    ...(opts.ifi === true && kind === 'individual' && values.ifi === 'on' ? { ifi: true } : {}),
  };
  return { ok: true, details, values };
}

export function parseTaxDetails(json: string | null): TaxDetails | null {
  if (!json) return null;
  try {
    return JSON.parse(json) as TaxDetails;
  } catch {
    return null;
  }
}
