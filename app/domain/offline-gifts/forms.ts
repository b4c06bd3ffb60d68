/**
 * The forms of gifts received by post or at the bank (ADR 028), one Zod schema each, French
 * messages per field: a gift typed from a cheque of a batch, or a transfer or cash one by one; a
 * gift taken back; a batch deposited or reconciled; the Éditeurs' permission; the account cheques
 * are deposited to. Shared with the browser: no server imports.
 */
import { electronicFormatIBAN, friendlyFormatIBAN, isValidIBAN } from 'ibantools';
import { z } from 'zod';
import { parseEuroAmount } from '~/domain/donations/money';
import { TAX_FIELDS, fieldName, type TaxField } from '~/domain/receipts/donor-details';
import type { OfflineMeans } from '~/domain/donations/status';

export const bounded = (max: number, missing = 'Champ obligatoire.') => z.string({ message: missing }).trim().max(max, `${max} caractères au plus.`);
/** An optional field: absent reads as empty. */
export const text = (max: number) => bounded(max).default('');
export const required = (max: number, missing = 'Champ obligatoire.') => bounded(max, missing).min(1, missing);
export const checkbox = z.preprocess((v) => v === 'on' || v === 'true' || v === true, z.boolean());
export const uuid = (message: string) => z.string().regex(/^[0-9a-f-]{36}$/, message);

/** The means typed one by one (a cheque goes into a batch, for its deposit slip). */
export const SINGLE_MEANS = ['transfer', 'cash'] as const satisfies readonly OfflineMeans[];

export const euros = z
  .string()
  .trim()
  .transform((v, ctx) => {
    const parsed = parseEuroAmount(v);
    if (parsed.ok) return parsed.cents;
    ctx.addIssue({ code: 'custom', message: 'Un montant en euros supérieur à 0, 100 000 € au plus (ex. 50 ou 50,00).' });
    return z.NEVER;
  });

export const day = (today: string, label: string) =>
  z
    .string()
    .trim()
    .refine((v) => /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().slice(0, 10) === v, 'Une date valide (AAAA-MM-JJ).')
    .refine((v) => v <= today, `${label} ne peut pas être dans le futur.`)
    .refine((v) => v >= '2000-01-01', `${label} : après le 1er janvier 2000.`);

/** The donor as the entry forms send them (the receipt's details; "Pas de reçu fiscal" ticked or not). */
export const donorShape = {
  name: required(120),
  email: bounded(254)
    .refine((v) => v === '' || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v), 'Une adresse e-mail valide, ou vide.')
    .default(''),
  company: text(160),
  /** The company's legal form (CERFA n° 16216's "Forme juridique"), required with a company name by the receipts' rule. */
  legal_form: text(60),
  siren: text(11),
  address: text(200),
  postal_code: text(12),
  city: text(120),
  country: text(80),
  no_receipt: checkbox.default(false),
  /** An individual's gift under the IFI (article 978), read only when the foundation is eligible (ADR 035). */
  ifi: checkbox.default(false),
};
export type DonorEntry = { [K in keyof typeof donorShape]: z.output<(typeof donorShape)[K]> };

/**
 * One gift, as the entry form sends it. `means`: cheque (the batch screen) needs its number and
 * bank; transfer and cash come from the one-by-one form. The donor is a name (required), an
 * optional e-mail (a donor known only by post has none) and the postal address a tax receipt
 * needs unless "Pas de reçu fiscal" is ticked (checked on the server by the receipts' own rule).
 */
export function giftEntrySchema(today: string, means: 'cheque' | 'single') {
  return z
    .object({
      intent: z.literal('gift'),
      token: uuid('Formulaire périmé : rechargez la page.'),
      means: means === 'cheque' ? z.literal('cheque', { message: 'Seuls des chèques entrent dans une remise.' }) : z.enum(SINGLE_MEANS, { message: 'Choisissez virement ou espèces.' }),
      amount: euros,
      received_on: day(today, 'La date de réception'),
      cheque_number: (means === 'cheque' ? required(20, 'Le numéro du chèque est obligatoire.') : text(20)).refine((v) => v === '' || /^[0-9A-Za-z -]+$/.test(v), 'Chiffres et lettres seulement.'),
      bank: means === 'cheque' ? required(60, 'La banque du chèque est obligatoire.') : text(60),
      drawer: text(120),
      reference: text(60),
      ...donorShape,
      campaign_id: text(64),
      note: text(300),
    });
}
export type GiftEntry = z.output<ReturnType<typeof giftEntrySchema>>;

/** The entry form's field for each of the receipt's donor details (donor-details.ts). */
export const TAX_FIELD_OF: Record<TaxField, keyof DonorEntry | null> = {
  kind: null,
  name: 'name',
  company: 'company',
  legalForm: 'legal_form',
  siren: 'siren',
  address: 'address',
  postalCode: 'postal_code',
  city: 'city',
  country: 'country',
};

/** The entry as the receipts' fieldset reader (`readTaxDetails`) reads a form: a company when a company name is typed. */
export function taxFieldsOf(v: DonorEntry): (name: string) => string {
  const values = new Map<string, string>([[fieldName('optOut'), v.no_receipt ? 'on' : ''], [fieldName('kind'), v.company ? 'company' : 'individual'], [fieldName('ifi'), v.ifi ? 'on' : '']]);
  for (const f of TAX_FIELDS) {
    const own = TAX_FIELD_OF[f];
    if (own) values.set(fieldName(f), String(v[own]));
  }
  return (name) => values.get(name) ?? '';
}

/** Taking back a gift recorded by hand: which payment, and why (kept in the audit log and on the cancelled receipt). */
export const voidGiftSchema = z.object({
  intent: z.literal('void'),
  payment_id: uuid('Don inconnu : rechargez la page.'),
  reason: required(200),
});

export function depositSchema(today: string) {
  return z.object({ intent: z.literal('deposit'), deposited_on: day(today, 'La date de dépôt') });
}

export function reconcileSchema(today: string) {
  return z.object({ intent: z.literal('reconcile'), credited: euros, reconciled_on: day(today, 'La date du relevé') });
}

export const editorsSchema = z.object({ intent: z.literal('editors'), editors: checkbox });

/** The bank account the cheques are deposited to, as the deposit slip prints it. */
export interface DepositAccount {
  /** The account holder's name (the foundation's, as the bank knows it). */
  holder: string;
  /** The IBAN in its electronic form (no spaces, capitals), checked (ISO 13616: country, length, check digits). */
  iban: string;
}

/** An IBAN as people read it, in groups of four. */
export const friendlyIban = (iban: string): string => friendlyFormatIBAN(iban) ?? iban;

/** The account form: holder and IBAN typed as people do (spaces, small letters); both empty removes the account. */
export const depositAccountSchema = z
  .object({
    intent: z.literal('account'),
    holder: z.string().trim().max(120, 'Le titulaire tient en 120 caractères.'),
    iban: z.string().max(60, 'Cet IBAN est trop long.').transform((v) => electronicFormatIBAN(v) ?? ''),
  })
  .superRefine((v, ctx) => {
    if (!v.holder && !v.iban) return;
    if (!v.holder) ctx.addIssue({ code: 'custom', path: ['holder'], message: 'Indiquez le titulaire du compte.' });
    if (!isValidIBAN(v.iban)) ctx.addIssue({ code: 'custom', path: ['iban'], message: 'Cet IBAN n’est pas valide : vérifiez le pays, la longueur et les chiffres (FR76 3000 6000 0112 3456 7890 189).' });
  })
  .transform((v): DepositAccount | null => (v.holder || v.iban ? { holder: v.holder, iban: v.iban } : null));
