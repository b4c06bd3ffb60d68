import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Form, Link, NavLink, useLocation } from 'react-router';
import { HOME_PATH, LOGOUT_PATH } from '~/domain/users/paths';
import { menuGroupsFor, sectionOf, type AdminArea, type Role } from '~/domain/users/permissions';

export interface ShellUser {
  name: string;
  role: Role;
  /** Areas an Admin's setting opens to this role (permissions.ts `grantable`). */
  granted?: readonly AdminArea[];
}

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `flex min-h-11 items-center rounded-md px-3 py-2 text-sm font-medium transition-colors ${
    isActive ? 'bg-brand-700 text-white' : 'text-gray-800 hover:bg-brand-50 hover:text-brand-800'
  }`;

/** The side menu: only what the role may open, in groups by what staff do, the entry owning the current path highlighted. */
function AdminNav({ role, granted, onNavigate }: { role: Role; granted?: readonly AdminArea[]; onNavigate?: () => void }) {
  return (
    <nav aria-label="Menu d'administration" className="space-y-4">
      {menuGroupsFor(role, granted).map((g) => {
        const labelId = `menu-group-${g.group}${onNavigate ? '-drawer' : ''}`;
        return (
          <div key={g.group}>
            {g.label && (
              <p id={labelId} className="px-3 pb-1 text-xs font-semibold tracking-wide text-gray-600 uppercase">
                {g.label}
              </p>
            )}
            <ul className="space-y-1" aria-labelledby={g.label ? labelId : undefined}>
              {g.sections.map((s) => (
                <li key={s.path}>
                  {/* An entry is active on its own path and every path below it. */}
                  <NavLink to={s.path} className={linkClass} onClick={onNavigate} data-testid={`menu-${s.area}`}>
                    {s.label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </div>
        );
      })}
    </nav>
  );
}

function Brand() {
  return (
    <Link to={HOME_PATH} className="block rounded-md px-3 py-2 text-lg font-bold text-brand-800">
      Fondation THV
    </Link>
  );
}

/** A slide-in drawer for small screens: a modal <dialog> (focus kept inside, Escape closes). */
function Drawer({ role, granted }: { role: Role; granted?: readonly AdminArea[] }) {
  const [open, setOpen] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  const location = useLocation();
  useEffect(() => setOpen(false), [location.pathname]);
  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        aria-expanded={open}
        aria-controls="admin-drawer"
        className="inline-flex min-h-11 items-center gap-2 rounded-md border border-gray-300 px-3 text-sm font-medium lg:hidden"
      >
        <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="2">
          <path d="M4 6h16M4 12h16M4 18h16" />
        </svg>
        Menu
      </button>
      <dialog
        id="admin-drawer"
        ref={dialog}
        aria-label="Menu d'administration"
        onClose={() => setOpen(false)}
        onClick={(e) => e.target === dialog.current && setOpen(false)}
        className="admin-drawer m-0 h-full max-h-none w-72 max-w-[85vw] overflow-y-auto bg-white p-4 shadow-xl backdrop:bg-black/40"
      >
        <div className="mb-4 flex items-center justify-between">
          <Brand />
          <button type="button" onClick={() => setOpen(false)} className="inline-flex h-11 w-11 items-center justify-center rounded-md text-2xl" aria-label="Fermer le menu">
            ×
          </button>
        </div>
        <AdminNav role={role} granted={granted} onNavigate={() => setOpen(false)} />
      </dialog>
    </>
  );
}

/** The back-office frame: side menu, header with greeting and sign-out, the page. */
export function AdminShell({ user, children }: { user: ShellUser; children: ReactNode }) {
  return (
    <div className="min-h-screen bg-gray-50 lg:flex">
      <a href="#main" className="sr-only z-50 rounded-md bg-white px-4 py-2 focus:not-sr-only focus:fixed focus:left-4 focus:top-4">
        Aller au contenu
      </a>
      <aside className="hidden w-64 shrink-0 border-r border-gray-200 bg-white p-4 lg:block">
        <div className="sticky top-4 space-y-4">
          <Brand />
          <AdminNav role={user.role} granted={user.granted} />
        </div>
      </aside>
      <div className="min-w-0 flex-1">
        <header className="border-b border-gray-200 bg-white">
          <div className="flex flex-wrap items-center justify-between gap-3 px-4 py-3 sm:px-6">
            <div className="flex items-center gap-3">
              <Drawer role={user.role} granted={user.granted} />
              <div>
                <p className="text-lg font-bold text-gray-900">Tableau de Bord Administrateur</p>
                <p className="text-sm text-gray-700" data-testid="greeting">
                  Bonjour, {user.name} <span className="ml-1 text-gray-500">({user.role})</span>
                </p>
              </div>
            </div>
            <div className="flex flex-wrap items-center gap-2">
              <a href="/" target="_blank" rel="noopener" className="inline-flex min-h-11 items-center rounded-md px-3 text-sm font-medium text-brand-800 underline">
                Voir le site<span className="sr-only"> (nouvel onglet)</span>
              </a>
              <Link to={sectionOf('account').path} className="inline-flex min-h-11 items-center rounded-md px-3 text-sm font-medium text-gray-800 underline">
                Mon mot de passe
              </Link>
              <Form method="post" action={LOGOUT_PATH}>
                <button type="submit" className="inline-flex min-h-11 items-center rounded-md border border-gray-300 px-4 text-sm font-semibold text-gray-900 hover:bg-gray-50">
                  Déconnexion
                </button>
              </Form>
            </div>
          </div>
        </header>
        <main id="main" tabIndex={-1} className="px-4 py-6 outline-none sm:px-6 lg:px-8">
          {children}
        </main>
      </div>
    </div>
  );
}
