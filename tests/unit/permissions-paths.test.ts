import { describe, expect, it } from 'vitest';
import { canOpenPath, isRole, sectionForPath, sectionOf } from '~/domain/users/permissions';

/** The back office's addresses and who may open them, spelt out (mutation testing, ADR 011). */
describe('admin sections by path', () => {
  it('finds the section of each admin address, and of the pages below it', () => {
    const expected = {
      '/admin/dashboard': 'dashboard',
      '/admin/pages': 'pages',
      '/admin/actions': 'actions',
      '/admin/blog': 'blog',
      '/admin/partners': 'partners',
      '/admin/media': 'media',
      '/admin/messages': 'messages',
      '/admin/payments': 'payments',
      '/admin/donations': 'donations',
      '/admin/dons/abonnements': 'adoption',
      '/admin/users': 'users',
      '/admin/settings': 'settings',
      '/admin/mon-compte': 'account',
    };
    for (const [path, area] of Object.entries(expected)) {
      expect(sectionForPath(path)?.area, path).toBe(area);
      expect(sectionForPath(`${path}/12/modifier`)?.area, `${path}/…`).toBe(area);
      expect(sectionForPath(`${path}-bis`), `${path}-bis`).toBeUndefined();
    }
    expect(sectionForPath('/admin')).toBeUndefined();
    expect(sectionForPath('/')).toBeUndefined();
  });

  it('refuses an Éditeur the Admin-only section itself, not only the pages below it', () => {
    for (const path of ['/admin/users', '/admin/payments', '/admin/donations', '/admin/settings']) {
      expect(canOpenPath('Éditeur', path), path).toBe(false);
      expect(canOpenPath('Admin', path), path).toBe(true);
    }
  });

  it('keeps the membership settings tab for Admins, below the register Éditeurs read', () => {
    expect(sectionOf('membership-settings')).toMatchObject({ path: '/admin/adhesions/parametres', label: 'Paramètres des adhésions', menu: null, roles: ['Admin'] });
    expect(sectionOf('memberships')).toMatchObject({ path: '/admin/adhesions', label: 'Adhésions', menu: 'members', roles: ['Admin', 'Éditeur'] });
    expect(sectionForPath('/admin/adhesions/parametres/types/1')?.area).toBe('membership-settings');
    expect(sectionForPath('/admin/adhesions/assemblee')?.area).toBe('memberships');
  });

  it('names the own-account screen, reached from the header rather than the menu', () => {
    expect(sectionOf('account')).toMatchObject({ path: '/admin/mon-compte', label: 'Mon mot de passe', menu: null, roles: ['Admin', 'Éditeur'] });
  });

  it('knows only the two roles', () => {
    expect(isRole('Admin')).toBe(true);
    expect(isRole('Éditeur')).toBe(true);
    expect(isRole('Superadmin')).toBe(false);
    expect(isRole('admin')).toBe(false);
    expect(isRole('')).toBe(false);
    expect(isRole(undefined)).toBe(false);
    expect(isRole(['Admin'])).toBe(false);
  });
});
