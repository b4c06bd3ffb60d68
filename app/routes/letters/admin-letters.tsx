import { data, Form, Link, redirect } from 'react-router';
import type { Route } from './+types/admin-letters';
import { LETTER_STATE_LABELS } from '~/domain/letters/letter';
import { createLetter, listLetters, postChoices, versionsFromPost } from '~/domain/letters/letters.server';
import { db } from '~/lib/runtime.server';
import { actorOf, requireUser } from '~/routes/admin/auth.server';
import { inputClass, Notice, primaryButton, secondaryButton } from '~/ui/admin/Field';
import { ScrollRegion } from '~/ui/admin/ScrollRegion';

/** /admin/lettres (Admin and Éditeur): the letters, and where to start one (ADR 022). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context, { area: 'letters' });
  const letters = await listLetters(db());
  return {
    isAdmin: user.role === 'Admin',
    posts: await postChoices(db()),
    letters: letters.map((l) => ({ id: l.id, subject: l.versions.fr.subject, status: l.status, createdAt: l.createdAt, scheduledAt: l.scheduledAt, sent: l.counts.sent, total: Object.values(l.counts).reduce((a, b) => a + b, 0) })),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context, { area: 'letters' });
  const form = await request.formData();
  const postId = String(form.get('postId') ?? '');
  const versions = postId ? await versionsFromPost(db(), postId) : undefined;
  if (!versions) return data({ error: 'Choisissez un article publié.' }, { status: 400 });
  const id = await createLetter(db(), actorOf(user), versions, { language: '', source: '' }, postId);
  throw redirect(`/admin/lettres/${id}?ok=created`);
}

export const meta: Route.MetaFunction = () => [{ title: 'Lettres d’information | Administration' }, { name: 'robots', content: 'noindex' }];

const dateTime = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'short', timeStyle: 'short', timeZone: 'Europe/Paris' });

export default function LettersScreen({ loaderData, actionData }: Route.ComponentProps) {
  const { letters, posts, isAdmin } = loaderData;
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold text-gray-900">Lettres d’information</h1>
        <div className="flex flex-wrap gap-3">
          <Link to="/admin/lettres/nouvelle" className={primaryButton}>Écrire une lettre</Link>
          <Link to="/admin/lettres/abonnes" className={secondaryButton}>Abonnés</Link>
          {isAdmin && <Link to="/admin/lettres/rythme" className={secondaryButton}>Rythme d’envoi</Link>}
          {isAdmin && <Link to="/admin/lettres/expediteur" className={secondaryButton}>Expéditeur</Link>}
          {isAdmin && <Link to="/admin/lettres/dns" className={secondaryButton}>Vérifier le domaine d’envoi</Link>}
        </div>
      </div>
      {actionData?.error && <Notice tone="error" title={actionData.error} />}
      {posts.length > 0 && (
        <Form method="post" className="flex flex-wrap items-end gap-3 rounded-lg border border-gray-200 bg-white p-4">
          <div className="min-w-0 flex-1">
            <label htmlFor="postId" className="block text-sm font-medium text-gray-900">Faire une lettre d’un article publié</label>
            <select id="postId" name="postId" className={inputClass(false)} required>
              {posts.map((p) => <option key={p.id} value={p.id}>{p.title}</option>)}
            </select>
          </div>
          <button type="submit" className={secondaryButton}>Créer la lettre</button>
        </Form>
      )}
      {letters.length === 0 ? (
        <p className="text-gray-700">Aucune lettre pour l’instant.</p>
      ) : (
        <ScrollRegion label="Lettres" className="rounded-lg border border-gray-200 bg-white">
          <table className="min-w-full text-left text-sm" data-testid="letters">
            <caption className="sr-only">Lettres</caption>
            <thead className="bg-gray-50 text-gray-900">
              <tr>
                <th scope="col" className="px-4 py-3">Objet</th>
                <th scope="col" className="px-4 py-3">État</th>
                <th scope="col" className="px-4 py-3">Envoyés</th>
                <th scope="col" className="px-4 py-3">Créée le</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-gray-200">
              {letters.map((l) => (
                <tr key={l.id}>
                  <td className="px-4 py-3 break-words"><Link to={`/admin/lettres/${l.id}`} className="font-semibold text-brand-800 underline">{l.subject}</Link></td>
                  <td className="px-4 py-3">{LETTER_STATE_LABELS[l.status]}{l.scheduledAt ? ` (${dateTime.format(new Date(l.scheduledAt))})` : ''}</td>
                  <td className="px-4 py-3 whitespace-nowrap">{l.sent} / {l.total}</td>
                  <td className="px-4 py-3 whitespace-nowrap">{dateTime.format(new Date(l.createdAt))}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
    </div>
  );
}
