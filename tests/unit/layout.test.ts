import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The house layout (ADR 018):
 *  - app/lib is infrastructure: it never imports app/domain (the business areas) nor app/routes
 *    (the HTTP glue beside the pages), not even a type;
 *  - app/domain/<area> holds the business rules: no React, no HTTP. None of its files imports
 *    react, react-dom, react-router or @react-router/*, and that includes `import type`: a shape
 *    the domain needs from React Router (feed.ts's `<link>` meta tag) is written out in the
 *    domain instead. Nor does it import app/ui (components) or app/routes. Cookies, redirects,
 *    the request's session and what a screen says in a toast live beside the routes
 *    (app/routes/admin/auth.server.ts, app/routes/donors/session.server.ts,
 *    app/routes/admin/users/messages.ts).
 * Read as text: every `import … from`, `export … from`, `import('…')` and `require('…')`.
 */
const ROOT = path.resolve(import.meta.dirname, '..', '..');
const APP = path.join(ROOT, 'app');
const DOMAIN = path.join(APP, 'domain');
const ROUTES = path.join(APP, 'routes');
const UI = path.join(APP, 'ui');
const REACT = /^(?:react|react-dom|react-router|@react-router\/[^/]+)(?:\/|$)/;

const SPECIFIER = /\b(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]|\b(?:import|require)\(\s*['"]([^'"]+)['"]\s*\)/g;

/** The module specifiers a source text imports or re-exports, in order. */
function specifiers(source: string): string[] {
  return [...source.matchAll(SPECIFIER)].map((m) => m[1] ?? m[2]);
}

/** Where a specifier points inside the repository (the `~/` alias is app/), or null for a package. */
function target(file: string, spec: string): string | null {
  if (spec.startsWith('~/')) return path.join(APP, spec.slice(2));
  if (spec.startsWith('.')) return path.resolve(path.dirname(file), spec);
  return null;
}

const inside = (dir: string, p: string | null) => p !== null && (p === dir || p.startsWith(dir + path.sep));

/** The source files under a folder of app/, with what each imports. */
function sources(dir: string): { file: string; specs: string[] }[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(?:ts|tsx|js|jsx|mjs|cjs)$/.test(f))
    .map((f) => path.join(dir, f))
    .map((file) => ({ file, specs: specifiers(fs.readFileSync(file, 'utf8')) }));
}

const rel = (file: string) => path.relative(ROOT, file).split(path.sep).join('/');

describe('the layout rule', () => {
  it('reads every kind of import (so that the checks below cannot pass by seeing nothing)', () => {
    const source = [
      "import type { Actor } from '~/domain/audit/audit.server';",
      'import {',
      '  isRole,',
      "  type Role,",
      "} from '../domain/users/permissions';",
      "export { x } from './x';",
      "import './side-effect';",
      "const m = await import('~/domain/users/paths');",
      "const r = require(\"react-router\");",
      "import type { MetaDescriptor } from 'react-router';",
    ].join('\n');
    expect(specifiers(source)).toEqual(['~/domain/audit/audit.server', '../domain/users/permissions', './x', './side-effect', '~/domain/users/paths', 'react-router', 'react-router']);
    const lib = path.join(APP, 'lib', 'any.server.ts');
    expect(inside(DOMAIN, target(lib, '../domain/users/permissions'))).toBe(true);
    expect(inside(DOMAIN, target(lib, '~/domain/users/paths'))).toBe(true);
    expect(inside(DOMAIN, target(lib, './domain-free.server'))).toBe(false);
    expect(inside(DOMAIN, target(lib, '~/lib/origin.server'))).toBe(false);
    expect(REACT.test('react')).toBe(true);
    expect(REACT.test('react/jsx-runtime')).toBe(true);
    expect(REACT.test('@react-router/node')).toBe(true);
    expect(REACT.test('react-markdown-free')).toBe(false);
  });

  it('app/lib imports nothing from app/domain or app/routes', () => {
    const files = sources(path.join(APP, 'lib'));
    expect(files.length).toBeGreaterThan(20);
    expect(files.flatMap((f) => f.specs).length).toBeGreaterThan(50);
    const offending = files.flatMap(({ file, specs }) =>
      specs.filter((s) => inside(DOMAIN, target(file, s)) || inside(ROUTES, target(file, s))).map((s) => `${rel(file)} imports ${s}`),
    );
    expect(offending).toEqual([]);
  });

  it('app/domain imports no React and no React Router (types included) and nothing from app/routes or app/ui', () => {
    const files = sources(DOMAIN);
    expect(files.length).toBeGreaterThan(50);
    const offending = files.flatMap(({ file, specs }) =>
      specs.filter((s) => REACT.test(s) || inside(ROUTES, target(file, s)) || inside(UI, target(file, s))).map((s) => `${rel(file)} imports ${s}`),
    );
    expect(offending).toEqual([]);
  });
});

