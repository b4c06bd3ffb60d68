import { Tabs } from './Tabs';
import type { MembershipState } from '~/domain/membership/status';

/** The membership screens' tabs: the register, the general assembly, and (Admin) the settings. */
export function MembershipTabs({ admin }: { admin: boolean }) {
  const tabs = [
    { to: '/admin/adhesions', label: 'Registre', end: true },
    { to: '/admin/adhesions/assemblee', label: 'Assemblée générale', end: false },
    ...(admin
      ? [
          { to: '/admin/adhesions/rappels', label: 'Rappels', end: false },
          { to: '/admin/adhesions/parametres', label: 'Paramètres', end: false },
        ]
      : []),
  ];
  return <Tabs label="Adhésions" tabs={tabs} />;
}

const BADGE: Record<MembershipState, string> = {
  pending: 'bg-gray-200 text-gray-900',
  active: 'bg-green-100 text-green-900',
  due_soon: 'bg-amber-100 text-amber-900',
  grace: 'bg-orange-100 text-orange-900',
  lapsed: 'bg-red-100 text-red-900',
  honorary: 'bg-blue-100 text-blue-900',
};

export function StateBadge({ state, label }: { state: MembershipState; label: string }) {
  return <span className={`inline-block rounded-full px-2.5 py-1 text-xs font-semibold whitespace-nowrap ${BADGE[state]}`}>{label}</span>;
}

/** A member's first cells in the register and the assembly's list: number, name, type, state. */
export function MemberCells({ m }: { m: { number: number; name: string; type: string; state: MembershipState; stateLabel: string } }) {
  return (
    <>
      <td className="px-4 py-3 font-mono">{m.number}</td>
      <td className="px-4 py-3">{m.name}</td>
      <td className="px-4 py-3">{m.type}</td>
      <td className="px-4 py-3">
        <StateBadge state={m.state} label={m.stateLabel} />
      </td>
    </>
  );
}
