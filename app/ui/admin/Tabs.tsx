import { NavLink } from 'react-router';

export interface Tab {
  to: string;
  label: string;
  end: boolean;
}

/** An admin area's tabs (the membership screens', the donors register's): one link each, the current one marked. */
export function Tabs({ label, tabs }: { label: string; tabs: Tab[] }) {
  return (
    <nav aria-label={label} className="flex flex-wrap gap-2 border-b border-gray-200 pb-2">
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
