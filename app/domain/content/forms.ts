import { z } from 'zod';
import { LANGS, type Lang } from '~/lib/i18n';
import { dateTimeFormat } from '~/lib/intl';
import { parisDay } from '~/lib/paris';

/**
 * What the content screens' forms share (browser and server: no server imports here). Translated
 * fields travel flat, named `fr.title`, `en.title`…, so one zod object checks a whole form and its
 * errors land on the input of the same name.
 */
export const CONFLICT =
  "Cet élément a été modifié par quelqu'un d'autre pendant que vous l'éditiez. Vos modifications ne sont pas enregistrées : rechargez la page pour voir la dernière version, puis refaites-les.";

export const LANG_LABELS: Record<Lang, string> = { fr: 'Français', en: 'English', es: 'Español' };

/** Rows per page of every content list. */
export const PAGE_SIZE = 20;

export const TEXT_MAX = 300;
export const RICH_MAX = 100_000;
export const URL_MAX = 2000;

export const requiredText = (message: string, max = TEXT_MAX) =>
  z
    .string({ error: message })
    .trim()
    .min(1, { error: message })
    .max(max, { error: `Ce champ ne peut pas dépasser ${max} caractères.` });

export const optionalText = (max = TEXT_MAX) => z.string().trim().max(max, { error: `Ce champ ne peut pas dépasser ${max} caractères.` }).default('');

export const richText = z.string().max(RICH_MAX, { error: 'Ce texte est trop long.' }).default('');

const MEDIA_URL = /^(https?:\/\/|\/)[^\s"'<>]*$/i;
const HTTP_URL = /^https?:\/\/[^\s"'<>]+$/i;

/** A file of the media library (`/media/…`) or an http(s) address. */
export const mediaUrl = (message: string) =>
  requiredText(message, URL_MAX).refine((v) => MEDIA_URL.test(v), { error: 'Saisissez une adresse http(s) ou un chemin de la médiathèque (/media/…).' });

export const optionalMediaUrl = z
  .string()
  .trim()
  .max(URL_MAX)
  .refine((v) => v === '' || MEDIA_URL.test(v), { error: 'Saisissez une adresse http(s) ou un chemin de la médiathèque (/media/…).' })
  .default('');

export const httpUrl = (message: string) =>
  requiredText(message, URL_MAX).refine((v) => HTTP_URL.test(v), { error: 'Saisissez une adresse commençant par http:// ou https://.' });

/** A calendar date as YYYY-MM-DD (what `<input type="date">` sends). */
export const isoDate = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .min(1, { error: message })
    .refine((v) => /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v), {
      error: 'Saisissez une date valide (AAAA-MM-JJ).',
    });

/** Today as YYYY-MM-DD, in Paris (the foundation's day). */
export function today(now = new Date()): string {
  return parisDay(now);
}

/** `{ 'fr.title': schema, 'en.title': schema, … }` for the translated fields of a form. */
export function perLanguage(fields: Record<string, (lang: Lang) => z.ZodType<string, any>>): Record<string, z.ZodType<string, any>> {
  const out: Record<string, z.ZodType<string, any>> = {};
  for (const lang of LANGS) for (const [name, make] of Object.entries(fields)) out[`${lang}.${name}`] = make(lang);
  return out;
}

/** The flat `fr.title` values of a parsed form, as `{ fr: { title }, en: …, es: … }`. */
export function translationsOf<K extends string>(values: Record<string, unknown>, keys: readonly K[]): Record<Lang, Record<K, string>> {
  return Object.fromEntries(
    LANGS.map((lang) => [lang, Object.fromEntries(keys.map((k) => [k, String(values[`${lang}.${k}`] ?? '')]))]),
  ) as Record<Lang, Record<K, string>>;
}

/** The inverse: stored translations as the flat values a form shows. */
export function flattenTranslations(translations: Partial<Record<Lang, Record<string, string>>>, keys: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const lang of LANGS) for (const k of keys) out[`${lang}.${k}`] = translations[lang]?.[k] ?? '';
  return out;
}

/** ' (en)' suffix for a translated field's label. */
export const inLang = (label: string, lang: Lang) => `${label} (${lang.toUpperCase()})`;

/** Required-in-each-language message. */
export const requiredIn = (what: string) => (lang: Lang) => `${what} est obligatoire en ${LANG_LABELS[lang].toLowerCase()}.`;

/** The language whose tab holds the first error, if any. */
export function firstErrorLang(errors: Record<string, string> | undefined): Lang | undefined {
  for (const key of Object.keys(errors ?? {})) {
    const lang = key.split('.')[0] as Lang;
    if ((LANGS as readonly string[]).includes(lang)) return lang;
  }
  return undefined;
}

/** Page number and search text of a list's URL. */
export function listQuery(url: URL): { q: string; page: number } {
  const q = (url.searchParams.get('q') ?? '').trim().slice(0, 100);
  const page = Math.max(1, Math.min(10_000, Number.parseInt(url.searchParams.get('page') ?? '1', 10) || 1));
  return { q, page };
}

export interface Paged<T> {
  items: T[];
  total: number;
  page: number;
  pages: number;
  q: string;
}
