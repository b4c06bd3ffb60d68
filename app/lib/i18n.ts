import { createContext, useContext } from 'react';
import type { Messages } from '~/locales/fr';
import { interpolate } from './interpolate';

export { LANGS, DEFAULT_LANG, isLang, langOfPath, hasLangPrefix, pathWithoutLang, sitePath, type Lang } from './lang-path';
import { DEFAULT_LANG, LANGS, isLang, type Lang } from './lang-path';

export const LOCALES: Record<Lang, string> = { fr: 'fr-FR', en: 'en-GB', es: 'es-ES' };

/** 'en-US' → 'en'; anything else → undefined. */
export function baseLang(code: string | null | undefined): Lang | undefined {
  const base = code?.trim().toLowerCase().split(/[-_]/)[0];
  return isLang(base) ? base : undefined;
}

type Join<K, P> = K extends string ? (P extends string ? `${K}.${P}` : never) : never;
type Paths<T> = { [K in keyof T]: T[K] extends string ? K & string : Join<K, Paths<T[K]>> }[keyof T];
export type MessageKey = Paths<Messages>;
export type Vars = Record<string, string | number>;

/** Each language's messages flattened once ('site.nav.home' → text): a render looks up hundreds. */
const flattened = new WeakMap<object, Map<string, string>>();
function flatten(node: Record<string, unknown>, prefix: string, into: Map<string, string>): Map<string, string> {
  for (const [k, v] of Object.entries(node)) {
    if (typeof v === 'string') into.set(prefix + k, v);
    else if (v && typeof v === 'object') flatten(v as Record<string, unknown>, `${prefix}${k}.`, into);
  }
  return into;
}

export function translate(messages: Messages, key: MessageKey, vars?: Vars): string {
  let flat = flattened.get(messages);
  if (!flat) {
    flat = flatten(messages as unknown as Record<string, unknown>, '', new Map());
    flattened.set(messages, flat);
  }
  const text = flat.get(key) ?? key;
  return vars ? interpolate(text, vars) : text;
}

export interface I18n {
  lang: Lang;
  t: (key: MessageKey, vars?: Vars) => string;
  formatDate: (isoDate: string) => string;
}

const dateFormats = new Map<Lang, Intl.DateTimeFormat>();

export function makeI18n(lang: Lang, messages: Messages): I18n {
  let dateFormat = dateFormats.get(lang);
  if (!dateFormat) {
    dateFormat = new Intl.DateTimeFormat(LOCALES[lang], { dateStyle: 'long', timeZone: 'UTC' });
    dateFormats.set(lang, dateFormat);
  }
  const format = dateFormat;
  return {
    lang,
    t: (key, vars) => translate(messages, key, vars),
    formatDate: (iso) => {
      const d = new Date(iso.length === 10 ? `${iso}T00:00:00Z` : iso);
      return Number.isNaN(d.getTime()) ? iso : format.format(d);
    },
  };
}

/**
 * Each language's messages as the server knows them (app/lib/i18n.server.ts registers them). The
 * root loader sends its language's messages to the browser only for the pages that hydrate (the
 * back office, ADR 003): a public page never runs React there, and encoding 21 KB of messages into
 * every public page's loader data cost a tenth of its render (ADR 017). A page rendered without
 * them reads them here.
 */
const serverMessages = new Map<Lang, Messages>();

export function registerMessages(all: Record<Lang, Messages>): void {
  for (const lang of LANGS) serverMessages.set(lang, all[lang]);
}

/** The messages the root loader sent, else the server's for that language. */
export function messagesOf(lang: Lang, sent: Messages | undefined): Messages {
  const messages = sent ?? serverMessages.get(lang);
  if (!messages) throw new Error(`no messages for "${lang}": the root loader sends them to every page that hydrates`);
  return messages;
}

export const I18nContext = createContext<I18n | null>(null);

export function useI18n(): I18n {
  const i18n = useContext(I18nContext);
  if (!i18n) throw new Error('useI18n outside of I18nContext');
  return i18n;
}

/** Picks a translated value for the current language, falling back to French when it is empty. */
export function localized<T extends object>(translations: Partial<Record<Lang, Partial<T>>>, lang: Lang, field: keyof T): string {
  const value: unknown = translations[lang]?.[field];
  if (typeof value === 'string' && value.trim() !== '') return value;
  const fallback: unknown = translations[DEFAULT_LANG]?.[field];
  return typeof fallback === 'string' ? fallback : '';
}
