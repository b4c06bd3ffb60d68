/**
 * The membership back office's forms: one Zod schema each, shared by the page and its action
 * (ADR 021). Shared with the browser: no server imports. Messages in French (back office).
 */
import { z } from 'zod';
import { parseEuroAmount } from '~/domain/donations/money';
import { OFFLINE_MEANS, type OfflineMeans } from '~/domain/donations/status';
import { parseRollover, PERIOD_MODELS, type PeriodModel } from './period';
import { parseReminderSteps, DEFAULT_REMINDER_STEPS } from './reminders';
import { DEFAULT_GRACE_DAYS, OVERRIDE_STATES, type MembershipState } from './status';

/** The register's filter "expiring soon": the dues end within this many days. */
export const EXPIRING_WITHIN_DAYS = 30;

export const LANGS = ['fr', 'en', 'es'] as const;
export type MemberLang = (typeof LANGS)[number];

export interface TypeTexts {
  name: string;
  description: string;
}
export type TypeTranslations = Record<MemberLang, TypeTexts>;

export const PERIOD_MODEL_LABELS: Record<PeriodModel, string> = {
  anniversary: 'Date anniversaire (12 mois à compter du paiement)',
  calendar: 'Année civile (jusqu’au 31 décembre)',
};

/** The hint under the deductible switch: what article 200 CGI allows, and when it does not. */
export const TAX_DEDUCTIBLE_HINT =
  'Article 200 du CGI : une cotisation n’ouvre droit à la réduction d’impôt (et à un reçu fiscal) que si l’organisme est d’intérêt général et qu’elle ne donne au membre aucune contrepartie réelle (droit de vote et bulletin d’information exceptés ; pas de service, de réduction, de revue ou de prestation en échange). Laissez désactivé en cas de doute.';

const text = (max: number) => z.string().trim().max(max, `${max} caractères au plus.`);
const required = (max: number) => text(max).min(1, 'Champ obligatoire.');
const checkbox = z.preprocess((v) => v === 'on' || v === 'true' || v === true, z.boolean());

/** A type of membership, as the settings tab submits it. */
export const membershipTypeSchema = z
  .object({
    name_fr: required(80),
    name_en: required(80),
    name_es: required(80),
    description_fr: text(300),
    description_en: text(300),
    description_es: text(300),
    dues: z
      .string()
      .trim()
      .transform((v, ctx) => {
        if (v === '0' || v === '') return 0;
        const parsed = parseEuroAmount(v);
        if (parsed.ok) return parsed.cents;
        ctx.addIssue({ code: 'custom', message: 'Un montant en euros (0 pour une adhésion gratuite), 100 000 € au plus.' });
        return z.NEVER;
      }),
    period_model: z.enum(PERIOD_MODELS, { message: 'Choisissez un mode de calcul de la période.' }),
    rollover: z.string().trim(),
    tax_deductible: checkbox,
  })
  .transform((v, ctx) => {
    let rollover = '';
    if (v.period_model === 'calendar' && v.rollover !== '') {
      // Typed as French readers write it (JJ/MM), or as a date (AAAA-MM-JJ) whose year is ignored.
      const fr = /^(\d{2})\/(\d{2})$/.exec(v.rollover);
      const day = parseRollover(fr ? `${fr[2]}-${fr[1]}` : v.rollover.length === 10 ? v.rollover.slice(5) : '');
      if (day === null) {
        ctx.addIssue({ code: 'custom', path: ['rollover'], message: 'Une date de bascule valide (JJ/MM, ex. 01/10), ou vide.' });
        return z.NEVER;
      }
      rollover = day;
    }
    return {
      translations: {
        fr: { name: v.name_fr, description: v.description_fr },
        en: { name: v.name_en, description: v.description_en },
        es: { name: v.name_es, description: v.description_es },
      } satisfies TypeTranslations,
      duesCents: v.dues,
      periodModel: v.period_model,
      rollover,
      taxDeductible: v.tax_deductible,
    };
  });
export type MembershipTypeInput = z.output<typeof membershipTypeSchema>;

export interface MembershipSettings {
  /** Days after the end a member is still counted (in grace). */
  graceDays: number;
  /** Reminder steps, days relative to the end, sorted. */
  reminderSteps: number[];
  /** The statutes a joining member consents to (an address); '' for none yet. */
  statutesUrl: string;
  /** Years a lapsed member's data are kept before erasure. */
  retentionYears: number;
}

