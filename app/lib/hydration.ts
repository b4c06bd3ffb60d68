/**
 * Which pages hydrate (ADR 003, 017): routes whose `handle` says `hydrate: true` (the back office's
 * two layouts) load React in the browser; public pages are complete HTML enhanced by one small
 * script. The rule is read in four places, all from here: the root loader (by path, before any
 * route renders: only hydrating pages send their messages), the document's Layout (scripts or
 * not), the server entry (nonce and streaming, or one string) and the server's choice of route
 * tree (server/public-build.ts: the back office's requests get the whole one).
 */
export interface RouteHandle {
  hydrate?: boolean;
}

/** Some matched route asks to hydrate. */
export function hydratesHandles(handles: readonly unknown[]): boolean {
  return handles.some((handle) => (handle as RouteHandle | undefined)?.hydrate === true);
}

/**
 * The same, by path: every page that hydrates is under /admin
 * (tests/integration/hydrated-routes.test.ts checks it against the route files).
 */
export function hydratesPath(pathname: string): boolean {
  return pathname === '/admin' || pathname.startsWith('/admin/') || pathname === '/admin.data';
}
