import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import routes from '~/routes';
import { loader as rootLoader } from '~/root';
import { hydratesPath } from '~/lib/hydration';
import { messagesFor } from '~/lib/i18n.server';
import { rootData } from '~/lib/page-meta';
import { startTestRuntime } from '../support/runtime';

/**
 * The root loader sends the messages to the browser only under /admin (ADR 017): every page that
 * hydrates must be there, or its React would start without words.
 */
type Entry = { file: string; path?: string; index?: boolean; children?: Entry[] };

const APP = path.resolve(import.meta.dirname, '..', '..', 'app');
const hydrates = (file: string) => /\bhydrate:\s*true\b/.test(fs.readFileSync(path.join(APP, file), 'utf8'));

/** Every page (a route with a path, or an index) with its full path, and whether it or a layout above it hydrates. */
function flatten(entries: Entry[], parent = '', hydrated = false): { file: string; path: string; hydrated: boolean }[] {
  return entries.flatMap((e) => {
    const full = [parent, e.path ?? ''].filter(Boolean).join('/');
    const h = hydrated || hydrates(e.file);
    const page = e.path !== undefined || e.index ? [{ file: e.file, path: `/${full}`, hydrated: h }] : [];
    return [...page, ...flatten(e.children ?? [], full, h)];
  });
}

describe('pages that hydrate', () => {
  const all = flatten(routes as Entry[]);

  it('are the back office: every one under /admin, and every /admin page hydrates', () => {
    const hydrated = all.filter((r) => r.hydrated);
    expect(hydrated.length).toBeGreaterThan(30);
    expect(hydrated.filter((r) => r.path !== '/admin' && !r.path.startsWith('/admin/'))).toEqual([]);
    expect(all.filter((r) => !r.hydrated && (r.path === '/admin' || r.path.startsWith('/admin/')))).toEqual([]);
    // And the public pages do not.
    expect(all.find((r) => r.file === 'routes/site/home.tsx')?.hydrated).toBe(false);
  });

  it('are exactly those the path rule names (the root loader decides by path)', () => {
    for (const r of all) {
      const url = r.path.replace(/:[^/]+/g, 'x').replace(/\*$/, 'x');
      expect(hydratesPath(url), r.path).toBe(r.hydrated);
    }
  });
});

describe('the root loader', () => {
  let stop: () => Promise<void>;
  beforeAll(async () => {
    ({ stop } = await startTestRuntime('sqlite', 'a'.repeat(64)));
  });
  afterAll(() => stop());

  const load = async (url: string) => (await rootLoader({ request: new Request(url), params: {}, context: {} } as never)) as { lang: 'fr' | 'en' | 'es'; messages?: unknown; origin: string };

  it('sends the messages to the back office, which hydrates', async () => {
    for (const url of ['http://localhost/admin/login', 'http://localhost/admin', 'http://localhost/admin/users.data', 'http://localhost/admin.data']) {
      expect((await load(url)).messages, url).toBe(messagesFor('fr'));
    }
  });

  it('sends none with a public page, whose meta and render read the server’s messages in its language', async () => {
    for (const url of ['http://localhost/', 'http://localhost/_root.data', 'http://localhost/blog?lng=en', 'http://localhost/administration']) {
      expect((await load(url)).messages, url).toBeUndefined();
    }
    const data = await load('http://localhost/projets?lng=es');
    expect(rootData([{ id: 'root', loaderData: data }]).messages).toBe(messagesFor('es'));
  });
});
