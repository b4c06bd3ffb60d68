import { getPublishedPost, listPublishedPosts } from '~/domain/blog/posts.server';
import { listOpenCampaigns, type PublicCampaign } from '~/domain/campaigns/campaigns.server';
import type { PageId } from '~/domain/content/pages';
import { getLocalizedPage } from '~/domain/content/pages.server';
import type { ImageInfo } from '~/domain/media/media';
import { resolveImages } from '~/domain/media/images.server';
import { listPartners } from '~/domain/partners/partners.server';
import { listActiveProjects } from '~/domain/projects/projects.server';
import type { SiteSettings } from '~/domain/settings/site-settings';
import { getSiteSettings } from '~/domain/settings/site-settings.server';
import type { Lang } from '~/lib/i18n';
import { db, runtime } from '~/lib/runtime.server';

/**
 * What the public pages read on every render and editors change rarely (settings, pages, posts,
 * projects, partners, stored images, the open campaigns with their totals), read once per content
 * version (`ContentMemo`, ADR 017): dropped whenever the HTML cache is, so a rendered page is as
 * fresh as a cached one. Drafts (a preview), a campaign's own page and the donation pages read the
 * database.
 */

export function publishedSettings(): Promise<Readonly<SiteSettings>> {
  return runtime().memo.get('settings', () => getSiteSettings(db()));
}

export function publishedPage(pageId: PageId, lang: Lang): Promise<Awaited<ReturnType<typeof getLocalizedPage>>> {
  return runtime().memo.get(`page:${pageId}:${lang}`, () => getLocalizedPage(db(), pageId, lang));
}

export function publishedPost(id: string, lang: Lang): Promise<Awaited<ReturnType<typeof getPublishedPost>>> {
  return runtime().memo.get(`post:${id}:${lang}`, () => getPublishedPost(db(), id, lang));
}

export function publishedPosts(lang: Lang): Promise<Awaited<ReturnType<typeof listPublishedPosts>>> {
  return runtime().memo.get(`posts:${lang}`, () => listPublishedPosts(db(), lang));
}

export function activeProjects(lang: Lang): Promise<Awaited<ReturnType<typeof listActiveProjects>>> {
  return runtime().memo.get(`projects:${lang}`, () => listActiveProjects(db(), lang));
}

export function publishedPartners(): Promise<Awaited<ReturnType<typeof listPartners>>> {
  return runtime().memo.get('partners', () => listPartners(db()));
}

/**
 * The campaigns open to gifts on `day`, with their totals. A designated gift that succeeds or is
 * refunded drops them with the cached pages (ADR 014: at once, then at most once a minute), and the
 * day is part of the key.
 */
export function openCampaigns(lang: Lang, day: string, limit?: number): Promise<readonly Readonly<PublicCampaign>[]> {
  return runtime().memo.get(`campaigns:${lang}:${day}:${limit ?? 'all'}`, () => listOpenCampaigns(db(), lang, { day, limit }));
}

/**
 * `resolveImages` for stored images a public page shows (a stored image's sizes never change; a
 * deleted one changes content). Each call gets its own Map over the shared, frozen entries.
 */
export async function publishedImages(urls: Array<string | undefined>): Promise<Map<string, ImageInfo>> {
  const entries = await runtime().memo.get(`images:${urls.join('\n')}`, async () => [...(await resolveImages(db(), urls))]);
  return new Map(entries);
}

export async function publishedImage(url: string | undefined): Promise<ImageInfo | undefined> {
  return url ? (await publishedImages([url])).get(url) : undefined;
}
