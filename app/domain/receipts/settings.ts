import { z } from 'zod';

/**
 * What the foundation fills in before receipts are issued (admin screen "Reçus fiscaux").
 * Shared with the browser: no server imports.
 */
export const LEGAL_BASES = {
  fondation_rup: 'Fondation reconnue d’utilité publique',
  association_rup: 'Association reconnue d’utilité publique',
  interet_general: 'Organisme d’intérêt général',
  aide_personnes: 'Organisme d’aide gratuite aux personnes en difficulté',
} as const;
export type LegalBase = keyof typeof LEGAL_BASES;

export const RATES = { '66': '66 % (article 200-1 du CGI)', '75': '75 % (aide aux personnes en difficulté, article 200-1 ter du CGI)' } as const;
export type Rate = keyof typeof RATES;

/** How monthly gifts are receipted: one receipt each, or one annual receipt per donor in January. */
export const MODELS = {
  each: 'Un reçu pour chaque don (ponctuel ou mensuel)',
  annual_monthly: 'Un reçu par don ponctuel ; un reçu annuel récapitulatif pour les dons mensuels',
} as const;
export type ReceiptModel = keyof typeof MODELS;

export interface ReceiptSettings {
  enabled: boolean;
  legalName: string;
  address: string;
  postalCode: string;
  city: string;
  /** SIREN (9 digits) or RNA (W + 9 digits). */
  registration: string;
  object: string;
  legalBase: LegalBase | '';
  rate: Rate;
  model: ReceiptModel;
  signatoryName: string;
  signatoryTitle: string;
  /** A /media/… URL from the media library, or ''. */
  signatureImage: string;
  /** Put before "AAAA-NNNNNN" in every number. */
  prefix: string;
  /** The foundation may receive gifts under the IFI (article 978: a foundation recognised of public utility…); individuals are then offered the option (ADR 035). */
  ifiEligible: boolean;
  /** The annual statement also sums the gifts imported from another tool that carry no receipt number of theirs (ADR 036); off by default. */
  annualCountsImported: boolean;
}

export const EMPTY_RECEIPT_SETTINGS: ReceiptSettings = {
  enabled: false,
  legalName: '',
  address: '',
  postalCode: '',
  city: '',
  registration: '',
  object: '',
  legalBase: '',
  rate: '66',
  model: 'each',
  signatoryName: '',
  signatoryTitle: '',
  signatureImage: '',
  prefix: 'RF',
  ifiEligible: false,
  annualCountsImported: false,
};

/** Fields a receipt cannot do without, with their labels (the screen lists those still empty). */
export const MANDATORY: Record<'legalName' | 'address' | 'postalCode' | 'city' | 'registration' | 'object' | 'legalBase' | 'signatoryName' | 'signatoryTitle', string> = {
  legalName: 'Dénomination',
  address: 'Adresse',
  postalCode: 'Code postal',
  city: 'Commune',
  registration: 'N° SIREN ou RNA',
  object: 'Objet',
  legalBase: 'Qualité de l’organisme',
  signatoryName: 'Nom du signataire',
  signatoryTitle: 'Qualité du signataire',
};

export function missingFields(s: ReceiptSettings): string[] {
  return (Object.keys(MANDATORY) as (keyof typeof MANDATORY)[]).filter((k) => !String(s[k]).trim()).map((k) => MANDATORY[k]);
}

/** Receipts are issued only when switched on and complete. */
export function receiptsActive(s: ReceiptSettings): boolean {
  return s.enabled && missingFields(s).length === 0;
}

const text = (max: number) => z.string().trim().max(max, `${max} caractères au plus.`);
const checkbox = z.preprocess((v) => v === 'on' || v === 'true' || v === true, z.boolean());

export const receiptSettingsSchema = z.object({
  enabled: checkbox,
  legalName: text(200),
  address: text(300),
  postalCode: text(12),
  city: text(120),
  registration: z
    .string()
    .trim()
    .transform((v) => v.replace(/\s+/g, '').toUpperCase())
    .refine((v) => v === '' || /^\d{9}$/.test(v) || /^W\d{9}$/.test(v), 'Un SIREN (9 chiffres) ou un numéro RNA (W suivi de 9 chiffres).'),
  object: text(500),
  legalBase: z.enum([...(Object.keys(LEGAL_BASES) as LegalBase[]), ''], { message: 'Choisissez une qualité.' }),
  rate: z.enum(Object.keys(RATES) as [Rate, ...Rate[]], { message: 'Choisissez un taux.' }),
  model: z.enum(Object.keys(MODELS) as [ReceiptModel, ...ReceiptModel[]], { message: 'Choisissez un modèle.' }),
  signatoryName: text(120),
  signatoryTitle: text(120),
  signatureImage: z
    .string()
    .trim()
    .refine((v) => v === '' || /^\/media\/[\w./-]+$/.test(v), 'Choisissez une image de la médiathèque.'),
  prefix: z
    .string()
    .trim()
    .regex(/^[A-Z0-9-]{0,10}$/, 'Lettres majuscules, chiffres et tirets, 10 au plus.'),
  ifiEligible: checkbox,
  annualCountsImported: checkbox,
});
