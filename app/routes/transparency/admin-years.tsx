import { Form, Link, redirect } from 'react-router';
import type { Route } from './+types/admin-years';
import { FIRST_YEAR } from '~/domain/transparency/figures';
import { currentYear, listYears } from '~/domain/transparency/years.server';
import { dayFr } from '~/lib/paris';
import { runtime } from '~/lib/runtime.server';
import { requireUser } from '~/routes/admin/auth.server';
import { AdminTable } from '~/ui/admin/AdminTable';
import { inputClass, primaryButton, secondaryButton } from '~/ui/admin/Field';

/** The years of "Où va votre argent" (ADR 032): those saved, and a way to type another; `?annee=` opens that year. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, context, { area: 'transparency' });
  const asked = new URL(request.url).searchParams.get('annee');
  const thisYear = currentYear();
  if (asked !== null && /^\d{4}$/.test(asked.trim()) && Number(asked) >= FIRST_YEAR && Number(asked) <= thisYear) throw redirect(`/admin/transparence/${Number(asked)}`);
  const years = await listYears(runtime().db);
  return { years: years.map((y) => ({ ...y, updatedOn: dayFr(y.updatedAt.slice(0, 10)) })), thisYear, askedWrong: asked !== null };
}

export const meta: Route.MetaFunction = () => [{ title: 'Où va l’argent | Administration' }, { name: 'robots', content: 'noindex' }];

export default function TransparencyYears({ loaderData }: Route.ComponentProps) {
  const { years, thisYear, askedWrong } = loaderData;
  const saved = new Set(years.map((y) => y.year));
  const suggested = [thisYear - 1, thisYear].filter((y) => !saved.has(y));
  return (
    <div className="max-w-4xl space-y-6">
      <h1 className="text-3xl font-bold text-gray-900">Où va l’argent</h1>
      <p className="text-gray-700">
        Les ressources et leur emploi de chaque année, saisis d’après les comptes approuvés, pour la page publique{' '}
        <a href="/ou-va-votre-argent" className="underline">Où va votre argent</a> et son résumé PDF. Une année n’y paraît qu’une fois publiée ; l’année en cours y montre aussi les dons et cotisations
        enregistrés à ce jour.
      </p>
      {years.length === 0 ? (
        <p className="text-gray-700">Aucune année saisie pour l’instant.</p>
      ) : (
        <AdminTable caption="Années saisies" columns={['Année', 'État', 'Dernière modification']}>
          {years.map((y) => (
            <tr key={y.year}>
              <td className="px-4 py-3 font-semibold">{y.year}</td>
              <td className="px-4 py-3">{y.published ? 'Publiée' : 'Non publiée'}</td>
              <td className="px-4 py-3 whitespace-nowrap">{y.updatedOn}</td>
              <td className="px-4 py-3">
                <Link to={`/admin/transparence/${y.year}`} className="underline">Modifier<span className="sr-only"> l’année {y.year}</span></Link>
              </td>
            </tr>
          ))}
        </AdminTable>
      )}
      <section className="space-y-3 rounded-lg border border-gray-200 bg-white p-6">
        <h2 className="text-xl font-bold text-gray-900">Saisir une année</h2>
        {suggested.length > 0 && (
          <p className="flex flex-wrap gap-3">
            {suggested.map((y) => (
              <Link key={y} to={`/admin/transparence/${y}`} className={secondaryButton}>Saisir {y}</Link>
            ))}
          </p>
        )}
        <Form method="get" className="flex flex-wrap items-end gap-3">
          <div>
            <label htmlFor="annee" className="block text-sm font-medium text-gray-900">Année</label>
            <input id="annee" name="annee" inputMode="numeric" maxLength={4} required className={`${inputClass(askedWrong)} w-32`} aria-invalid={askedWrong || undefined} aria-describedby={askedWrong ? 'annee-error' : undefined} />
          </div>
          <button type="submit" className={primaryButton}>Ouvrir</button>
        </Form>
        {askedWrong && <p id="annee-error" className="text-sm font-medium text-red-700">Une année de {FIRST_YEAR} à {thisYear}.</p>}
      </section>
    </div>
  );
}
