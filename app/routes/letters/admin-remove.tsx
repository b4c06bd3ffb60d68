import { data, Form, redirect } from 'react-router';
import type { Route } from './+types/admin-remove';
import { leaves } from '~/domain/subscribers/consent';
import { leave } from '~/domain/subscribers/leave.server';
import { subscriberById } from '~/domain/subscribers/subscribers.server';
import { db } from '~/lib/runtime.server';
import { actorOf, requireUser } from '~/routes/admin/auth.server';
import { FormActions } from '~/ui/admin/Field';

/**
 * /admin/lettres/abonnes/:id/desabonner (Admin): takes an address off the news at its owner's
 * request (a call, a letter, a mail to the foundation), the same way every other door does
 * (`leave`: the list and every consent that fed it), audited. Only a new confirmed sign-up, or a new
 * consent given with a gift or a membership, brings it back.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireUser(request, context, { area: 'letters', role: 'Admin' });
  const s = await subscriberById(db(), params.id);
  if (!s || !leaves(s.status)) throw data('Aucun abonné à désabonner ici', { status: 404 });
  return { email: s.email };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const user = await requireUser(request, context, { area: 'letters', role: 'Admin' });
  const s = await subscriberById(db(), params.id);
  if (!s) throw data('Aucun abonné ici', { status: 404 });
  await leave(db(), s.email, 'admin', { actor: actorOf(user) });
  throw redirect('/admin/lettres/abonnes?status=unsubscribed', 303);
}

export const meta: Route.MetaFunction = () => [{ title: 'Désabonner une adresse | Administration' }, { name: 'robots', content: 'noindex' }];

export default function RemoveScreen({ loaderData }: Route.ComponentProps) {
  return (
    <div className="max-w-xl space-y-6">
      <h1 className="text-3xl font-bold text-gray-900">Désabonner une adresse</h1>
      <p className="break-words text-gray-700">
        <strong>{loaderData.email}</strong> ne recevra plus aucune lettre, dès maintenant. Son consentement donné avec un don ou une adhésion est retiré aussi ; seule une nouvelle inscription confirmée par son titulaire, ou un nouveau consentement, la fera revenir.
      </p>
      <Form method="post">
        <FormActions submitLabel="Désabonner" cancelTo="/admin/lettres/abonnes" />
      </Form>
    </div>
  );
}
