import { data, Form, redirect } from 'react-router';
import type { Route } from './+types/admin-lift';
import { LIFT_REASON_MAX } from '~/domain/subscribers/consent';
import { liftSuppression, subscriberById } from '~/domain/subscribers/subscribers.server';
import { db } from '~/lib/runtime.server';
import { actorOf, requireUser } from '~/routes/admin/auth.server';
import { FormActions, inputClass, Notice } from '~/ui/admin/Field';

/**
 * /admin/lettres/abonnes/:id/lever (Admin): lifts a suppression with a reason, audited. The address
 * becomes 'désabonné': its owner subscribes again (a new opt-in) to receive letters.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireUser(request, context, { area: 'letters', role: 'Admin' });
  const s = await subscriberById(db(), params.id);
  if (!s || s.status !== 'suppressed') throw data('Aucune adresse bloquée ici', { status: 404 });
  return { email: s.email, reason: s.suppressedReason };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const user = await requireUser(request, context, { area: 'letters', role: 'Admin' });
  const reason = String((await request.formData()).get('reason') ?? '');
  const r = await liftSuppression(db(), actorOf(user), params.id, reason);
  if (r === 'no_reason') return data({ error: 'Indiquez pourquoi le blocage est levé.' }, { status: 400 });
  if (r === 'not_suppressed') return data({ error: 'Cette adresse n’est plus bloquée.' }, { status: 409 });
  throw redirect('/admin/lettres/abonnes?status=unsubscribed', 303);
}

export const meta: Route.MetaFunction = () => [{ title: 'Lever un blocage | Administration' }, { name: 'robots', content: 'noindex' }];

export default function LiftScreen({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <div className="max-w-xl space-y-6">
      <h1 className="text-3xl font-bold text-gray-900">Lever un blocage</h1>
      <p className="break-words text-gray-700">
        <strong>{loaderData.email}</strong> est bloquée{loaderData.reason ? ` : ${loaderData.reason}` : ''}. Levé, le blocage laisse l’adresse désabonnée : son titulaire devra se réinscrire et confirmer pour recevoir les lettres.
      </p>
      {actionData?.error && <Notice tone="error" title={actionData.error} />}
      <Form method="post" className="space-y-4">
        <div>
          <label htmlFor="reason" className="block text-sm font-medium text-gray-900">Raison (gardée dans le journal)</label>
          <textarea id="reason" name="reason" rows={3} required maxLength={LIFT_REASON_MAX} className={inputClass(Boolean(actionData?.error))} />
        </div>
        <FormActions submitLabel="Lever le blocage" cancelTo="/admin/lettres/abonnes?status=suppressed" />
      </Form>
    </div>
  );
}
