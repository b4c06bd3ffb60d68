import { Form, data } from 'react-router';
import type { Route } from './+types/admin-reminders';
import { stepLabel } from '~/domain/membership/reminders';
import { markPosted, reminderLog } from '~/domain/membership/reminders.server';
import { actorOf, requireUser } from '~/routes/admin/auth.server';
import { runtime } from '~/lib/runtime.server';
import { AdminTable } from '~/ui/admin/AdminTable';
import { Notice, secondaryButton } from '~/ui/admin/Field';
import { MembershipTabs } from '~/ui/admin/membership';
import { useToast } from '~/ui/admin/hooks';
import { dayFr } from './format';

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, context, { area: 'memberships', role: 'Admin' });
  const log = await reminderLog(runtime().db);
  const row = (l: (typeof log)[number]) => ({ ...l, stepLabel: stepLabel(l.step), endsOn: dayFr(l.periodEnd), claimedOn: dayFr(l.claimedAt.slice(0, 10)) });
  return {
    toPost: log.filter((l) => l.channel === 'paper' && !l.sentAt).map(row),
    log: log.filter((l) => l.channel === 'email' || l.sentAt).map(row),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const me = await requireUser(request, context, { area: 'memberships', role: 'Admin' });
  const form = await request.formData();
  const step = Number(form.get('step'));
  const key = { membershipId: String(form.get('membershipId') ?? ''), periodEnd: String(form.get('periodEnd') ?? ''), step };
  if (!Number.isInteger(step) || !(await markPosted(runtime().db, actorOf(me), key))) {
    return data({ toast: { title: 'Rappel introuvable ou déjà posté', variant: 'destructive' as const } }, { status: 404 });
  }
  return { toast: { title: 'Rappel marqué comme posté', variant: 'success' as const } };
}

export const meta: Route.MetaFunction = () => [{ title: 'Rappels | Adhésions | Administration' }, { name: 'robots', content: 'noindex' }];

export default function RemindersScreen({ loaderData, actionData }: Route.ComponentProps) {
  const { toPost, log } = loaderData;
  useToast(actionData?.toast);
  return (
    <div className="space-y-6">
      <h1 className="text-3xl font-bold text-gray-900">Rappels de renouvellement</h1>
      <MembershipTabs admin />
      <p className="text-gray-700">
        Les rappels partent selon le calendrier des paramètres, une fois par membre et par étape, par e-mail dans la langue du membre. Les membres sans adresse e-mail sont listés ici pour un envoi postal.
      </p>
      {actionData?.toast && <Notice tone={actionData.toast.variant === 'destructive' ? 'error' : 'success'} title={actionData.toast.title} />}
      <section className="space-y-3">
        <h2 className="text-xl font-bold text-gray-900">À envoyer par courrier ({toPost.length})</h2>
        {toPost.length === 0 ? (
          <p className="text-gray-700">Aucun rappel papier en attente.</p>
        ) : (
          <AdminTable caption="Rappels à envoyer par courrier" columns={['N°', 'Nom', 'Adresse postale', 'Échéance', 'Étape']}>
            {toPost.map((l) => (
              <tr key={`${l.membershipId}-${l.periodEnd}-${l.step}`}>
                <td className="px-4 py-3 font-mono">{l.number}</td>
                <td className="px-4 py-3">{l.name}</td>
                <td className="px-4 py-3 break-words">{l.address || '—'}</td>
                <td className="px-4 py-3 whitespace-nowrap">{l.endsOn}</td>
                <td className="px-4 py-3">{l.stepLabel}</td>
                <td className="px-4 py-3">
                  <Form method="post">
                    <input type="hidden" name="membershipId" value={l.membershipId} />
                    <input type="hidden" name="periodEnd" value={l.periodEnd} />
                    <input type="hidden" name="step" value={l.step} />
                    <button type="submit" className={secondaryButton}>Marquer comme posté<span className="sr-only"> pour {l.name}</span></button>
                  </Form>
                </td>
              </tr>
            ))}
          </AdminTable>
        )}
      </section>
      <section className="space-y-3">
        <h2 className="text-xl font-bold text-gray-900">Journal des rappels</h2>
        {log.length === 0 ? (
          <p className="text-gray-700">Aucun rappel envoyé pour l’instant.</p>
        ) : (
          <AdminTable caption="Journal des rappels" columns={['N°', 'Nom', 'Échéance', 'Étape', 'Envoi', 'Date']}>
            {log.map((l) => (
              <tr key={`${l.membershipId}-${l.periodEnd}-${l.step}`}>
                <td className="px-4 py-3 font-mono">{l.number}</td>
                <td className="px-4 py-3">{l.name}</td>
                <td className="px-4 py-3 whitespace-nowrap">{l.endsOn}</td>
                <td className="px-4 py-3">{l.stepLabel}</td>
                <td className="px-4 py-3">{l.channel === 'email' ? (l.sentAt ? 'E-mail envoyé' : 'E-mail en cours') : 'Courrier posté'}</td>
                <td className="px-4 py-3 whitespace-nowrap">{l.claimedOn}</td>
                <td className="px-4 py-3" />
              </tr>
            ))}
          </AdminTable>
        )}
      </section>
    </div>
  );
}
