import { getPublishedPost, listPublishedPosts } from '~/domain/blog/posts.server';
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
 * projects, partners, stored images), read once per content version (`ContentMemo`, ADR 017):
 * dropped whenever content changes, so as fresh as the HTML cache. Drafts (a preview) and what
 * changes without an editor (campaign totals, the day's open campaigns) are read from the database
 * as before.
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
