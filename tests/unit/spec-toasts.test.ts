import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every success toast SPEC.md names (section 8, "Success toasts: …") is said somewhere by the app
 * (issue 31): read from the specification itself at test time, so a toast the spec names and a
 * change drops fails here. The specification sits in the shared folder beside the repository's
 * root (`../shared/SPEC.md`), on this machine and in CI alike.
 */
const ROOT = path.resolve(import.meta.dirname, '..', '..');
const SPEC = path.resolve(ROOT, '..', 'shared', 'SPEC.md');
const APP = path.join(ROOT, 'app');

/** The quoted strings of the specification's "Success toasts:" paragraph. */
function specSuccessToasts(spec: string): string[] {
  const line = spec.split('\n').find((l) => l.startsWith('Success toasts:'));
  if (!line) throw new Error('SPEC.md has no "Success toasts:" paragraph.');
  return [...line.matchAll(/'([^']+)'/g)].map((m) => m[1]);
}

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return /\.(tsx?)$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [p] : [];
  });
}

/** A source without its comments: a toast named only in a comment is not one the app shows. */
const withoutComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/[^\n]*/g, '$1');

/** Whether the text holds `toast` as a whole string literal or a JSX text/attribute value. */
function says(text: string, toast: string): boolean {
  const escaped = toast.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`['"\`>]\\s*${escaped}\\s*['"\`<]`).test(text);
}

describe('the success toasts of SPEC.md', () => {
  const toasts = specSuccessToasts(fs.readFileSync(SPEC, 'utf8'));
  const app = sources(APP).map((f) => withoutComments(fs.readFileSync(f, 'utf8')));

  it('are read from the specification', () => {
    expect(toasts).toContain('Contenu sauvegardé !');
    expect(toasts).toContain('Partenaire modifié !');
    expect(toasts.length).toBeGreaterThanOrEqual(25);
  });

  it('each appears in the app as a string it shows', () => {
    expect(toasts.filter((t) => !app.some((text) => says(text, t)))).toEqual([]);
  });

  it('a toast only in a comment, or inside a longer string, does not count', () => {
    expect(says(withoutComments("// shows 'Contenu sauvegardé !'\nconst a = 1;"), 'Contenu sauvegardé !')).toBe(false);
    expect(says(withoutComments("/** 'Partenaire modifié !' */"), 'Partenaire modifié !')).toBe(false);
    expect(says("title: 'Partenaire modifié ! ou pas'", 'Partenaire modifié !')).toBe(false);
    expect(says("title: 'Partenaire modifié !'", 'Partenaire modifié !')).toBe(true);
    expect(says('<p>URL copiée !</p>', 'URL copiée !')).toBe(true);
    expect(says("const url = 'https://example.org'; const t = 'Fichier supprimé';", 'Fichier supprimé')).toBe(true);
  });
});
