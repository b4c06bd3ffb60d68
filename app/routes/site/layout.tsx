import { Outlet, useLocation, useMatches } from 'react-router';
import type { Route } from './+types/layout';
import { CONTACT_FALLBACKS } from '~/domain/settings/site-settings';
import { useI18n } from '~/lib/i18n';
import { ToastRegion, type ServerToast } from '~/ui/site/ToastRegion';
import { Footer } from '~/ui/site/Footer';
import { Header } from '~/ui/site/Header';
import { WhatsAppButton } from '~/ui/site/WhatsAppButton';
import { publishedImage, publishedSettings } from './published.server';

export async function loader() {
  const settings = await publishedSettings();
  const logo = await publishedImage(settings.logoUrl || settings.siteLogoUrl);
  return {
    settings,
    logo,
    contact: {
      email: settings.contactEmail || CONTACT_FALLBACKS.contactEmail,
      phone: settings.phone || CONTACT_FALLBACKS.phone,
      address: settings.address || CONTACT_FALLBACKS.address,
    },
  };
}

export default function SiteLayout({ loaderData }: Route.ComponentProps) {
  const { t } = useI18n();
  const location = useLocation();
  // A page whose loader returns `toast` (a form's result after its redirect) shows it on arrival.
  const toast = useMatches()
    .map((m) => (m.loaderData as { toast?: ServerToast } | undefined)?.toast)
    .find(Boolean);
  return (
    <>
      <a href="#main" className="sr-only z-50 rounded-md bg-white px-4 py-2 focus:not-sr-only focus:fixed focus:left-4 focus:top-4">
        {t('site.skipToContent')}
      </a>
      <Header logo={loaderData.logo} />
      <main id="main" tabIndex={-1} key={location.pathname} className="page-transition outline-none">
        <Outlet />
      </main>
      <Footer settings={loaderData.settings} contact={loaderData.contact} />
      <WhatsAppButton number={loaderData.settings.whatsAppNumber} />
      <ToastRegion label={t('toast.region')} closeLabel={t('toast.close')} toast={toast} />
    </>
  );
}
