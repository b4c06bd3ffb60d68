import { Link } from 'react-router';
import type { Route } from './+types/admin-duplicates';
import { namesOf, suggestedPairs } from '~/domain/people/duplicates.server';
import { REASON_LABELS } from '~/domain/people/rules';
import { AdminTable } from '~/ui/admin/AdminTable';
import { PeopleTabs } from '~/ui/admin/people';
import { db, peopleUser } from './admin.server';

/** The pairs of records that look like one person (Admin): reviewed side by side, then merged or dismissed. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await peopleUser(request, context, { admin: true });
  const pairs = (await suggestedPairs(db())).slice(0, 200);
  const names = await namesOf(db(), pairs.flatMap((p) => [p.a, p.b]));
  return { pairs: pairs.map((p) => ({ a: p.a, b: p.b, aName: names.get(p.a) ?? p.a, bName: names.get(p.b) ?? p.b, reasons: p.reasons.map((r) => REASON_LABELS[r]).join(', ') })) };
}

export const meta: Route.MetaFunction = () => [{ title: 'Doublons | Donateurs | Administration' }, { name: 'robots', content: 'noindex' }];

export default function Duplicates({ loaderData }: Route.ComponentProps) {
  const { pairs } = loaderData;
  return (
    <div className="space-y-6">
      <h1 className="text-3xl font-bold text-gray-900">Doublons possibles</h1>
      <PeopleTabs admin />
      <p className="text-gray-700">Deux fiches qui partagent un nom et un code postal, ou un téléphone. Une adresse e-mail écrite en majuscules ou en minuscules est déjà une seule fiche.</p>
      {pairs.length === 0 ? (
        <p className="text-gray-700" role="status">Aucun doublon à examiner.</p>
      ) : (
        <AdminTable caption="Doublons possibles" columns={['Première fiche', 'Seconde fiche', 'Pourquoi']}>
          {pairs.map((p) => (
            <tr key={`${p.a}|${p.b}`}>
              <td className="px-4 py-3 break-all">{p.aName}</td>
              <td className="px-4 py-3 break-all">{p.bName}</td>
              <td className="px-4 py-3">{p.reasons}</td>
              <td className="px-4 py-3"><Link to={`/admin/donateurs/doublons/${p.a}/${p.b}`} className="underline">Comparer<span className="sr-only"> {p.aName} et {p.bName}</span></Link></td>
            </tr>
          ))}
        </AdminTable>
      )}
    </div>
  );
}
