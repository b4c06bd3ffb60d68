import en from '~/locales/en';
import es from '~/locales/es';
import fr, { type Messages } from '~/locales/fr';
import { DEFAULT_LANG, baseLang, hasLangPrefix, isLang, langOfPath, registerMessages, sitePath, type Lang } from './i18n';

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
}

/**
 * The language of a request (ADR 026): the address's prefix (`/en/…`, `/es/…`); else `?lng=`,
 * which only what is not a page still reads (an API call from an English page, an error answer);
 * else French. Neither a cookie nor Accept-Language chooses a page's language: the same address
 * is the same page for every visitor, so any cache may keep it.
 */
export function chooseLang(pathname: string, query: string | null | undefined): LangChoice {
  if (hasLangPrefix(pathname)) return { lang: langOfPath(pathname) };
  return { lang: isLang(query) ? query : DEFAULT_LANG };
}

export function detectLang(request: Request): LangChoice {
  const url = new URL(request.url);
  return chooseLang(url.pathname, url.searchParams.get('lng'));
}

/** A site path at the address of the request's language: where a page's form redirects to. */
export function inRequestLang(request: Request, path: string): string {
  return sitePath(detectLang(request).lang, path);
}
