import { Link } from 'react-router';
import { AdminTable } from '~/ui/admin/AdminTable';
import type { Route } from './+types/messages';
import { listQuery } from '~/domain/content/forms';
import { countUnreadMessages, listMessagesPage, messageSender } from '~/domain/messages/messages.server';
import { requireUser } from '~/routes/admin/auth.server';
import { db } from '~/lib/runtime.server';
import { inputClass } from '~/ui/admin/Field';
import { DeleteControl, EmptyRow, ListSearch, Pagination, td } from '~/ui/admin/content';

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, context, { area: 'messages' });
  const url = new URL(request.url);
  const unread = url.searchParams.get('filtre') === 'non-lus';
  const [list, unreadCount] = await Promise.all([listMessagesPage(db(), { ...listQuery(url), unread }), countUnreadMessages(db())]);
  return {
    unread,
    unreadCount,
    list: { ...list, items: list.items.map((m) => ({ ...m, sender: messageSender(m), preview: m.message.slice(0, 140) })) },
  };
}

export const meta: Route.MetaFunction = () => [{ title: 'Messages | Administration' }, { name: 'robots', content: 'noindex' }];

const when = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Europe/Paris' });

export default function Messages({ loaderData }: Route.ComponentProps) {
  const { list, unread, unreadCount } = loaderData;
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-3xl font-bold text-gray-900">Messages</h1>
        <p className="mt-1 text-gray-700" data-testid="unread-count">
          {unreadCount === 0 ? 'Aucun message non lu.' : `${unreadCount} message${unreadCount > 1 ? 's' : ''} non lu${unreadCount > 1 ? 's' : ''}.`}
        </p>
      </div>
      <ListSearch list={list} label="Rechercher un message" placeholder="Nom, email, texte…">
        <div>
          <label htmlFor="filtre" className="block text-sm font-medium text-gray-900">
            Afficher
          </label>
          <select id="filtre" name="filtre" defaultValue={unread ? 'non-lus' : ''} className={inputClass(false)}>
            <option value="">Tous les messages</option>
            <option value="non-lus">Non lus seulement</option>
          </select>
        </div>
      </ListSearch>
      <AdminTable caption="Messages du formulaire de contact, les plus récents d'abord" columns={['Reçu le', 'De', 'Message']}>
        {list.items.length === 0 && <EmptyRow colSpan={4}>Aucun message.</EmptyRow>}
        {list.items.map((m) => (
          <tr key={m.id} data-testid="message-row" data-unread={m.readAt ? undefined : 'true'} className={m.readAt ? '' : 'bg-brand-50'}>
            <td className={`${td} whitespace-nowrap`}>{when.format(new Date(m.createdAt))}</td>
            <td className={td}>
              <span className={m.readAt ? 'text-gray-900' : 'font-bold text-gray-900'}>{m.sender}</span>
              {!m.readAt && <span className="ml-2 rounded-full bg-brand-700 px-2 py-0.5 text-xs font-semibold text-white">Non lu</span>}
              <br />
              <span className="text-sm text-gray-700">{m.email}</span>
            </td>
            <td className={`${td} max-w-md text-gray-800`}>
              {m.preview}
              {m.message.length > m.preview.length ? '…' : ''}
            </td>
            <td className={td}>
              <div className="flex justify-end gap-2">
                <Link to={`/admin/messages/${m.id}`} className="inline-flex min-h-11 items-center justify-center rounded-md border border-gray-300 bg-white px-5 py-2.5 font-semibold text-gray-900 hover:bg-gray-50">
                  Lire<span className="sr-only"> le message de {m.sender}</span>
                </Link>
                <DeleteControl href={`/admin/messages/${m.id}/supprimer`} name={m.sender} what="Le message de" />
              </div>
            </td>
          </tr>
        ))}
      </AdminTable>
      <Pagination list={list} extra={unread ? { filtre: 'non-lus' } : {}} />
    </div>
  );
}
