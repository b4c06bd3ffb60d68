import { Tabs } from './Tabs';

/** The donors register's tabs: the list, the duplicates to review (Admin), the segments, the tags. */
export function PeopleTabs({ admin }: { admin: boolean }) {
  const tabs = [
    { to: '/admin/donateurs', label: 'Registre', end: true },
    ...(admin ? [{ to: '/admin/donateurs/doublons', label: 'Doublons', end: false }] : []),
    { to: '/admin/donateurs/segments', label: 'Segments', end: false },
    { to: '/admin/donateurs/etiquettes', label: 'Étiquettes', end: false },
  ];
  return <Tabs label="Donateurs" tabs={tabs} />;
}
