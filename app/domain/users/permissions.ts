/**
 * Who may open what in the back office: the one place that says it (each person signs in with
 * their own account and role, Admin or Éditeur). The menu, the guard of the admin layout and every screen read this table, so a
 * screen added later is covered by its path before it exists.
 *
 * Shared with the browser: no server imports here.
 */
export const ROLES = ['Admin', 'Éditeur'] as const;
export type Role = (typeof ROLES)[number];
export const DEFAULT_ROLE: Role = 'Éditeur';

export function isRole(value: unknown): value is Role {
  // Stryker disable next-line ConditionalExpression: includes() already refuses a non-string; the typeof is for the type guard
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

export type AdminArea =
  | 'dashboard'
  | 'pages'
  | 'actions'
  | 'campaigns'
  | 'blog'
  | 'partners'
  | 'media'
  | 'messages'
  | 'memberships'
  | 'membership-settings'
  | 'letters'
  | 'payments'
  | 'donations'
  | 'people'
  | 'adoption'
  | 'offline-gifts'
  | 'imports'
  | 'receipts'
  | 'reports'
  | 'payouts'
  | 'transparency'
  | 'accounting'
  | 'users'
  | 'outbox'
  | 'settings'
  | 'account';

/**
 * The side menu's groups, by what staff do (issue 44): the dashboard alone, the site's content,
 * gifts and what follows them, members and letters, then the settings and the team.
 */
export const MENU_GROUPS = {
  home: '',
  content: 'Contenu du site',
  giving: 'Dons et reçus',
  members: 'Membres et lettres',
  admin: 'Réglages et équipe',
} as const;
export type MenuGroup = keyof typeof MENU_GROUPS;

export interface AdminSection {
  area: AdminArea;
  /** The path prefix the section owns (the entry is highlighted when the current path starts with it). */
  path: string;
  label: string;
  roles: readonly Role[];
  /** The side menu's group it is shown in; null: not in the menu (the own-account screen is reached from the header instead). */
  menu: MenuGroup | null;
  /** Roles an Admin's setting may let in besides `roles` (the gate asks the setting: auth.server.ts). */
  grantable?: readonly Role[];
}

const EVERYONE: readonly Role[] = ROLES;
const ADMIN_ONLY: readonly Role[] = ['Admin'];

/** In menu order (the back office's side menu), each group's entries together. */
export const ADMIN_SECTIONS: readonly AdminSection[] = [
  { area: 'dashboard', path: '/admin/dashboard', label: 'Dashboard', roles: EVERYONE, menu: 'home' },
  { area: 'pages', path: '/admin/pages', label: 'Gestion des pages', roles: EVERYONE, menu: 'content' },
  { area: 'actions', path: '/admin/actions', label: 'Projets / Actions', roles: EVERYONE, menu: 'content' },
  { area: 'campaigns', path: '/admin/campaigns', label: 'Campagnes', roles: EVERYONE, menu: 'content' },
  { area: 'blog', path: '/admin/blog', label: 'Actualités / Blog', roles: EVERYONE, menu: 'content' },
  { area: 'partners', path: '/admin/partners', label: 'Partenaires', roles: EVERYONE, menu: 'content' },
  { area: 'media', path: '/admin/media', label: 'Médiathèque', roles: EVERYONE, menu: 'content' },
  { area: 'messages', path: '/admin/messages', label: 'Messages', roles: EVERYONE, menu: 'content' },
  // The settings tab before the register: the first section whose path matches wins (Admin only below /admin/adhesions/parametres).
  { area: 'membership-settings', path: '/admin/adhesions/parametres', label: 'Paramètres des adhésions', roles: ADMIN_ONLY, menu: null },
  // Éditeurs read the register without addresses (issue 32); every change is an Admin's.
  { area: 'memberships', path: '/admin/adhesions', label: 'Adhésions', roles: EVERYONE, menu: 'members' },
  { area: 'letters', path: '/admin/lettres', label: 'Lettres d’information', roles: EVERYONE, menu: 'members' },
  { area: 'donations', path: '/admin/donations', label: 'Dons', roles: ADMIN_ONLY, menu: 'giving' },
  // The donors register (issue 44, ADR 038): Éditeurs read it without addresses; merges are an Admin's.
  { area: 'people', path: '/admin/donateurs', label: 'Donateurs', roles: EVERYONE, menu: 'giving' },
  // The monthly donors a foundation arrives with, adopted from its payment account (ADR 037).
  { area: 'adoption', path: '/admin/dons/abonnements', label: 'Dons mensuels à reprendre', roles: ADMIN_ONLY, menu: 'giving' },
  // Gifts received by post or at the bank (ADR 028): Éditeurs too when an Admin allows it.
  { area: 'offline-gifts', path: '/admin/cheques', label: 'Chèques et virements', roles: ADMIN_ONLY, menu: 'giving', grantable: ['Éditeur'] },
  // Moving in from HelloAsso, GiveWP or a spreadsheet (ADR 036).
  { area: 'imports', path: '/admin/imports', label: 'Importer', roles: ADMIN_ONLY, menu: 'giving' },
  { area: 'receipts', path: '/admin/receipts', label: 'Reçus', roles: ADMIN_ONLY, menu: 'giving' },
  { area: 'reports', path: '/admin/rapports', label: 'Rapports', roles: ADMIN_ONLY, menu: 'giving' },
  // The figures of the public page "Où va votre argent", typed from the approved accounts (ADR 032).
  { area: 'transparency', path: '/admin/transparence', label: 'Où va l’argent', roles: ADMIN_ONLY, menu: 'giving' },
  // Before the accounting entry whose path holds it: the first section whose path matches wins.
  // What the providers kept and paid out to the bank, from their own ledgers (ADR 033).
  { area: 'payouts', path: '/admin/comptabilite/versements', label: 'Versements', roles: ADMIN_ONLY, menu: 'giving' },
  // The accountant's books: journal entries, FEC and CSV of a fiscal year, the chart of accounts (ADR 034).
  { area: 'accounting', path: '/admin/comptabilite', label: 'Comptabilité', roles: ADMIN_ONLY, menu: 'giving' },
  { area: 'payments', path: '/admin/payments', label: 'Paiements', roles: ADMIN_ONLY, menu: 'admin' },
  { area: 'users', path: '/admin/users', label: 'Utilisateurs', roles: ADMIN_ONLY, menu: 'admin' },
  { area: 'outbox', path: '/admin/courriels', label: 'Courriels en attente', roles: ADMIN_ONLY, menu: 'admin' },
  { area: 'settings', path: '/admin/settings', label: 'Paramètres', roles: ADMIN_ONLY, menu: 'admin' },
  { area: 'account', path: '/admin/mon-compte', label: 'Mon mot de passe', roles: EVERYONE, menu: null },
];

export function sectionOf(area: AdminArea): AdminSection {
  return ADMIN_SECTIONS.find((s) => s.area === area)!;
}

/** The section a path belongs to, by prefix (`/admin/users/12/edit` → users). */
export function sectionForPath(pathname: string): AdminSection | undefined {
  return ADMIN_SECTIONS.find((s) => pathname === s.path || pathname.startsWith(`${s.path}/`));
}

/** `granted`: the areas an Admin's setting opens to this role today (only a section's `grantable` roles take them). */
export function can(role: Role, area: AdminArea, granted: readonly AdminArea[] = []): boolean {
  const s = sectionOf(area);
  return s.roles.includes(role) || (Boolean(s.grantable?.includes(role)) && granted.includes(area));
}

/** Whether opening `area` as `role` depends on a setting (the gate then reads it). */
export function dependsOnGrant(role: Role, area: AdminArea): boolean {
  const s = sectionOf(area);
  return !s.roles.includes(role) && Boolean(s.grantable?.includes(role));
}

/**
 * Whether a role may open a path under /admin. Paths outside every section (an unknown admin
 * path, which answers 404) are open to any signed-in user.
 */
export function canOpenPath(role: Role, pathname: string, granted: readonly AdminArea[] = []): boolean {
  const section = sectionForPath(pathname);
  return section ? can(role, section.area, granted) : true;
}

/** The side menu's groups the role has entries in: the group's label ('' for the dashboard's) and its entries, in order. */
export function menuGroupsFor(role: Role, granted: readonly AdminArea[] = []): { group: MenuGroup; label: string; sections: AdminSection[] }[] {
  return (Object.keys(MENU_GROUPS) as MenuGroup[])
    .map((group) => ({ group, label: MENU_GROUPS[group], sections: ADMIN_SECTIONS.filter((s) => s.menu === group && can(role, s.area, granted)) }))
    .filter((g) => g.sections.length > 0);
}

/** The side menu's entries the role may open, group after group. */
export function menuFor(role: Role, granted: readonly AdminArea[] = []): AdminSection[] {
  return menuGroupsFor(role, granted).flatMap((g) => g.sections);
}
