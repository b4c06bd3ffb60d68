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
