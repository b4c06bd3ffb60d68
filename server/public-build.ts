import { matchRoutes, type RouteObject, type ServerBuild } from 'react-router';
import { hydratesPath } from '~/lib/hydration';

/**
 * Public requests are handled by React Router over the site's own routes, without the back
 * office's (ADR 017, fifth addendum).
 *
 * React Router matches a request's path by trying its route branches in rank order, twice per
 * request, and rebuilds its route objects for every render. The back office has 51 of the 85
 * routes, all under /admin, and its branches rank above the site's pages: for `/`, every one of
 * them was tried (its root and layout matched, then thrown away) on every public render. A path
 * outside /admin can never match a back-office route, so leaving those routes out of the public
 * handler changes no answer, only the work.
 */

type RouteEntry = { id: string; parentId?: string; path?: string; index?: boolean };

/** Ids of the routes a public request can match: all but those under /admin (and layouts holding only such routes). */
export function publicRouteIds(manifest: Record<string, RouteEntry | undefined>): Set<string> {
  const routes = Object.values(manifest).filter((r): r is RouteEntry => r !== undefined);
  const children = new Map<string, RouteEntry[]>();
  for (const r of routes) if (r.parentId) children.set(r.parentId, [...(children.get(r.parentId) ?? []), r]);
  const keep = new Set<string>();
  /** Keeps `route`'s public part; true when all of it belongs to the back office. */
  const visit = (route: RouteEntry, parentPath: string): boolean => {
    const fullPath = [parentPath, route.path ?? ''].filter(Boolean).join('/').replace(/^\/+/, '');
    const kids = children.get(route.id) ?? [];
    const kidsBackOffice = kids.map((k) => visit(k, fullPath));
    const backOffice = hydratesPath(`/${fullPath}`) || (route.path === undefined && !route.index && kids.length > 0 && kidsBackOffice.every(Boolean));
    if (!backOffice) keep.add(route.id);
    return backOffice;
  };
  for (const r of routes) if (!r.parentId) visit(r, '');
  return keep;
}

/** The same build with the public routes only (server and browser manifests alike). */
export function withoutBackOffice(build: ServerBuild): ServerBuild {
  const keep = publicRouteIds(build.routes);
  const pick = <T,>(manifest: Record<string, T>): Record<string, T> => Object.fromEntries(Object.entries(manifest).filter(([id]) => keep.has(id)));
  return { ...build, routes: pick(build.routes), assets: { ...build.assets, routes: pick(build.assets.routes) } };
}

/**
 * A request for the back office: its pages and their data (the pages that hydrate), and the route
 * manifest its browser router asks for while navigating (`/__manifest`).
 */
export function isBackOfficeRequest(pathname: string, build: Pick<ServerBuild, 'routeDiscovery'>): boolean {
  return hydratesPath(pathname) || pathname === build.routeDiscovery.manifestPath;
}

type TreeNode = { id: string; path?: string; index?: boolean; children: TreeNode[] };

/**
 * Whether a path is one of the site's pages: what the site's layout holds, in any language, as
 * opposed to an API, a webhook, a feed, a download or the back office, which rank above its
 * catch-all.
 */
export function sitePageMatcher(build: { routes: Record<string, RouteEntry | undefined> }): (pathname: string) => boolean {
  const nodes = new Map<string, TreeNode>();
  const entries = Object.values(build.routes).filter((r): r is RouteEntry => r !== undefined);
  for (const r of entries) nodes.set(r.id, { id: r.id, path: r.path, index: r.index, children: [] });
  const roots: TreeNode[] = [];
  for (const r of entries) (r.parentId ? nodes.get(r.parentId)?.children : roots)?.push(nodes.get(r.id)!);
  const tree = roots as unknown as RouteObject[];
  return (pathname) => matchRoutes(tree, pathname)?.some((m) => m.route.id?.endsWith(SITE_LAYOUT)) ?? false;
}

/** The site's layout route (French), and `en/…`, `es/…` for the same layout in the other languages. */
const SITE_LAYOUT = 'routes/site/layout';