/**
 * The import graph of app/ (ADR 019): every file and the files it imports, types included (a type
 * import ties two files as surely as a value: the donations ↔ donors circle was one type).
 */
function resolveFile(spec: string, from: string): string | null {
  const t = target(from, spec);
  if (t === null) return null;
  for (const candidate of [t, `${t}.ts`, `${t}.tsx`, path.join(t, 'index.ts')]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return null;
}

function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const { file, specs } of sources(APP)) {
    graph.set(file, [...new Set(specs.map((s) => resolveFile(s, file)).filter((f): f is string => f !== null && inside(APP, f)))]);
  }
  return graph;
}

/** Every circle of a directed graph, each once, as the list of its nodes (Tarjan's strongly connected components). */
function circles<T>(graph: Map<T, T[]>): T[][] {
  let index = 0;
  const idx = new Map<T, number>();
  const low = new Map<T, number>();
  const stack: T[] = [];
  const onStack = new Set<T>();
  const found: T[][] = [];
  const visit = (v: T) => {
    idx.set(v, index);
    low.set(v, index);
    index += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const component: T[] = [];
      let w: T;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component);
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return found;
}

const areaOf = (file: string) => (inside(DOMAIN, file) ? path.relative(DOMAIN, file).split(path.sep)[0] : null);
const routeFolderOf = (file: string) => {
  const parts = path.relative(ROUTES, file).split(path.sep);
  return inside(ROUTES, file) && parts.length > 1 ? parts[0] : null;
};

/**
 * Area imports that close circles older than this rule, in other work's areas: the revisions
 * registry names every editable area (which call revisions back), and the audit log reads users
 * (who write audit lines). Left aside by the circle check below, each listed with the file that
 * makes it; the test fails when one is gone, so that the list stays true. No payment area
 * (donations, donors, campaigns, receipts, giving) is in one.
 */
const KNOWN_BACK_EDGES = [
  'audit -> users (app/domain/audit/audit.server.ts)',
  'revisions -> blog (app/domain/revisions/registry.server.ts)',
  'revisions -> campaigns (app/domain/revisions/registry.server.ts)',
  'revisions -> content (app/domain/revisions/registry.server.ts)',
  'revisions -> letters (app/domain/revisions/registry.server.ts)',
  'revisions -> partners (app/domain/revisions/registry.server.ts)',
  'revisions -> projects (app/domain/revisions/registry.server.ts)',
];

/** The back office's gate: the one piece of HTTP glue every back-office route folder shares. */
const SHARED_ROUTE_GLUE = [path.join(ROUTES, 'admin', 'auth.server.ts')];

/** Payment providers (ADR 019): one module each, behind the registry and the interface. */
const PROVIDERS = path.join(DOMAIN, 'donations', 'providers');
const PROVIDER_DOORS = ['registry.server.ts', 'provider.ts', 'types.ts', 'balance.ts', 'names.ts', 'settings.ts', 'settings.server.ts'].map((f) => path.join(PROVIDERS, f));

