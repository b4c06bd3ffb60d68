import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every setting reaches the container (issue 40): the README's configuration table, what the
 * server reads (app/lib/env.server.ts's schema, and the few read beside it), the image's own ENV,
 * the app service's environment (deploy/app.yaml, which compose.yaml and compose.instances.yaml
 * extend) and .env.example agree. A setting the README documents but compose never passes cannot
 * be set in a container (the mail webhook's signing key once was such a gap: bounces were refused).
 */
const ROOT = path.resolve(import.meta.dirname, '..', '..');
const read = (f: string) => fs.readFileSync(path.join(ROOT, f), 'utf8');

/** The variables of the README's configuration table (first column, each in backticks). */
function readmeVariables(): string[] {
  const section = read('README.md').split('\n## Configuration')[1].split('\n## ')[0];
  return section
    .split('\n')
    .filter((l) => l.startsWith('| `'))
    .flatMap((l) => [...l.split('|')[1].matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]));
}

/** What the server reads: the schema's keys, and the variables read outside it (worker count, media storage). */
function serverVariables(): string[] {
  const schema = read('app/lib/env.server.ts');
  const keys = [...schema.matchAll(/^ {2}([A-Z][A-Z0-9_]*):/gm)].map((m) => m[1]);
  const beside = ['server.js', 'app/lib/storage.server.ts'].flatMap((f) => [...read(f).matchAll(/process\.env\.([A-Z][A-Z0-9_]*)/g)].map((m) => m[1]));
  return [...new Set([...keys, ...beside])];
}

/** The app service's environment in deploy/app.yaml: each variable and its value as written. */
function appEnvironment(): Map<string, string> {
  const yaml = read('deploy/app.yaml');
  const block = yaml.split('\n    environment:\n')[1].split(/\n {4}\S/)[0];
  return new Map([...block.matchAll(/^ {6}([A-Z][A-Z0-9_]*): (.*)$/gm)].map((m) => [m[1], m[2]]));
}

/** The image's own ENV (the Containerfile's last stage sets where it listens and keeps data). */
const imageEnv = () => [...read('Containerfile').matchAll(/^ENV (.*)$/gm)].flatMap((m) => [...m[1].matchAll(/([A-Z][A-Z0-9_]*)=/g)].map((x) => x[1]));

/** The variables .env.example lists. */
const envExample = () => [...read('.env.example').matchAll(/^([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]);

/** `${VAR}` references of the compose files (what .env must be able to give). */
const composeReferences = () => [...new Set(['compose.yaml', 'compose.instances.yaml', 'deploy/app.yaml'].flatMap((f) => [...read(f).matchAll(/\$\{([A-Z][A-Z0-9_]*)/g)].map((m) => m[1])))];

/** Set by the process itself, never by an operator: the run mode (the image and `npm start` set it) and the server's internal flags. */
const INTERNAL = /^(?:NODE_ENV|NODE_OPTIONS|MALLOC_ARENA_MAX|THV_[A-Z_]+)$/;

describe('every setting reaches the container', () => {
  it('reads the four sources (so that the checks below cannot pass by seeing nothing)', () => {
    expect(readmeVariables()).toEqual(expect.arrayContaining(['PORT', 'HOST', 'MAILGUN_WEBHOOK_SIGNING_KEY', 'FLUTTERWAVE_SCRIPT_URL', 'S3_SECRET_ACCESS_KEY']));
    expect(serverVariables()).toEqual(expect.arrayContaining(['APP_SECRET', 'LETTERS_LEASE_MS', 'WEB_CONCURRENCY', 'S3_BUCKET']));
    expect([...appEnvironment().keys()]).toEqual(expect.arrayContaining(['DATABASE_URL', 'APP_SECRET', 'LETTERS_LEASE_MS']));
    expect(imageEnv()).toEqual(['NODE_ENV', 'HOST', 'PORT', 'DATA_DIR']);
    expect(envExample()).toEqual(expect.arrayContaining(['APP_SECRET', 'DOMAIN']));
  });

  it('documents in the README every setting the server reads', () => {
    const documented = new Set(readmeVariables());
    expect(serverVariables().filter((v) => !INTERNAL.test(v) && !documented.has(v))).toEqual([]);
  });

  it('passes every documented setting to the app container, or the image sets it', () => {
    const passed = new Set([...appEnvironment().keys(), ...imageEnv()]);
    expect(readmeVariables().filter((v) => !passed.has(v))).toEqual([]);
  });

  it('lets .env give every variable the compose files read, and lists nothing they ignore', () => {
    const example = envExample();
    const referenced = composeReferences();
    expect(referenced.filter((v) => !example.includes(v))).toEqual([]);
    expect(example.filter((v) => !referenced.includes(v))).toEqual([]);
  });

  it('gives a setting with a default its README default when .env leaves it empty (an empty number would stop the server)', () => {
    const defaults = new Map(
      read('README.md')
        .split('\n## Configuration')[1]
        .split('\n## ')[0]
        .split('\n')
        .filter((l) => l.startsWith('| `'))
        .flatMap((l) => {
          const [, names, value] = l.split('|');
          const d = /^\s*`([^`]+)`\s*$/.exec(value)?.[1];
          return d ? [...names.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => [m[1], d] as const) : [];
        }),
    );
    const env = appEnvironment();
    const mismatched = [...defaults].filter(([v, d]) => env.has(v) && env.get(v)!.startsWith('${') && env.get(v) !== `\${${v}:-${d}}`).map(([v, d]) => `${v}: ${env.get(v)} (README: ${d})`);
    expect(mismatched).toEqual([]);
  });
});
