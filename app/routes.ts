import { type RouteConfig, type RouteConfigEntry, index, layout, route } from '@react-router/dev/routes';
import { routes as contentRoutes } from './routes/admin/content/routes';
import { routes as mediaRoutes } from './routes/admin/media/routes';
import { routes as reportRoutes } from './routes/admin/reports/routes';
import { routes as editorialRoutes } from './routes/admin/editorial/routes';
import { routes as campaignRoutes } from './routes/admin/campaigns/routes';
import { adminRoutes as paymentAdminRoutes, publicRoutes as paymentPublicRoutes } from './routes/payments/routes';
import { adminRoutes as receiptAdminRoutes } from './routes/receipts/routes';
import { adminRoutes as offlineGiftRoutes } from './routes/offline-gifts/routes';
import { adminRoutes as importRoutes } from './routes/imports/routes';
import { adminRoutes as membershipAdminRoutes, sitePages as membershipPages } from './routes/membership/routes';
import { adminRoutes as letterAdminRoutes, resources as letterResources, sitePages as letterPages } from './routes/letters/routes';
import { adminRoutes as moneyAdminRoutes, resources as moneyResources, sitePages as moneyPages } from './routes/transparency/routes';
import { adminRoutes as accountingAdminRoutes } from './routes/accounting/routes';
import { adminRoutes as peopleAdminRoutes } from './routes/people/routes';
import { adminRoutes as donorAdminRoutes, downloads as donorDownloads, sitePages as donorPages } from './routes/donors/routes';

/** The public site's pages, inside its layout; French at these paths. */
const sitePages: RouteConfigEntry[] = [
  index('routes/site/home.tsx'),
  route('a-propos', 'routes/site/about.tsx'),
  route('missions', 'routes/site/missions.tsx'),
  route('nos-actions', 'routes/site/projects.tsx'),
  route('partenaires', 'routes/site/partners.tsx'),
  route('blog', 'routes/site/blog.tsx'),
  route('blog/:postId', 'routes/site/blog-post.tsx'),
  route('contact', 'routes/site/contact.tsx'),
  route('faire-un-don', 'routes/site/donate.tsx'),
  route('campagnes', 'routes/site/campaigns.tsx'),
  route('campagnes/:slug', 'routes/site/campaign.tsx'),
  route('devenir-membre', 'routes/site/member.tsx'),
  route('devenir-membre/merci', 'routes/site/member-thanks.tsx'),
  route('devenir-membre/annule', 'routes/site/member-cancel.tsx'),
  route('payment/success', 'routes/site/payment-success.tsx'),
  route('payment/cancel', 'routes/site/payment-cancel.tsx'),
  route('confidentialite', 'routes/site/privacy.tsx'),
  route('mentions-legales', 'routes/site/terms.tsx'),
  ...donorPages,
  ...letterPages,
  ...membershipPages,
  ...moneyPages,
  route('*', 'routes/site/not-found.tsx'),
];

const OTHER_LANGS = ['en', 'es'] as const;

/** The same routes under another id (React Router wants one id per route; the module is shared). */
function inLanguage(lang: string, entries: RouteConfigEntry[]): RouteConfigEntry[] {
  return entries.map((e) => ({ ...e, id: `${lang}/${e.id ?? e.file.replace(/\.[jt]sx?$/, '')}`, children: e.children && inLanguage(lang, e.children) }));
}

export default [
  // The back office comes before the site's catch-all, which would otherwise answer 404 for /admin/*.
  layout('routes/auth/layout.tsx', [
  route('admin/login', 'routes/auth/login.tsx'),
  route('admin/setup', 'routes/auth/setup.tsx'),
  route('admin/logout', 'routes/auth/logout.tsx'),
  route('admin/invitation/:token', 'routes/auth/invitation.tsx'),
  route('admin/mot-de-passe-oublie', 'routes/auth/forgot-password.tsx'),
  route('admin/reinitialiser/:token', 'routes/auth/reset-password.tsx'),
  ]),
  route('admin', 'routes/admin/layout.tsx', [
  index('routes/admin/index.tsx'),
  route('dashboard', 'routes/admin/dashboard.tsx'),
  route('users', 'routes/admin/users/list.tsx'),
  route('users/new', 'routes/admin/users/new.tsx'),
  route('users/:userId', 'routes/admin/users/edit.tsx'),
  route('users/:userId/supprimer', 'routes/admin/users/delete.tsx'),
  route('mon-compte', 'routes/admin/account.tsx'),
  route('courriels', 'routes/admin/outbox.tsx'),
  ...contentRoutes,
  ...mediaRoutes,
  ...editorialRoutes,
  ...campaignRoutes,
  ...paymentAdminRoutes,
  ...offlineGiftRoutes,
  ...importRoutes,
  ...receiptAdminRoutes,
  ...membershipAdminRoutes,
  ...reportRoutes,
  ...moneyAdminRoutes,
  ...accountingAdminRoutes,
  ...donorAdminRoutes,
  ...peopleAdminRoutes,
  ...letterAdminRoutes,
    // Paths no screen owns answer 404 (after the guard's role check).
  route('*', 'routes/admin/not-found.tsx'),
  ]),
  ...paymentPublicRoutes,
  ...donorDownloads,
  ...letterResources,
  ...moneyResources,
  layout('routes/site/layout.tsx', sitePages),
  // The same pages in English and Spanish, each at its own address (ADR 026): /en/…, /es/….
  ...OTHER_LANGS.map((lang) => route(lang, 'routes/site/layout.tsx', { id: `${lang}/routes/site/layout` }, inLanguage(lang, sitePages))),
  route('sitemap.xml', 'routes/resources/sitemap.ts'),
  route('blog/feed.xml', 'routes/resources/blog-feed.ts'),
  route('robots.txt', 'routes/resources/robots.ts'),
] satisfies RouteConfig;
