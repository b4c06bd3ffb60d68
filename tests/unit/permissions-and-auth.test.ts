import { describe, expect, it } from 'vitest';
import { ADMIN_SECTIONS, can, canOpenPath, dependsOnGrant, menuFor, menuGroupsFor } from '~/domain/users/permissions';
import { changePasswordSchema, loginSchema, setupSchema, userSchema } from '~/domain/users/schemas';

describe('roles', () => {
  it('gives Éditeurs the content screens and Admins everything, by path prefix', () => {
    const CONTENT = ['Gestion des pages', 'Projets / Actions', 'Campagnes', 'Actualités / Blog', 'Partenaires', 'Médiathèque', 'Messages'];
    expect(menuFor('Éditeur').map((s) => s.label)).toEqual(['Dashboard', ...CONTENT, 'Donateurs', 'Adhésions', 'Lettres d’information']);
    // Grouped by what staff do (issue 44): content, gifts, members and letters, settings and team.
    const groups = (role: 'Admin' | 'Éditeur', granted: 'offline-gifts'[] = []) => menuGroupsFor(role, granted).map((g) => [g.label, g.sections.map((s) => s.label)]);
    expect(groups('Admin')).toEqual([
      ['', ['Dashboard']],
      ['Contenu du site', CONTENT],
      ['Dons et reçus', ['Dons', 'Donateurs', 'Dons mensuels à reprendre', 'Chèques et virements', 'Importer', 'Reçus', 'Rapports', 'Où va l’argent', 'Versements', 'Comptabilité']],
      ['Membres et lettres', ['Adhésions', 'Lettres d’information']],
      ['Réglages et équipe', ['Paiements', 'Utilisateurs', 'Courriels en attente', 'Paramètres']],
    ]);
    expect(groups('Éditeur').map(([label]) => label)).toEqual(['', 'Contenu du site', 'Dons et reçus', 'Membres et lettres']);
    expect(groups('Éditeur', ['offline-gifts'])).toContainEqual(['Dons et reçus', ['Donateurs', 'Chèques et virements']]);
    expect(menuFor('Admin').map((s) => s.label)).toEqual(groups('Admin').flatMap(([, labels]) => labels));
    expect(ADMIN_SECTIONS.filter((s) => s.menu !== null).length).toBe(menuFor('Admin').length);
    expect(menuFor('Admin').map((s) => s.area)).toEqual(['dashboard', 'pages', 'actions', 'campaigns', 'blog', 'partners', 'media', 'messages', 'donations', 'people', 'adoption', 'offline-gifts', 'imports', 'receipts', 'reports', 'transparency', 'payouts', 'accounting', 'memberships', 'letters', 'payments', 'users', 'outbox', 'settings']);
    for (const area of ['users', 'settings', 'payments', 'donations', 'adoption', 'imports', 'receipts', 'reports', 'payouts', 'accounting', 'outbox'] as const) expect(can('Éditeur', area)).toBe(false);
    expect(canOpenPath('Éditeur', '/admin/users/12/supprimer')).toBe(false);
    expect(canOpenPath('Éditeur', '/admin/courriels')).toBe(false);
    expect(canOpenPath('Éditeur', '/admin/usersx')).toBe(true);
    expect(canOpenPath('Éditeur', '/admin/pages/edit/home')).toBe(true);
    expect(canOpenPath('Éditeur', '/admin/adhesions')).toBe(true);
    expect(canOpenPath('Éditeur', '/admin/adhesions/12')).toBe(true);
    expect(canOpenPath('Éditeur', '/admin/adhesions/parametres')).toBe(false);
    expect(canOpenPath('Éditeur', '/admin/adhesions/parametres/types/nouveau')).toBe(false);
    expect(canOpenPath('Admin', '/admin/adhesions/parametres')).toBe(true);
    expect(can('Éditeur', 'membership-settings')).toBe(false);
    expect(canOpenPath('Éditeur', '/admin/lettres/abonnes')).toBe(true);
    expect(ADMIN_SECTIONS.every((s) => can('Admin', s.area))).toBe(true);
  });

  it('opens gifts received by hand to Éditeurs only when an Admin’s setting grants it (ADR 028)', () => {
    expect(can('Éditeur', 'offline-gifts')).toBe(false);
    expect(canOpenPath('Éditeur', '/admin/cheques/remises/1')).toBe(false);
    expect(dependsOnGrant('Éditeur', 'offline-gifts')).toBe(true);
    expect(dependsOnGrant('Admin', 'offline-gifts')).toBe(false);
    expect(dependsOnGrant('Éditeur', 'donations')).toBe(false);
    expect(can('Éditeur', 'offline-gifts', ['offline-gifts'])).toBe(true);
    expect(canOpenPath('Éditeur', '/admin/cheques/remises/1', ['offline-gifts'])).toBe(true);
    expect(menuFor('Éditeur', ['offline-gifts']).map((s) => s.label)).toContain('Chèques et virements');
    // A grant opens only a section that allows it.
    expect(can('Éditeur', 'donations', ['donations'])).toBe(false);
  });
});

describe('form schemas', () => {
  it('wants passwords of 12 to 128 characters, twice the same', () => {
    const ok = { name: 'A', email: 'a@example.org', password: 'x'.repeat(12), confirm: 'x'.repeat(12) };
    expect(setupSchema.safeParse(ok).success).toBe(true);
    expect(setupSchema.safeParse({ ...ok, password: 'x'.repeat(128), confirm: 'x'.repeat(128) }).success).toBe(true);
    expect(setupSchema.safeParse({ ...ok, password: 'x'.repeat(11), confirm: 'x'.repeat(11) }).error?.issues[0].message).toBe('Le mot de passe doit contenir au moins 12 caractères.');
    expect(setupSchema.safeParse({ ...ok, password: 'x'.repeat(129), confirm: 'x'.repeat(129) }).error?.issues[0].message).toBe('Le mot de passe ne peut pas dépasser 128 caractères.');
    expect(changePasswordSchema.safeParse({ current: 'a', password: 'x'.repeat(12), confirm: 'y'.repeat(12) }).error?.issues[0].message).toBe('Les deux mots de passe ne correspondent pas.');
  });

  it('lowercases emails and defaults the role to Éditeur', () => {
    expect(loginSchema.parse({ email: ' A@Example.ORG ', password: 'p' }).email).toBe('a@example.org');
    expect(userSchema.parse({ name: 'Éric', email: 'e@example.org' }).role).toBe('Éditeur');
    expect(userSchema.safeParse({ name: '', email: 'e', role: 'Chef' }).error?.issues.map((i) => i.message)).toEqual(['Le nom est obligatoire.', "L'email n'est pas valide.", 'Choisissez un rôle.']);
  });
});
