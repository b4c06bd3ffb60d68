import type { AnchorHTMLAttributes } from 'react';
import { useLocation } from 'react-router';
import { pathWithoutLang, sitePath, useI18n } from '~/lib/i18n';

/**
 * Links of the pages that never hydrate: the public site and the donor space (ADR 003). A link
 * there is only ever followed by the browser, so it is a plain anchor. React Router's `<Link>`
 * resolved every `to` against the route tree on each render, for a client router these pages never
 * start: about 8 % of a rendered home page's CPU (ADR 017). Paths are absolute, so the href is the
 * path in the page's language (`/a-propos` on an English page leads to `/en/a-propos`, ADR 026).
 * The back office, which hydrates, keeps React Router's links.
 */
export type SitePath = `/${string}`;

type AnchorProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'>;

export function SiteLink({ to, ...props }: AnchorProps & { to: SitePath }) {
  return <a href={useSitePath()(to)} {...props} />;
}

/** The page's language's address of a site path: for links, forms' actions and redirects' targets in pages. */
export function useSitePath(): (path: SitePath) => string {
  const { lang } = useI18n();
  return (path) => sitePath(lang, path);
}

/**
 * Whether `to` is the page being shown, as React Router's `NavLink` decides it: the same path, or
 * (unless `end`) a page below it. Case, a trailing slash and the language prefix do not count.
 */
export function isCurrentPath(pathname: string, to: SitePath, end = false): boolean {
  const here = pathWithoutLang(pathname).toLowerCase();
  const target = to.length > 1 && to.endsWith('/') ? to.slice(0, -1).toLowerCase() : to.toLowerCase();
  if (here === target || (here.endsWith('/') && here.slice(0, -1) === target)) return true;
  if (end || target === '/') return false;
  return here.startsWith(`${target}/`);
}

/** A menu entry: `aria-current="page"` and the active style on the page it leads to. */
export function SiteNavLink({ to, end, className, children }: { to: SitePath; end?: boolean; className: (state: { isActive: boolean }) => string; children: React.ReactNode }) {
  const isActive = isCurrentPath(useLocation().pathname, to, end);
  return (
    <a href={useSitePath()(to)} aria-current={isActive ? 'page' : undefined} className={className({ isActive })}>
      {children}
    </a>
  );
}
