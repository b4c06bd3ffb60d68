import { data, Form, Link } from 'react-router';
import type { Route } from './+types/admin-segments';
import { actorOf } from '~/routes/admin/auth.server';
import { lettersWaitingFor } from '~/domain/letters/audience.server';
import { centsToEuros, eurosToCents } from '~/domain/people/segments';
import { deleteSegment, listSegments, majorThreshold, ruleContext, segmentCounts, setMajorThreshold } from '~/domain/people/segments.server';
import { AdminTable } from '~/ui/admin/AdminTable';
import { Field, Notice, dangerButton, primaryButton, secondaryButton } from '~/ui/admin/Field';
import { PeopleTabs } from '~/ui/admin/people';
import { db, euros, formOf, peopleUser } from './admin.server';

/** The segments (ADR 040): the ready-made ones and the saved ones with how many records each holds today; the Admin creates, changes, deletes, exports and sets the major donors' threshold. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { admin } = await peopleUser(request, context);
  const segments = await listSegments(db());
  const counts = await segmentCounts(db(), segments, await ruleContext(db()));
  const threshold = await majorThreshold(db());
  return { admin, threshold: centsToEuros(threshold), thresholdText: euros(threshold), segments: segments.map((s) => ({ id: s.id, name: s.name, builtIn: s.builtIn, count: counts.get(s.id) ?? 0 })) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { user } = await peopleUser(request, context, { admin: true });
  const form = await formOf(request);
  if (form.intent === 'threshold') {
    const cents = eurosToCents(form.threshold ?? '');
    if (cents === null || cents < 100) return data({ error: 'Indiquez un seuil en euros d’au moins 1 €, par exemple 1000.', done: '' }, { status: 400 });
    await setMajorThreshold(db(), actorOf(user), cents);
    return { error: '', done: 'Seuil des grands donateurs enregistré.' };
  }
  const id = form.segment_id ?? '';
  const waiting = await lettersWaitingFor(db(), id);
  if (waiting.length) return data({ error: `Ce segment est le destinataire de lettres pas encore envoyées (${waiting.map((s) => `« ${s} »`).join(', ')}) : changez leur destinataire d’abord.`, done: '' }, { status: 409 });
  if (!(await deleteSegment(db(), actorOf(user), id))) return data({ error: 'Ce segment est introuvable ou ne peut pas être supprimé.', done: '' }, { status: 404 });
  return { error: '', done: 'Segment supprimé.' };
}

export const meta: Route.MetaFunction = () => [{ title: 'Segments | Donateurs | Administration' }, { name: 'robots', content: 'noindex' }];

export default function Segments({ loaderData, actionData }: Route.ComponentProps) {
  const { admin, segments, threshold, thresholdText } = loaderData;
  return (
    <div className="space-y-6">
      <h1 className="text-3xl font-bold text-gray-900">Segments</h1>
      <PeopleTabs admin={admin} />
      {actionData?.error && <Notice tone="error" title="Rien n’a changé">{actionData.error}</Notice>}
      {actionData?.done && <Notice tone="success" title={actionData.done} />}
      <p className="text-gray-700">Un segment est un filtre enregistré sur le registre : il sert de liste, de destinataire d’une lettre (ses personnes abonnées aux nouvelles seulement) et d’export. Ses membres sont calculés à chaque lecture, à la date du jour.</p>
      {admin && <Link to="/admin/donateurs/segments/nouveau" className={primaryButton}>Nouveau segment</Link>}
      <AdminTable caption="Segments" columns={['Segment', 'Fiches', 'Sorte']}>
        {segments.map((s) => (
          <tr key={s.id}>
            <td className="px-4 py-3 font-medium break-words">{s.name}</td>
            <td className="px-4 py-3">
              <Link to={`/admin/donateurs?segment=${s.id}`} className="underline" data-testid={`segment-count-${s.id}`}>{s.count}<span className="sr-only"> fiches du segment {s.name}</span></Link>
            </td>
            <td className="px-4 py-3">{s.builtIn ? 'Prêt à l’emploi' : 'Enregistré'}</td>
            <td className="px-4 py-3">
              {admin && (
                <div className="flex flex-wrap items-center gap-3">
                  <a href={`/admin/donateurs/segments/${s.id}/csv`} className="underline">Exporter (CSV)<span className="sr-only"> {s.name}</span></a>
                  {!s.builtIn && <Link to={`/admin/donateurs/segments/${s.id}`} className="underline">Modifier<span className="sr-only"> {s.name}</span></Link>}
                  {!s.builtIn && (
                    <Form method="post">
                      <input type="hidden" name="intent" value="delete" />
                      <input type="hidden" name="segment_id" value={s.id} />
                      <button type="submit" className={dangerButton}>Supprimer<span className="sr-only"> {s.name}</span></button>
                    </Form>
                  )}
                </div>
              )}
            </td>
          </tr>
        ))}
      </AdminTable>
      <section aria-labelledby="threshold-title" className="space-y-3 rounded-lg border border-gray-200 bg-white p-4">
        <h2 id="threshold-title" className="text-xl font-semibold text-gray-900">Grands donateurs</h2>
        <p className="text-gray-700">Le segment « Grands donateurs » réunit les fiches dont le total des dons atteint {thresholdText}.</p>
        {admin && (
          <Form method="post" className="flex flex-wrap items-end gap-3">
            <input type="hidden" name="intent" value="threshold" />
            <Field name="threshold" label="Seuil (en euros)" defaultValue={threshold} inputMode="decimal" required maxLength={15} />
            <button type="submit" className={secondaryButton}>Enregistrer le seuil</button>
          </Form>
        )}
      </section>
    </div>
  );
}
