import { NavLink } from 'react-router';

/** The donors register's tabs: the list, the duplicates to review (Admin), the tags. */
export function PeopleTabs({ admin }: { admin: boolean }) {
  const tabs = [
    { to: '/admin/donateurs', label: 'Registre', end: true },
    ...(admin ? [{ to: '/admin/donateurs/doublons', label: 'Doublons', end: false }] : []),
    { to: '/admin/donateurs/etiquettes', label: 'Étiquettes', end: false },
  ];
  return (
    <nav aria-label="Donateurs" className="flex flex-wrap gap-2 border-b border-gray-200 pb-2">
      {tabs.map((t) => (
        <NavLink
          key={t.to}
          to={t.to}
          end={t.end}
          className={({ isActive }) => `inline-flex min-h-11 items-center rounded-md px-4 py-2 font-semibold ${isActive ? 'bg-brand-700 text-white' : 'text-gray-900 underline hover:bg-gray-100'}`}
        >
          {t.label}
        </NavLink>
      ))}
    </nav>
  );
}
