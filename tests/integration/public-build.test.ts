import { describe, expect, it } from 'vitest';
import type { ServerBuild } from 'react-router';
import routes from '~/routes';
import { isBackOfficeRequest, publicRouteIds, withoutBackOffice } from '../../server/public-build';

/**
 * Public requests go through React Router with the site's routes only (ADR 017): the back office's
 * routes, all under /admin, are left out of the public handler's build.
 */
type Entry = { file: string; path?: string; index?: boolean; children?: Entry[] };
type ManifestRoute = { id: string; parentId?: string; path?: string; index?: boolean };

/** The route manifest the build makes of app/routes.ts: ids are the route files without extension, under `root`. */
function manifestOf(entries: Entry[]): Record<string, ManifestRoute> {
  const manifest: Record<string, ManifestRoute> = { root: { id: 'root', path: '' } };
  const add = (list: Entry[], parentId: string) => {
    for (const e of list) {
      const id = e.file.replace(/\.tsx?$/, '');
      manifest[id] = { id, parentId, path: e.path, index: e.index };
      add(e.children ?? [], id);
    }
  };
  add(entries, 'root');
  return manifest;
}

/** Full path of a manifest route. */
function fullPath(manifest: Record<string, ManifestRoute>, id: string): string {
  const r = manifest[id]!;
  const parent = r.parentId ? fullPath(manifest, r.parentId) : '';
  return [parent, r.path ?? ''].filter(Boolean).join('/');
}

const manifest = manifestOf(routes as Entry[]);

describe('the public build', () => {
  const kept = publicRouteIds(manifest);
  const left = Object.keys(manifest).filter((id) => !kept.has(id));

  it('keeps every route a path outside /admin can match', () => {
    for (const id of ['root', 'routes/site/layout', 'routes/site/home', 'routes/site/blog-post', 'routes/site/not-found', 'routes/resources/sitemap', 'routes/resources/robots']) {
      expect(kept.has(id), id).toBe(true);
    }
    for (const id of kept) expect(fullPath(manifest, id), id).not.toMatch(/^admin(\/|$)/);
  });

  it('leaves out the back office: every route under /admin, and the layouts that hold only those', () => {
    expect(left).toContain('routes/admin/layout');
    expect(left).toContain('routes/admin/dashboard');
    expect(left).toContain('routes/auth/login');
    expect(left).toContain('routes/auth/layout'); // pathless, holds only /admin/login and the like
    expect(left.length).toBeGreaterThan(40);
    for (const id of left) {
      const p = fullPath(manifest, id);
      if (p !== '') expect(p, id).toMatch(/^admin(\/|$)/);
    }
  });

  it('filters the server and browser manifests alike and keeps the rest of the build', () => {
    const build = {
      routes: Object.fromEntries(Object.entries(manifest).map(([id, r]) => [id, { ...r, module: {} }])),
      assets: { version: 'v1', url: '/m.js', entry: { module: '/e.js', imports: [] }, routes: Object.fromEntries(Object.entries(manifest).map(([id, r]) => [id, { ...r, module: `/${id}.js` }])) },
      publicPath: '/',
      routeDiscovery: { mode: 'lazy', manifestPath: '/__manifest' },
    } as unknown as ServerBuild;
    const publicBuild = withoutBackOffice(build);
    expect(Object.keys(publicBuild.routes).sort()).toEqual([...kept].sort());
    expect(Object.keys(publicBuild.assets.routes).sort()).toEqual([...kept].sort());
    expect(publicBuild.assets.version).toBe('v1');
    expect(publicBuild.routeDiscovery).toBe(build.routeDiscovery);
    // The original build is untouched (the back office's handler uses it).
    expect(Object.keys(build.routes)).toHaveLength(Object.keys(manifest).length);
  });

  it('sends the back office’s pages, data and route manifest to the whole tree, and nothing else', () => {
    const build = { routeDiscovery: { mode: 'lazy', manifestPath: '/__manifest' } } as const;
    for (const p of ['/admin', '/admin/', '/admin/users', '/admin/users.data', '/admin.data', '/admin/login', '/__manifest']) expect(isBackOfficeRequest(p, build), p).toBe(true);
    for (const p of ['/', '/_root.data', '/blog/1', '/administration', '/nos-actions.data', '/mon-espace', '/sitemap.xml']) expect(isBackOfficeRequest(p, build), p).toBe(false);
  });
});
