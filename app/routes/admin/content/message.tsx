import { useEffect } from 'react';
import { Link, data, useFetcher, useNavigate, useParams } from 'react-router';
import type { Route } from './+types/message';
import { messageSender, readMessage } from '~/domain/messages/messages.server';
import { requireUser } from '~/routes/admin/auth.server';
import { db } from '~/lib/runtime.server';
import { primaryButton, secondaryButton } from '~/ui/admin/Field';
import { deleteFetcherKey } from '~/ui/admin/ConfirmDelete';
import { DeleteControl } from '~/ui/admin/content';

const LIST = '/admin/messages';

/** A message in full; opening it marks it read. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireUser(request, context, { area: 'messages' });
  const m = await readMessage(db(), params.id);
  if (!m) return data({ message: null }, { status: 404 });
  return { message: { ...m, sender: messageSender(m) } };
}

export const meta: Route.MetaFunction = () => [{ title: 'Message | Administration' }, { name: 'robots', content: 'noindex' }];

const when = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'full', timeStyle: 'short', timeZone: 'Europe/Paris' });
const LANG_NAMES: Record<string, string> = { fr: 'français', en: 'anglais', es: 'espagnol' };

export default function Message({ loaderData }: Route.ComponentProps) {
  const { message } = loaderData;
  const navigate = useNavigate();
  const deleteHref = `${LIST}/${useParams().id}/supprimer`;
  // Deleted from this page: back to the list (this page then shows 'Message introuvable').
  const deleted = useFetcher<{ deleted: boolean }>({ key: deleteFetcherKey(deleteHref) }).data?.deleted;
  useEffect(() => {
    if (deleted) navigate(LIST);
  }, [deleted, navigate]);
  if (!message) {
    return (
      <div className="space-y-6">
        <h1 className="text-3xl font-bold text-gray-900">Message introuvable</h1>
        <Link to={LIST} className={primaryButton}>
          Retour aux messages
        </Link>
      </div>
    );
  }
  return (
    <article className="max-w-3xl space-y-6">
      <div>
        <h1 className="text-3xl font-bold text-gray-900">Message de {message.sender}</h1>
        <p className="mt-1 text-gray-700">Reçu le {when.format(new Date(message.createdAt))}, en {LANG_NAMES[message.language] ?? message.language}.</p>
      </div>
      <dl className="grid grid-cols-1 gap-2 rounded-xl border border-gray-200 bg-white p-4 shadow-sm wrap-anywhere sm:grid-cols-[8rem_minmax(0,1fr)]">
        <dt className="font-semibold text-gray-900">Prénom</dt>
        <dd>{message.firstName}</dd>
        <dt className="font-semibold text-gray-900">Nom</dt>
        <dd>{message.lastName}</dd>
        <dt className="font-semibold text-gray-900">Email</dt>
        <dd>
          <a href={`mailto:${message.email}`} className="text-brand-800 underline">
            {message.email}
          </a>
        </dd>
      </dl>
      <div className="whitespace-pre-wrap break-words rounded-xl border border-gray-200 bg-white p-4 text-gray-900 shadow-sm" data-testid="message-body">
        {message.message}
      </div>
      <div className="flex flex-wrap gap-3">
        <a href={`mailto:${message.email}?subject=${encodeURIComponent('Re: votre message')}`} className={primaryButton}>
          Répondre par email
        </a>
        <Link to={LIST} className={secondaryButton}>
          Retour aux messages
        </Link>
        <DeleteControl href={deleteHref} name={message.sender} what="Le message de" />
      </div>
    </article>
  );
}