/** The only file that writes the `donations` table (ADR 019): everything else goes through its functions. */
const LEDGER = path.join(DOMAIN, 'donations', 'ledger.server.ts');
const WRITES_DONATIONS = /\b(?:updateTable|insertInto|deleteFrom)\(\s*['"]donations['"]/;

describe('the import graph', () => {
  const graph = importGraph();

  it('is read whole (so that the checks below cannot pass by seeing nothing)', () => {
    expect(graph.size).toBeGreaterThan(200);
    const payments = path.join(DOMAIN, 'donations', 'payments.server.ts');
    expect(graph.get(payments)).toContain(LEDGER);
    expect(graph.get(payments)).toContain(path.join(DOMAIN, 'donations', 'providers', 'registry.server.ts'));
    expect(circles(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]]))).toEqual([['c', 'b', 'a']]);
    expect(circles(new Map([['a', ['a']], ['b', []]]))).toEqual([['a']]);
    expect(circles(new Map([['a', ['b']], ['b', []]]))).toEqual([]);
    expect(WRITES_DONATIONS.test("trx.updateTable('donations').set({})")).toBe(true);
    expect(WRITES_DONATIONS.test('db.deleteFrom("donations")')).toBe(true);
    expect(WRITES_DONATIONS.test("db.selectFrom('donations')")).toBe(false);
  });

  it('has no circle between files', () => {
    expect(circles(graph).map((c) => c.map(rel).sort())).toEqual([]);
  });

  it('has no circle between the areas of app/domain (but the known back edges, which stay as listed)', () => {
    const areas = new Map<string, string[]>();
    const backEdges: string[] = [];
    for (const [file, deps] of graph) {
      const a = areaOf(file);
      if (!a) continue;
      const next = new Set(areas.get(a) ?? []);
      for (const b of deps.map(areaOf)) {
        if (b === null || b === a) continue;
        const edge = `${a} -> ${b} (${rel(file)})`;
        if (KNOWN_BACK_EDGES.includes(edge)) backEdges.push(edge);
        else next.add(b);
      }
      areas.set(a, [...next]);
    }
    expect(areas.size).toBeGreaterThan(10);
    expect([...new Set(backEdges)].sort()).toEqual(KNOWN_BACK_EDGES);
    expect(circles(areas).map((c) => c.sort())).toEqual([]);
  });

  it('routes never import another route folder (but the back office’s gate)', () => {
    const offending = [...graph].flatMap(([file, deps]) => {
      const own = routeFolderOf(file);
      return own ? deps.filter((d) => routeFolderOf(d) !== null && routeFolderOf(d) !== own && !SHARED_ROUTE_GLUE.includes(d)).map((d) => `${rel(file)} imports ${rel(d)}`) : [];
    });
    expect(offending).toEqual([]);
  });

  it('only the ledger writes the donations table', () => {
    const files = [...sources(APP), ...sources(path.join(ROOT, 'server'))].map((f) => f.file);
    const writers = files.filter((f) => WRITES_DONATIONS.test(fs.readFileSync(f, 'utf8'))).map(rel);
    expect(writers).toEqual([rel(LEDGER)]);
  });

  it('only the providers’ folder knows a provider: its modules and its references’ shapes (the one road back)', () => {
    // A provider's reference read outside its module (Stripe's `cs_` session, Flutterwave's
    // `thv-` tx_ref) is a second way to read a payer's return: providers read their own words.
    const ID_PATTERNS = /\^cs_|\^thv-|'cs_|'thv-|`thv-/;
    expect(ID_PATTERNS.test("/^cs_\\w{1,200}$/")).toBe(true);
    expect(ID_PATTERNS.test("if (!/^thv-[0-9a-f]{24}$/.test(ref))")).toBe(true);
    expect(ID_PATTERNS.test("'thv-secret-box'")).toBe(true);
    const outside = [...graph.keys()].filter((f) => !inside(PROVIDERS, f));
    const readers = outside.filter((f) => ID_PATTERNS.test(fs.readFileSync(f, 'utf8').replace(/'thv-(?:secret-box|backup-|restore-)'/g, ''))).map(rel);
    expect(readers).toEqual([]);
    // Outside the folder, a provider is reached through the registry (and the interface's types).
    const importers = [...graph].flatMap(([file, deps]) => (inside(PROVIDERS, file) ? [] : deps.filter((d) => inside(PROVIDERS, d) && !PROVIDER_DOORS.includes(d)).map((d) => `${rel(file)} imports ${rel(d)}`)));
    expect(importers).toEqual([]);
  });

  it('names a provider only in a providers/ folder (its server module, browser glue or settings form), the words users read, and the environment’s variable names', () => {
    // Provider knowledge lives in a folder named providers/ at each layer (ADR 019): the server
    // module (app/domain/donations/providers), its script in the donate page (app/enhance/providers)
    // and its section of the payment settings (app/ui/admin/providers). Elsewhere a payment is
    // reached through the registry by its means. PayPal is also a means (the PayPal tab), so its
    // name alone cannot be told from the provider's and is not looked for; the other providers'
    // names are never a means. Comments are not code and are not read.
    const NAMES = /stripe|coingate|flutterwave|mobile_link/i;
    const ALLOWED = [/\/providers\//, /^app\/locales\//, /^app\/lib\/env\.server\.ts$/];
    const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
    expect(code("const a = 'x'; // Stripe's id\n/** CoinGate */ const url = 'https://x';")).toBe("const a = 'x'; \n const url = 'https://x';");
    expect(NAMES.test(code("providerOf('stripe')"))).toBe(true);
    const files = [...sources(APP), ...sources(path.join(ROOT, 'server'))].map((f) => f.file);
    const naming = files.map(rel).filter((f) => !ALLOWED.some((a) => a.test(f)) && NAMES.test(code(fs.readFileSync(path.join(ROOT, f), 'utf8'))));
    expect(naming).toEqual([]);
  });
});
