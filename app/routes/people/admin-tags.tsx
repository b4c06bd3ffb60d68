import { data, Form, Link } from 'react-router';
import type { Route } from './+types/admin-tags';
import { actorOf } from '~/routes/admin/auth.server';
import { listTags, mergeTags, renameTag } from '~/domain/people/notes.server';
import { TAG_MAX } from '~/domain/people/notes';
import { AdminTable } from '~/ui/admin/AdminTable';
import { inputClass, Notice, secondaryButton } from '~/ui/admin/Field';
import { PeopleTabs } from '~/ui/admin/people';
import { db, formOf, peopleUser } from './admin.server';

/** The tags: how many records carry each; renamed or merged (Admin). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { admin } = await peopleUser(request, context);
  return { admin, tags: await listTags(db()) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { user } = await peopleUser(request, context, { admin: true });
  const form = await formOf(request);
  const r = form.intent === 'merge' ? await mergeTags(db(), actorOf(user), form.tag_id ?? '', form.into ?? '') : await renameTag(db(), actorOf(user), form.tag_id ?? '', form.name ?? '');
  if (!r.ok) return data({ error: r.error, done: '' }, { status: 400 });
  return { error: '', done: form.intent === 'merge' ? 'Étiquettes fusionnées.' : 'Étiquette renommée.' };
}

export const meta: Route.MetaFunction = () => [{ title: 'Étiquettes | Donateurs | Administration' }, { name: 'robots', content: 'noindex' }];

export default function Tags({ loaderData, actionData }: Route.ComponentProps) {
  const { admin, tags } = loaderData;
  return (
    <div className="space-y-6">
      <h1 className="text-3xl font-bold text-gray-900">Étiquettes</h1>
      <PeopleTabs admin={admin} />
      {actionData?.error && <Notice tone="error" title="Rien n’a changé">{actionData.error}</Notice>}
      {actionData?.done && <Notice tone="success" title={actionData.done} />}
      <p className="text-gray-700">Une étiquette se crée en l’ajoutant sur une fiche.</p>
      {tags.length === 0 ? (
        <p className="text-gray-700">Aucune étiquette.</p>
      ) : (
        <AdminTable caption="Étiquettes" columns={['Étiquette', 'Fiches', ...(admin ? ['Renommer', 'Fusionner dans'] : [])]}>
          {tags.map((t) => (
            <tr key={t.id}>
              <td className="px-4 py-3 font-medium">{t.name}</td>
              <td className="px-4 py-3"><Link to={`/admin/donateurs?etiquette=${t.id}&fiches=toutes`} className="underline">{t.count}<span className="sr-only"> fiches portant {t.name}</span></Link></td>
              {admin && (
                <td className="px-4 py-3">
                  <Form method="post" className="flex flex-wrap gap-2">
                    <input type="hidden" name="intent" value="rename" />
                    <input type="hidden" name="tag_id" value={t.id} />
                    <label htmlFor={`name-${t.id}`} className="sr-only">Nouveau nom de {t.name}</label>
                    <input id={`name-${t.id}`} name="name" defaultValue={t.name} maxLength={TAG_MAX} required className={inputClass(false)} />
                    <button type="submit" className={secondaryButton}>Renommer</button>
                  </Form>
                </td>
              )}
              {admin && (
                <td className="px-4 py-3">
                  <Form method="post" className="flex flex-wrap gap-2">
                    <input type="hidden" name="intent" value="merge" />
                    <input type="hidden" name="tag_id" value={t.id} />
                    <label htmlFor={`into-${t.id}`} className="sr-only">Fusionner {t.name} dans</label>
                    <select id={`into-${t.id}`} name="into" className={inputClass(false)} required defaultValue="">
                      <option value="" disabled>Choisir…</option>
                      {tags.filter((o) => o.id !== t.id).map((o) => <option key={o.id} value={o.id}>{o.name}</option>)}
                    </select>
                    <button type="submit" className={secondaryButton}>Fusionner</button>
                  </Form>
                </td>
              )}
              <td className="px-4 py-3" />
            </tr>
          ))}
        </AdminTable>
      )}
    </div>
  );
}