export const DEFAULT_MEMBERSHIP_SETTINGS: MembershipSettings = {
  graceDays: DEFAULT_GRACE_DAYS,
  reminderSteps: [...DEFAULT_REMINDER_STEPS],
  statutesUrl: '',
  retentionYears: 3,
};

const wholeNumber = (min: number, max: number, message: string) =>
  z
    .string()
    .trim()
    .regex(/^\d{1,4}$/, message)
    .transform(Number)
    .refine((n) => n >= min && n <= max, message);

/** The general settings, as their tab submits them. */
export const membershipSettingsSchema = z.object({
  graceDays: wholeNumber(0, 365, 'Un nombre de jours entre 0 et 365.'),
  reminderSteps: z.string().transform((v, ctx) => {
    const steps = parseReminderSteps(v);
    if (steps) return steps;
    ctx.addIssue({ code: 'custom', message: 'Des nombres de jours séparés par des virgules, entre -365 et 365, sans doublon (ex. : -30, -7, 0, 15).' });
    return z.NEVER;
  }),
  statutesUrl: z
    .string()
    .trim()
    .refine((v) => v === '' || /^https?:\/\/\S+$/.test(v) || /^\/[\w./-]*$/.test(v), 'Une adresse http(s) ou un chemin du site (/media/…).'),
  retentionYears: wholeNumber(1, 10, 'Un nombre d’années entre 1 et 10.'),
});

/** An Admin's override of a member's state: a state and its reason, or back to the computed state. */
export const overrideSchema = z.discriminatedUnion('intent', [
  z.object({
    intent: z.literal('override'),
    state: z.enum(OVERRIDE_STATES as [MembershipState, ...MembershipState[]], { message: 'Choisissez un état.' }),
    reason: required(300),
  }),
  z.object({ intent: z.literal('clear-override') }),
]);

/** A member entered by staff (paper form, existing member): identity, address, type, language. */
export const memberSchema = z.object({
  first_name: required(80),
  last_name: required(80),
  email: z
    .string()
    .trim()
    .max(254, '254 caractères au plus.')
    .refine((v) => v === '' || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v), 'Une adresse e-mail valide, ou vide.'),
  phone: text(30),
  address: text(200),
  postal_code: text(12),
  city: text(80),
  country: text(80),
  type_id: required(64),
  language: z.enum(LANGS, { message: 'Choisissez une langue.' }),
  exempt: checkbox,
  /** "Recevoir les nouvelles de la fondation": the member's consent to the letters (ADR 022). */
  news: checkbox,
});
export type MemberInput = Omit<z.output<typeof memberSchema>, 'news'> & { news?: boolean };

/** The version of the member form's news box, kept with a member's proof of consent. */
export const MEMBER_NEWS_WORDING = 'member-form-2026-11';

/** The means of a payment an Admin received by hand, in the order the member page offers them (their words: means.ts). */
export const MANUAL_MEANS: readonly OfflineMeans[] = ['cheque', 'transfer', 'cash'];

/**
 * Dues received by hand, as the member page submits them (issue 32 item 5): the form's one-time
 * token, the means, an amount in euros, the day received (not after `today`, Paris), an optional
 * reference (a cheque's number) and note.
 */
/** Taking back dues recorded by hand: which payment, and why (kept in the audit log and on the cancelled receipt). */
export const voidDuesSchema = z.object({
  intent: z.literal('void-dues'),
  payment_id: z.string().regex(/^[0-9a-f-]{36}$/, 'Paiement inconnu : rechargez la page.'),
  reason: required(200),
});

export function manualDuesSchema(today: string) {
  return z.object({
    intent: z.literal('dues'),
    token: z.string().regex(/^[0-9a-f-]{36}$/, 'Formulaire périmé : rechargez la page.'),
    means: z.enum(OFFLINE_MEANS, { message: 'Choisissez un moyen de paiement.' }),
    amount: z
      .string()
      .trim()
      .transform((v, ctx) => {
        const parsed = parseEuroAmount(v);
        if (parsed.ok) return parsed.cents;
        ctx.addIssue({ code: 'custom', message: 'Un montant en euros supérieur à 0, 100 000 € au plus.' });
        return z.NEVER;
      }),
    received_on: z
      .string()
      .trim()
      .refine((v) => /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().slice(0, 10) === v, 'Une date valide (AAAA-MM-JJ).')
      .refine((v) => v <= today, 'La date de réception ne peut pas être dans le futur.')
      .refine((v) => v >= '2000-01-01', 'Une date de réception après le 1er janvier 2000.'),
    reference: text(60),
    note: text(300),
  });
}
