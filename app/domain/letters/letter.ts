import { z } from 'zod';
import { LANGS, type Lang } from '~/lib/i18n';
import { SUBSCRIBER_SOURCES, type SubscriberSource } from '~/domain/subscribers/consent';
import { issueErrors } from '~/lib/form-errors';

/**
 * A letter (ADR 022): a version per language, French required; its audience; its state. Shared
 * with the browser: no server imports.
 */
export interface LetterVersion {
  subject: string;
  /**
   * With `format` 'html', the rich editor's HTML (sanitized when saved and when rendered, ADR 039);
   * without (the letters written before it, and those made from a post), plain text: paragraphs
   * separated by a blank line (escaped when rendered).
   */
  body: string;
  format?: 'html';
  /** A path of the site (/blog/…) or an https address: the letter's button. */
  link: string;
  /** A media library URL (/media/…): shown above the text, as an absolute URL in the mail. */
  image: string;
}
export type LetterVersions = { fr: LetterVersion } & Partial<Record<Exclude<Lang, 'fr'>, LetterVersion>>;

export const LETTER_LIMITS = { subject: 150, body: 50_000, link: 500, image: 500 } as const;

export const LETTER_STATES = ['draft', 'scheduled', 'sending', 'paused', 'sent'] as const;
export type LetterState = (typeof LETTER_STATES)[number];

export const LETTER_STATE_LABELS: Record<LetterState, string> = { draft: 'Brouillon', scheduled: 'Programmée', sending: 'Envoi en cours', paused: 'En pause', sent: 'Envoyée' };

/** Only a draft or a scheduled letter may still be changed, scheduled or sent now. */
export const editable = (s: LetterState): boolean => s === 'draft' || s === 'scheduled';
/** A sending letter may be paused; a paused one resumed. */
export const pausable = (s: LetterState): boolean => s === 'sending';
export const resumable = (s: LetterState): boolean => s === 'paused';

/**
 * The version a subscriber of `lang` receives: theirs when it was written (it has a subject),
 * else the French one.
 */
export function versionFor(versions: LetterVersions, lang: Lang): LetterVersion {
  const own = versions[lang];
  return own && own.subject.trim() ? own : versions.fr;
}

/** The languages written, French first. */
export const writtenLanguages = (versions: LetterVersions): Lang[] => LANGS.filter((l) => Boolean(versions[l]?.subject.trim()));

const text = (max: number) => z.string().trim().max(max, { error: `Au plus ${max} caractères.` });
const link = text(LETTER_LIMITS.link).refine((v) => v === '' || /^\/[^\s]*$/.test(v) || /^https:\/\/[^\s]+$/.test(v), { error: 'Un chemin du site (/blog/…) ou une adresse https://.' });
const image = text(LETTER_LIMITS.image).refine((v) => v === '' || /^\/media\/[^\s]+$/.test(v), { error: 'Une image de la médiathèque (/media/…).' });

const format = z.union([z.literal(''), z.literal('html')]);
const optionalVersion = z.object({ subject: text(LETTER_LIMITS.subject), body: text(LETTER_LIMITS.body), link, image, format }).superRefine((v, ctx) => {
  if (v.subject && !v.body) ctx.addIssue({ code: 'custom', path: ['body'], message: 'Écrivez le texte de cette version, ou videz son objet.' });
});

/** The letter form (write, or from a post): one schema for the page and the action. */
export const letterSchema = z.object({
  fr: z.object({
    subject: text(LETTER_LIMITS.subject).min(1, { error: 'L’objet en français est obligatoire.' }),
    body: text(LETTER_LIMITS.body).min(1, { error: 'Le texte en français est obligatoire.' }),
    link,
    image,
    format,
  }),
  en: optionalVersion,
  es: optionalVersion,
  audienceLanguage: z.union([z.literal(''), z.enum(LANGS)]),
  audienceSource: z.union([z.literal(''), z.enum(SUBSCRIBER_SOURCES)]),
  /** A segment of the donors register (ADR 040): its id, '' for none; the action checks it exists. */
  audienceSegment: z.string().trim().max(100, { error: 'Choisissez un segment de la liste.' }),
});
export type LetterInput = z.infer<typeof letterSchema>;

/** The form's flat fields (fr.subject…) as the schema's object. */
export function letterFormValues(form: { get(name: string): unknown }): unknown {
  const field = (name: string) => String(form.get(name) ?? '');
  const version = (l: Lang) => ({ subject: field(`${l}.subject`), body: field(`${l}.body`), link: field(`${l}.link`), image: field(`${l}.image`), format: field(`${l}.format`) });
  return { fr: version('fr'), en: version('en'), es: version('es'), audienceLanguage: field('audienceLanguage'), audienceSource: field('audienceSource'), audienceSegment: field('audienceSegment') };
}

/** Field errors by the form's field names (fr.subject…), in French. */
export function letterErrors(error: z.ZodError): Record<string, string> {
  return issueErrors(error.issues);
}

/** Only the versions written (an empty subject means "not written": its readers get French). */
export function versionsOf(input: LetterInput): LetterVersions {
  const version = ({ format, ...v }: LetterInput['fr']): LetterVersion => (format === 'html' ? { ...v, format } : v);
  const out: LetterVersions = { fr: version(input.fr) };
  for (const l of ['en', 'es'] as const) if (input[l].subject) out[l] = version(input[l]);
  return out;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** A plain-text body as the rich editor's HTML: a paragraph per blank-line-separated block, line breaks kept. */
export function plainToHtml(body: string): string {
  return body
    .split(/\r?\n\s*\r?\n/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => `<p>${p.replace(/[&<>"']/g, (c) => ESCAPES[c]).replace(/\r?\n/g, '<br>')}</p>`)
    .join('');
}

/** The body as the rich editor opens it: a plain-text version's paragraphs become HTML ones. */
export const editorBody = (v: LetterVersion | undefined): string => (!v ? '' : v.format === 'html' ? v.body : plainToHtml(v.body));

export interface Audience {
  language: Lang | '';
  source: SubscriberSource | '';
  /** A donors' segment (ADR 040): only its people whose address is a subscribed subscriber; '' (or absent, in revisions older than it): no segment. */
  segment?: string;
}

/** The audience the form chose. */
export const audienceOf = (input: LetterInput): Audience => ({ language: input.audienceLanguage, source: input.audienceSource, segment: input.audienceSegment });

/** The sending rate the Admin sets: messages per second and per hour. */
export const rateSchema = z.object({
  perSecond: z.coerce.number({ error: 'Un nombre entier.' }).int({ error: 'Un nombre entier.' }).min(1, { error: 'Au moins 1.' }).max(500, { error: 'Au plus 500.' }),
  perHour: z.coerce.number({ error: 'Un nombre entier.' }).int({ error: 'Un nombre entier.' }).min(1, { error: 'Au moins 1.' }).max(1_000_000, { error: 'Au plus 1 000 000.' }),
});
export type SendingRate = z.infer<typeof rateSchema>;
export const DEFAULT_RATE: SendingRate = { perSecond: 5, perHour: 5000 };
