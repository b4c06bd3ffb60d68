import { useLocation } from 'react-router';
import { SOCIAL_NETWORKS, socialUrl, type SiteSettings, type SocialNetwork } from '~/domain/settings/site-settings';
import { useI18n } from '~/lib/i18n';
import { SiteLink } from '~/ui/primitives/links';
import { NAV_ITEMS } from './nav';
import { SignupForm } from './SignupForm';

const icons: Record<SocialNetwork, string> = {
  facebook: 'M14 8h3V4h-3a4 4 0 0 0-4 4v2H8v4h2v6h4v-6h3l1-4h-4V8z',
  twitter: 'M4 4l16 16M20 4L4 20',
  linkedin: 'M6 9v11M6 5v.01M10 20v-7a3 3 0 0 1 6 0v7M10 9v11',
  youtube: 'M3 8a3 3 0 0 1 3-3h12a3 3 0 0 1 3 3v8a3 3 0 0 1-3 3H6a3 3 0 0 1-3-3zM10 9l5 3-5 3z',
};

function SocialIcon({ network }: { network: SocialNetwork }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
      <path d={icons[network]} />
    </svg>
  );
}

/** The contact details, with their fallbacks (an empty setting shows the foundation's default) already applied by the layout's loader. */
export interface FooterContact {
  email: string;
  phone: string;
  address: string;
}

export function Footer({ settings, contact }: { settings: SiteSettings; contact: FooterContact }) {
  const { t } = useI18n();
  const { pathname } = useLocation();
  const socialClass = 'inline-flex h-11 w-11 items-center justify-center rounded-full bg-white/10 text-white hover:bg-white/20';

  return (
    <footer className="bg-gray-900 text-gray-200">
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-12 sm:px-6 md:grid-cols-2 lg:grid-cols-4">
        <div>
          <p className="text-lg font-bold text-white">{t('site.name')}</p>
          <p className="mt-3 text-sm leading-6">{t('footer.slogan')}</p>
          <p className="mt-5 text-sm font-semibold text-white">{t('footer.follow')}</p>
          <ul className="mt-3 flex gap-3">
            {SOCIAL_NETWORKS.map(({ key, label }) => {
              const href = socialUrl(settings, key);
              return (
                <li key={key}>
                  {href ? (
                    <a href={href} target="_blank" rel="noopener noreferrer" aria-label={label} className={socialClass}>
                      <SocialIcon network={key} />
                    </a>
                  ) : (
                    <button
                      type="button"
                      aria-label={`${label} : ${t('footer.socialNotConfigured')}`}
                      className={`${socialClass} opacity-70`}
                      data-toast-title={t('footer.socialNotConfigured')}
                      data-toast-description={t('footer.socialNotConfiguredDesc', { network: label })}
                    >
                      <SocialIcon network={key} />
                    </button>
                  )}
                </li>
              );
            })}
          </ul>
        </div>
        <nav aria-label={t('footer.navigation')}>
          <h2 className="text-sm font-semibold uppercase tracking-wide text-white">{t('footer.navigation')}</h2>
          <ul className="mt-3 space-y-1 text-sm">
            {NAV_ITEMS.map((item) => (
              <li key={item.to}>
                <SiteLink to={item.to} className="inline-block py-1.5 hover:text-white hover:underline">
                  {t(item.label)}
                </SiteLink>
              </li>
            ))}
          </ul>
        </nav>
        <div>
          <h2 className="text-sm font-semibold uppercase tracking-wide text-white">{t('footer.legal')}</h2>
          <ul className="mt-3 space-y-1 text-sm">
            <li>
              <SiteLink to="/confidentialite" className="inline-block py-1.5 hover:text-white hover:underline">
                {t('footer.privacy')}
              </SiteLink>
            </li>
            <li>
              <SiteLink to="/mentions-legales" className="inline-block py-1.5 hover:text-white hover:underline">
                {t('footer.terms')}
              </SiteLink>
            </li>
            <li>
              <SiteLink to="/ou-va-votre-argent" className="inline-block py-1.5 hover:text-white hover:underline">
                {t('money.title')}
              </SiteLink>
            </li>
            <li>
              <SiteLink to="/mon-espace" className="inline-block py-1.5 hover:text-white hover:underline">
                {t('donorSpace.spaceLink')}
              </SiteLink>
            </li>
          </ul>
        </div>
        <div>
          <h2 className="text-sm font-semibold uppercase tracking-wide text-white">{t('footer.contact')}</h2>
          <address className="mt-3 space-y-2 text-sm not-italic">
            <p>
              <a href={`mailto:${contact.email}`} className="inline-block py-1 hover:text-white hover:underline">
                {contact.email}
              </a>
            </p>
            <p>
              <a href={`tel:${contact.phone.replace(/[^\d+]/g, '')}`} className="inline-block py-1 hover:text-white hover:underline">
                {contact.phone}
              </a>
            </p>
            <p>{contact.address}</p>
          </address>
        </div>
      </div>
      <section aria-labelledby="footer-newsletter" className="border-t border-white/10">
        <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6">
          <div className="max-w-xl">
            <h2 id="footer-newsletter" className="text-sm font-semibold uppercase tracking-wide text-white">{t('newsletter.title')}</h2>
            <SignupForm id="footer-signup" from={pathname} dark />
          </div>
        </div>
      </section>
      <div className="border-t border-white/10">
        <p className="mx-auto max-w-7xl px-4 py-5 text-sm sm:px-6">
          {/* The back office is in French at one address: not a page of the site's languages. */}
          <a href="/admin/login" aria-label={t('footer.adminLink')} className="inline-block min-w-6 rounded px-1 py-0.5 hover:text-white">
            ©
          </a>{' '}
          2020 {t('site.name')}. {t('footer.copyright')}
        </p>
      </div>
    </footer>
  );
}
