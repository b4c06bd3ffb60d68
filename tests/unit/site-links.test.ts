import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { I18nContext, langOfPath, makeI18n, type Lang } from '~/lib/i18n';
import { isCurrentPath, SiteLink, SiteNavLink, type SitePath } from '~/ui/primitives/links';
import fr from '~/locales/fr';

/** An element as a page in `lang` renders it. */
const inLang = (lang: Lang, element: React.ReactElement) => createElement(I18nContext.Provider, { value: makeI18n(lang, fr) }, element);

/** The public menu's entries as a visitor's browser gets them, on the page at `pathname`. */
function menuAt(pathname: string, items: { to: SitePath; end?: boolean }[]): string {
  const element = createElement('nav', null, ...items.map((item) => createElement(SiteNavLink, { key: item.to, to: item.to, end: item.end, className: ({ isActive }) => (isActive ? 'on' : 'off'), children: item.to })));
  const router = createMemoryRouter([{ path: '*', element }], { initialEntries: [pathname] });
  return renderToStaticMarkup(inLang(langOfPath(pathname), createElement(RouterProvider, { router })));
}

describe('public links', () => {
  it('are plain anchors to the path given, at the address of the page’s language', () => {
    const link = createElement(SiteLink, { to: '/faire-un-don?campagne=kaya', className: 'b', children: 'Donner' });
    expect(renderToStaticMarkup(inLang('fr', link))).toBe('<a href="/faire-un-don?campagne=kaya" class="b">Donner</a>');
    expect(renderToStaticMarkup(inLang('en', link))).toBe('<a href="/en/faire-un-don?campagne=kaya" class="b">Donner</a>');
    expect(renderToStaticMarkup(inLang('es', createElement(SiteLink, { to: '/', children: 'Inicio' })))).toBe('<a href="/es">Inicio</a>');
  });

  it('mark the menu entry of the page shown, and of the pages below it unless it is the home page', () => {
    const items: { to: SitePath; end?: boolean }[] = [{ to: '/', end: true }, { to: '/blog' }, { to: '/contact' }];
    expect(menuAt('/', items)).toBe('<nav><a href="/" aria-current="page" class="on">/</a><a href="/blog" class="off">/blog</a><a href="/contact" class="off">/contact</a></nav>');
    expect(menuAt('/blog/42', items)).toBe('<nav><a href="/" class="off">/</a><a href="/blog" aria-current="page" class="on">/blog</a><a href="/contact" class="off">/contact</a></nav>');
    // The same pages in English: the language prefix is not part of what is compared.
    expect(menuAt('/en', items)).toBe('<nav><a href="/en" aria-current="page" class="on">/</a><a href="/en/blog" class="off">/blog</a><a href="/en/contact" class="off">/contact</a></nav>');
    expect(menuAt('/en/blog/42', items)).toBe('<nav><a href="/en" class="off">/</a><a href="/en/blog" aria-current="page" class="on">/blog</a><a href="/en/contact" class="off">/contact</a></nav>');
  });

  it('decide the current page as React Router’s NavLink does', () => {
    expect(isCurrentPath('/blog', '/blog')).toBe(true);
    expect(isCurrentPath('/Blog/', '/blog')).toBe(true);
    expect(isCurrentPath('/blog/1', '/blog')).toBe(true);
    expect(isCurrentPath('/blog/1', '/blog', true)).toBe(false);
    expect(isCurrentPath('/blogue', '/blog')).toBe(false);
    expect(isCurrentPath('/a-propos', '/')).toBe(false);
    expect(isCurrentPath('/', '/', true)).toBe(true);
    expect(isCurrentPath('/missions', '/missions/')).toBe(true);
    expect(isCurrentPath('/es/missions', '/missions')).toBe(true);
    expect(isCurrentPath('/es', '/', true)).toBe(true);
    expect(isCurrentPath('/estival', '/', true)).toBe(false);
  });
});
