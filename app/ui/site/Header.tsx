import { useLocation } from 'react-router';
import type { ImageInfo } from '~/domain/media/media';
import { LANGS, pathWithoutLang, sitePath, useI18n, type Lang } from '~/lib/i18n';
import { buttonClass } from '~/ui/primitives/ButtonLink';
import { Img } from '~/ui/primitives/Img';
import { SiteLink, SiteNavLink } from '~/ui/primitives/links';
import { NAV_ITEMS } from './nav';

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-md px-3 py-2 text-sm font-medium transition-colors hover:bg-brand-50 hover:text-brand-800 ${isActive ? 'text-brand-700 underline decoration-2 underline-offset-8' : 'text-gray-800'}`;

export function Header({ logo }: { logo: ImageInfo | undefined }) {
  const { t, lang } = useI18n();
  const location = useLocation();
  // The same page in another language, at that language's address: every parameter (a preview
  // link's `apercu`, a page number, a result's reference) is kept.
  const langHref = (l: Lang) => sitePath(l, `${pathWithoutLang(location.pathname)}${location.search}`);

  return (
    <header data-sticky-header className="sticky top-0 z-40 border-b border-gray-200 bg-white/95 backdrop-blur">
      <div className="mx-auto flex max-w-7xl items-center justify-between gap-4 px-4 py-3 sm:px-6">
        <SiteLink to="/" className="flex items-center gap-3 rounded-md">
          {logo ? (
            <Img image={logo} alt="" sizes="48px" className="h-12 w-12 object-contain" priority />
          ) : null}
          <span className="text-base font-bold text-brand-800 sm:text-lg">{t('site.name')}</span>
        </SiteLink>

        <nav aria-label={t('nav.label')} className="hidden lg:block">
          <ul className="flex items-center gap-1">
            {NAV_ITEMS.map((item) => (
              <li key={item.to}>
                <SiteNavLink to={item.to} end={item.to === '/'} className={navLinkClass}>
                  {t(item.label)}
                </SiteNavLink>
              </li>
            ))}
          </ul>
        </nav>

        <div className="flex items-center gap-2">
          <details className="relative" data-menu data-testid="language-menu">
            <summary className="flex min-h-11 cursor-pointer list-none items-center gap-1 rounded-md border border-gray-300 px-3 text-sm font-medium [&::-webkit-details-marker]:hidden">
              <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="2">
                <circle cx="12" cy="12" r="9" />
                <path d="M3 12h18M12 3a15 15 0 0 1 0 18M12 3a15 15 0 0 0 0 18" />
              </svg>
              <span>{lang.toUpperCase()}</span>
              <span className="sr-only"> – {t('language.choose')}</span>
            </summary>
            <ul className="absolute right-0 mt-2 w-40 rounded-md border border-gray-200 bg-white py-1 shadow-lg">
              {LANGS.map((l) => (
                <li key={l}>
                  <a
                    href={langHref(l)}
                    hrefLang={l}
                    lang={l}
                    aria-current={l === lang ? 'true' : undefined}
                    className={`block px-4 py-2 text-sm hover:bg-brand-50 ${l === lang ? 'font-semibold text-brand-700' : ''}`}
                  >
                    {t(`language.${l}`)}
                  </a>
                </li>
              ))}
            </ul>
          </details>

          <div className="hidden sm:block">
            <SiteLink to="/faire-un-don" className={buttonClass('primary')}>
              {t('nav.donate')}
            </SiteLink>
          </div>

          <details className="lg:hidden" data-menu data-testid="mobile-menu">
            <summary
              className="flex h-11 w-11 cursor-pointer list-none items-center justify-center rounded-md border border-gray-300 [&::-webkit-details-marker]:hidden"
              aria-label={t('nav.openMenu')}
            >
              <svg aria-hidden="true" viewBox="0 0 24 24" className="h-6 w-6" fill="none" stroke="currentColor" strokeWidth="2">
                <path d="M4 6h16M4 12h16M4 18h16" />
              </svg>
            </summary>
            <div className="fixed inset-y-0 right-0 z-50 flex w-72 max-w-[85vw] flex-col gap-2 overflow-y-auto bg-white p-6 shadow-2xl motion-safe:animate-[page-in_200ms_ease-out]">
              <button type="button" data-menu-close className="js-only self-end rounded-md px-3 py-2 text-sm font-medium underline">
                {t('nav.closeMenu')}
              </button>
              <nav aria-label={t('nav.label')}>
                <ul className="flex flex-col gap-1">
                  {NAV_ITEMS.map((item) => (
                    <li key={item.to}>
                      <SiteNavLink to={item.to} end={item.to === '/'} className={({ isActive }) => `block rounded-md px-3 py-3 text-base font-medium ${isActive ? 'bg-brand-50 text-brand-800' : 'text-gray-800'}`}>
                        {t(item.label)}
                      </SiteNavLink>
                    </li>
                  ))}
                </ul>
              </nav>
              <SiteLink to="/faire-un-don" className={buttonClass('primary', 'mt-4')}>
                {t('nav.donate')}
              </SiteLink>
              <SiteLink to="/devenir-membre" className={buttonClass('secondary')}>
                {t('nav.member')}
              </SiteLink>
            </div>
          </details>
        </div>
      </div>
    </header>
  );
}
