import type { RouterContextProvider } from 'react-router';
import type { PageId } from '~/domain/content/pages';
import { PAGE_TYPE, getLocalizedPage } from '~/domain/content/pages.server';
import type { EntityRef } from '~/domain/revisions/editorial';
import { checkPreviewToken } from '~/domain/revisions/preview.server';
import { can, type AdminArea } from '~/domain/users/permissions';
import { currentUser } from '~/routes/admin/auth.server';
import { detectLang } from '~/lib/i18n.server';
import { db, runtime } from '~/lib/runtime.server';
import { publishedPage } from './published.server';

/**
 * "Aperçu" on the public pages (ADR 015): `?apercu=1` for a signed-in user whose role may open the
 * type's area, `?apercu=<signed link>` for anyone holding one. The public route shows the item's
 * draft then, with the banner, `noindex` and these headers.
 */

/** A preview is per viewer and never indexed: no cache may keep it, no robot may list it. */
const PREVIEW_HEADERS = { 'Cache-Control': 'private, no-store', 'X-Robots-Tag': 'noindex, nofollow' };

/** The `apercu` parameter of the request, or null when it asks for no preview. */
export function previewParam(request: Request): string | null {
  return new URL(request.url).searchParams.get('apercu');
}

/** Whether this request may see `ref`'s draft. An invalid link sees the published page, as anyone. */
async function mayPreview(request: Request, context: Readonly<RouterContextProvider>, ref: EntityRef, area: AdminArea, apercu: string | null): Promise<boolean> {
  if (apercu === null) return false;
  if (checkPreviewToken(runtime().secret, ref, apercu)) return true;
  const user = await currentUser(request, context);
  return Boolean(user && can(user.role, area));
}

/**
 * Whether this request sees `ref`'s draft (none when `ref` is null: the address names no item),
 * and the headers its answer carries: the preview's whenever `?apercu=` is asked, granted or not
 * (the route's `headers` export sends them).
 */
export async function previewFor(request: Request, context: Readonly<RouterContextProvider>, ref: EntityRef | null, area: AdminArea) {
  const apercu = previewParam(request);
  return { preview: ref !== null && (await mayPreview(request, context, ref, area, apercu)), headers: apercu !== null ? PREVIEW_HEADERS : undefined };
}

/** What a managed page's public route shows (home, about, missions…): the page in the request's language, its draft in a preview. */
export async function managedPage(request: Request, context: Readonly<RouterContextProvider>, pageId: PageId) {
  const { preview, headers } = await previewFor(request, context, { type: PAGE_TYPE, id: pageId }, 'pages');
  const { lang } = detectLang(request);
  return { lang, page: preview ? await getLocalizedPage(db(), pageId, lang, { preview }) : await publishedPage(pageId, lang), preview, headers };
}
