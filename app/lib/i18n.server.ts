import en from '~/locales/en';
import es from '~/locales/es';
import fr, { type Messages } from '~/locales/fr';
import { DEFAULT_LANG, LANG_COOKIE, baseLang, isLang, registerMessages, type Lang } from './i18n';

const dictionaries: Record<Lang, Messages> = { fr, en, es };
// Pages rendered without their messages in the loader data (every public page) read them here.
registerMessages(dictionaries);

export function messagesFor(lang: Lang): Messages {
  return dictionaries[lang];
}

export function readCookie(header: string | null, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) {
      try {
        return decodeURIComponent(v.join('='));
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/** Accept-Language → the first supported language, honouring q-values. */
export function fromAcceptLanguage(header: string | null): Lang | undefined {
  if (!header) return undefined;
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { tag, q: q ? Number(q.slice(2)) || 0 : 1, index };
    })
    .filter((x) => x.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of ranked) {
    const lang = baseLang(tag);
    if (lang) return lang;
  }
  return undefined;
}

export interface LangChoice {
  lang: Lang;
  /** Set when ?lng= chose the language: the choice is remembered in a cookie. */
  fromQuery: boolean;
}

/** ?lng=, then the lng cookie, then Accept-Language, else French. */
export function chooseLang(query: string | null | undefined, cookieHeader: string | null | undefined, acceptLanguage: string | null | undefined): LangChoice {
  if (isLang(query)) return { lang: query, fromQuery: true };
  const cookie = readCookie(cookieHeader ?? null, LANG_COOKIE);
  if (isLang(cookie)) return { lang: cookie, fromQuery: false };
  return { lang: fromAcceptLanguage(acceptLanguage ?? null) ?? DEFAULT_LANG, fromQuery: false };
}

export function detectLang(request: Request): LangChoice {
  return chooseLang(new URL(request.url).searchParams.get('lng'), request.headers.get('cookie'), request.headers.get('accept-language'));
}

export function langCookie(lang: Lang, secure: boolean): string {
  return `${LANG_COOKIE}=${lang}; Path=/; Max-Age=31536000; SameSite=Lax${secure ? '; Secure' : ''}`;
}
