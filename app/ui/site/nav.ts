import type { MessageKey } from '~/lib/i18n';
import type { SitePath } from '~/ui/primitives/links';

/** Public navigation, in menu order: every public page a visitor reaches from the menu. */
export const NAV_ITEMS: { to: SitePath; label: MessageKey }[] = [
  { to: '/', label: 'nav.home' },
  { to: '/a-propos', label: 'nav.about' },
  { to: '/missions', label: 'nav.missions' },
  { to: '/nos-actions', label: 'nav.actions' },
  { to: '/partenaires', label: 'nav.partners' },
  { to: '/blog', label: 'nav.blog' },
  { to: '/contact', label: 'nav.contact' },
];
