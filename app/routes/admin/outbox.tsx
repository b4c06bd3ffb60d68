import type { Route } from './+types/outbox';
import { requireUser } from '~/routes/admin/auth.server';
import { pendingMails } from '~/lib/mail.server';
import { db, runtime } from '~/lib/runtime.server';

/**
 * "Courriels en attente" (Admin only): mails that no SMTP server took (none configured, or it
 * refused them). Their links are single-use secrets, so they are read here and never in the log.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, context, { area: 'outbox' });
  return { mails: await pendingMails(db()), smtp: Boolean(runtime().env.SMTP_URL) };
}

export const meta: Route.MetaFunction = () => [{ title: 'Courriels en attente | Administration' }, { name: 'robots', content: 'noindex' }];

const when = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Europe/Paris' });

export default function Outbox({ loaderData }: Route.ComponentProps) {
  const { mails, smtp } = loaderData;
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-3xl font-bold text-gray-900">Courriels en attente</h1>
        <p className="mt-1 text-gray-700">
          {smtp
            ? 'Courriels que le serveur SMTP a refusés ou n’a pas pu recevoir.'
            : 'Aucun serveur d’envoi (SMTP_URL) n’est configuré : les courriels restent ici. Transmettez vous-même les liens à leurs destinataires.'}
        </p>
      </div>
      {mails.length === 0 ? (
        <p className="text-gray-700">Aucun courriel en attente.</p>
      ) : (
        <ol className="space-y-4" data-testid="outbox">
          {mails.map((m) => (
            <li key={m.id}>
              <article aria-labelledby={`mail-${m.id}`} className="rounded-xl border border-gray-200 bg-white p-5 shadow-sm">
                <h2 id={`mail-${m.id}`} className="text-lg font-semibold text-gray-900">
                  {m.subject}
                </h2>
                <p className="text-sm text-gray-700">
                  À {m.to} — {when.format(new Date(m.createdAt))}
                  {m.error ? ` — refusé : ${m.error}` : ''}
                </p>
                <pre className="mt-3 whitespace-pre-wrap break-words font-sans text-gray-900">{m.text}</pre>
              </article>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
