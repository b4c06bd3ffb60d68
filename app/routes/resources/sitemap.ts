import { listPublishedPostIds } from '~/domain/blog/posts.server';
import { listPublishedCampaignSlugs } from '~/domain/campaigns/campaigns.server';
import { publishedYears } from '~/domain/transparency/years.server';
import { LANGS } from '~/lib/i18n';
import { db, runtime } from '~/lib/runtime.server';
import { langUrl } from '~/lib/seo';
import type { Route } from './+types/sitemap';

/** Public pages that belong in search engines (the payment pages do not). */
export const SITEMAP_PATHS = ['/', '/a-propos', '/missions', '/nos-actions', '/partenaires', '/blog', '/contact', '/faire-un-don', '/campagnes', '/devenir-membre', '/confidentialite', '/mentions-legales', '/ou-va-votre-argent'];

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Every public page and published post, each language variant with its hreflang alternates. */
export async function loader({ request }: Route.LoaderArgs) {
  const origin = runtime().publicUrl ?? new URL(request.url).origin;
  const posts = await listPublishedPostIds(db());
  const campaigns = await listPublishedCampaignSlugs(db());
  // Where the money goes: the latest published year is the page itself, the earlier ones have their own address.
  const earlierYears = (await publishedYears(db())).slice(1);
  const entries: { path: string; lastmod?: string }[] = [
    ...SITEMAP_PATHS.map((path) => ({ path })),
    ...posts.map((p) => ({ path: `/blog/${encodeURIComponent(p.id)}`, lastmod: p.updated_at.slice(0, 10) })),
    ...campaigns.map((c) => ({ path: `/campagnes/${encodeURIComponent(c.slug)}`, lastmod: c.updated_at.slice(0, 10) })),
    ...earlierYears.map((y) => ({ path: `/ou-va-votre-argent/${y}` })),
  ];
  const urls = entries.flatMap(({ path, lastmod }) =>
    LANGS.map((lang) => {
      const alternates = LANGS.map((l) => `    <xhtml:link rel="alternate" hreflang="${l}" href="${escape(langUrl(origin, path, l))}"/>`).join('\n');
      return `  <url>\n    <loc>${escape(langUrl(origin, path, lang))}</loc>\n${lastmod ? `    <lastmod>${lastmod}</lastmod>\n` : ''}${alternates}\n    <xhtml:link rel="alternate" hreflang="x-default" href="${escape(origin + path)}"/>\n  </url>`;
    }),
  );
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n${urls.join('\n')}\n</urlset>\n`;
  return new Response(xml, { headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=600' } });
}
