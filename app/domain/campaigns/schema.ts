import { z } from 'zod';
import { isoDate, optionalMediaUrl, optionalText, perLanguage, requiredIn, requiredText, richText } from '~/domain/content/forms';
import { flattenTranslations, translationsOf } from '~/domain/content/forms';
import { toDecimalString } from '~/lib/currency';
import { parseEuroAmount, withoutThousandsSpace } from '~/domain/donations/money';
import { LANGS, type Lang } from '~/lib/i18n';
import { CAMPAIGN_STATUSES, MAX_SUGGESTED_AMOUNTS, SLUG_PATTERN, type CampaignInput, type CampaignTranslation } from './campaigns';

/** Form names of the suggested amounts: amount1…amount4, each with an impact line per language (`fr.impact1`…). */
export const AMOUNT_SLOTS = Array.from({ length: MAX_SUGGESTED_AMOUNTS }, (_, i) => i + 1);

const optionalEuros = z
  .string()
  .trim()
  .transform(withoutThousandsSpace)
  .default('')
  .refine((v) => v === '' || parseEuroAmount(v).ok, { error: 'Montant invalide : un nombre positif en euros, 2 décimales au plus, 100 000 € au plus.' });

// Stryker disable next-line StringLiteral: isoDate's own message is for an empty date, which never reaches it (optionalDate takes '' first)
const ISO_DATE = isoDate('');

const optionalDate = z
  .string()
  .trim()
  .default('')
  .refine((v) => v === '' || ISO_DATE.safeParse(v).success, { error: 'Saisissez une date valide (AAAA-MM-JJ).' });

/**
 * The campaign form: a title in each language is required; the address (slug) is made from the
 * French title when left empty; goal, dates, project and suggested amounts are optional.
 */
export const campaignSchema = z
  .object({
    slug: z
      .string()
      .trim()
      .toLowerCase()
      .max(80, { error: "L'adresse ne peut pas dépasser 80 caractères." })
      .default('')
      .refine((v) => v === '' || SLUG_PATTERN.test(v), { error: "L'adresse ne peut contenir que des lettres minuscules sans accent, des chiffres et des tirets (ex. : un-puits-a-kaya)." }),
    status: z.enum(CAMPAIGN_STATUSES, { error: 'Choisissez un statut.' }).default('draft'),
    image: optionalMediaUrl,
    goal: optionalEuros,
    startsOn: optionalDate,
    endsOn: optionalDate,
    projectId: z.string().trim().max(100, { error: 'Choisissez un projet de la liste.' }).default(''),
    ...Object.fromEntries(AMOUNT_SLOTS.map((i) => [`amount${i}`, optionalEuros])),
    ...perLanguage({
      title: (lang) => requiredText(requiredIn('Le titre')(lang)),
      summary: () => optionalText(500),
      story: () => richText,
      ...Object.fromEntries(AMOUNT_SLOTS.map((i) => [`impact${i}`, () => optionalText(200)])),
    }),
  })
  .superRefine((v, ctx) => {
    const d = v as Record<string, string>;
    if (d.startsOn && d.endsOn && d.endsOn < d.startsOn) ctx.addIssue({ code: 'custom', path: ['endsOn'], message: 'La date de fin doit suivre la date de début.' });
    for (const i of AMOUNT_SLOTS) {
      const hasImpact = ['fr', 'en', 'es'].some((l) => d[`${l}.impact${i}`]);
      if (hasImpact && !d[`amount${i}`]) ctx.addIssue({ code: 'custom', path: [`amount${i}`], message: 'Indiquez le montant de cette ligne (ou effacez son impact).' });
    }
  });

export type CampaignForm = z.infer<typeof campaignSchema>;
export const CAMPAIGN_TEXT_KEYS = ['title', 'summary', 'story', ...AMOUNT_SLOTS.map((i) => `impact${i}`)] as const;

const euros = (cents: number | null) => (cents === null ? '' : toDecimalString(cents, 'EUR'));
const cents = (v: string) => {
  const a = parseEuroAmount(v);
  return a.ok ? a.cents : null;
};

/** The campaign a valid form describes (amount lines left empty are dropped). */
export function campaignInputOf(form: CampaignForm): CampaignInput {
  const d = form as Record<string, string>;
  const texts = translationsOf(d, CAMPAIGN_TEXT_KEYS);
  return {
    slug: d.slug,
    status: form.status,
    image: d.image,
    goalCents: cents(d.goal),
    startsOn: d.startsOn || null,
    endsOn: d.endsOn || null,
    projectId: d.projectId || null,
    translations: Object.fromEntries(LANGS.map((l) => [l, { title: texts[l].title, summary: texts[l].summary, story: texts[l].story }])) as Record<Lang, CampaignTranslation>,
    amounts: AMOUNT_SLOTS.flatMap((i) => {
      const c = cents(d[`amount${i}`]);
      return c === null ? [] : [{ cents: c, impact: Object.fromEntries(LANGS.map((l) => [l, texts[l][`impact${i}`]])) as Record<Lang, string> }];
    }),
  };
}

/** The form's values showing a campaign (saved, or its draft). */
export function campaignFormValues(c: CampaignInput): Record<string, string> {
  const texts = Object.fromEntries(
    LANGS.map((lang) => [lang, { ...c.translations[lang], ...Object.fromEntries(AMOUNT_SLOTS.map((i) => [`impact${i}`, c.amounts[i - 1]?.impact[lang] ?? ''])) }]),
  ) as unknown as Record<Lang, Record<string, string>>;
  return {
    slug: c.slug,
    status: c.status,
    image: c.image,
    goal: euros(c.goalCents),
    startsOn: c.startsOn ?? '',
    endsOn: c.endsOn ?? '',
    projectId: c.projectId ?? '',
    ...Object.fromEntries(AMOUNT_SLOTS.map((i) => [`amount${i}`, euros(c.amounts[i - 1]?.cents ?? null)])),
    ...flattenTranslations(texts, CAMPAIGN_TEXT_KEYS),
  };
}
