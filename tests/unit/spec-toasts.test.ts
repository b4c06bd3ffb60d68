import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every success toast the specification names (its section 8, "Success toasts") is said somewhere
 * by the app (issue 31). The strings are kept here, as the specification wrote them (2026-11), so
 * that the repository tests itself on its own: a change that drops one of them fails here.
 */
const ROOT = path.resolve(import.meta.dirname, '..', '..');
const APP = path.join(ROOT, 'app');

/** The specification's success toasts, in its order. */
const SUCCESS_TOASTS = [
  'Connexion réussie !',
  'Bienvenue sur le tableau de bord.',
  'Déconnexion réussie',
  'Vous avez été déconnecté.',
  'Message envoyé !',
  'Contenu sauvegardé !',
  'Statut modifié',
  'Projet ajouté !',
  'Projet modifié !',
  'Projet supprimé !',
  'Article ajouté !',
  'Article modifié !',
  'Article supprimé !',
  'Partenaire ajouté !',
  'Partenaire modifié !',
  'Partenaire supprimé !',
  'Utilisateur ajouté !',
  'Utilisateur mis à jour !',
  'Utilisateur supprimé',
  'Paramètres sauvegardés !',
  'Téléversement réussi !',
  'Fichier supprimé',
  'URL copiée !',
  'Paramètres de paiement sauvegardés !',
  'Vos modifications ont été enregistrées avec succès.',
];

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

describe('the success toasts of the specification', () => {
  const toasts = SUCCESS_TOASTS;
  const app = sources(APP).map((f) => withoutComments(fs.readFileSync(f, 'utf8')));

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
