import type { RouteConfigEntry } from '@react-router/dev/routes';
import { route } from '@react-router/dev/routes';

/** News by email (ADR 022): public pages inside the site's layout, the one-click endpoint outside it, admin screens under /admin. */
export const sitePages: RouteConfigEntry[] = [
  route('lettre/inscription', 'routes/letters/signup.tsx'),
  route('lettre/confirmer/:token', 'routes/letters/confirm.tsx'),
  route('lettre/desabonnement/:token', 'routes/letters/unsubscribe.tsx'),
];
export const resources: RouteConfigEntry[] = [
  route('lettre/desabonnement/:token/un-clic', 'routes/letters/one-click.ts'),
  route('webhooks/mail/mailgun', 'routes/letters/webhook-mailgun.ts'),
  route('webhooks/mail/mailgun/entrant', 'routes/letters/webhook-mailgun-inbound.ts'),
];
export const adminRoutes: RouteConfigEntry[] = [
  route('lettres', 'routes/letters/admin-letters.tsx'),
  route('lettres/nouvelle', 'routes/letters/admin-new.tsx'),
  route('lettres/rythme', 'routes/letters/admin-rate.tsx'),
  route('lettres/dns', 'routes/letters/admin-dns.tsx'),
  route('lettres/expediteur', 'routes/letters/admin-sender.tsx'),
  route('lettres/abonnes', 'routes/letters/admin-subscribers.tsx'),
  route('lettres/abonnes.csv', 'routes/letters/admin-subscribers-csv.ts'),
  route('lettres/abonnes/:id/lever', 'routes/letters/admin-lift.tsx'),
  route('lettres/abonnes/:id/desabonner', 'routes/letters/admin-remove.tsx'),
  route('lettres/:id', 'routes/letters/admin-letter.tsx'),
  route('lettres/:id/apercu/:lang', 'routes/letters/admin-preview.ts'),
];
